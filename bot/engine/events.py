"""Events: what an applied action caused, in order. Frozen value types the UI renders (DESIGN "Engine contract").

Most events are public. A :class:`PrivateEvent` is addressed to one player (``to``) and must only be shown to them:
use :func:`visible_to`. Public events never name a card that entered a hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Colour, Face, Side
from .frozen import fast_frozen_init


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of all events."""


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    """An event only player ``to`` may see."""

    to: int


def visible_to(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events ``player`` may see (``None``: the public table): public ones, and private ones addressed to them."""
    return [e for e in events if not isinstance(e, PrivateEvent) or e.to == player]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """SPEC G2: each player's draw (seat, face; several rounds on ties) and the dealer."""

    draws: tuple[tuple[int, Face], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round was dealt: ``round`` (1-based), ``dealer`` seat, ``cards`` dealt to each player (SPEC G1, G2)."""

    round: int
    dealer: int
    cards: int


@dataclass(frozen=True, slots=True)
class OpeningCard(Event):
    """The card turned to start the discard pile; ``returned`` if it went back into the draw pile (SPEC C2, F4) or was
    ignored (SPEC X2)."""

    face: Face
    returned: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``player`` played ``face`` (on its flex side if ``flex``), with a declared ``colour`` and ``target`` if any."""

    player: int
    face: Face
    flex: bool = False
    colour: Colour | None = None
    target: int | None = None


@dataclass(frozen=True, slots=True)
class ColourDeclared(Event):
    """A colour declared by a separate decision (opening wild, wild exposed by a Flip: SPEC C2, F4, F8)."""

    player: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``player`` drew ``count`` cards (public: a count only). ``reason``: ``draw`` (chose to draw), ``penalty`` (a draw
    card), ``challenge`` (a challenge outcome), ``uno`` (caught), ``false_catch``. ``count`` may be lower than asked
    when both piles ran out (SPEC G5)."""

    player: int
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardsReceived(PrivateEvent):
    """Private to the drawing player: the faces (side in play) of the cards they drew."""

    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile except its top card became the new draw pile (SPEC G5): ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """``player`` loses their turn."""

    player: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """Play now goes ``direction`` (+1 left/clockwise, -1 right)."""

    direction: int


@dataclass(frozen=True, slots=True)
class CardKept(Event):
    """``player`` kept the card they drew; their turn ends (SPEC G4)."""

    player: int


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """A Flip turned the game to ``side``; ``top`` is the exposed top of the discard pile (SPEC F8)."""

    side: Side
    top: Face


@dataclass(frozen=True, slots=True)
class PowerCardsChanged(Event):
    """Flex Power Cards now read ``power`` (True = green, active), by seat (SPEC X3)."""

    power: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class ChallengeResolved(Event):
    """``challenger`` challenged ``player``'s wild draw: ``guilty`` or not; ``penalised`` drew ``count`` (SPEC G7)."""

    challenger: int
    player: int
    guilty: bool
    penalised: int
    count: int


@dataclass(frozen=True, slots=True)
class HandRevealed(PrivateEvent):
    """Private to the challenger: the challenged ``owner``'s hand as it was when the card was played (SPEC G7)."""

    owner: int
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class PenaltyAccepted(Event):
    """``player`` accepted a wild draw without challenging (SPEC G7)."""

    player: int


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    """``player`` called UNO (SPEC G8)."""

    player: int


@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    """``catcher`` caught ``target`` without UNO; ``target`` draws 2 (SPEC G8)."""

    catcher: int
    target: int


@dataclass(frozen=True, slots=True)
class FalseCatch(Event):
    """``catcher`` tried to catch ``target``, who was not catchable; ``penalty`` cards drawn (SPEC G8)."""

    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class HandsShuffled(Event):
    """Wild Shuffle Hands: all hands gathered, shuffled and dealt again; ``counts`` by seat (SPEC C1)."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """``winner`` went out. ``points`` scored this round by seat, ``scores`` the match totals after it, ``hands`` the
    faces left in each hand, shown at the end (SPEC G9, C6, F9, X8)."""

    winner: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[Face, ...], ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """``winner`` won the match with the final ``scores`` (SPEC G9)."""

    winner: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    """``player`` left or was removed; ``returned`` cards went under the draw pile."""

    player: int
    returned: int


@dataclass(frozen=True, slots=True)
class MatchAbandoned(Event):
    """Fewer than two players remain: the match ends without a winner."""


@dataclass(frozen=True, slots=True)
class StackPending(Event):
    """House rule ``stacking`` (SPEC H): ``player`` must now stack a draw card or take ``total`` cards."""

    player: int
    total: int


@dataclass(frozen=True, slots=True)
class JumpedIn(Event):
    """House rule ``jump_in`` (SPEC H): ``player`` played a card identical to the top out of turn (the
    :class:`CardPlayed` follows); ``skipped`` lost their turn to it."""

    player: int
    skipped: int


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    """House rule ``seven_zero`` (SPEC H): ``player`` played a 7 and swapped hands with ``target``."""

    player: int
    target: int


@dataclass(frozen=True, slots=True)
class HandsPassed(Event):
    """House rule ``seven_zero`` (SPEC H): a 0 passed every hand one seat in ``direction`` (+1 left, -1 right)."""

    player: int
    direction: int


@dataclass(frozen=True, slots=True)
class HandReceived(PrivateEvent):
    """Private to ``to``: after a 7 or a 0 (SPEC H ``seven_zero``), the hand they now hold came from ``giver``."""

    giver: int
    faces: tuple[Face, ...]


for _cls in list(globals().values()):
    if isinstance(_cls, type) and issubclass(_cls, Event):
        fast_frozen_init(_cls)  # events are built at every step: see bot.engine.frozen
del _cls
