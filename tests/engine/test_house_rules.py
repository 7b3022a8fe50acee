"""House rules (SPEC H), each with the option on and off, in every game it applies to.

Rulings decided here (README "Rule options"):
- ``stacking``: only regular sides stack — classic Draw Two and Wild Draw Four; FLIP Draw One, Wild Draw Two, Draw
  Five; Flex Draw Two, Flex Draw Two's regular side, Flex Wild Draw Four's regular side. ``same_kind``: on the same
  symbol; ``any_draw``: any of them on any. Wild Draw Color and every Flex flex side never stack (drawn at once, as
  without the rule). A stacked wild draw may be challenged by the player who must take the stack: the challenge
  settles the whole stack (guilty: the player of the wild draw takes the total; innocent: the challenger takes the
  total + 2 and loses the turn).
- ``force_play`` also refuses to keep a playable drawn card.
- ``seven_zero``: a 7 or a 0 played as the last card ends the round (no swap); after a swap nobody can be caught.
- ``jump_in``: not over a pending challenge, colour or stack; regular sides only; no wilds.
"""

from __future__ import annotations

import pytest

from bot.engine import errors as E
from bot.engine.actions import Accept, Catch, Challenge, Draw, Keep, NextRound, Play, PlayMany
from bot.engine.builder import build
from bot.engine.cards import Colour
from bot.engine.events import (
    CardsDrawn,
    ChallengeResolved,
    DirectionChanged,
    HandReceived,
    HandsPassed,
    HandsSwapped,
    JumpedIn,
    MatchEnded,
    PenaltyAccepted,
    PlayerEliminated,
    StackPending,
    TurnSkipped,
    UnoCalled,
    visible_to,
)
from bot.engine.game import Game
from bot.engine.options import OptionError, Options
from bot.engine.scoring import placement
from bot.engine.view import Phase, RoundRecord

from .helpers import card_in_hand, hand, play

ON, OFF = "on", "off"


def opts(**kw: object) -> Options:
    return Options(**kw)  # type: ignore[arg-type]


def plays_of(game: Game, seat: int) -> list[str]:
    legal = game.legal_actions(seat)
    return sorted({hand_text(game, a.card) for a in legal[: legal.plays] if isinstance(a, Play)})


def hand_text(game: Game, card: int) -> str:
    from bot.engine.cards import format_face

    return format_face(game.faces[card])


# --- stacking -------------------------------------------------------------------------------------------------------

DRAW_CARDS = {  # game: (a draw card, two more of the same kind, the top it goes on, its count)
    "classic": ("R+2", "G+2", "Y+2", "R5", 2),
    "flip": ("R+1", "G+1", "Y+1", "R5", 1),
    "flex": ("R+2", "G+2", "Y+2", "R5", 2),
}


@pytest.mark.parametrize("mode", DRAW_CARDS)
def test_h_stacking_off_the_next_player_draws_at_once(mode: str) -> None:
    card, other, _, top, count = DRAW_CARDS[mode]
    game = build(mode, [f"{card} B1", f"{other} B2", "B3 B4"], top)
    events = play(game, 0, card)
    assert CardsDrawn(1, count, "penalty") in events and TurnSkipped(1) in events
    assert game.phase is Phase.PLAY and game.current == 2 and game.stack is None


@pytest.mark.parametrize("mode", DRAW_CARDS)
def test_h_stacking_the_owner_may_only_stack_or_take_the_total_and_three_players_pass_it_on(mode: str) -> None:
    card, other, third, top, count = DRAW_CARDS[mode]
    game = build(mode, [f"{card} B1", f"{other} B2", f"{third} B3", "B4 B5"], top, options=opts(stacking="same_kind"))
    events = play(game, 0, card)
    assert StackPending(1, count) in events and game.phase is Phase.STACK and game.current == 1
    view = game.view(1)
    assert view.stack == count and view.pending == 1 and view.phase is Phase.STACK
    assert plays_of(game, 1) == [other] and Draw(1) not in game.legal_actions(1) and Accept(1) in game.legal_actions(1)
    with pytest.raises(E.WrongPhase):
        game.apply(Draw(1))
    with pytest.raises(E.NotYourDecision):
        game.apply(Accept(2))
    with pytest.raises(E.CardNotPlayable):
        play(game, 1, "B2")
    play(game, 1, other)
    play(game, 2, third)
    assert game.view(None).stack == 3 * count and game.current == 3  # "+6 on you: stack or take 6"
    events = game.apply(Accept(3))
    assert events[0] == PenaltyAccepted(3) and CardsDrawn(3, 3 * count, "penalty") in events
    assert TurnSkipped(3) in events and game.current == 0 and game.phase is Phase.PLAY and game.stack is None
    assert len(game.hands[3]) == 2 + 3 * count


def test_h_stacking_same_kind_keeps_draw_twos_and_wild_draw_fours_apart_any_draw_mixes_them() -> None:
    hands = ["R+2 B1", "W+4 G+2 B2", "B3 B4"]
    same = build("classic", hands, "R5", options=opts(stacking="same_kind"))
    play(same, 0, "R+2")
    assert plays_of(same, 1) == ["G+2"]
    with pytest.raises(E.CardNotPlayable):
        play(same, 1, "W+4", "blue")
    anything = build("classic", hands, "R5", options=opts(stacking="any_draw"))
    play(anything, 0, "R+2")
    assert plays_of(anything, 1) == ["G+2", "W+4"]  # the Draw Two needs no matching colour: a draw answers a draw
    play(anything, 1, "W+4", "blue")
    assert anything.stack == 6 and anything.current == 2 and anything.declared is Colour.BLUE
    same_on_wild = build("classic", ["W+4 B1", "R+2 B2", "B3"], "R5", options=opts(stacking="same_kind"))
    play(same_on_wild, 0, "W+4", "red")
    assert plays_of(same_on_wild, 1) == []  # a Draw Two never goes on a Wild Draw Four under same_kind


def test_h_stacking_flip_draw_one_wild_draw_two_draw_five_stack_wild_draw_color_never() -> None:
    game = build("flip", ["R+1 B1", "W+2 B2", "B3"], "R5", options=opts(stacking="any_draw"))
    play(game, 0, "R+1")
    play(game, 1, "W+2", "green")
    assert game.stack == 3 and game.current == 2
    dark = build("flip", ["P+5 T1", "O+5 W+C T2", "T3"], "P4", side="dark", options=opts(stacking="any_draw"))
    play(dark, 0, "P+5")
    assert plays_of(dark, 1) == ["O+5"]  # SPEC H ruling: Wild Draw Color has no count to add
    play(dark, 1, "O+5")
    assert dark.stack == 10
    wdc = build("flip", ["W+C T1", "P+5 T2", "T3"], "P4", side="dark", options=opts(stacking="any_draw"))
    play(wdc, 0, "W+C", "teal")
    assert wdc.phase is Phase.CHALLENGE and wdc.stack is None  # played on its own: the usual challenge (SPEC G7)


def test_h_stacking_flex_regular_sides_stack_flex_sides_never() -> None:
    game = build("flex", ["R+2 B1", "RX+2 XWT+2 XWA+2 B2", "B3 B4"], "R5", options=opts(stacking="any_draw"))
    play(game, 0, "R+2")
    legal = game.legal_actions(1)
    stacks = [a for a in legal[: legal.plays] if isinstance(a, Play)]
    assert {hand_text(game, a.card) for a in stacks} == {"RX+2"} and not any(a.flex for a in stacks)
    play(game, 1, "RX+2")  # a Flex Draw Two's regular side is a Draw Two
    assert game.stack == 4 and game.current == 2
    flex_side = build("flex", ["RX+2 B1", "G1 B2", "B3 B4"], "R5", options=opts(stacking="any_draw"))
    events = play(flex_side, 0, "RX+2", flex=True)  # its flex side: everyone else draws 1 at once, no stack
    assert flex_side.phase is Phase.PLAY and flex_side.stack is None
    assert [e for e in events if isinstance(e, CardsDrawn)] == [
        CardsDrawn(1, 1, "penalty"),
        CardsDrawn(2, 1, "penalty"),
    ]
    wd4 = build("flex", ["XW+4 B1", "XW+4 G2", "B3 B4"], "R5", options=opts(stacking="same_kind"))
    play(wd4, 0, "XW+4", "blue", target=2, flex=True)  # flex side: the target may challenge, no stack (SPEC X7)
    assert wd4.phase is Phase.CHALLENGE and wd4.stack is None and wd4.current == 2


def test_h_g7_a_stacked_wild_draw_may_be_challenged_and_the_challenge_settles_the_whole_stack() -> None:
    options = opts(stacking="any_draw")
    guilty = build("classic", ["R+2 B1", "W+4 R9 B2", "B3 G4", "B5"], "R5", options=options)
    play(guilty, 0, "R+2")
    play(guilty, 1, "W+4", "green")  # holds R9, a card of the colour in play: guilty
    legal = guilty.legal_actions(2)
    assert Challenge(2) in legal and Accept(2) in legal and guilty.view(2).stack == 6
    events = guilty.apply(Challenge(2))
    assert ChallengeResolved(2, 1, True, 1, 6) in events and guilty.current == 2 and guilty.phase is Phase.PLAY
    assert len(guilty.hands[1]) == 2 + 6 and guilty.stack is None
    innocent = build("classic", ["R+2 B1", "W+4 G9 B2", "B3 G4", "B5"], "R5", options=options)
    play(innocent, 0, "R+2")
    play(innocent, 1, "W+4", "green")
    events = innocent.apply(Challenge(2))
    assert ChallengeResolved(2, 1, False, 2, 8) in events and TurnSkipped(2) in events and innocent.current == 3
    not_wild = build("classic", ["W+4 B1", "R+2 B2", "B3", "B4"], "R5", options=options)
    play(not_wild, 0, "W+4", "red")
    assert Challenge(1) in not_wild.legal_actions(1)
    play(not_wild, 1, "R+2")  # a Draw Two on top: nothing left to challenge
    assert Challenge(2) not in not_wild.legal_actions(2)
    with pytest.raises(E.WrongPhase):
        not_wild.apply(Challenge(2))


def test_h_g9_g10_stacking_a_last_card_draws_at_once_and_two_players_play_again_after_taking_it() -> None:
    last = build("classic", ["R+2", "G+2 B2", "B3"], "R5", options=opts(stacking="same_kind"))
    events = play(last, 0, "R+2")
    assert CardsDrawn(1, 2, "penalty") in events and last.phase is Phase.ROUND_OVER
    two = build("classic", ["R+2 B1", "G4 B2"], "R5", options=opts(stacking="same_kind"))
    play(two, 0, "R+2")
    two.apply(Accept(1))
    assert two.current == 0 and two.phase is Phase.PLAY  # SPEC G10: the opponent draws, the player plays again


def test_h_stacking_the_owner_leaving_lets_play_go_on() -> None:
    game = build("classic", ["R+2 B1", "G+2 B2", "B3", "B4"], "R5", options=opts(stacking="same_kind"))
    play(game, 0, "R+2")
    game.remove_player(1)
    assert game.phase is Phase.PLAY and game.stack is None and game.current == 2


# --- draw to match --------------------------------------------------------------------------------------------------

DRAW_TO_MATCH = {  # game: (hand with nothing playable, draw pile top down with the first playable card last, top)
    "classic": ("G1 G2", "B1 Y2 R7", "R5"),
    "flip": ("G1 G2", "B1 Y2 R7", "R5"),
    "flex": ("G1 G2", "B1 Y2 R7", "R5"),
}


@pytest.mark.parametrize("mode", DRAW_TO_MATCH)
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h_draw_to_match_draws_until_a_playable_card_with_one_event_saying_how_many(mode: str, rule: str) -> None:
    held, pile, top = DRAW_TO_MATCH[mode]
    game = build(mode, [held, "B3"], top, pile, options=opts(draw_to_match=rule == ON))
    events = game.apply(Draw(0))
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    if rule == ON:
        assert drawn == [CardsDrawn(0, 3, "draw")] and game.phase is Phase.PLAY_DRAWN and game.current == 0
        assert [c.rstrip("*") for c in hand(game, 0)[-3:]] == pile.split() and game.view(0).drawn is not None
        game.apply(Keep(0))  # then play it or keep it (SPEC G4)
        assert game.current == 1
    else:
        assert drawn == [CardsDrawn(0, 1, "draw")] and game.current == 1


def test_h_draw_to_match_stops_when_both_piles_are_exhausted() -> None:
    game = build("classic", ["G1", "B3"], "R5", "B1 Y2", rest="box", options=opts(draw_to_match=True))
    events = game.apply(Draw(0))
    assert [e for e in events if isinstance(e, CardsDrawn)] == [CardsDrawn(0, 2, "draw")] and game.current == 1


# --- force play -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h_force_play_refuses_drawing_while_holding_a_playable_card(mode: str, rule: str) -> None:
    game = build(mode, ["R7 G1", "B3"], "R5", "R8 B1", options=opts(force_play=rule == ON))
    if rule == ON:
        assert Draw(0) not in game.legal_actions(0)
        with pytest.raises(E.MustPlay):
            game.apply(Draw(0))
        stuck = build(mode, ["G1 G2", "B3"], "R5", "R8", options=opts(force_play=True))
        assert Draw(0) in stuck.legal_actions(0)
        stuck.apply(Draw(0))  # the drawn R8 is playable: it must be played
        assert Keep(0) not in stuck.legal_actions(0)
        with pytest.raises(E.MustPlay):
            stuck.apply(Keep(0))
        assert stuck.default_action(0) == Play(0, stuck.drawn or -1)
    else:
        assert Draw(0) in game.legal_actions(0)
        game.apply(Draw(0))
        assert game.phase is Phase.PLAY_DRAWN and Keep(0) in game.legal_actions(0)


# --- seven-zero -----------------------------------------------------------------------------------------------------


def test_h_seven_zero_a_seven_swaps_hands_with_the_chosen_player_never_oneself() -> None:
    game = build("classic", ["R7 G1 G2", "B3", "Y4 Y5"], "R5", options=opts(seven_zero=True))
    seven = card_in_hand(game, 0, "R7")
    legal = game.legal_actions(0)
    assert {a.target for a in legal if isinstance(a, Play) and a.card == seven} == {1, 2}
    with pytest.raises(E.TargetRequired):
        game.apply(Play(0, seven))
    with pytest.raises(E.TargetYourself):
        game.apply(Play(0, seven, target=0))
    events = game.apply(Play(0, seven, target=2))
    assert HandsSwapped(0, 2) in events
    assert hand(game, 0) == ["Y4", "Y5"] and hand(game, 2) == ["G1", "G2"] and game.current == 1
    mine = visible_to(events, 0)
    assert [e for e in mine if isinstance(e, HandReceived)] == [
        HandReceived(0, 2, tuple(game.faces[c] for c in game.hands[0]))
    ]
    assert not [e for e in visible_to(events, None) if isinstance(e, HandReceived)]  # public: only who swapped
    assert not [e for e in visible_to(events, 1) if isinstance(e, HandReceived)]


def test_h_seven_zero_a_zero_passes_every_hand_one_seat_in_the_direction_of_play() -> None:
    for direction, expect in ((1, ["B3", "G1 G2", "Y4 Y5"]), (-1, ["Y4 Y5", "B3", "G1 G2"])):
        game = build("classic", ["R0 G1 G2", "Y4 Y5", "B3"], "R5", direction=direction, options=opts(seven_zero=True))
        events = play(game, 0, "R0")
        assert HandsPassed(0, direction) in events
        assert [" ".join(hand(game, s)) for s in range(3)] == expect
        received = {e.to: e.giver for e in events if isinstance(e, HandReceived)}
        assert received == {(s + direction) % 3: s for s in range(3)}


def test_h_seven_zero_off_a_seven_is_a_plain_number_and_a_last_seven_ends_the_round() -> None:
    plain = build("classic", ["R7 G1", "B3"], "R5")
    with pytest.raises(E.TargetNotAllowed):
        plain.apply(Play(0, card_in_hand(plain, 0, "R7"), target=1))
    play(plain, 0, "R7")
    assert hand(plain, 0) == ["G1"]
    last = build("classic", ["R7", "B3"], "R5", options=opts(seven_zero=True))
    events = last.apply(Play(0, card_in_hand(last, 0, "R7"), target=1))
    assert last.phase is Phase.ROUND_OVER and not any(isinstance(e, HandsSwapped) for e in events)


@pytest.mark.parametrize("mode", ["flip", "flex"])
def test_h_seven_zero_is_classic_only(mode: str) -> None:
    with pytest.raises(OptionError):
        Game.new(mode, 3, options=opts(seven_zero=True))


# --- jump-in --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", [ON, OFF])
def test_h_jump_in_an_identical_card_is_played_out_of_turn_and_play_goes_on_from_the_jumper(rule: str) -> None:
    game = build("classic", ["B1 B2", "B3 B4", "R5 G1", "B5 B6"], "R5", options=opts(jump_in=rule == ON))
    jump = Play(2, card_in_hand(game, 2, "R5"))
    if rule == OFF:
        assert jump not in game.legal_actions(2) and game.view(2).jump_ins == ()
        with pytest.raises(E.NotYourTurn):
            game.apply(jump)
        return
    assert jump in game.legal_actions(2) and [h.id for h in game.view(2).jump_ins] == [jump.card]
    assert game.view(None).jump_ins == () and game.jump_ins(0) == [] and game.jump_ins(1) == []
    assert game.legal_actions(3).plays == 0  # B5 matches by number, but is not identical
    events = game.apply(jump)
    assert events[0] == JumpedIn(2, 0) and game.current == 3  # play goes on from the jumper


@pytest.mark.parametrize("mode", ["classic", "flip"])
def test_h_jump_in_a_race_the_first_accepted_wins_the_other_is_too_late(mode: str) -> None:
    """The player to move and a jumper click at once: whichever the engine accepts first wins. Here the player to
    move is first: the jumper's identical card no longer matches the top and is refused as too late."""
    game = build(mode, ["R3 B2", "B3 B4", "R5 G1"], "R5", options=opts(jump_in=True))
    jump = Play(2, card_in_hand(game, 2, "R5"))
    play(game, 0, "R3")
    before = game.to_dict()
    with pytest.raises(E.TooLate) as info:
        game.apply(jump)
    assert info.value.code == "too_late" and game.to_dict() == before
    first = build(mode, ["R3 B2", "B3 B4", "R5 G1", "B5"], "R5", options=opts(jump_in=True))
    first.apply(Play(2, card_in_hand(first, 2, "R5")))  # the jumper is first: the player to move lost the turn
    with pytest.raises(E.NotYourTurn):
        play(first, 0, "R3")


def test_h_jump_in_flex_has_no_identical_cards_so_nobody_ever_jumps_in() -> None:
    from random import Random

    from bot.engine.simulate import random_step

    game, _ = Game.new("flex", 4, seed=5, options=opts(jump_in=True))
    faces = [f for f in game.deck.faces(game.side) if not f.is_wild]
    assert len(set(faces)) == len(faces)  # SPEC X1: every coloured card of UNO Flex! is unique (wilds never jump in)
    agent = Random(5)
    for _ in range(200):
        assert not any(game.jump_ins(s) for s in range(game.players))
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent)


def test_h_jump_in_never_over_a_pending_challenge_and_never_with_a_wild() -> None:
    game = build("classic", ["W+4 B1", "B3 B4", "W+4 B5"], "R5", options=opts(jump_in=True))
    play(game, 0, "W+4", "red")
    assert game.phase is Phase.CHALLENGE and game.legal_actions(2).plays == 0
    wild = build("classic", ["B1", "B2", "W B5"], "R5 W", declared="red", options=opts(jump_in=True))
    assert wild.legal_actions(2).plays == 0


def test_h_jump_in_on_the_flip_dark_side() -> None:
    game = build("flip", ["T1 T2", "O3", "P5 O4"], "P5", side="dark", options=opts(jump_in=True))
    events = play(game, 2, "P5")
    assert events[0] == JumpedIn(2, 0) and game.current == 0


# --- number finish (SPEC H6) ----------------------------------------------------------------------------------------

LAST_CARDS = {  # game: (last cards that are not numbers, each playable on the top; the top; a last number on it)
    "classic": (["RS", "RR", "R+2", "W", "W+4"], "R5", "R7"),
    "flip": (["RS", "RR", "R+1", "RF", "W", "W+2"], "R5", "R7"),
    "flex": (["RS", "RR", "R+2", "RX+2", "WAF", "XW+4"], "R5", "R3/B"),
}


@pytest.mark.parametrize("mode", LAST_CARDS)
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h6_number_finish_an_action_or_wild_last_card_cannot_be_played_and_is_kept(mode: str, rule: str) -> None:
    lasts, top, _ = LAST_CARDS[mode]
    for last in lasts:
        game = build(mode, [last, "B3 B4", "B6 B7"], top, "G1 G2", options=opts(number_finish=rule == ON))
        card = card_in_hand(game, 0, last)
        colour = Colour.RED if game.faces[card].is_wild else None
        action = Play(0, card, colour, 1 if game._needs_target(card, False) else None)
        if rule == OFF:
            assert action in game.legal_actions(0)
            game.apply(action)
            assert game.hands[0] == [] and game.history[-1].winner == 0  # went out on it (SPEC G9)
            continue
        assert game.legal_actions(0).plays == 0 and Draw(0) in game.legal_actions(0)
        before = game.to_dict()
        with pytest.raises(E.LastCardNotNumber) as info:
            game.apply(action)
        assert info.value.code == "last_card_not_number" and game.to_dict() == before  # the move changes nothing
        game.apply(Draw(0))  # the player draws instead; the drawn G1 does not match: the turn passes
        assert hand(game, 0) == [last, "G1"] and game.current == 1
        assert game.default_action(1) == Draw(1)


@pytest.mark.parametrize("mode", LAST_CARDS)
def test_h6_number_finish_a_last_number_goes_out_and_an_action_before_it_is_fine(mode: str) -> None:
    lasts, top, number = LAST_CARDS[mode]
    game = build(mode, [f"{lasts[0]} {number}", "B3 B4", "B6 B7"], top, options=opts(number_finish=True))
    assert lasts[0] in plays_of(game, 0)  # with two cards an action card may be played, leaving the number
    game = build(mode, [number, "B3 B4", "B6 B7"], top, options=opts(number_finish=True))
    play(game, 0, number)
    assert game.history[-1].winner == 0


def test_h6_number_finish_with_force_play_a_last_action_card_does_not_force_a_play() -> None:
    game = build("classic", ["RS", "B3 B4"], "R5", "G1", options=opts(number_finish=True, force_play=True))
    assert Draw(0) in game.legal_actions(0) and game.default_action(0) == Draw(0)


def test_h6_number_finish_with_stacking_a_last_draw_card_cannot_be_stacked_the_stack_is_taken() -> None:
    game = build("classic", ["R+2 B1", "G+2", "B3 B4"], "R5", options=opts(number_finish=True, stacking="same_kind"))
    play(game, 0, "R+2")
    assert game.phase is Phase.STACK and game.current == 1
    assert game.legal_actions(1).plays == 0 and game.default_action(1) == Accept(1)
    with pytest.raises(E.LastCardNotNumber):
        play(game, 1, "G+2")


def test_h6_number_finish_with_jump_in_a_last_identical_action_card_cannot_jump_in() -> None:
    game = build("classic", ["B1 B2", "B3 B4", "RS"], "R5 RS", options=opts(number_finish=True, jump_in=True))
    assert game.legal_actions(2).plays == 0 and game.jump_ins(2) == []
    with pytest.raises(E.LastCardNotNumber):
        play(game, 2, "RS")


def test_h6_number_finish_with_seven_zero_a_last_seven_is_a_number_and_goes_out() -> None:
    game = build("classic", ["R7", "B3 B4"], "R5", options=opts(number_finish=True, seven_zero=True))
    assert "R7" in plays_of(game, 0)
    play(game, 0, "R7", target=1)
    assert game.history[-1].winner == 0


def test_h6_number_finish_the_flex_side_of_a_last_number_is_a_number_too() -> None:
    game = build("flex", ["R3/B", "B3 B4"], "B5", power="GG", options=opts(number_finish=True))
    action = Play(0, card_in_hand(game, 0, "R3/B"), flex=True)
    assert action in game.legal_actions(0)
    game.apply(action)
    assert game.history[-1].winner == 0


# --- stack deflect (SPEC H7) ----------------------------------------------------------------------------------------

DEFLECT_GAMES = {  # game: (a draw card, a Reverse and a Skip of its colour, another draw card, the top it goes on)
    "classic": ("R+2", "RR", "RS", "G+2", "R5"),
    "flip": ("R+1", "RR", "RS", "G+1", "R5"),
    "flex": ("R+2", "RR", "RS", "G+2", "R5"),
}


def deflecting(**kw: object) -> Options:
    return opts(stacking="same_kind", stack_deflect=True, **kw)


@pytest.mark.parametrize("mode", DEFLECT_GAMES)
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h7_stack_deflect_a_reverse_sends_the_stack_back(mode: str, rule: str) -> None:
    card, reverse, _, other, top = DEFLECT_GAMES[mode]
    options = deflecting() if rule == ON else opts(stacking="same_kind")
    game = build(mode, [f"{card} {other} B1", f"{reverse} B2", "B3 B4"], top, options=options)
    count = game.rules.draw_cards[game.faces[card_in_hand(game, 0, card)].kind]
    play(game, 0, card)
    assert game.phase is Phase.STACK and game.current == 1
    if rule == OFF:
        assert plays_of(game, 1) == []
        with pytest.raises(E.CardNotPlayable):
            play(game, 1, reverse)
        return
    assert plays_of(game, 1) == [reverse]
    events = play(game, 1, reverse)
    assert events[1:] == [DirectionChanged(-1), StackPending(0, count)]
    assert game.phase is Phase.STACK and game.current == 0 and game.stack == count and game.direction == -1
    assert game.stack_card().kind is game.faces[card_in_hand(game, 0, other)].kind  # judged by the draw card below
    assert plays_of(game, 0) == [other]  # the stack may be stacked on again (same kind as the draw card)
    play(game, 0, other)
    assert game.current == 2 and game.stack == 2 * count  # going on in the new direction


@pytest.mark.parametrize("mode", DEFLECT_GAMES)
def test_h7_stack_deflect_a_skip_passes_the_stack_to_the_next_player(mode: str) -> None:
    card, _, skip, _, top = DEFLECT_GAMES[mode]
    game = build(mode, [f"{card} B1", f"{skip} B2", "B3 B4", "B5 B6"], top, options=deflecting())
    play(game, 0, card)
    events = play(game, 1, skip)
    total = game.stack
    assert events[1:] == [StackPending(2, total)] and game.current == 2 and game.direction == 1
    events = game.apply(Accept(2))
    assert CardsDrawn(2, total or 0, "penalty") in events and TurnSkipped(2) in events and game.current == 3
    assert hand(game, 1) == ["B2"]  # the deflector drew nothing


def test_h7_stack_deflect_needs_the_colour_in_play_or_the_same_symbol() -> None:
    game = build("classic", ["W+4 B1", "RR BS YR", "B3 B4"], "R5", options=deflecting())
    play(game, 0, "W+4", "blue")
    assert plays_of(game, 1) == ["BS"]  # blue was declared; a red or yellow Reverse does not match
    play(game, 1, "BS")
    assert game.current == 2 and plays_of(game, 2) == []
    again = build("classic", ["R+2 B1", "GR B2", "YR B3", "B4 B5"], "R5", options=deflecting())
    play(again, 0, "R+2")
    assert plays_of(again, 1) == []  # a green Reverse on a red Draw Two
    mixed = build("classic", ["R+2 B1", "RR B2", "YR YS"], "R5", options=deflecting())
    play(mixed, 0, "R+2")
    play(mixed, 1, "RR")  # sent back to seat 0, who holds nothing that answers it: they take it
    assert mixed.current == 0 and plays_of(mixed, 0) == [] and mixed.legal_actions(0)[0] == Accept(0)
    four = build("classic", ["R+2 B1", "RS B2", "YS YR"], "R5", options=deflecting())
    play(four, 0, "R+2")
    play(four, 1, "RS")
    assert plays_of(four, 2) == ["YS"]  # a yellow Skip on the red Skip: the same symbol; the yellow Reverse is not


def test_h7_stack_deflect_a_deflected_wild_draw_can_no_longer_be_challenged() -> None:
    game = build("classic", ["W+4 R1", "BR B2", "B3 B4"], "R5", options=deflecting())
    play(game, 0, "W+4", "blue")  # guilty: seat 0 holds red
    assert Challenge(1) in game.legal_actions(1)
    play(game, 1, "BR")
    assert game.current == 0 and Challenge(0) not in game.legal_actions(0) and game.challenge is None
    with pytest.raises(E.WrongPhase):
        game.apply(Challenge(0))


def test_h7_g10_stack_deflect_with_two_players_goes_back_to_the_other_player() -> None:
    for deflector in ("RR", "RS"):
        game = build("classic", ["R+2 B1", f"{deflector} B2"], "R5", options=deflecting())
        play(game, 0, "R+2")
        play(game, 1, deflector)
        assert game.current == 0 and game.stack == 2
        game.apply(Accept(0))
        assert len(game.hands[0]) == 3 and game.current == 1


def test_h7_g9_stack_deflect_as_a_last_card_the_player_it_goes_to_takes_the_total() -> None:
    game = build("classic", ["R+2 B1", "RR", "B3 B4"], "R5", options=deflecting())
    play(game, 0, "R+2")
    events = play(game, 1, "RR")
    assert CardsDrawn(0, 2, "penalty") in events and game.history[-1].winner == 1
    finish = build("classic", ["R+2 B1", "RR", "B3 B4"], "R5", options=deflecting(number_finish=True))
    play(finish, 0, "R+2")
    assert plays_of(finish, 1) == []  # SPEC H6: not on a last Reverse


def test_h7_stack_deflect_without_stacking_changes_nothing() -> None:
    game = build("classic", ["R+2 B1", "RR B2", "B3 B4"], "R5", options=opts(stack_deflect=True))
    events = play(game, 0, "R+2")
    assert CardsDrawn(1, 2, "penalty") in events and game.phase is Phase.PLAY and game.current == 2


def test_h7_stack_deflect_flip_skip_everyone_does_not_deflect_a_dark_reverse_does() -> None:
    game = build("flip", ["O+5 T1", "OSE OR T2", "T3 T4"], "O5", side="dark", options=deflecting())
    play(game, 0, "O+5")
    assert plays_of(game, 1) == ["OR"]
    play(game, 1, "OR")
    assert game.current == 0 and game.stack == 5


def test_h7_stack_deflect_flex_regular_sides_only() -> None:
    game = build("flex", ["R+2 B1", "RXS B2", "B3 B4"], "R5", power="GGG", options=deflecting())
    play(game, 0, "R+2")
    legal = [a for a in game.legal_actions(1) if isinstance(a, Play) and not a.uno]
    assert [a.flex for a in legal] == [False]  # the Flex Skip's regular side (a Skip), never its flex side
    game.apply(legal[0])
    assert game.current == 2 and game.stack == 2


def test_h7_g5_a_reshuffle_under_a_deflected_stack_keeps_its_draw_card() -> None:
    """An UNO catch makes a player draw while the stack waits; the draw pile is empty: the discard pile is reshuffled
    but the draw card and the Reverse on it stay, so the stack is still judged by its draw card."""
    game = build("classic", ["R+2 G+2 B1", "RR B9", "G3 G4"], "Y1 Y2 Y3 R5", rest="box", options=deflecting())
    assert game.draw_pile == []
    play(game, 0, "R+2")
    play(game, 1, "RR")  # down to one card without calling UNO
    assert game.catchable == 1
    events = game.apply(Catch(2, 1))
    assert any(type(e).__name__ == "Reshuffled" for e in events) and len(game.hands[1]) == 3
    assert [hand_text(game, c) for c in game.discard] == ["R+2", "RR"]
    assert game.stack_card().kind.value == "draw_two" and plays_of(game, 0) == ["G+2"]


# --- multi play (SPEC H8) -------------------------------------------------------------------------------------------

MULTI_GAMES = {"classic": "R3", "flip": "R3", "flex": "R3"}


def many(game: Game, seat: int, texts: str, uno: bool = False) -> PlayMany:
    ids: list[int] = []
    for text in texts.split():
        ids.append(next(c for c in game.hands[seat] if hand_text(game, c).rstrip("*") == text and c not in ids))
    return PlayMany(seat, tuple(ids), uno)


def multi_listed(game: Game, seat: int) -> list[tuple[list[str], bool]]:
    legal = game.legal_actions(seat)
    return [([hand_text(game, c).rstrip("*") for c in a.cards], a.uno) for a in legal if isinstance(a, PlayMany)]


@pytest.mark.parametrize("mode", MULTI_GAMES)
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h8_multi_play_several_cards_of_one_number_go_down_at_once_the_last_on_top(mode: str, rule: str) -> None:
    game = build(mode, ["R5 B5 G5 Y2 Y4", "B1 B2", "B6 B7"], "R3", options=opts(multi_play=rule == ON))
    action = many(game, 0, "R5 B5 G5")
    if rule == OFF:
        assert multi_listed(game, 0) == []
        with pytest.raises(E.UnknownAction):
            game.apply(action)
        return
    assert multi_listed(game, 0) == [(["R5", "G5", "B5"], False), (["R5", "B5", "G5"], False)]
    assert action in game.legal_actions(0)
    events = game.apply(action)
    assert [type(e).__name__ for e in events if type(e).__name__ != "PowerCardsChanged"] == ["CardPlayed"] * 3
    assert [hand_text(game, c).rstrip("*") for c in game.discard[-3:]] == ["R5", "B5", "G5"]
    assert game.top.colour is Colour.GREEN
    assert hand(game, 0) == ["Y2", "Y4"] and game.current == 1 and game.phase is Phase.PLAY


def test_h8_multi_play_any_two_or_more_in_any_order_with_a_playable_first_card() -> None:
    game = build("classic", ["R5 B5 G5 Y2", "B1 B2", "B6 B7"], "R3", options=opts(multi_play=True))
    with pytest.raises(E.CardNotPlayable):
        game.apply(many(game, 0, "B5 R5"))  # a blue 5 cannot start on a red 3
    game.apply(many(game, 0, "R5 B5"))  # two of the three, the blue one on top
    assert game.top.colour is Colour.BLUE and hand(game, 0) == ["G5", "Y2"]


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        ("R5", E.NotSameNumber),  # one card: an ordinary play
        ("R5 B6", E.NotSameNumber),
        ("RS BS", E.NotSameNumber),  # numbers only
        ("R5 W", E.NotSameNumber),
        ("R5 R5", E.NotSameNumber),  # the same card twice
    ],
)
def test_h8_multi_play_refuses_anything_but_numbers_of_one_number(cards: str, error: type[Exception]) -> None:
    game = build("classic", ["R5 B5 B6 RS BS W", "B1 B2"], "R3", options=opts(multi_play=True))
    ids = tuple(card_in_hand(game, 0, c) for c in cards.split())
    before = game.to_dict()
    with pytest.raises(error):
        game.apply(PlayMany(0, ids))
    assert game.to_dict() == before


def test_h8_multi_play_only_on_ones_own_turn_never_after_a_draw_over_a_stack_or_jumping_in() -> None:
    options = opts(multi_play=True, stacking="any_draw", jump_in=True)
    game = build("classic", ["G1 G2", "R5 B5 Y2", "R3 G3"], "R3", "R9", options=options)
    with pytest.raises(E.NotYourTurn):
        game.apply(many(game, 2, "R3 G3"))  # even a jump-in goes one card at a time
    drawn = build("classic", ["R5 B5 Y2", "B1"], "R3", "R9", options=options)
    drawn.apply(Draw(0))
    assert multi_listed(drawn, 0) == []
    with pytest.raises(E.WrongPhase):
        drawn.apply(many(drawn, 0, "R5 B5"))
    stack = build("classic", ["R+2 B1 B2", "R5 B5 Y2"], "R3", options=options)
    play(stack, 0, "R+2")
    with pytest.raises(E.WrongPhase):
        stack.apply(many(stack, 1, "R5 B5"))


def test_h8_g8_g9_multi_play_calls_uno_with_the_cards_and_may_go_out() -> None:
    game = build("classic", ["R5 B5 Y2", "B1 B2", "B6 B7"], "R3", options=opts(multi_play=True))
    assert (["R5", "B5"], True) in multi_listed(game, 0)
    four = build("classic", ["R5 B5 Y2 Y4", "B1"], "R3", options=opts(multi_play=True))
    with pytest.raises(E.UnoNotAllowed):
        four.apply(many(four, 0, "R5 B5", uno=True))  # two cards are left
    events = game.apply(many(game, 0, "R5 B5", uno=True))
    assert events[-1] == UnoCalled(0) and game.uno[0]
    quiet = build("classic", ["R5 B5 Y2", "B1 B2", "B6 B7"], "R3", options=opts(multi_play=True))
    quiet.apply(many(quiet, 0, "R5 B5"))
    assert quiet.catchable == 0  # UNO forgotten: catchable (SPEC G8)
    out = build("classic", ["R5 B5", "B1 B2", "B6 B7"], "R3", options=opts(multi_play=True))
    out.apply(many(out, 0, "R5 B5"))
    assert out.history[-1].winner == 0 and out.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def test_h8_multi_play_with_seven_zero_sevens_and_zeros_go_one_at_a_time() -> None:
    game = build("classic", ["R7 B7 R5 B5 Y2", "B1 B2"], "R3", options=opts(multi_play=True, seven_zero=True))
    assert [cards for cards, _ in multi_listed(game, 0)] == [["R5", "B5"]]
    with pytest.raises(E.NotSameNumber):
        game.apply(many(game, 0, "R7 B7"))


def test_h8_multi_play_on_the_flip_dark_side() -> None:
    game = build("flip", ["P5 T5 O1", "T1 T2"], "P3", side="dark", options=opts(multi_play=True))
    game.apply(many(game, 0, "P5 T5"))
    assert game.top.colour is Colour.TEAL and game.current == 1


def test_h8_x3_multi_play_flex_each_flip_icon_turns_the_power_card() -> None:
    game = build("flex", ["R4* G4* Y2 Y4", "B1 B2"], "R3", power="GG", options=opts(multi_play=True))
    game.apply(many(game, 0, "R4 G4"))
    assert game.power == [True, True]  # turned twice: green again
    single = build("flex", ["R4* G4* Y2 Y4", "B1 B2"], "R3", power="GG", options=opts(multi_play=True))
    play(single, 0, "R4")
    assert single.power == [False, True]


# --- elimination (SPEC H9) ------------------------------------------------------------------------------------------

ELIMINATION_GAMES = {"classic": ("R5", "B9 G9 R+2", "B1 B2"), "flip": ("R5", "B9 G9 RF", "B1 B2"),
                     "flex": ("R5", "B8 G8 RS", "B1 B2")}  # fmt: skip


@pytest.mark.parametrize("mode", ELIMINATION_GAMES)
@pytest.mark.parametrize("rule", [ON, OFF])
def test_h9_elimination_a_total_past_the_limit_puts_the_player_out(mode: str, rule: str) -> None:
    last, heavy, light = ELIMINATION_GAMES[mode]
    limit = 100 if rule == ON else 0
    game = build(mode, [last, heavy, light, "Y1"], "R3", scores=[0, 80, 50, 10], options=opts(elimination=limit))
    events = play(game, 0, last)
    values = [0, sum(game.rules.points_of(game.faces[c]) for c in game.hands[1]), 3, 1]
    if rule == OFF:  # the round winner scores every hand (SPEC G9); nobody is out
        assert game.scores == [sum(values), 80, 50, 10] and all(game.active)
        assert not any(type(e).__name__ == "PlayerEliminated" for e in events)
        return
    assert game.scores == [0, 80 + values[1], 53, 11]  # each takes their own hand's points
    assert events[-1] == PlayerEliminated(1, 80 + values[1]) and game.active == [True, False, True, True]
    assert game.phase is Phase.ROUND_OVER and game.winner is None
    game.apply(NextRound(0))
    assert game.round == 2 and game.hands[1] == [] and all(len(game.hands[s]) == 7 for s in (0, 2, 3))
    assert 1 not in game.turn_order()


def test_h9_elimination_the_last_one_in_wins_and_the_last_out_ranks_higher() -> None:
    options = opts(elimination=100, target_score=0)  # the target score does not apply
    game = build("classic", ["R5", "B9 G9", "B1 B2"], "R3", scores=[90, 95, 99], options=options)
    game.history = [RoundRecord(1, (90, 0, 99)), RoundRecord(0, (0, 95, 0))]
    events = play(game, 0, "R5")
    assert [e for e in events if type(e).__name__ == "PlayerEliminated"] == [
        PlayerEliminated(1, 113),
        PlayerEliminated(2, 102),
    ]
    assert game.phase is Phase.MATCH_OVER and game.winner == 0 and events[-1] == MatchEnded(0, (90, 113, 102))
    assert game.placement() == [0, 2, 1]  # out in the same round: the lower total ranks higher
    earlier = build("classic", ["R5", "B1", "B9 G9"], "R3", scores=[0, 50, 150], active=[True, True, False])
    earlier.options = opts(elimination=100)
    earlier.history = [RoundRecord(0, (0, 0, 150))]
    assert placement(earlier.scores, 1, "winner", 100, [*earlier.history, RoundRecord(1, (200, 0, 0))]) == [1, 0, 2]


def test_h9_elimination_a_snapshot_with_a_player_out_loads_and_plays_on() -> None:
    game = build("classic", ["R5", "B9 G9 R+2", "B1 B2"], "R3", scores=[0, 80, 50], options=opts(elimination=100))
    play(game, 0, "R5")
    again = Game.from_dict(game.to_dict())
    assert again == game and again.active == [True, False, True]
    again.apply(NextRound(0))
    assert again.round == 2 and sorted(s for s in range(3) if again.hands[s]) == [0, 2]


def test_h9_elimination_needs_a_limit_and_the_option_checks_it() -> None:
    assert Options().elimination == 0 and "elimination" not in Options().house_rules()
    assert "elimination" in Options(elimination=200).house_rules()
    with pytest.raises(OptionError):
        Options(elimination=-1)


def test_h8_a_play_of_several_cards_is_a_value_that_survives_json_copy_and_pickle() -> None:
    """The action is serialisable: its fields are plain (a JSON list of cards comes back as the same action)."""
    import copy
    import json
    import pickle

    from bot.engine.actions import ACTION_TYPES

    action = PlayMany(0, (4, 9, 17), True)
    data = json.loads(json.dumps({"player": action.player, "cards": action.cards, "uno": action.uno}))
    assert PlayMany(**data) == action and hash(PlayMany(**data)) == hash(action)
    assert copy.deepcopy(action) == action and pickle.loads(pickle.dumps(action)) == action
    assert PlayMany in ACTION_TYPES
    game = build("classic", ["R5 B5 Y2", "B1 B2"], "R3", options=opts(multi_play=True))
    listed = next(a for a in game.legal_actions(0) if isinstance(a, PlayMany))
    again = PlayMany(**json.loads(json.dumps({"player": 0, "cards": listed.cards, "uno": listed.uno})))
    assert game.is_legal(again)
