"""What an AI seat's memory keeps of the hands it cannot see (issue 21 point 1), and when it forgets it."""

from __future__ import annotations

from bot.ai import Memory
from bot.engine.actions import Play
from bot.engine.builder import build
from bot.engine.cards import Colour, Side, parse_face
from bot.engine.events import CardsDrawn, Event, HandRevealed, HandsPassed, HandsSwapped, OpeningCard, visible_to
from bot.engine.options import Options


def test_h_seven_zero_a_hand_rotation_forgets_what_was_known_of_every_hand() -> None:
    """SPEC H ``seven_zero``: after a 0 passes every hand on, the colours a seat failed to follow and a hand the seat
    was shown belong to hands their seats no longer hold, so the memory forgets them, as after a swap."""
    game = build(
        "classic",
        ["R0 G3 B4", "Y9 G9 G7", "G1 B2 Y3"],
        discard="R2",
        draw="G5 G6 G8",
        options=Options(target_score=0, seven_zero=True),
    )
    memory = Memory(0)
    shown = (parse_face("G1"), parse_face("B2"))
    memory.observe([OpeningCard(game.top, False), CardsDrawn(1, 1, "draw"), HandRevealed(0, 2, shown)])
    assert memory.voids[1] == [(Colour.RED, 1)] and memory.known[2]
    card = next(c for c in game.hands[0] if game.faces[c] == parse_face("R0"))
    events = game.apply(Play(0, card))
    assert any(isinstance(e, HandsPassed) for e in events)
    memory.observe(visible_to(events, 0))
    assert not any(memory.voids.values()) and memory.known == {}


def _seven(current: int, target: int) -> tuple[Memory, list[Event]]:
    """Seat 0's memory knows seat 1 failed to follow red and was shown 2 cards of seat 2; then ``current`` plays a 7
    swapping hands with ``target``: the memory and the play's events (not yet observed)."""
    game = build(
        "classic",
        ["R7 G3 B4", "R7 G9 G7", "G1 B2 Y3", "Y1 Y2 Y4"],
        discard="R2",
        draw="G5 G6 G8",
        current=current,
        options=Options(target_score=0, seven_zero=True),
    )
    memory = Memory(0)
    shown = (parse_face("G1"), parse_face("B2"))
    memory.observe([OpeningCard(game.top, False), CardsDrawn(1, 1, "draw"), HandRevealed(0, 2, shown)])
    card = next(c for c in game.hands[current] if game.faces[c] == parse_face("R7"))
    events = game.apply(Play(current, card, target=target))
    assert any(isinstance(e, HandsSwapped) for e in events)
    return memory, events


def test_h_seven_zero_what_was_known_of_a_hand_follows_it_in_a_swap() -> None:
    """SPEC H ``seven_zero``: seat 1 swaps hands with seat 2 — seat 2 now holds the hand that failed to follow red,
    seat 1 the hand seat 0 was shown."""
    memory, events = _seven(1, 2)
    memory.observe(visible_to(events, 0))
    assert memory.voids.get(2) == [(Colour.RED, 1)] and not memory.voids.get(1)
    assert memory.known.get(1) == [(Side.LIGHT, parse_face("G1")), (Side.LIGHT, parse_face("B2"))]
    assert 2 not in memory.known


def test_h_seven_zero_a_swap_with_the_seat_itself_forgets_the_other_hand() -> None:
    """Seat 0 swaps hands with seat 2: the hand seat 0 was shown is now its own (in its view), and what seat 2 holds
    now, seat 0's old hand, is not in the memory."""
    memory, events = _seven(0, 2)
    memory.observe(visible_to(events, 0))
    assert 2 not in memory.known and memory.voids.get(1) == [(Colour.RED, 1)]
