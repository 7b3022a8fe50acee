"""Partner games (SPEC T) on screen: the lobby says who partners whom, the table tags each player's team and shows the
team totals, the summaries name the winning team; in every language."""

from __future__ import annotations

import pytest

from bot.adapter.results import settle
from bot.adapter.session import Status
from bot.adapter.session_view import SessionView
from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.events import RoundEnded
from bot.engine.options import Options
from bot.i18n import LANGUAGES, t
from cogs.uno import screens

from .sessions import flip_session

TEAMS = Options(teams=True)


def _lobby(players: int, options: Options) -> SessionView:
    session = flip_session(players)
    session.status, session.game, session.options = Status.LOBBY, None, options
    return SessionView.of(session)


def _field(sv: SessionView, lang: str) -> str | None:
    embed = screens.lobby_screen(sv, lang).embeds()[0]
    return next((f.value for f in embed.fields if f.name == t("lobby.teams", lang)), None)


# --- T1 Teams and seats ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_t1_the_lobby_says_who_partners_whom(lang: str) -> None:
    four = _field(_lobby(4, TEAMS), lang)
    assert four is not None
    lines = four.splitlines()
    assert len(lines) == 2
    assert t("team.members", lang, a="Player00", b="Player02") in lines[0]
    assert t("team.members", lang, a="Player01", b="Player03") in lines[1]
    assert t("team.name", lang, n=1) in lines[0] and t("team.name", lang, n=2) in lines[1]
    assert _field(_lobby(5, TEAMS), lang) == t("lobby.teams_pending", lang)
    assert _field(_lobby(4, Options()), lang) is None
    assert t("opt.line.teams.True", lang) in screens.options_text(_lobby(4, TEAMS), lang)
    footer = screens.lobby_screen(_lobby(5, TEAMS), lang).embeds()[0].footer.text
    assert footer == t("lobby.footer_teams", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_t1_t3_the_table_tags_each_team_and_shows_the_team_totals(lang: str) -> None:
    session = flip_session(6)
    session.mode, session.options = Mode.CLASSIC, TEAMS
    hands = ["R5 R6", "B5 B6", "G5 G6", "Y5 Y6", "R7 R8", "B7 B8"]
    session.game = build(Mode.CLASSIC, hands, "R3", scores=[10, 20, 30, 40, 50, 60], options=TEAMS)
    sv = SessionView.of(session)
    view = session.game.view(None)
    text = screens.players_text(sv, view, lang)
    lines = text.splitlines()
    assert t("team.name", lang, n=1) in lines[0] and t("team.name", lang, n=1) in lines[3]
    assert t("team.name", lang, n=3) in lines[5]
    assert lines[-1].count("**") == 6 and "50" in lines[-1] and "90" in lines[-1]  # team 1: 10 + 40; team 3: 30 + 60
    names = [seat.name for seat in screens.table_scene(sv, view, lang).seats]
    assert names[:2] == ["[1] Player00", "[2] Player01"] and names[3] == "[1] Player03"


# --- T2, T3 The summaries -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_t2_t3_the_summaries_name_the_winning_team(lang: str) -> None:
    session = flip_session(4)
    options = Options(teams=True, target_score=0)
    session.mode, session.options = Mode.CLASSIC, options
    session.game = game = build(Mode.CLASSIC, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, options=options)
    events = game.apply(game.legal_actions(2)[0])
    ended = next(e for e in events if isinstance(e, RoundEnded))
    sv = SessionView.of(session)
    pair = t("team.members", lang, a="Player00", b="Player02")
    summary = screens.round_summary(sv, ended, lang).embeds()[0].description or ""
    assert summary.splitlines()[0] == t("round.team", lang, n=1, players=pair)
    settle(session, 10.0)
    sv = SessionView.of(session)
    embed = screens.match_summary(sv, lang).embeds()[0]
    assert embed.title == t("match.title_team", lang, n=1, players=pair)
    ranked = (embed.fields[0].value or "").splitlines()
    assert "Player02" in ranked[0] and "Player00" in ranked[1]  # the winner, then the partner
    assert all(t("team.name", lang, n=1) in line for line in ranked[:2])


def test_without_teams_the_screens_name_no_team() -> None:
    session = flip_session(4)
    sv = SessionView.of(session)
    assert session.game is not None
    assert t("team.name", "en", n=1) not in screens.players_text(sv, session.game.view(None), "en")
    assert not any(seat.name.startswith("[") for seat in screens.table_scene(sv, session.game.view(None)).seats)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("mode", [Mode.CLASSIC, Mode.FLIP, Mode.FLEX])
def test_t1_uno_rules_explains_the_partner_game_at_a_partner_table_only(lang: str, mode: Mode) -> None:
    from cogs.uno.screens.rules_page import rules_embed

    explained = t("rules.teams", lang)
    on = [f.value for f in rules_embed(mode, lang, 500, TEAMS).fields]
    off = [f.value for f in rules_embed(mode, lang, 500, Options()).fields]
    assert (explained in on) == (mode is not Mode.FLEX) and explained not in off
    assert len(explained) <= 1024


def test_t1_the_lobby_offers_change_partners_at_a_partner_table_of_4_6_or_8() -> None:
    def verbs(sv: SessionView) -> list[str]:
        view = screens.lobby_screen(sv, "en").view
        assert view is not None
        return [str(getattr(item, "custom_id", "")) for item in view.children]

    assert any(":partners:" in v for v in verbs(_lobby(4, TEAMS)))
    assert not any(":partners:" in v for v in verbs(_lobby(5, TEAMS)))
    assert not any(":partners:" in v for v in verbs(_lobby(4, Options())))


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_t5_the_match_summary_does_not_name_a_partner_who_left_among_the_winners(lang: str) -> None:
    # review8: the records no longer credit a player who left with their team's win (SPEC T5); the summary's title
    # still said "Team 1 wins the match: Player00 and Player02!" with Player00 gone since the first round
    session = flip_session(4)
    options = Options(teams=True, target_score=0)
    session.mode, session.options = Mode.CLASSIC, options
    session.game = game = build(Mode.CLASSIC, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, options=options)
    session.game.remove_player(0)
    session.seats[0].left = True
    game.apply(game.legal_actions(2)[0])
    settle(session, 10.0)
    embed = screens.match_summary(SessionView.of(session), lang).embeds()[0]
    assert embed.title == t("match.title_team", lang, n=1, players="Player02")
