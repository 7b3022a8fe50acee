"""Classic UNO: SPEC C1–C6 (C1's deck composition is in test_cards.py)."""

import pytest

from bot.engine import errors as E
from bot.engine.actions import Accept, Challenge, DeclareColour, Draw
from bot.engine.cards import Colour, Mode
from bot.engine.events import (
    CardPlayed,
    ChallengeResolved,
    ColourDeclared,
    DirectionChanged,
    HandsShuffled,
    OpeningCard,
    RoundEnded,
    TurnSkipped,
)
from bot.engine.options import Options
from bot.engine.view import Phase

from .helpers import build, hand, new_game_with_opening, play


# --- C1 Deck: the 112 edition's extra wilds -------------------------------------------------------------------------
def test_c1_wild_shuffle_hands_gathers_shuffles_and_deals_from_the_next_player():
    opts = Options(classic_deck="112")
    game = build("classic", ["WSH R1 R2", "B4 B5", "G7 G8 G9 G6"], "R5", options=opts)
    total = sum(len(h) for h in game.hands) - 1
    events = play(game, 0, "WSH", "green")
    shuffled = next(e for e in events if isinstance(e, HandsShuffled))
    assert sum(shuffled.counts) == total == 8
    assert shuffled.counts == (2, 3, 3)  # dealt one by one starting with seat 1: 1, 2, 0, 1, 2, 0, 1, 2
    assert game.colour_in_play() is Colour.GREEN and game.current == 1


def test_c1_wild_customizable_is_a_plain_wild():
    game = build("classic", ["WC R1", "B4", "G7"], "R5", options=Options(classic_deck="112"))
    play(game, 0, "WC", "yellow")
    assert game.current == 1 and game.colour_in_play() is Colour.YELLOW


# --- C2 Opening card -------------------------------------------------------------------------------------------------
def test_c2_opening_number_has_no_effect():
    game, _ = new_game_with_opening(Mode.CLASSIC, 4, "R5")
    assert game.dealer == 3 and game.current == 0 and game.direction == 1 and game.phase is Phase.PLAY


def test_c2_opening_draw_two_first_player_draws_two_and_loses_turn():
    game, events = new_game_with_opening(Mode.CLASSIC, 4, "R+2")
    assert len(game.hands[0]) == 9 and game.current == 1
    assert any(isinstance(e, TurnSkipped) and e.player == 0 for e in events)


def test_c2_opening_reverse_dealer_plays_first_and_play_goes_right():
    game, events = new_game_with_opening(Mode.CLASSIC, 4, "RR")
    assert game.current == 3 and game.direction == -1
    assert any(isinstance(e, DirectionChanged) for e in events)


def test_c2_opening_skip_first_player_is_skipped():
    game, _ = new_game_with_opening(Mode.CLASSIC, 4, "RS")
    assert game.current == 1


def test_c2_opening_wild_first_player_declares_then_plays():
    game, _ = new_game_with_opening(Mode.CLASSIC, 4, "W")
    assert game.phase is Phase.DECLARE_COLOUR and game.current == 0
    with pytest.raises(E.NotYourDecision):
        game.apply(DeclareColour(1, Colour.RED))
    events = game.apply(DeclareColour(0, Colour.BLUE))
    assert events == [ColourDeclared(0, Colour.BLUE)]
    assert game.phase is Phase.PLAY and game.current == 0 and game.colour_in_play() is Colour.BLUE


def test_c2_opening_wild_draw_four_is_returned_and_another_card_turned():
    game, events = new_game_with_opening(Mode.CLASSIC, 4, "W+4 G3")
    openings = [e for e in events if isinstance(e, OpeningCard)]
    assert [(str(e.face), e.returned) for e in openings] == [("W+4", True), ("G3", False)]
    assert [str(game.faces[c]) for c in game.discard] == ["G3"]
    assert any(str(game.faces[c]) == "W+4" for c in game.draw_pile)


# --- C3 Effects ------------------------------------------------------------------------------------------------------
def test_c3_skip_reverse_draw_two_and_wild_with_three_or_more_players():
    game = build("classic", ["RS RR R+2 W R1", "B4 B5", "G7 G8", "Y1 Y2"], "R5", draw="Y3 Y4")
    play(game, 0, "RS")
    assert game.current == 2
    game.current = 0
    play(game, 0, "RR")
    assert game.direction == -1 and game.current == 3
    game.current = 0
    play(game, 0, "R+2")
    assert hand(game, 3) == ["Y1", "Y2", "Y3", "Y4"] and game.current == 2
    game.current = 0
    play(game, 0, "W", "red")  # any colour, the current one too
    assert game.colour_in_play() is Colour.RED and game.current == 3


def test_c3_wild_draw_four_makes_the_next_player_decide():
    game = build("classic", ["W+4 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "W+4", "blue")
    assert game.phase is Phase.CHALLENGE and game.current == 1
    game.apply(Accept(1))
    assert len(game.hands[1]) == 5 and game.current == 2 and game.colour_in_play() is Colour.BLUE


# --- C4 Drawing ------------------------------------------------------------------------------------------------------
def test_c4_draw_one_card_and_only_that_card_may_be_played():
    game = build("classic", ["R7", "B4"], "R5", draw="G5")
    game.apply(Draw(0))
    assert game.phase is Phase.PLAY_DRAWN
    with pytest.raises(E.OnlyDrawnCard):
        play(game, 0, "R7")
    play(game, 0, "G5")
    assert game.current == 1


# --- C5 Challenge outcome --------------------------------------------------------------------------------------------
def test_c5_guilty_the_player_draws_four_and_the_challenger_plays():
    game = build("classic", ["W+4 R3 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "W+4", "yellow")
    events = game.apply(Challenge(1))
    verdict = next(e for e in events if isinstance(e, ChallengeResolved))
    assert verdict == ChallengeResolved(1, 0, True, 0, 4)
    assert len(game.hands[0]) == 6 and len(game.hands[1]) == 1 and game.current == 1


def test_c5_innocent_the_challenger_draws_six_and_loses_the_turn():
    game = build("classic", ["W+4 G3 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    play(game, 0, "W+4", "yellow")
    events = game.apply(Challenge(1))
    verdict = next(e for e in events if isinstance(e, ChallengeResolved))
    assert verdict == ChallengeResolved(1, 0, False, 1, 6)
    assert len(game.hands[1]) == 7 and game.current == 2


def test_c5_the_play_says_which_colour_the_challenge_judges_it_on_and_no_other_card_does():
    """Issue 17 point 3: the verdict's facts are in the engine's events (the colour in play the wild draw was played
    on, in its ``CardPlayed``; the verdict in ``ChallengeResolved``), not rebuilt by the Discord layer."""
    game = build("classic", ["W+4 G3 W R4 Y1", "B4 R6", "G7"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    (played,) = [e for e in play(game, 0, "W+4", "yellow") if isinstance(e, CardPlayed)]
    assert played == CardPlayed(0, played.face, False, Colour.YELLOW, None, judged=Colour.RED)
    verdict = next(e for e in game.apply(Challenge(1)) if isinstance(e, ChallengeResolved))
    assert verdict == ChallengeResolved(1, 0, True, 0, 4)  # guilty: Ann held R4, of the colour judged
    plain = build("classic", ["W R4 Y1", "B4", "G7"], "R5")
    assert [e.judged for e in play(plain, 0, "W", "blue") if isinstance(e, CardPlayed)] == [None]
    assert [e.judged for e in play(plain, 1, "B4") if isinstance(e, CardPlayed)] == [None]


# --- C6 Points -------------------------------------------------------------------------------------------------------
def test_c6_points_numbers_face_value_actions_twenty_wilds_fifty_edition_wilds_forty():
    game = build("classic", ["R7", "B9 B0 BS BR B+2", "W W+4 WSH WC"], "R5", options=Options(classic_deck="112"))
    events = play(game, 0, "R7")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points[0] == 9 + 0 + 20 * 3 + 50 * 2 + 40 * 2
