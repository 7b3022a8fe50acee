"""What one AI seat was shown during the round: its observation history (issue 21 point 1).

A :class:`Memory` is fed only the events that seat may see (:func:`bot.engine.events.visible_to`), so it can hold
nothing hidden from it. The *Hard* level uses it to sample hidden cards consistent with what the seat has seen:

- ``played``: the faces played onto the discard pile since it was last turned into the draw pile (SPEC G5), with the
  side they were played on — those cards are in no hand;
- ``voids``: per seat, the colours that seat failed to follow (it chose to draw while the colour was in play), with
  how many cards it has received since (those may be of any colour);
- ``known``: per seat, faces of its hand the seat was shown (a challenged hand, SPEC G7) and not seen played since.

Everything resets with each round. What was known of a hand follows it when two other seats swap hands (SPEC H
``seven_zero``: a 7); a swap with the seat itself, a hand rotation (a 0) and Wild Shuffle Hands forget what was known
of the hands they move. A memory is plain picklable data, kept in process only (after a restart a seat starts from
an empty one: it then samples from fewer clues, never from more).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.engine.cards import Colour, Face, Kind, Side
from bot.engine.events import (
    CardPlayed,
    CardsDrawn,
    ColourDeclared,
    Event,
    Flipped,
    HandRevealed,
    HandsPassed,
    HandsShuffled,
    OpeningCard,
    PrivateEvent,
    Reshuffled,
    RoundStarted,
)

T = TypeVar("T")

#: At most this many played faces are remembered (a discard pile never holds more than a deck).
PLAYED_MAX = 120


@dataclass
class Memory:
    """The observation history of seat ``seat`` in the current round (see the module docstring)."""

    seat: int
    side: Side = Side.LIGHT
    colour: Colour | None = None
    played: list[tuple[Side, Face]] = field(default_factory=list)
    voids: dict[int, list[tuple[Colour, int]]] = field(default_factory=dict)
    known: dict[int, list[tuple[Side, Face]]] = field(default_factory=dict)

    def observe(self, events: Iterable[Event]) -> None:
        """Take in ``events`` in order. Private events addressed to another seat are ignored (a caller passing them
        by mistake leaks nothing)."""
        for e in events:
            if isinstance(e, PrivateEvent) and e.to != self.seat:
                continue
            self._one(e)

    def _one(self, e: Event) -> None:
        if isinstance(e, RoundStarted):
            self.side, self.colour = Side.LIGHT, None
            self.played.clear()
            self.voids.clear()
            self.known.clear()
        elif isinstance(e, OpeningCard):
            self.colour = e.face.colour
            if e.returned:
                self.played.clear()
        elif isinstance(e, CardPlayed):
            face = e.face
            self._forget_known(e.player, face)
            if len(self.played) < PLAYED_MAX:
                self.played.append((self.side, face))
            self.colour = e.colour or (face.flex_colour if e.flex else face.colour) or self.colour
            if e.target is not None and face.kind is Kind.NUMBER and face.number == 7:  # a swap (SPEC H seven_zero)
                self._swap(e.player, e.target)
        elif isinstance(e, ColourDeclared):
            self.colour = e.colour
        elif isinstance(e, Flipped):
            self.side = e.side
            self.colour = e.top.colour
        elif isinstance(e, Reshuffled):
            self.played.clear()
        elif isinstance(e, HandsShuffled | HandsPassed):  # Wild Shuffle Hands (SPEC C1), a 0 passing hands (SPEC H)
            self.voids.clear()
            self.known.clear()
        elif isinstance(e, CardsDrawn):
            voids = self.voids.setdefault(e.player, [])
            voids[:] = [(c, n + e.count) for c, n in voids]
            if e.reason == "draw" and e.player != self.seat and self.colour is not None:
                voids.append((self.colour, e.count))
        elif isinstance(e, HandRevealed):
            self.known[e.owner] = [(self.side, f) for f in e.faces]

    def _swap(self, a: int, b: int) -> None:
        """Seats ``a`` and ``b`` swapped hands: what was known of each hand goes with it (the seat's own old hand is
        not remembered here, so a swap with the seat itself forgets what was known of the other hand)."""
        if self.seat in (a, b):
            for s in (a, b):
                self.voids.pop(s, None)
                self.known.pop(s, None)
            return
        _exchange(self.voids, a, b)
        _exchange(self.known, a, b)

    def _forget_known(self, player: int, face: Face) -> None:
        known = self.known.get(player)
        if known:
            for i, (side, f) in enumerate(known):
                if side is self.side and f == face:
                    del known[i]
                    return


def _exchange(table: dict[int, T], a: int, b: int) -> None:
    """Swap the entries of ``a`` and ``b`` in ``table`` (either may be missing)."""
    got_a, got_b = table.pop(a, None), table.pop(b, None)
    if got_a is not None:
        table[b] = got_a
    if got_b is not None:
        table[a] = got_b
