"""Rules common to the three games: SPEC G1–G11. Each test names its section."""

import pytest

from bot.engine import errors as E
from bot.engine.actions import Accept, CallUno, Catch, Challenge, Draw, Keep, NextRound, Play
from bot.engine.cards import Colour
from bot.engine.events import (
    CardsDrawn,
    CardsReceived,
    DealerChosen,
    FalseCatch,
    HandRevealed,
    MatchEnded,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    visible_to,
)
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase

from .helpers import ScriptedRng, build, card_in_hand, hand, ids, names, play, to_top


# --- G1 Players -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("mode", "low", "high"), [("classic", 2, 10), ("flip", 2, 10), ("flex", 2, 8)])
def test_g1_player_counts_and_seven_cards_each(mode, low, high):
    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match="players"):
            Game.new(mode, bad)
    game, events = Game.new(mode, high, seed=3)
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert started.cards == 7
    penalised = {e.player for e in events if isinstance(e, CardsDrawn)}
    assert all(len(game.hands[s]) == 7 for s in range(high) if s not in penalised)


# --- G2 Dealer ----------------------------------------------------------------------------------------------------
def test_g2_highest_card_deals_symbols_count_zero_and_ties_draw_again_in_seat_order():
    game0, _ = Game.new("classic", 3, seed=1)
    deck = game0.deck
    # seat 0 draws R5, seat 1 G5, seat 2 a Skip (0); seats 0 and 1 tie and draw again: R1, then G2 → seat 1 deals
    first = ids(deck, "R5 G5")
    skip = ids(deck, "BS")
    again = ids(deck, "R1 G2")
    game, events = Game.new("classic", 3, rng=ScriptedRng([to_top([*first, *skip, *again])]))
    chosen = next(e for e in events if isinstance(e, DealerChosen))
    assert [(s, str(f)) for s, f in chosen.draws] == [(0, "R5"), (1, "G5"), (2, "BS"), (0, "R1"), (1, "G2")]
    assert chosen.dealer == 1 and game.dealer == 1


def test_g2_play_starts_left_of_the_dealer_and_the_deal_passes_left_each_round():
    game = build("classic", ["R1", "G5 G6", "B7 B8"], "R2", current=0, dealer=2)
    play(game, 0, "R1")  # seat 0 goes out
    assert game.phase is Phase.ROUND_OVER
    events = game.apply(NextRound(1))
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert started.dealer == 0  # passed one seat to the left of seat 2
    assert game.direction in (1, -1)
    if game.phase is Phase.PLAY and game.top.kind.value == "number":
        assert game.current == 1 and game.direction == 1


# --- G3 Matching ----------------------------------------------------------------------------------------------------
def test_g3_match_by_colour_number_or_same_symbol():
    game = build("classic", ["R7 G5 GS G+2 B9 W", "Y1"], "R5")
    legal = {str(game.faces[a.card]) for a in game.legal_actions(0) if isinstance(a, Play)}
    assert legal == {"R7", "G5", "W"}
    game = build("classic", ["GS G+2 GR R3", "Y1"], "RS")
    legal = {str(game.faces[a.card]) for a in game.legal_actions(0) if isinstance(a, Play)}
    assert legal == {"GS", "R3"}  # Skip on Skip only; Draw Two and Reverse are other symbols


def test_g3_a_wild_may_be_played_while_holding_a_playable_card_and_its_colour_rules_next():
    game = build("classic", ["W R3 B3", "B4 R4"], "R5")
    play(game, 0, "W", "blue")
    assert game.colour_in_play() is Colour.BLUE
    assert {str(game.faces[a.card]) for a in game.legal_actions(1) if isinstance(a, Play)} == {"B4"}


def test_g3_a_card_that_does_not_match_is_refused_and_nothing_changes():
    game = build("classic", ["G7 Y1", "B4"], "R5")
    before = game.to_dict()
    with pytest.raises(E.CardNotPlayable):
        play(game, 0, "G7")
    assert game.to_dict() == before


# --- G4 A turn ------------------------------------------------------------------------------------------------------
def test_g4_draw_even_with_a_playable_card_then_only_the_drawn_card_may_be_played():
    game = build("classic", ["R7 Y1", "B4"], "R5", draw="R9 G1")
    assert Draw(0) in game.legal_actions(0)
    game.apply(Draw(0))
    assert game.phase is Phase.PLAY_DRAWN and game.current == 0
    legal = game.legal_actions(0)
    assert {str(game.faces[a.card]) for a in legal if isinstance(a, Play)} == {"R9"}
    with pytest.raises(E.OnlyDrawnCard):
        play(game, 0, "R7")
    play(game, 0, "R9")
    assert game.current == 1


def test_g4_keeping_the_drawn_card_or_drawing_an_unplayable_one_ends_the_turn():
    game = build("classic", ["Y1", "B4", "G2"], "R5", draw="R9 G1")
    game.apply(Draw(0))
    game.apply(Keep(0))
    assert game.current == 1 and hand(game, 0) == ["Y1", "R9"]
    game.apply(Draw(1))  # draws G1: not playable on R5
    assert game.phase is Phase.PLAY and game.current == 2


def test_g4_ruling_colour_and_target_are_part_of_the_play():
    game = build("classic", ["W R3", "B4"], "R5")
    before = game.to_dict()
    with pytest.raises(E.ColourRequired):
        play(game, 0, "W")
    with pytest.raises(E.ColourNotOfThisSide):
        play(game, 0, "W", "pink")
    with pytest.raises(E.ColourNotAllowed):
        play(game, 0, "R3", "red")
    assert game.to_dict() == before
    flex = build("flex", ["XWT+2 R1", "B4", "G4"], "R5")
    before = flex.to_dict()
    with pytest.raises(E.TargetRequired):
        play(flex, 0, "XWT+2", "red", flex=True)
    with pytest.raises(E.TargetYourself):
        play(flex, 0, "XWT+2", "red", flex=True, target=0)
    with pytest.raises(E.InvalidTarget):
        play(flex, 0, "XWT+2", "red", flex=True, target=7)
    assert flex.to_dict() == before


def test_g4_not_your_turn_and_card_not_in_hand_change_nothing():
    game = build("classic", ["R7", "R8"], "R5")
    before = game.to_dict()
    with pytest.raises(E.NotYourTurn):
        play(game, 1, "R8")
    with pytest.raises(E.CardNotInHand):
        game.apply(Play(0, card_in_hand(game, 1, "R8")))
    with pytest.raises(E.NotSeated):
        game.apply(Draw(5))
    assert game.to_dict() == before


# --- G5 Reshuffle --------------------------------------------------------------------------------------------------
def test_g5_empty_draw_pile_reshuffles_the_discard_pile_except_its_top():
    deck_cards = 108
    game = build("classic", ["Y1", "B4"], "R1 R2 R3 G3")
    # move every remaining draw-pile card into seat 1's hand so the pile is empty
    game.hands[1].extend(game.draw_pile)
    game.draw_pile = []
    events = game.apply(Draw(0))
    assert isinstance(events[0], Reshuffled) and events[0].count == 3
    assert [str(game.faces[c]) for c in game.discard] == ["G3"]
    assert len(game.hands[0]) == 2 and len(game.draw_pile) == 2
    assert sum(len(h) for h in game.hands) + len(game.draw_pile) + len(game.discard) == deck_cards


def test_g5_ruling_when_both_piles_are_exhausted_the_draw_takes_what_exists():
    game = build("classic", ["R+2 Y1", "B4", "G7"], "R5")
    game.hands[2].extend(game.draw_pile)
    game.draw_pile = []
    events = game.apply(Play(0, card_in_hand(game, 0, "R+2")))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert drawn.count == 1  # only R5 could be reshuffled under the Draw Two
    assert game.current == 2 and len(game.hands[1]) == 2
    # an ordinary draw that finds nothing simply ends the turn
    game.hands[2].extend(game.draw_pile)
    game.draw_pile = []
    events = game.apply(Draw(2))
    assert next(e for e in events if isinstance(e, CardsDrawn)).count == 0
    assert game.current == 0 and game.phase is Phase.PLAY


def test_g5_ruling_a_reshuffled_wild_loses_its_declared_colour():
    game = build("classic", ["Y1", "B4"], "W B3", declared=None)
    game.hands[1].extend(game.draw_pile)
    game.draw_pile = []
    game.apply(Draw(0))  # reshuffles the old wild and draws it: it carries no colour
    assert hand(game, 0) == ["Y1", "W"]
    assert game.phase is Phase.PLAY_DRAWN and game.declared is None
    with pytest.raises(E.ColourRequired):
        play(game, 0, "W")


# --- G6 Draw penalties ----------------------------------------------------------------------------------------------
def test_g6_a_draw_card_makes_the_next_player_draw_and_lose_their_turn():
    game = build("classic", ["R+2 Y1", "B4", "G7"], "R5", draw="G1 G2")
    events = play(game, 0, "R+2")
    assert names(events)[-3:] == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert hand(game, 1) == ["B4", "G1", "G2"] and game.current == 2


# --- G7 Wild draw restriction and challenge -------------------------------------------------------------------------
def test_g7_an_illegal_wild_draw_four_may_be_played_and_only_the_victim_decides():
    game = build("classic", ["W+4 R3 Y1", "B4", "G7"], "R5")
    play(game, 0, "W+4", "green")  # holds R3 of the colour in play: a bluff
    assert game.phase is Phase.CHALLENGE and game.current == 1
    assert set(game.legal_actions(1)) >= {Challenge(1), Accept(1)}
    before = game.to_dict()
    with pytest.raises(E.NotYourDecision):
        game.apply(Challenge(2))
    with pytest.raises(E.WrongPhase):
        game.apply(Draw(1))  # drawing is not a way to accept (ruling)
    assert game.to_dict() == before


def test_g7_the_challenged_hand_is_shown_to_the_challenger_only():
    game = build("classic", ["W+4 R3 Y1", "B4", "G7"], "R5")
    play(game, 0, "W+4", "green")
    events = game.apply(Challenge(1))
    revealed = [e for e in events if isinstance(e, HandRevealed)]
    assert len(revealed) == 1 and revealed[0].to == 1 and [str(f) for f in revealed[0].faces] == ["R3", "Y1"]
    assert not any(isinstance(e, HandRevealed) for e in visible_to(events, 2))
    assert not any(isinstance(e, HandRevealed) for e in visible_to(events, None))
    assert game.view(1).revealed is not None and game.view(1).revealed[0] == 0
    assert game.view(2).revealed is None and game.view(None).revealed is None


def test_g7_ruling_guilty_challenger_is_not_penalised_and_plays_and_the_colour_stands():
    game = build("classic", ["W+4 R3 Y1", "B4 G9", "G7"], "R5", draw="Y2 Y3 Y4 Y5")
    play(game, 0, "W+4", "green")
    game.apply(Challenge(1))
    assert hand(game, 0) == ["R3", "Y1", "Y2", "Y3", "Y4", "Y5"]
    assert game.current == 1 and game.phase is Phase.PLAY
    assert game.colour_in_play() is Colour.GREEN
    play(game, 1, "G9")


def test_g7_option_block_illegal_wild_draw_forbids_the_bluff_and_removes_the_challenge():
    opts = Options(block_illegal_wild_draw=True)
    game = build("classic", ["W+4 R3", "B4", "G7"], "R5", options=opts)
    with pytest.raises(E.CardNotPlayable):
        play(game, 0, "W+4", "green")
    legal_game = build("classic", ["W+4 G3", "B4", "G7"], "R5", options=opts, draw="Y1 Y2 Y3 Y4")
    events = play(legal_game, 0, "W+4", "green")
    assert legal_game.phase is Phase.PLAY and legal_game.current == 2
    assert any(isinstance(e, TurnSkipped) and e.player == 1 for e in events)
    assert len(legal_game.hands[1]) == 5


def test_g7_ruling_a_wild_draw_as_last_card_cannot_be_challenged_and_the_penalty_counts():
    game = build("classic", ["W+4", "B4", "G7"], "R5", draw="R9 R8 Y1 Y2")
    events = play(game, 0, "W+4", "red")
    assert game.phase is Phase.ROUND_OVER
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points[0] == 4 + 9 + 8 + 1 + 2 + 7


def test_g7_classic_a_wild_in_hand_is_not_a_card_of_the_colour_in_play():
    game = build("classic", ["W+4 W Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    play(game, 0, "W+4", "green")
    game.apply(Challenge(1))  # innocent: the Wild does not count (ruling)
    assert len(game.hands[1]) == 1 + 6 and game.current == 2


# --- G8 UNO call ------------------------------------------------------------------------------------------------------
def test_g8_calling_uno_with_the_next_to_last_card_protects_from_a_catch():
    game = build("classic", ["R7 R8", "B4", "G7"], "R5")
    events = play(game, 0, "R7", uno=True)
    assert any(isinstance(e, UnoCalled) for e in events) and game.catchable is None
    events = game.apply(Catch(1, 0))
    assert isinstance(events[0], FalseCatch) and len(game.hands[0]) == 1


def test_g8_an_uncalled_one_card_player_is_caught_and_draws_two():
    game = build("classic", ["R7 R8", "B4", "G7"], "R5", draw="Y1 Y2")
    play(game, 0, "R7")
    assert game.catchable == 0 and Catch(2, 0) in game.legal_actions(2)
    events = game.apply(Catch(2, 0))
    assert isinstance(events[0], UnoCaught) and hand(game, 0) == ["R8", "Y1", "Y2"]


def test_g8_ruling_the_window_closes_at_the_next_players_first_move():
    game = build("classic", ["R7 R8", "B4", "G7"], "R5", draw="Y1 Y2 Y3")
    play(game, 0, "R7")
    game.apply(Draw(1))  # the next player's first move
    assert game.catchable is None
    events = game.apply(Catch(2, 0))
    assert isinstance(events[0], FalseCatch) and len(game.hands[0]) == 1


def test_g8_ruling_a_late_call_while_holding_one_card_and_refused_calls():
    game = build("classic", ["R7 R8 R9", "B4", "G7"], "R5")
    with pytest.raises(E.UnoNotAllowed):
        game.apply(CallUno(0))
    with pytest.raises(E.UnoNotAllowed):
        play(game, 0, "R7", uno=True)  # three cards: R7 is not the next-to-last
    game2 = build("classic", ["R7 R8", "B4", "G7"], "R5")
    play(game2, 0, "R7")
    game2.apply(CallUno(0))
    assert game2.catchable is None and game2.uno[0]
    with pytest.raises(E.UnoNotAllowed):
        game2.apply(CallUno(0))
    with pytest.raises(E.CatchYourself):
        game2.apply(Catch(0, 0))


def test_g8_ruling_the_window_closes_when_the_one_card_hand_grows():
    game = build("classic", ["RS R8", "B4"], "R5", draw="Y1")  # two players: Skip lets seat 0 play again
    play(game, 0, "RS")
    assert game.catchable == 0 and game.current == 0
    game.apply(Draw(0))  # own move: hand grows to two
    assert game.catchable is None


def test_g8_option_false_catch_penalty():
    game = build("classic", ["R7 R8", "B4", "G7"], "R5", draw="Y1 Y2", options=Options(false_catch_penalty=2))
    events = game.apply(Catch(1, 2))
    assert isinstance(events[0], FalseCatch) and events[0].penalty == 2
    assert hand(game, 1) == ["B4", "Y1", "Y2"]


# --- G9 End of round and scoring -----------------------------------------------------------------------------------
def test_g9_the_winner_scores_the_cards_left_in_the_opponents_hands():
    game = build("classic", ["R7", "B4 W GS", "G7 Y0 W+4"], "R5", scores=[10, 0, 0])
    events = play(game, 0, "R7")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (4 + 50 + 20 + 7 + 0 + 50, 0, 0)
    assert ended.scores == (10 + 131, 0, 0) and game.phase is Phase.ROUND_OVER
    assert [str(f) for f in ended.hands[1]] == ["B4", "W", "GS"]


def test_g9_a_final_draw_card_still_makes_the_next_player_draw():
    game = build("classic", ["R+2", "B4", "G7"], "R5", draw="R9 R8")
    events = play(game, 0, "R+2")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points[0] == 4 + 9 + 8 + 7


def test_g9_the_match_ends_at_the_target_score():
    game = build("classic", ["R7", "W W"], "R5", scores=[400, 0])
    events = play(game, 0, "R7")
    assert isinstance(events[-1], MatchEnded) and events[-1].winner == 0
    assert game.phase is Phase.MATCH_OVER and game.winner == 0
    with pytest.raises(E.MatchOver):
        game.apply(NextRound(1))


def test_g9_ruling_target_zero_means_a_single_round():
    game = build("classic", ["R7", "B4"], "R5", options=Options(target_score=0))
    play(game, 0, "R7")
    assert game.phase is Phase.MATCH_OVER and game.winner == 0


def test_g9_option_lowest_scoring_each_keeps_their_own_points_and_the_lowest_wins():
    opts = Options(scoring="lowest", target_score=100)
    game = build("classic", ["R7", "W W", "B4"], "R5", scores=[30, 10, 90], options=opts)
    events = play(game, 0, "R7")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (0, 100, 4) and ended.scores == (30, 110, 94)
    assert game.phase is Phase.MATCH_OVER and game.winner == 0  # seat 1 reached 100; seat 0 is lowest


# --- G10 Two players -------------------------------------------------------------------------------------------------
def test_g10_two_players_reverse_acts_as_skip():
    game = build("classic", ["RR R1", "B4"], "R5")
    play(game, 0, "RR")
    assert game.current == 0 and game.direction == -1


def test_g10_two_players_skip_and_draw_two_let_the_player_play_again():
    game = build("classic", ["RS R+2 R1", "B4"], "R5", draw="Y1 Y2")
    play(game, 0, "RS")
    assert game.current == 0
    play(game, 0, "R+2")
    assert game.current == 0 and len(game.hands[1]) == 3


def test_g10_two_players_skip_everyone_is_skip_and_flex_draws_do_not_skip():
    flip = build("flip", ["TSE T1", "P4"], "T5", side="dark")
    play(flip, 0, "TSE")
    assert flip.current == 0
    flex = build("flex", ["RX+2 R1", "B4"], "R5", draw="Y1")
    play(flex, 0, "RX+2", flex=True)
    assert flex.current == 1 and len(flex.hands[1]) == 2  # the opponent drew one and plays


# --- G11 Information ------------------------------------------------------------------------------------------------
def test_g11_views_show_counts_and_public_state_but_never_other_hands():
    game = build("classic", ["R7 R8", "B4 B5 B6", "G7"], "R5", draw="Y1")
    view = game.view(1)
    assert [c.face.__str__() for c in view.hand] == ["B4", "B5", "B6"]
    assert view.hand_counts == (2, 3, 1) and str(view.top) == "R5" and view.colour_in_play is Colour.RED
    assert view.direction == 1 and view.pending == 0 and view.draw_pile_size == len(game.draw_pile)
    public = game.view(None)
    assert public.hand == () and public.legal == () and public.other_faces is None
    events = game.apply(Draw(0))
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert drawn[0].count == 1
    assert not any(isinstance(e, CardsReceived) for e in visible_to(events, 1))
    assert any(isinstance(e, CardsReceived) for e in visible_to(events, 0))
