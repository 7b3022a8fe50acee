"""What an AI seat's memory keeps of the hands it cannot see (issue 21 point 1), and when it forgets it."""

from __future__ import annotations

from bot.ai import Memory
from bot.engine.actions import Play
from bot.engine.builder import build
from bot.engine.cards import Colour, parse_face
from bot.engine.events import CardsDrawn, HandRevealed, HandsPassed, OpeningCard, visible_to
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
