"""UNO Flex!: SPEC X1–X9 (X1's deck composition is in test_cards.py)."""

import pytest

from bot.engine import errors as E
from bot.engine.actions import Accept, Challenge, Draw, NextRound, Play
from bot.engine.cards import Colour, Mode
from bot.engine.events import CardPlayed, ChallengeResolved, OpeningCard, PowerCardsChanged, RoundEnded, TurnSkipped
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase

from .helpers import build, card_in_hand, hand, new_game_with_opening, play


# --- X2 Setup --------------------------------------------------------------------------------------------------------
def test_x2_every_power_card_starts_green():
    game, _ = Game.new("flex", 5, seed=4)
    assert game.power == [True] * 5


def test_x2_ruling_any_non_number_opening_card_is_ignored_until_a_number_shows():
    game, events = new_game_with_opening(Mode.FLEX, 3, "RS WAF R+2 G5")
    openings = [(str(e.face), e.returned) for e in events if isinstance(e, OpeningCard)]
    assert openings == [("RS", True), ("WAF", True), ("R+2", True), ("G5", False)]
    assert str(game.top) == "G5" and len(game.discard) == 4
    assert game.current == 0 and all(len(h) == 7 for h in game.hands)


def test_x2_ruling_a_flex_number_opens_on_its_regular_colour_and_a_flip_icon_does_nothing():
    game, _ = new_game_with_opening(Mode.FLEX, 3, "R3/B")
    assert game.colour_in_play() is Colour.RED
    game, _ = new_game_with_opening(Mode.FLEX, 3, "R2")
    assert game.top.flip_icon and game.power == [True, True, True]


# --- X3 Power Cards ------------------------------------------------------------------------------------------------
def test_x3_the_flex_side_needs_a_green_power_card_and_turns_it_red():
    game = build("flex", ["R3/B Y1", "B4", "G7"], "B7", power="RGG")
    before = game.to_dict()
    with pytest.raises(E.FlexSideUnavailable):
        play(game, 0, "R3/B", flex=True)
    assert game.to_dict() == before
    game = build("flex", ["R3/B Y1", "B4", "G7"], "B7")
    events = play(game, 0, "R3/B", flex=True)
    assert game.power == [False, True, True]
    assert PowerCardsChanged((False, True, True)) in events


def test_x3_a_flip_icon_toggles_your_own_power_card_both_ways():
    game = build("flex", ["R2 R4 Y1", "B4", "G7"], "R5")
    play(game, 0, "R2")
    assert game.power == [False, True, True]
    game.current = 0
    play(game, 0, "R4")
    assert game.power == [True, True, True]


def test_x3_wild_all_flip_toggles_everyone_and_all_red_turns_all_green():
    game = build("flex", ["WAF Y1", "B4", "G7"], "R5", power="GGR")
    play(game, 0, "WAF", "blue")
    assert game.power == [False, False, True] and game.colour_in_play() is Colour.BLUE
    game = build("flex", ["RX+2 Y1", "B4"], "R5", power="GR", draw="Y2")
    events = play(game, 0, "RX+2", flex=True)  # seat 0 turns red: every Power Card red → all green
    assert game.power == [True, True]
    assert PowerCardsChanged((True, True)) in events


def test_x3_option_flex_reset_power_each_round():
    game = build("flex", ["R7", "B4", "G7"], "R5", power="GRR")
    play(game, 0, "R7")
    game.apply(NextRound(0))
    assert game.power == [True, True, True]
    kept = build("flex", ["R7", "B4", "G7"], "R5", power="GRR", options=Options(flex_reset_power=False))
    play(kept, 0, "R7")
    kept.apply(NextRound(0))
    assert kept.power == [True, False, False]


# --- X4 Flex number cards ------------------------------------------------------------------------------------------
def test_x4_a_flex_number_matches_by_its_flex_colour_and_leaves_its_regular_colour_in_play():
    game = build("flex", ["R3/B Y1", "B4", "G7"], "B7")
    assert Play(0, card_in_hand(game, 0, "R3/B")) not in game.legal_actions(0)
    play(game, 0, "R3/B", flex=True)
    assert game.colour_in_play() is Colour.RED
    assert [str(game.faces[a.card]) for a in game.legal_actions(1) if isinstance(a, Play)] == []


def test_x4_ruling_the_flex_side_may_be_used_when_the_regular_side_matches_and_still_spends_the_power_card():
    game = build("flex", ["R3/B Y1", "B4", "G7"], "R7")
    play(game, 0, "R3/B", flex=True)
    assert game.power[0] is False


def test_x4_a_drawn_card_may_be_played_on_its_flex_side():
    game = build("flex", ["Y1", "B4", "G7"], "B7", draw="R3/B")
    game.apply(Draw(0))
    assert game.phase is Phase.PLAY_DRAWN
    play(game, 0, "R3/B", flex=True)
    assert game.current == 1


# --- X5 Action cards -----------------------------------------------------------------------------------------------
def test_x5_flex_draw_two_flex_side_every_other_player_draws_one_and_nobody_is_skipped():
    game = build("flex", ["RX+2 Y1", "B4", "G7"], "R5", draw="Y2 Y3")
    play(game, 0, "RX+2", flex=True)
    assert hand(game, 1) == ["B4", "Y2"] and hand(game, 2) == ["G7", "Y3*"] and game.current == 1


def test_x5_flex_skip_flex_side_you_take_another_turn():
    game = build("flex", ["RXS Y1", "B4", "G7"], "R5")
    play(game, 0, "RXS", flex=True)
    assert game.current == 0


def test_x5_flex_reverse_flex_side_reverses_and_skips_the_first_player_in_the_new_direction():
    game = build("flex", ["RXR Y1", "B4", "G7", "Y7"], "R5")
    events = play(game, 0, "RXR", flex=True)
    assert game.direction == -1 and game.current == 2
    assert TurnSkipped(3) in events


def test_x5_regular_sides_of_flex_action_cards_are_the_classic_actions():
    game = build("flex", ["RXS RXR RX+2 Y1", "B4", "G7", "Y7"], "R5", draw="Y2 Y3")
    play(game, 0, "RXS")
    assert game.current == 2
    game.current = 0
    play(game, 0, "RXR")
    assert game.direction == -1 and game.current == 3
    game.current = 0
    play(game, 0, "RX+2")
    assert len(game.hands[3]) == 3 and game.current == 2


def test_x5_flex_wild_target_draw_two_the_target_draws_and_play_continues_in_order():
    game = build("flex", ["XWT+2 Y1", "B4", "G7"], "R5", draw="Y2 Y3")
    play(game, 0, "XWT+2", "green", flex=True, target=2)
    assert hand(game, 2) == ["G7", "Y2", "Y3*"] and game.current == 1 and game.colour_in_play() is Colour.GREEN
    game = build("flex", ["XWT+2 Y1", "B4", "G7"], "R5", draw="Y2 Y3")
    play(game, 0, "XWT+2", "green", flex=True, target=1)
    assert len(game.hands[1]) == 3 and game.current == 1  # the target does not lose a turn, even when next


def test_x5_flex_wild_all_draw_every_other_player_draws_two():
    game = build("flex", ["XWA+2 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "XWA+2", "red", flex=True)
    assert len(game.hands[1]) == 3 and len(game.hands[2]) == 3 and game.current == 1


def test_x5_regular_sides_of_the_targeted_and_all_draw_wilds_are_plain_wilds():
    for card in ("XWT+2", "XWA+2"):
        game = build("flex", [f"{card} Y1", "B4", "G7"], "R5")
        play(game, 0, card, "yellow")
        assert game.current == 1 and len(game.hands[1]) == 1 and game.colour_in_play() is Colour.YELLOW
        with pytest.raises(E.TargetNotAllowed):
            other = build("flex", [f"{card} Y1", "B4", "G7"], "R5")
            play(other, 0, card, "yellow", target=1)


# --- X6 Turn -------------------------------------------------------------------------------------------------------
def test_x6_after_choosing_to_draw_only_the_drawn_card_may_be_played():
    game = build("flex", ["R7 Y1", "B4", "G7"], "R5", draw="R8")
    game.apply(Draw(0))
    with pytest.raises(E.OnlyDrawnCard):
        play(game, 0, "R7")
    play(game, 0, "R8")


# --- X7 Flex Wild Draw Four challenge -----------------------------------------------------------------------------
def test_x7_wild_cards_count_as_a_match_of_the_colour_in_play():
    game = build("flex", ["XW+4 WAF Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "XW+4", "blue")
    events = game.apply(Challenge(1))
    assert next(e for e in events if isinstance(e, ChallengeResolved)).guilty
    assert len(game.hands[0]) == 6 and game.current == 1


def test_x7_ruling_a_flex_number_counts_by_its_flex_colour_only_while_its_owners_power_card_is_green():
    green = build("flex", ["XW+4 Y5/B", "B4", "G7"], "B5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    play(green, 0, "XW+4", "red")
    assert next(e for e in green.apply(Challenge(1)) if isinstance(e, ChallengeResolved)).guilty
    red = build("flex", ["XW+4 Y5/B", "B4", "G7"], "B5", draw="Y2 Y3 Y4 Y5 Y6 Y7", power="RGG")
    play(red, 0, "XW+4", "red")
    verdict = next(e for e in red.apply(Challenge(1)) if isinstance(e, ChallengeResolved))
    assert not verdict.guilty and verdict.count == 6 and red.current == 2


def test_x7_regular_side_accepting_draws_four_and_loses_the_turn():
    game = build("flex", ["XW+4 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "XW+4", "green")
    game.apply(Accept(1))
    assert len(game.hands[1]) == 5 and game.current == 2


def test_x7_flex_side_the_target_may_challenge_and_nobody_loses_a_turn():
    innocent = build("flex", ["XW+4 Y1", "B4", "G7", "Y7"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y8")
    play(innocent, 0, "XW+4", "green", flex=True, target=2)
    assert innocent.phase is Phase.CHALLENGE and innocent.current == 2
    events = innocent.apply(Challenge(2))
    verdict = next(e for e in events if isinstance(e, ChallengeResolved))
    assert not verdict.guilty and len(innocent.hands[2]) == 7 and innocent.current == 1
    guilty = build("flex", ["XW+4 R1", "B4", "G7", "Y7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(guilty, 0, "XW+4", "green", flex=True, target=2)
    guilty.apply(Challenge(2))
    assert len(guilty.hands[0]) == 5 and guilty.current == 1
    accepted = build("flex", ["XW+4 Y1", "B4", "G7", "Y7"], "R5", draw="Y2 Y3 Y4 Y5")
    played = play(accepted, 0, "XW+4", "green", flex=True, target=1)
    assert [e.judged for e in played if isinstance(e, CardPlayed)] == [Colour.RED]  # the colour a challenge checks
    accepted.apply(Accept(1))
    assert len(accepted.hands[1]) == 5 and accepted.current == 1


def test_x7_option_flex_target_can_challenge_off_the_target_simply_draws_four():
    opts = Options(flex_target_can_challenge=False)
    game = build("flex", ["XW+4 R1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5", options=opts)
    played = play(game, 0, "XW+4", "green", flex=True, target=2)
    assert [e.judged for e in played if isinstance(e, CardPlayed)] == [None]  # nothing is judged
    assert game.phase is Phase.PLAY and len(game.hands[2]) == 5 and game.current == 1


# --- X8 Points -----------------------------------------------------------------------------------------------------
def test_x8_points():
    game = build("flex", ["R7", "B8 R3/B RS RR R+2 RXS RXR RX+2 WAF XW+4 XWT+2 XWA+2"], "R5")
    ended = next(e for e in play(game, 0, "R7") if isinstance(e, RoundEnded))
    assert ended.points[0] == 8 + 3 + 20 * 6 + 50 * 4


# --- X9 What everyone can see --------------------------------------------------------------------------------------
def test_x9_power_cards_are_public():
    game = build("flex", ["R7 Y1", "B4", "G7"], "R5", power="GRG")
    assert game.view(2).power == (True, False, True)
    assert game.view(None).power == (True, False, True)
