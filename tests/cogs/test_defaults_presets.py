"""The server's default-rules panel's presets (cogs/uno/input/defaults.py) keep what the lobby's presets keep
(review8)."""

from __future__ import annotations

from bot.engine.cards import Mode
from bot.engine.options import KEPT_BY_PRESETS, PRESETS, Options, preset
from cogs.uno.input.defaults import with_preset


def test_a_preset_on_the_server_defaults_keeps_the_partner_game_as_the_lobby_does():
    # SPEC T1: ``teams`` says who plays with whom, not a rule; a lobby's preset keeps it (KEPT_BY_PRESETS), and a
    # server whose tables are partner games by default keeps them so when its manager picks a preset
    saved = Options(teams=True, target_score=300, stacking="any_draw")
    for name in PRESETS:
        options = with_preset(name, saved)
        assert all(getattr(options, kept) == getattr(saved, kept) for kept in KEPT_BY_PRESETS), name
        assert options.target_score == 300
        lobby = preset(name, Mode.CLASSIC, saved)
        assert options.teams == lobby.teams


def test_t6_every_catalogue_says_why_teams_and_elimination_are_refused():
    from bot.i18n import LANGUAGES, t

    english = t("error.teams_elimination", "en")
    assert all(t("error.teams_elimination", lang) for lang in LANGUAGES)
    assert all(t("error.teams_elimination", lang) != english for lang in LANGUAGES if lang != "en")
