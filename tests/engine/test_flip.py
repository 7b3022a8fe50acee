"""UNO FLIP: SPEC F1–F10 (F1's deck composition and F2's table check are in test_cards.py)."""

import pytest

from bot.engine import errors as E
from bot.engine.actions import Accept, Challenge, DeclareColour, NextRound
from bot.engine.cards import Colour, Mode, Side, check_flip_pairs, physical_flip_pairs
from bot.engine.events import ChallengeResolved, Flipped, OpeningCard, RoundEnded
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase

from .helpers import build, faces, hand, new_game_with_opening, play


# --- F2 Pairing ---
def test_f2_physical_pairing_is_the_default_and_never_re_paired():
    game, _ = Game.new("flip", 3, seed=2)
    pairs = [(c.light, c.dark) for c in game.deck.cards]
    assert pairs == physical_flip_pairs() and game.pairing is None


def test_f2_option_random_pairing_is_a_valid_bijection_fixed_for_the_whole_match():
    game, _ = Game.new("flip", 3, seed=2, options=Options(flip_pairing="random"))
    pairs = [(c.light, c.dark) for c in game.deck.cards]
    check_flip_pairs(pairs)
    assert pairs != physical_flip_pairs()
    game.phase = Phase.ROUND_OVER
    game.apply(NextRound(0))
    assert [(c.light, c.dark) for c in game.deck.cards] == pairs
    loaded = Game.from_dict(game.to_dict())
    assert [(c.light, c.dark) for c in loaded.deck.cards] == pairs and loaded == game


# --- F3 Setup --------------------------------------------------------------------------------------------------------
def test_f3_round_starts_on_the_light_side_with_the_draw_piles_dark_face_showing():
    game, _ = Game.new("flip", 4, seed=9)
    assert game.side is Side.LIGHT
    assert game.view(0).draw_top_other == game.card(game.draw_pile[-1]).dark


# --- F4 Opening card -------------------------------------------------------------------------------------------------
def test_f4_opening_draw_one_first_player_draws_one_and_is_skipped():
    game, _ = new_game_with_opening(Mode.FLIP, 3, "R+1")
    assert len(game.hands[0]) == 8 and game.current == 1


def test_f4_opening_wild_draw_two_is_returned():
    _, events = new_game_with_opening(Mode.FLIP, 3, "W+2 G3")
    assert [(str(e.face), e.returned) for e in events if isinstance(e, OpeningCard)] == [("W+2", True), ("G3", False)]


def test_f4_ruling_opening_flip_is_returned_by_default():
    game, events = new_game_with_opening(Mode.FLIP, 3, "RF G3")
    assert [(str(e.face), e.returned) for e in events if isinstance(e, OpeningCard)] == [("RF", True), ("G3", False)]
    assert game.side is Side.LIGHT


def test_f4_option_opening_flip_apply_flips_at_once_and_applies_the_dark_face():
    game, events = new_game_with_opening(Mode.FLIP, 3, "RF", options=Options(opening_flip="apply"))
    assert game.side is Side.DARK and any(isinstance(e, Flipped) for e in events)
    assert str(game.top) == "P8"  # the dark back of the first red Flip (Appendix A): a number, no effect
    assert game.current == 0 and game.phase is Phase.PLAY


def test_f4_opening_reverse_and_wild():
    game, _ = new_game_with_opening(Mode.FLIP, 3, "RR")
    assert game.current == 2 and game.direction == -1
    game, _ = new_game_with_opening(Mode.FLIP, 3, "W")
    assert game.phase is Phase.DECLARE_COLOUR and game.current == 0


# --- F5 Light-side effects -----------------------------------------------------------------------------------------
def test_f5_draw_one_and_light_wild_colours():
    game = build("flip", ["R+1 W R3", "B4", "G7"], "R5", draw="Y1")
    play(game, 0, "R+1")
    assert len(game.hands[1]) == 2 and game.current == 2
    game.current = 0
    with pytest.raises(E.ColourNotOfThisSide):
        play(game, 0, "W", "pink")
    play(game, 0, "W", "yellow")
    assert game.colour_in_play() is Colour.YELLOW


def test_f5_wild_draw_two_is_challengeable():
    game = build("flip", ["W+2 Y1", "B4", "G7"], "R5", draw="Y2 Y3")
    play(game, 0, "W+2", "blue")
    assert game.phase is Phase.CHALLENGE and game.current == 1
    game.apply(Accept(1))
    assert len(game.hands[1]) == 3 and game.current == 2


# --- F6 Dark-side effects ------------------------------------------------------------------------------------------
def test_f6_draw_five_and_skip_everyone():
    game = build("flip", ["T+5 TSE T1 T2", "P4", "O7"], "T3", side="dark")
    play(game, 0, "T+5")
    assert len(game.hands[1]) == 6 and game.current == 2
    game.current = 0
    play(game, 0, "TSE")
    assert game.current == 0  # everyone else skipped: another full turn


def test_f6_dark_wild_declares_a_dark_colour():
    game = build("flip", ["W T1", "P4"], "T3", side="dark")
    with pytest.raises(E.ColourNotOfThisSide):
        play(game, 0, "W", "red")
    play(game, 0, "W", "orange")
    assert game.colour_in_play() is Colour.ORANGE


def test_f6_wild_draw_color_draws_until_that_colour_a_wild_not_counting():
    game = build("flip", ["W+C T1", "P4", "O7"], "T3", side="dark", draw="W O1 T4 P5 P6")
    play(game, 0, "W+C", "pink")
    game.apply(Accept(1))
    assert hand(game, 1) == ["P4", "W", "O1", "T4", "P5"]
    assert game.current == 2


def test_f6_ruling_wild_draw_color_stops_when_nothing_is_left():
    game = build("flip", ["W+C T1", "P4", "O7"], "T3", side="dark", draw="O1 O2")
    others = game.draw_pile[:-2]  # all but the two named cards on top
    game.hands[2].extend(others)
    del game.draw_pile[:-2]
    play(game, 0, "W+C", "pink")
    game.apply(Accept(1))
    assert hand(game, 1) == ["P4", "O1", "O2", "T3"]  # the old top was reshuffled in; then nothing is left


# --- F7 Challenge outcomes -----------------------------------------------------------------------------------------
def test_f7_wild_draw_two_guilty_and_innocent():
    guilty = build("flip", ["W+2 R3", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(guilty, 0, "W+2", "blue")
    events = guilty.apply(Challenge(1))
    assert next(e for e in events if isinstance(e, ChallengeResolved)) == ChallengeResolved(1, 0, True, 0, 2)
    assert guilty.current == 1
    innocent = build("flip", ["W+2 G3", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(innocent, 0, "W+2", "blue")
    events = innocent.apply(Challenge(1))
    assert next(e for e in events if isinstance(e, ChallengeResolved)) == ChallengeResolved(1, 0, False, 1, 4)
    assert innocent.current == 2


def test_f7_wild_draw_color_guilty_player_draws_until_innocent_challenger_until_plus_two():
    guilty = build("flip", ["W+C T1", "P4", "O7"], "T3", side="dark", draw="O1 P5 O2")
    play(guilty, 0, "W+C", "pink")
    guilty.apply(Challenge(1))
    assert hand(guilty, 0) == ["T1", "O1", "P5"] and guilty.current == 1
    innocent = build("flip", ["W+C O4", "P4", "O7"], "T3", side="dark", draw="O1 P5 O2 U3 U4")
    play(innocent, 0, "W+C", "pink")
    events = innocent.apply(Challenge(1))
    assert hand(innocent, 1) == ["P4", "O1", "P5", "O2", "U3"]
    assert next(e for e in events if isinstance(e, ChallengeResolved)).count == 4
    assert innocent.current == 2


# --- F8 The Flip ---------------------------------------------------------------------------------------------------
def test_f8_flip_turns_the_discard_pile_over_then_the_draw_pile_then_every_hand():
    game = build("flip", ["RF|P8 B3|U8", "G7|O6", "Y1|PSE"], "R1|P3 R2|U+5", draw="Y2|T1 Y5|U9")
    draw_before = list(game.draw_pile)
    events = play(game, 0, "RF")
    assert game.side is Side.DARK
    assert faces(game, game.discard) == ["P8", "U+5", "P3"]  # order reversed: the old bottom's back is on top
    assert str(game.top) == "P3"
    assert game.draw_pile == list(reversed(draw_before))
    assert hand(game, 0) == ["U8"] and hand(game, 1) == ["O6"]
    assert game.direction == 1 and game.current == 1 and game.declared is None
    assert next(e for e in events if isinstance(e, Flipped)).top == game.top


def test_f8_flip_with_only_itself_on_the_pile_shows_its_own_back_and_clears_the_colour():
    game = build("flip", ["RF|P8 B3", "G7", "Y1"], "W|P5", declared="red")
    play(game, 0, "RF")
    assert str(game.top) == "P5" and game.declared is None  # the old bottom (the wild) now shows pink 5


def test_f8_ruling_an_exposed_action_card_has_no_effect():
    game = build("flip", ["RF|P8 B3", "G7", "Y1"], "R2|U+5")
    play(game, 0, "RF")
    assert str(game.top) == "U+5" and len(game.hands[1]) == 1 and game.current == 1


def test_f8_ruling_an_exposed_wild_is_declared_by_the_next_player():
    game = build("flip", ["BF|U6 B3", "G7", "Y1"], "BR|W")
    play(game, 0, "BF")
    assert game.phase is Phase.DECLARE_COLOUR and game.current == 1
    with pytest.raises(E.ColourNotOfThisSide):
        game.apply(DeclareColour(1, Colour.RED))
    game.apply(DeclareColour(1, Colour.TEAL))
    assert game.phase is Phase.PLAY and game.current == 1 and game.colour_in_play() is Colour.TEAL


def test_f8_option_exposed_wild_chooser_flipper():
    game = build("flip", ["BF|U6 B3", "G7", "Y1"], "BR|W", options=Options(exposed_wild_chooser="flipper"))
    play(game, 0, "BF")
    assert game.phase is Phase.DECLARE_COLOUR and game.current == 0
    game.apply(DeclareColour(0, Colour.PURPLE))
    assert game.current == 1 and game.colour_in_play() is Colour.PURPLE


def test_f8_ruling_a_flip_as_last_card_is_carried_out_and_scored_on_the_new_side():
    game = build("flip", ["RF|P8", "G7|O6", "R9|TR"], "R5|T5")
    events = play(game, 0, "RF")
    assert game.side is Side.DARK
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points[0] == 6 + 20  # dark O6 and dark teal Reverse, not light 7 and 9


def test_f8_option_flip_invert_piles_off_the_flip_just_shows_its_other_face():
    game = build(
        "flip", ["RF|P8 B3", "G7", "Y1"], "R1|P3 R2|U+5", draw="Y2|T1", options=Options(flip_invert_piles=False)
    )
    draw_before = list(game.draw_pile)
    play(game, 0, "RF")
    assert faces(game, game.discard) == ["P3", "U+5", "P8"] and str(game.top) == "P8"
    assert game.draw_pile == draw_before


def test_f8_direction_is_unchanged_by_a_flip():
    game = build("flip", ["RF|P8 B3", "G7", "Y1"], "R1|P3", direction=-1)
    play(game, 0, "RF")
    assert game.direction == -1 and game.current == 2


# --- F9 Points -----------------------------------------------------------------------------------------------------
def test_f9_points_on_the_side_in_play():
    light = build("flip", ["R7", "B9 R+1 RR RS RF W W+2"], "R5")
    ended = next(e for e in play(light, 0, "R7") if isinstance(e, RoundEnded))
    assert ended.points[0] == 9 + 10 + 20 + 20 + 20 + 40 + 50
    dark = build("flip", ["T7", "P9 T+5 TR TSE TF W W+C"], "T5", side="dark")
    ended = next(e for e in play(dark, 0, "T7") if isinstance(e, RoundEnded))
    assert ended.points[0] == 9 + 20 + 20 + 30 + 20 + 40 + 60


# --- F10 What everyone can see -------------------------------------------------------------------------------------
def test_f10_each_player_sees_the_other_faces_of_opponents_hands_and_the_draw_top_but_not_their_own():
    game = build("flip", ["R1|P3 R2|OR", "G7|O6 B3|U8", "Y1|PSE"], "R5", draw="Y2|T1")
    view = game.view(0)
    assert view.other_faces is not None and view.other_faces[0] is None
    assert [str(f) for f in view.other_faces[1]] == ["O6", "U8"]
    assert [str(f) for f in view.other_faces[2]] == ["PSE"]
    assert str(view.draw_top_other) == "T1"
    assert [str(c.face) for c in view.hand] == ["R1", "R2"]  # own hand: the side in play only
    public = game.view(None)
    assert public.other_faces is None and str(public.draw_top_other) == "T1"
