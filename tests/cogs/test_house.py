"""House rules in the Discord layer (SPEC H): option names, the lobby and /uno rules texts, who sees Jump in!."""

from __future__ import annotations

import unicodedata

import pytest

from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.i18n import LANGUAGES, t
from cogs.uno.cog import HOUSE_NAMES
from cogs.uno.screens import house

ALL = LANGUAGES
EVERY_RULE = Options(
    stacking="any_draw",
    draw_to_match=True,
    force_play=True,
    seven_zero=True,
    jump_in=True,
    number_finish=True,
    stack_deflect=True,
    multi_play=True,
    elimination=300,
)


@pytest.mark.parametrize("lang", ALL)
def test_the_house_rule_option_names_are_valid_and_distinct(lang: str) -> None:
    names = [t(str(name.extras["key"]), lang) for name in HOUSE_NAMES.values()]
    assert len(set(names)) == len(names)
    for name in names:
        assert 1 <= len(name) <= 32 and name == name.lower(), name
        assert all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name), name
    if lang == "en":
        assert names == list(HOUSE_NAMES)  # the English names are the parameters' own


@pytest.mark.parametrize("lang", ALL)
def test_every_house_rule_has_a_lobby_line_and_an_explanation_that_fit(lang: str) -> None:
    lines = house.option_lines(EVERY_RULE, lang)
    assert len(lines) == 9 and len("\n".join(lines)) <= 1024 and "300" in lines[-1]
    explained = house.rules_lines(Mode.CLASSIC, EVERY_RULE, lang)
    assert len(explained) == 9 and "300" in explained[-1][1]
    assert all(len(title) <= 256 and len(text) <= 1024 for title, text in explained)
    assert house.option_lines(Options(), lang) == [] and house.rules_lines(Mode.FLIP, Options(), lang) == []


def test_the_stacking_explanation_names_each_games_stacking_cards() -> None:
    (same,) = house.rules_lines(Mode.FLIP, Options(stacking="same_kind"), "en")
    assert "Draw One, Wild Draw Two, Draw Five" in same[1] and "same kind" in same[1]
    (anything,) = house.rules_lines(Mode.CLASSIC, Options(stacking="any_draw"), "en")
    assert "Draw Two, Wild Draw Four" in anything[1] and "any draw card" in anything[1]


def test_jump_in_controls_follow_the_seats_that_can_jump() -> None:
    """SPEC H jump_in: seat 2 holds the other Red 3; the current player (seat 1) never gets a jump control."""
    options = Options(jump_in=True, target_score=0)
    game = build(Mode.CLASSIC, ["G7 G8", "R8 B2", "R3 Y6"], "R5 R3", current=1, options=options)
    views = [game.view(s) for s in range(3)]
    assert [bool(house.jump_cards(v)) for v in views] == [False, False, True]
    (place, card) = house.jump_cards(views[2])[0]
    assert place == 0 and views[2].hand[0] == card
    watch = house.JumpWatch()
    assert watch.changed(1, views) == [2]
    # after the change nobody can jump: seat 2's hand is refreshed once more (its control goes), then no more
    later = build(Mode.CLASSIC, ["G7 G8", "B2", "R3 Y6"], "R5 R3 R8", current=2, options=options)
    later_views = [later.view(s) for s in range(3)]
    assert watch.changed(1, later_views) == [2]
    assert watch.changed(1, later_views) == []


def test_the_jump_fingerprint_ignores_what_does_not_change_the_jump() -> None:
    options = Options(jump_in=True)
    before = build(Mode.CLASSIC, ["G7 G8", "R8 B2", "R3 Y6"], "R5 R3", current=1, options=options)
    drawn = build(Mode.CLASSIC, ["G7 G8", "R8 B2 B9", "R3 Y6"], "R5 R3", current=1, phase="play_drawn", options=options)
    other = build(Mode.CLASSIC, ["G7 G8", "B2", "R3 Y6"], "R5 R3 R8", current=2, options=options)
    fp = house.jump_fingerprint
    assert fp(before.view(2)) == fp(drawn.view(2)), "the current player drawing does not make it another jump"
    assert fp(before.view(2)) != fp(other.view(2)), "a new top card does"


@pytest.mark.parametrize("lang", ALL)
def test_h6_a_last_card_that_is_not_a_number_is_not_offered_and_the_hand_says_to_draw(lang: str) -> None:
    """SPEC H6 number_finish: the hand's line names the last card and says to draw; the menu offers no play."""
    from bot.adapter.session_view import SessionView
    from cogs.uno import screens
    from cogs.uno.screens import ids
    from cogs.uno.screens.text import card_name

    from .sessions import flip_session

    options = Options(number_finish=True, target_score=0)
    game = build(Mode.CLASSIC, ["RS", "B3 B4", "B6 B7"], "R5", options=options)
    view = game.view(0)
    assert house.stuck_last_card(view) == view.hand[0] and ids.play_options(view) == []
    session = flip_session(3)
    session.mode, session.options, session.game = Mode.CLASSIC, options, game
    line = screens.hand_status(SessionView.of(session), view, lang)
    assert line.startswith(t("hand.number_finish", lang, card=card_name(view.hand[0].face, lang)))
    plain = build(Mode.CLASSIC, ["RS", "B3 B4", "B6 B7"], "R5", options=Options(target_score=0))
    assert house.stuck_last_card(plain.view(0)) is None
    number = build(Mode.CLASSIC, ["R7", "B3 B4", "B6 B7"], "R5", options=options)
    assert house.stuck_last_card(number.view(0)) is None


@pytest.mark.parametrize("lang", ALL)
def test_h7_the_hand_says_a_stack_may_be_sent_on_only_when_it_can(lang: str) -> None:
    """SPEC H7 stack_deflect: "+2 on you: stack, send it on with a Reverse or Skip, or take 2" when a Reverse or Skip
    of the owner's may send it on; the plain stack line otherwise (and the Reverse is then no play of theirs)."""
    from bot.adapter.session_view import SessionView
    from cogs.uno import screens

    from .sessions import flip_session

    options = Options(stacking="same_kind", stack_deflect=True, target_score=0)
    lines = []
    for held in ("RR B2", "GR B2"):
        game = build(Mode.CLASSIC, ["R+2 B1", held, "B3 B4"], "R5", options=options)
        game.apply(game.legal_actions(0)[0])
        view = game.view(1)
        session = flip_session(3)
        session.mode, session.options, session.game = Mode.CLASSIC, options, game
        lines.append(screens.hand_status(SessionView.of(session), view, lang))
        assert house.deflects(view) is (held == "RR B2")
    assert lines[0].startswith(t("hand.stack_deflect", lang, n=2)) and lines[1].startswith(t("hand.stack", lang, n=2))
    status = screens.status_line(SessionView.of(session), game.view(None), lang)
    assert status.startswith(
        t("table.stack_pending_deflect", lang, n=2, player=screens.mention(SessionView.of(session), 1, lang))
    )


@pytest.mark.parametrize("lang", ALL)
def test_h8_play_several_lists_each_top_and_a_click_builds_that_play(lang: str) -> None:
    """SPEC H8 multi_play: on one's turn a second menu, one entry per card left on top (identical cards folded),
    within Discord's limits; choosing an entry sends exactly that PlayMany, rebuilt from the checked view."""
    from bot.adapter.session_view import SessionView
    from bot.engine.actions import PlayMany
    from cogs.uno import screens
    from cogs.uno.input.clicks import HAND_ACTIONS, HandClick
    from cogs.uno.screens import ids

    from .sessions import flip_session

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    view = game.view(0)
    listed = ids.many_options(view)
    assert [([game.faces[c].colour.value for c in a.cards], a.uno) for a in listed] == [  # type: ignore[union-attr]
        (["red", "blue", "blue"], False),
        (["red", "blue", "blue"], True),
    ]  # blue on top (red may only go first), with and without UNO: one card is left
    session = flip_session(3)
    session.mode, session.options, session.game = Mode.CLASSIC, options, game
    sv = SessionView.of(session)
    screen = screens.hand_screen(sv, view, lang)
    rows = screen.view.to_components()  # the action rows as sent to Discord
    many = [(r, c) for r, row in enumerate(rows) for c in row["components"] if "uno:hs:many:" in c["custom_id"]]
    assert len(rows) <= 5 and len(many) == 1
    row, select = many[0]
    assert row == 2 and select["placeholder"] == t("hand.select_many", lang) and len(select["options"]) == 2
    assert all(1 <= len(o["label"]) <= 100 for o in select["options"])
    build_action = HAND_ACTIONS["many"](HandClick(sv, view, lang, "", ("0",)))
    assert callable(build_action) and build_action(view) == listed[0]
    assert isinstance(listed[0], PlayMany)
    game.apply(build_action(view))
    assert len(game.hands[0]) == 1
    plain = build(Mode.CLASSIC, ["R5 B5 B5 Y2", "B3 B4", "B6 B7"], "R3", options=Options(target_score=0))
    assert ids.many_options(plain.view(0)) == []


@pytest.mark.parametrize("lang", ALL)
def test_h9_an_eliminated_player_is_said_out_in_the_list_the_log_the_round_summary_and_their_hand(lang: str) -> None:
    """SPEC H9 elimination: seat 1 passes 100 points at the end of the round: the log line, the round summary's
    "out", the player list's reason and their own hand say so; the match summary ranks by the engine's placement."""
    from bot.adapter.session_view import SessionView
    from bot.engine.events import PlayerEliminated, RoundEnded
    from cogs.uno import screens
    from cogs.uno.screens.text import event_lines

    from .sessions import flip_session

    options = Options(elimination=100)
    game = build(Mode.CLASSIC, ["R5", "B9 G9 R+2", "B1 B2"], "R3", scores=[0, 80, 50], options=options)
    events = game.apply(game.legal_actions(0)[0])
    session = flip_session(3)
    session.mode, session.options, session.game = Mode.CLASSIC, options, game
    sv = SessionView.of(session)
    eliminated = next(e for e in events if isinstance(e, PlayerEliminated))
    name = screens.player_name(sv, 1, lang)
    lines = event_lines(events, lambda s: screens.player_name(sv, s, lang), lang)
    assert t("ev.eliminated", lang, player=name, n=eliminated.score) in lines
    ended = next(e for e in events if isinstance(e, RoundEnded))
    summary = screens.round_summary(sv, ended, lang).embeds()[0].description or ""
    assert summary.count(t("round.eliminated", lang)) == 1
    assert t("table.eliminated", lang) in screens.players_text(sv, game.view(None), lang)
    game.apply(game.legal_actions(0)[0])  # the next round
    waiting = screens.player_name(sv, game.pending or 0, lang)
    assert screens.hand_status(sv, game.view(1), lang).startswith(t("hand.out_eliminated", lang, player=waiting))


def test_h9_uno_rules_names_the_elimination_limit_as_the_goal() -> None:
    from cogs.uno.screens.rules_page import rules_embed

    embed = rules_embed(Mode.FLIP, "en", 500, Options(elimination=200))
    goal = embed.fields[0].value or ""
    assert "past 200 points you are out" in goal and "500" not in goal
    assert "House rule: elimination" in [f.name for f in embed.fields]
