"""The state of a match and the primitives that change it, for the engine's own modules (DESIGN "Engine contract").

:class:`GameState` holds every field of a match and the few operations the card effects (:mod:`bot.engine.effects`)
and the snapshot (:mod:`bot.engine.snapshot`) need — seats in turn order, drawing (with reshuffles), a flip, a hand
shuffle, a challenge started, a wild draw's penalty, the consistency check. :class:`bot.engine.game.Game` subclasses it
with the rules of play (legal actions, validation, the actions themselves, views). This module imports neither of
them, so that those modules can use the state without importing the game, which imports them (no circle of imports,
issue 17 point 4): the effects are typed against this native class, so the compiled engine calls its methods and
reads its fields directly, as it would on :class:`~bot.engine.game.Game`.

Engine-internal: the names starting with ``_`` are the primitives of the engine's modules, not an API; other layers
use :class:`~bot.engine.game.Game`, and nothing outside the engine subclasses either class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from . import errors as E
from .cards import Colour, Deck, Face, Kind, Mode, Side
from .decks import tables_for
from .events import CardsDrawn, CardsReceived, Event, Flipped, HandsShuffled, Reshuffled
from .legal import SideTables
from .options import Options
from .pending import PendingChallenge
from .rng import RandomSource
from .rules import DEFLECTS, RULESETS, Ruleset
from .view import Phase, RoundRecord

# Phases bound once for the hot paths: reading a member off an Enum class is slow in Python 3.11, and a Final name is a
# C static in the compiled engine (any other module-level name is a dictionary lookup there). game.py uses them too.
_PLAYING: Final = frozenset({Phase.PLAY, Phase.PLAY_DRAWN, Phase.DECLARE_COLOUR, Phase.CHALLENGE, Phase.STACK})
_PLAY: Final = Phase.PLAY
_PLAY_DRAWN: Final = Phase.PLAY_DRAWN
_STACK: Final = Phase.STACK
_CHALLENGE: Final = Phase.CHALLENGE
_DECLARE_COLOUR: Final = Phase.DECLARE_COLOUR


@dataclass(eq=True)
class GameState:
    """A match's state. Mutable; only :class:`~bot.engine.game.Game`'s :meth:`~bot.engine.game.Game.apply`,
    :meth:`~bot.engine.game.Game.remove_player` and constructors change it (through these primitives and the effects).

    Piles are lists of card ids with the **top at the end**; ``box`` holds the cards left out of play (a position
    built for a test; empty in a dealt match), which no deal, draw or reshuffle uses. Seats are 0..players-1; seat
    ``s + 1`` sits to the left of ``s``; ``direction`` +1 is left (clockwise). Two games are equal when every
    rule-relevant field is equal.
    """

    mode: Mode
    options: Options
    players: int
    rng: RandomSource
    pairing: tuple[int, ...] | None
    step: int
    round: int
    dealer: int
    active: list[bool]
    scores: list[int]
    history: list[RoundRecord]
    winner: int | None
    abandoned: bool
    side: Side
    hands: list[list[int]]
    draw_pile: list[int]
    discard: list[int]
    current: int
    direction: int
    declared: Colour | None
    phase: Phase
    drawn: int | None
    after: int | None
    challenge: PendingChallenge | None
    uno: list[bool]
    catchable: int | None
    power: list[bool] | None
    revealed: tuple[int, int, tuple[int, ...]] | None
    box: list[int]
    stack: int | None
    deck: Deck = field(compare=False, repr=False)
    faces: tuple[Face, ...] = field(compare=False, repr=False)
    tables: SideTables = field(compare=False, repr=False)
    # The options read at every step, copied from ``options`` (which never changes): a native attribute of the compiled
    # engine is read in a nanosecond, an attribute of the ``Options`` object (Python: it keeps its own errors) in tens.
    _jump_in: bool = field(init=False, compare=False, repr=False)
    _force_play: bool = field(init=False, compare=False, repr=False)
    _seven_zero: bool = field(init=False, compare=False, repr=False)
    _block: bool = field(init=False, compare=False, repr=False)
    _draw_all: bool = field(init=False, compare=False, repr=False)
    _number_finish: bool = field(init=False, compare=False, repr=False)
    _deflect: bool = field(init=False, compare=False, repr=False)
    _multi: bool = field(init=False, compare=False, repr=False)
    _ruleset: Ruleset = field(init=False, compare=False, repr=False)  # RULESETS[mode], as mode never changes either

    def __post_init__(self) -> None:
        self._ruleset = RULESETS[self.mode]
        opts = self.options
        self._jump_in = opts.jump_in
        self._force_play = opts.force_play
        self._seven_zero = opts.seven_zero
        self._block = opts.block_illegal_wild_draw
        self._draw_all = opts.draw_to_match
        self._number_finish = opts.number_finish
        self._deflect = opts.stack_deflect and opts.stacking != "off"
        self._multi = opts.multi_play

    def _next(self, seat: int, direction: int | None = None) -> int:
        """The next seated player after ``seat`` in ``direction`` (default: the direction of play)."""
        d = self.direction if direction is None else direction
        n = self.players
        s = (seat + d) % n
        while not self.active[s]:
            s = (s + d) % n
        return s

    def _seats_from(self, start: int) -> list[int]:
        """Seated players in clockwise order starting with ``start``."""
        order = [(start + i) % self.players for i in range(self.players)]
        return [s for s in order if self.active[s]]

    def _seated_count(self) -> int:
        return sum(self.active)

    def turn_order(self, start: int | None = None) -> list[int]:
        """The seated players in the direction of play, starting with ``start`` (default: the player who owes the
        pending decision, else the current seat) if seated, else with the next seated player after it."""
        first = self.current if start is None else start
        if not self.active[first]:
            first = self._next(first)
        seats = [first]
        s = self._next(first)
        while s != first:
            seats.append(s)
            s = self._next(s)
        return seats

    @property
    def rules(self) -> Ruleset:
        """The rules of this game (SPEC G1, C, F, X): deck, seats, points, opening rule, effects by kind."""
        return self._ruleset

    @property
    def top(self) -> Face:
        """The face on top of the discard pile (side in play)."""
        return self.faces[self.discard[-1]]

    def _set_side(self, side: Side) -> None:
        self.side = side
        self.faces = self.deck.faces(side)
        self.tables = tables_for(self.deck, side)

    def _others_in_turn_order(self, p: int) -> list[int]:
        seats = []
        s = self._next(p)
        while s != p:
            seats.append(s)
            s = self._next(s)
        return seats

    def _start_challenge(self, p: int, victim: int, card: int, guilty: bool, *, flex: bool, resume: int | None) -> None:
        self.challenge = PendingChallenge(p, victim, card, guilty, tuple(self.hands[p]), flex, resume)
        self.phase = _CHALLENGE
        self.current = victim

    def _wild_penalty(
        self, seat: int, kind: Kind, *, accepted: bool, events: list[Event], reason: str = "penalty"
    ) -> int:
        """Draw a wild draw's penalty: the accepted count, or the count for a wrong challenger (SPEC C5, F7, X7).
        Wild Draw Color draws until the declared colour (+2 for a wrong challenger). Returns the number drawn."""
        wd = self.rules.wild_draws[kind]
        penalty = wd.accept if accepted else wd.innocent
        if penalty.count is not None:
            return len(self._draw(seat, penalty.count, reason, events))
        assert self.declared is not None
        return len(self._draw_until(seat, self.declared, penalty.extra, reason, events))

    def _flip(self, events: list[Event]) -> Face:
        """SPEC F8: turn the discard pile over (order reverses), then the draw pile, then every hand: the other side
        is now in play; any declared colour is cleared. Returns the exposed top face."""
        if self.options.flip_invert_piles:
            self.discard.reverse()
            self.draw_pile.reverse()
        self._set_side(self.side.other)
        self.declared = None
        top = self.top
        events.append(Flipped(self.side, top))
        return top

    def _shuffle_hands(self, first: int, events: list[Event]) -> None:
        """Wild Shuffle Hands (SPEC C1): gather every hand, shuffle, deal one by one starting with ``first``."""
        cards = [c for hand in self.hands for c in hand]
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.players)]
        seats = self._seats_from(first) if self.direction == 1 else self._seats_backwards(first)
        i = 0
        while cards:
            self.hands[seats[i % len(seats)]].append(cards.pop())
            i += 1
        self.uno = [False] * self.players
        self.catchable = None
        events.append(HandsShuffled(tuple(len(h) for h in self.hands)))

    def _seats_backwards(self, start: int) -> list[int]:
        order = [(start - i) % self.players for i in range(self.players)]
        return [s for s in order if self.active[s]]

    def _draw(self, seat: int, count: int, reason: str, events: list[Event]) -> list[int]:
        """``seat`` draws up to ``count`` cards, reshuffling when the draw pile runs out (SPEC G5)."""
        got: list[int] = []
        pile = self.draw_pile
        for _ in range(count):
            if not pile:
                if not self._reshuffle(events):
                    break
                pile = self.draw_pile
            got.append(pile.pop())
        self._receive(seat, got, reason, events)
        return got

    def _draw_until(self, seat: int, colour: Colour, extra: int, reason: str, events: list[Event]) -> list[int]:
        """Draw one at a time until a card of ``colour`` (a wild does not count), then ``extra`` more (SPEC F6, F7).
        Stops early when both piles are exhausted (SPEC F6 ruling)."""
        got: list[int] = []
        faces = self.faces
        found = False
        while True:
            if not self.draw_pile and not self._reshuffle(events):
                break
            card = self.draw_pile.pop()
            got.append(card)
            if found:
                extra -= 1
                if extra <= 0:
                    break
            elif faces[card].colour is colour:
                found = True
                if extra <= 0:
                    break
        self._receive(seat, got, reason, events)
        return got

    def _receive(self, seat: int, cards: list[int], reason: str, events: list[Event]) -> None:
        self.hands[seat].extend(cards)
        events.append(CardsDrawn(seat, len(cards), reason))
        if cards:
            faces = self.faces
            events.append(CardsReceived(seat, tuple([faces[c] for c in cards])))
        if len(self.hands[seat]) != 1:  # SPEC G8: a call of UNO, or a catch window, lasts while one card is held
            self.uno[seat] = False
            if self.catchable == seat:
                self.catchable = None

    def _reshuffle(self, events: list[Event]) -> bool:
        """SPEC G5: the discard pile except its top becomes the new draw pile (under a stack sent on by deflections,
        SPEC H7, except its draw card and those above it). False when nothing is left to use."""
        keep = 1
        if self.stack is not None:  # SPEC H7: a pending stack keeps its draw card under the cards that deflected it
            faces, discard = self.faces, self.discard
            while keep < len(discard) and faces[discard[-keep]].kind in DEFLECTS:
                keep += 1
        if len(self.discard) <= keep:
            return False
        cards = self.discard[:-keep]
        del self.discard[:-keep]
        self.rng.shuffle(cards)
        self.draw_pile = cards
        events.append(Reshuffled(len(cards)))
        return True

    def check_consistency(self) -> None:
        """Raise :class:`~bot.engine.errors.SnapshotError` unless every card of the deck is in exactly one hand, pile or
        the box (out of play), per-seat lists have one entry per seat, and the pending decision has what it needs."""
        n = self.players
        for name in ("active", "scores", "hands", "uno"):
            if len(getattr(self, name)) != n:
                raise E.SnapshotError(f"{name} must have one entry per seat")
        if self.power is not None and len(self.power) != n:
            raise E.SnapshotError("power must have one entry per seat")
        if (self.power is None) == self.rules.power_cards:
            raise E.SnapshotError("Power Cards belong to Flex only")
        cards = [c for h in self.hands for c in h] + self.draw_pile + self.discard + self.box
        if sorted(cards) != list(range(len(self.deck))):
            raise E.SnapshotError("cards are not conserved (missing or duplicated cards)")
        if not self.discard:
            raise E.SnapshotError("the discard pile is empty")
        if self.direction not in (1, -1):
            raise E.SnapshotError("direction must be 1 or -1")
        if self.phase in _PLAYING and not self.active[self.current]:
            raise E.SnapshotError("the pending decision belongs to a removed player")
        if self.phase is _PLAY_DRAWN and (self.drawn is None or self.drawn not in self.hands[self.current]):
            raise E.SnapshotError("the drawn card is not in the player's hand")
        if self.phase is _DECLARE_COLOUR and self.after is None:
            raise E.SnapshotError("a colour decision without the player who plays next")
        if self.phase is _CHALLENGE and self.challenge is None:
            raise E.SnapshotError("a challenge decision without its challenge")
        if (self.phase is _STACK) != (self.stack is not None) or (self.stack is not None and self.stack < 1):
            raise E.SnapshotError("a stack total belongs to a stack decision (and is at least 1)")
        if self.top.is_wild and self.declared is None and self.phase in (_PLAY, _PLAY_DRAWN, _CHALLENGE, _STACK):
            raise E.SnapshotError("a wild on top without a declared colour")


__all__ = ["GameState"]
