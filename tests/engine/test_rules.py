"""One home per rule: the rulesets (SPEC G1, C, F, X) and the rule helpers other layers use instead of their own
copies — placement (SPEC G9), the wild draw guilt test (SPEC G7, X7), wild draw penalties (SPEC C5, F7, X7) and the
colour held most."""

from __future__ import annotations

from random import Random

from bot import limits
from bot.ai import normal as ai
from bot.engine.actions import Accept, Challenge
from bot.engine.builder import build
from bot.engine.cards import TARGETED_KINDS, Kind, Mode, Side, parse_faces
from bot.engine.effects import FLEX, REGULAR
from bot.engine.game import Game
from bot.engine.rules import DEFLECTS, RULESETS, Penalty, colour_held_most, holds_colour
from bot.engine.scoring import placement
from bot.engine.view import Phase

from .helpers import play


def test_g1_the_rulesets_take_their_seats_from_the_one_limits_module() -> None:
    for mode, rules in RULESETS.items():
        assert rules.players == limits.PLAYER_RANGE[mode.value]
    assert set(limits.MODES) == {m.value for m in Mode}
    assert RULESETS[Mode.FLEX].targeted == TARGETED_KINDS and not RULESETS[Mode.CLASSIC].targeted


def test_a_number_has_no_effect_in_any_table() -> None:
    # effects.carry_out returns at once for a number without house rule seven_zero: no table may give it an effect
    assert Kind.NUMBER not in REGULAR and Kind.NUMBER not in FLEX and Kind.NUMBER not in DEFLECTS
    for rules in RULESETS.values():
        assert Kind.NUMBER not in rules.draw_cards and Kind.NUMBER not in rules.wild_draws


def test_c6_f9_x8_points_come_from_each_games_ruleset() -> None:
    (wild,) = parse_faces("W")
    assert RULESETS[Mode.CLASSIC].points_of(wild) == 50 and RULESETS[Mode.FLIP].points_of(wild) == 40
    (five,) = parse_faces("R5")
    assert {r.points_of(five) for r in RULESETS.values()} == {5}


def test_g9_placement_ranks_lowest_first_with_scoring_lowest_and_highest_first_otherwise() -> None:
    assert placement([10, 50, 30], 0, "lowest") == [0, 2, 1]
    assert placement([10, 50, 30], 1, "winner") == [1, 2, 0]
    assert placement([10, 50, 30], None, "winner") == [1, 2, 0]  # abandoned: by score only
    assert placement([5, 5, 5], 2, "lowest") == [2, 0, 1]  # ties by seat, the winner first


def test_g7_x7_holds_colour_counts_wilds_only_in_flex_and_flex_colours_only_with_a_green_power_card() -> None:
    hand = parse_faces("W G5")
    assert not holds_colour("classic", hand, parse_faces("R1")[0].colour)
    assert holds_colour("flex", hand, parse_faces("R1")[0].colour)
    flex_hand = parse_faces("Y1/G")  # a yellow 1 whose flex colour is green
    green = parse_faces("G1")[0].colour
    assert holds_colour("flex", flex_hand, green, green=True)
    assert not holds_colour("flex", flex_hand, green, green=False)
    assert not holds_colour("classic", parse_faces("R5"), None)


def test_g7_the_ai_judges_a_bluff_exactly_as_the_engine_judges_guilt() -> None:
    for mode, hands, top in [
        ("classic", ["W+4 W R5", "G1"], "R2"),
        ("classic", ["W+4 W G5", "G1"], "R2"),
        ("flex", ["XW+4 WAF", "G1"], "R2"),
        ("flex", ["XW+4 Y1/G", "G1"], "G2"),
    ]:
        game = build(mode, hands, top)
        wd = game.hands[0][0]
        expected = game._guilty(0, wd, False)
        assert ai._would_bluff(game.view(0), wd) == expected, (mode, hands)


def test_f7_the_ai_counts_a_wild_draw_colour_as_a_draw_until_the_colour() -> None:
    assert RULESETS[Mode.FLIP].wild_draws[Kind.WILD_DRAW_COLOUR].innocent == Penalty(None, 2)
    # The AI challenges a Wild Draw Color when P(guilty) > 2 / (about 4 + 2), a wrong challenge costing 2 more: a
    # player left with 2 cards (P(guilty) 0.44) is challenged, one left with 1 card (0.25) is not.
    game = build("flip", ["W+C P1 P2", "T1 T2"], "P5", side="dark")
    play(game, 0, "W+C", "teal")
    assert game.phase is Phase.CHALLENGE
    assert isinstance(ai.choose(game.view(1), Random(0)), Challenge)
    game = build("flip", ["W+C P1", "T1 T2"], "P5", side="dark")
    play(game, 0, "W+C", "teal", uno=True)
    assert isinstance(ai.choose(game.view(1), Random(0)), Accept)


def test_the_colour_held_most_is_one_rule_for_the_turn_timer_and_the_ai() -> None:
    assert colour_held_most(parse_faces("R1 B2 B3 W"), Side.LIGHT).value == "blue"
    assert colour_held_most(parse_faces("W"), Side.LIGHT).value == "red"  # ties: the first colour of the side
    assert colour_held_most(parse_faces("T1 O2 O3"), Side.DARK).value == "orange"
    game, _ = Game.new("classic", 3, seed=4)
    assert ai.favourite_colour(game.view(0)) is colour_held_most((game.faces[c] for c in game.hands[0]), Side.LIGHT)


def test_g2_seat_order_helpers_follow_the_direction_and_skip_removed_players() -> None:
    game = build("classic", ["R1", "R2", "R3", "R4"], "R5", current=1, active=[True, True, False, True])
    assert game.next_seat(1) == 3 and game.next_seat(1, -1) == 0
    assert game.turn_order() == [1, 3, 0] and game.turn_order(2) == [3, 0, 1]
    game.direction = -1
    assert game.turn_order(0) == [0, 3, 1]
