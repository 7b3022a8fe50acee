"""Input checks (cogs.uno.input.inputs) against the one home of the limits, and the order in which the log tells a
challenge (SPEC G7)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import limits
from bot.engine.actions import Challenge, Play
from bot.engine.cards import Colour, Kind
from bot.engine.events import CardsDrawn, ChallengeResolved
from bot.engine.game import Game
from bot.engine.options import RULE_OPTIONS
from cogs.uno.input import inputs
from cogs.uno.screens.text import event_lines

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("check", "good", "bad"),
    [
        (inputs.turn_timer, (limits.TURN_TIMER_MIN, limits.TURN_TIMER_MAX), (0, 14, 601, 30.0, True, "60", None)),
        (inputs.target_score, (0, limits.TARGET_SCORE_MAX), (-1, limits.TARGET_SCORE_MAX + 1, 1.5, False, "500")),
        (inputs.false_catch_penalty, (0, limits.FALSE_CATCH_PENALTY_MAX), (-1, 11, True)),
        (inputs.flag, (True, False), ("maybe", 1, 0, None, "true")),
    ],
)
def test_each_check_takes_its_bounds_and_refuses_the_rest(check, good, bad) -> None:
    for value in good:
        assert check(value) == value
    for value in bad:
        with pytest.raises(inputs.BadInput):
            check(value)


@pytest.mark.parametrize("values", [[], ["0", "1"], ["\u0660"], ["\u00b2"], ["-1"], [" 1"], ["3"], ["00000"], ["x"]])
def test_a_select_sends_exactly_one_ascii_index(values: list[str]) -> None:
    with pytest.raises(inputs.BadInput) as err:
        inputs.one_index(values, 3)
    assert err.value.code == "bad_request"


def test_a_select_value_within_range_is_its_index() -> None:
    assert [inputs.one_index([v], 3) for v in ("0", "1", "2")] == [0, 1, 2]


def test_the_command_bounds_come_from_bot_limits() -> None:
    """One home per limit: the commands' ranges name bot.limits, never a literal bound."""
    tree = ast.parse((ROOT / "cogs" / "uno" / "input" / "commands.py").read_text(encoding="utf-8"))
    ranges = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "Range"
    ]
    assert len(ranges) >= 4  # the rule options' ranges are built from the option table (checked below)
    assert RULE_OPTIONS["false_catch_penalty"].bounds == (0, limits.FALSE_CATCH_PENALTY_MAX)
    assert RULE_OPTIONS["target_score"].bounds == (0, limits.TARGET_SCORE_MAX)
    for node in ranges:
        assert isinstance(node.slice, ast.Tuple)
        _, low, high = node.slice.elts
        assert isinstance(high, ast.Name) and high.id in limits.__all__
        assert (isinstance(low, ast.Name) and low.id in limits.__all__) or (
            isinstance(low, ast.Constant) and low.value == 0
        )


def test_the_log_tells_a_challenge_before_the_cards_its_penalty_drew() -> None:
    """SPEC G7: the engine reports the draw as it happens; the log reads "X challenged Y: guilty! Y draws 4" first."""
    game = next(g for g, _ in (Game.new("classic", 2, seed=seed) for seed in range(11, 60)) if g.phase.value == "play")
    seat = game.pending
    colour = game.colour_in_play()
    assert seat is not None and colour is not None
    wd4 = next(c for c in range(len(game.faces)) if game.faces[c].kind is Kind.WILD_DRAW_FOUR)
    same = next(c for c in game.draw_pile if game.faces[c].colour == colour and game.faces[c].kind is Kind.NUMBER)
    for pile in (game.draw_pile, *game.hands, game.discard):
        for c in (wd4, same):
            if c in pile and pile is not game.discard:
                pile.remove(c)
    game.draw_pile[:0] = game.hands[seat]
    game.hands[seat][:] = [wd4, same]
    other = next(c for c in (Colour.RED, Colour.BLUE) if c != colour)
    game.apply(Play(seat, wd4, other, None, False, False))
    events = game.apply(Challenge(1 - seat))
    kinds = [type(e) for e in events]
    assert kinds.index(CardsDrawn) < kinds.index(ChallengeResolved)  # as the engine reports them
    lines = event_lines(events, lambda s: ["Ann", "Ben"][s], "en")
    assert lines[0].startswith(f"{['Ann', 'Ben'][1 - seat]} challenged") and "guilty" in lines[0]
    assert lines[0].endswith(f"{['Ann', 'Ben'][seat]} draws 4")  # the penalty told once (issue 18 point 5)
    assert not any("drew 4 cards" in line for line in lines), lines


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("lub", "Ľubomír"),  # sk: a letter and its mark (NFKD splits them)
        ("ZOE", "Zoë"),
        ("lukasz", "Łukasz"),  # pl: Ł has no decomposition: the stroke is part of the letter
        ("wisniewska-lukasiewicz", "Wiśniewska-Łukasiewicz"),
        ("soren", "Søren"),
        ("dorde", "Đorđe"),
        ("strasse", "Straße"),
    ],
)
def test_the_kick_search_finds_a_name_typed_without_its_accents_or_strokes(typed: str, name: str) -> None:
    """Issue 18 point 5: ``/uno kick``'s search ignores accents and case; Polish "Łukasz" (a stroke, not a mark:
    Unicode gives it no decomposition) is found by "lukasz" as "Ľubomír" is by "lub"."""
    from cogs.uno.screens.text import folded

    assert folded(typed) in folded(name)
