"""The builder's public API (DESIGN "Engine contract": tests can build any position): cards left in the box, and a
round opened from a laid-out deal by the game's own opening rule (SPEC C2, F4, X2)."""

from __future__ import annotations

import pytest

from bot.engine.actions import Draw
from bot.engine.builder import PositionError, build, deal
from bot.engine.cards import format_face
from bot.engine.events import CardsDrawn, OpeningCard, Reshuffled, TurnSkipped
from bot.engine.game import Game
from bot.engine.view import Phase


def test_cards_in_the_box_are_out_of_play_and_no_draw_or_reshuffle_uses_them() -> None:
    game = build("classic", ["R5 R6", "G2 G3"], "B7 R1", "Y4", rest="box", box="W+4 W+4")
    assert len(game.draw_pile) == 1 and len(game.box) == 108 - 4 - 2 - 1
    game.check_consistency()
    game.apply(Draw(0))  # Y4: not playable, the turn passes
    events = game.apply(Draw(1))  # the draw pile is empty: only B7 comes back from the discard pile
    assert any(isinstance(e, Reshuffled) and e.count == 1 for e in events)
    assert [format_face(game.faces[c]) for c in game.hands[1]][-1] == "B7"
    assert Game.from_dict(game.to_dict()) == game and game.to_dict()["box"] == game.box


def test_the_box_survives_into_the_next_round_deal() -> None:
    game = build("classic", ["R5", "G2 G3"], "R1", rest="bottom", box="W W W W")
    boxed = list(game.box)
    game.apply(game.legal_actions(0)[0])  # goes out
    assert game.phase is Phase.ROUND_OVER
    game.apply(game.legal_actions(0)[-1])  # next round
    assert game.box == boxed and not any(c in boxed for h in game.hands for c in h)
    assert not set(boxed) & set(game.draw_pile + game.discard)


def test_c2_deal_opens_with_the_first_card_of_the_draw_pile_by_the_game_rule() -> None:
    game, events = deal("classic", ["R5 R6", "G2 G3", "Y1 Y2"], "B+2 B9 B8 B7")
    assert [e for e in events if isinstance(e, OpeningCard)] == [OpeningCard(game.top, returned=False)]
    assert format_face(game.top) == "B+2"
    # SPEC C2: the first player (left of the dealer, the last seat) draws 2 and loses their turn
    assert CardsDrawn(0, 2, "penalty") in events and TurnSkipped(0) in events and game.current == 1
    assert len(game.hands[0]) == 4 and [format_face(game.faces[c]) for c in game.draw_pile] == ["B7"]


def test_c2_deal_returns_an_opening_wild_draw_four_and_turns_the_next_card() -> None:
    game, events = deal("classic", ["R5", "G2"], "W+4 B9")
    # NoShuffle keeps the order: the Wild Draw Four goes to the bottom, B9 opens
    assert [(format_face(e.face), e.returned) for e in events if isinstance(e, OpeningCard)] == [
        ("W+4", True),
        ("B9", False),
    ]
    assert format_face(game.top) == "B9" and game.current == 0


def test_x2_deal_in_flex_ignores_action_cards_until_a_number() -> None:
    game, events = deal("flex", ["R5", "G2"], "RS WAF B3")
    assert [(format_face(e.face), e.returned) for e in events if isinstance(e, OpeningCard)] == [
        ("RS", True),
        ("WAF", True),
        ("B3*", False),
    ]
    assert len(game.discard) == 3 and game.phase is Phase.PLAY


def test_c2_deal_with_an_opening_wild_asks_the_first_player_for_the_colour() -> None:
    game, _ = deal("classic", ["R5", "G2", "B1"], "W", dealer=0)
    assert game.phase is Phase.DECLARE_COLOUR and game.current == 1


def test_deal_refuses_a_draw_pile_that_cannot_open() -> None:
    with pytest.raises(PositionError):
        deal("classic", ["R5", "G2"], "")
    with pytest.raises(PositionError):
        build("classic", ["R5", "G2"], "R1", rest="sideways")
