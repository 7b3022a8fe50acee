"""Events: what an applied action caused, in order. Frozen value types the UI renders (DESIGN "Engine contract").

Most events are public. A :class:`PrivateEvent` is addressed to one player (``to``) and must only be shown to them:
use :func:`visible_to`. Public events never name a card that entered a hand.

Each class writes out the ``__init__`` dataclasses would write (``object.__setattr__`` per field): the compiled engine
(issue 21 point 5) then builds them natively, 14× faster; the Python source replaces it by a faster one of its own
(:func:`bot.engine.frozen.fast_frozen_init`).
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

    def __init__(self, to: int) -> None:
        object.__setattr__(self, "to", to)


def visible_to(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events ``player`` may see (``None``: the public table): public ones, and private ones addressed to them."""
    return [e for e in events if not isinstance(e, PrivateEvent) or e.to == player]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """SPEC G2: each player's draw (seat, face; several rounds on ties) and the dealer."""

    draws: tuple[tuple[int, Face], ...]
    dealer: int

    def __init__(self, draws: tuple[tuple[int, Face], ...], dealer: int) -> None:
        object.__setattr__(self, "draws", draws)
        object.__setattr__(self, "dealer", dealer)


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round was dealt: ``round`` (1-based), ``dealer`` seat, ``cards`` dealt to each player (SPEC G1, G2)."""

    round: int
    dealer: int
    cards: int

    def __init__(self, round: int, dealer: int, cards: int) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class OpeningCard(Event):
    """The card turned to start the discard pile; ``returned`` if it went back into the draw pile (SPEC C2, F4) or was
    ignored (SPEC X2)."""

    face: Face
    returned: bool

    def __init__(self, face: Face, returned: bool) -> None:
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "returned", returned)


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``player`` played ``face`` (on its flex side if ``flex``), with a declared ``colour`` and ``target`` if any.
    ``judged``: for a wild draw that may be challenged (SPEC G7, X7), the colour in play it was played on — its
    player was allowed to play it only holding no card of that colour, which a challenge checks
    (:class:`ChallengeResolved`); None for any other card."""

    player: int
    face: Face
    flex: bool = False
    colour: Colour | None = None
    target: int | None = None
    judged: Colour | None = None

    def __init__(
        self,
        player: int,
        face: Face,
        flex: bool = False,
        colour: Colour | None = None,
        target: int | None = None,
        judged: Colour | None = None,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "flex", flex)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "judged", judged)


@dataclass(frozen=True, slots=True)
class ColourDeclared(Event):
    """A colour declared by a separate decision (opening wild, wild exposed by a Flip: SPEC C2, F4, F8)."""

    player: int
    colour: Colour

    def __init__(self, player: int, colour: Colour) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "colour", colour)


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``player`` drew ``count`` cards (public: a count only). ``reason``: ``draw`` (chose to draw), ``penalty`` (a draw
    card), ``challenge`` (a challenge outcome), ``uno`` (caught), ``false_catch``. ``count`` may be lower than asked
    when both piles ran out (SPEC G5)."""

    player: int
    count: int
    reason: str

    def __init__(self, player: int, count: int, reason: str) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "reason", reason)


@dataclass(frozen=True, slots=True)
class CardsReceived(PrivateEvent):
    """Private to the drawing player: the faces (side in play) of the cards they drew."""

    faces: tuple[Face, ...]

    def __init__(self, to: int, faces: tuple[Face, ...]) -> None:
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "faces", faces)


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile except its top card became the new draw pile (SPEC G5): ``count`` cards."""

    count: int

    def __init__(self, count: int) -> None:
        object.__setattr__(self, "count", count)


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """``player`` loses their turn."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """Play now goes ``direction`` (+1 left/clockwise, -1 right)."""

    direction: int

    def __init__(self, direction: int) -> None:
        object.__setattr__(self, "direction", direction)


@dataclass(frozen=True, slots=True)
class CardKept(Event):
    """``player`` kept the card they drew; their turn ends (SPEC G4)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """A Flip turned the game to ``side``; ``top`` is the exposed top of the discard pile (SPEC F8)."""

    side: Side
    top: Face

    def __init__(self, side: Side, top: Face) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "top", top)


@dataclass(frozen=True, slots=True)
class PowerCardsChanged(Event):
    """Flex Power Cards now read ``power`` (True = green, active), by seat (SPEC X3)."""

    power: tuple[bool, ...]

    def __init__(self, power: tuple[bool, ...]) -> None:
        object.__setattr__(self, "power", power)


@dataclass(frozen=True, slots=True)
class ChallengeResolved(Event):
    """``challenger`` challenged ``player``'s wild draw: ``guilty`` or not; ``penalised`` drew ``count`` (SPEC G7).
    The colour the card was judged on is the ``judged`` of its :class:`CardPlayed`; the challenged hand goes to the
    challenger alone (:class:`HandRevealed`, and ``PlayerView.revealed``)."""

    challenger: int
    player: int
    guilty: bool
    penalised: int
    count: int

    def __init__(self, challenger: int, player: int, guilty: bool, penalised: int, count: int) -> None:
        object.__setattr__(self, "challenger", challenger)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "guilty", guilty)
        object.__setattr__(self, "penalised", penalised)
        object.__setattr__(self, "count", count)


@dataclass(frozen=True, slots=True)
class HandRevealed(PrivateEvent):
    """Private to the challenger: the challenged ``owner``'s hand as it was when the card was played (SPEC G7)."""

    owner: int
    faces: tuple[Face, ...]

    def __init__(self, to: int, owner: int, faces: tuple[Face, ...]) -> None:
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "faces", faces)


@dataclass(frozen=True, slots=True)
class PenaltyAccepted(Event):
    """``player`` accepted a wild draw without challenging (SPEC G7)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    """``player`` called UNO (SPEC G8)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    """``catcher`` caught ``target`` without UNO; ``target`` draws 2 (SPEC G8)."""

    catcher: int
    target: int

    def __init__(self, catcher: int, target: int) -> None:
        object.__setattr__(self, "catcher", catcher)
        object.__setattr__(self, "target", target)


@dataclass(frozen=True, slots=True)
class FalseCatch(Event):
    """``catcher`` tried to catch ``target``, who was not catchable; ``penalty`` cards drawn (SPEC G8)."""

    catcher: int
    target: int
    penalty: int

    def __init__(self, catcher: int, target: int, penalty: int) -> None:
        object.__setattr__(self, "catcher", catcher)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "penalty", penalty)


@dataclass(frozen=True, slots=True)
class HandsShuffled(Event):
    """Wild Shuffle Hands: all hands gathered, shuffled and dealt again; ``counts`` by seat (SPEC C1)."""

    counts: tuple[int, ...]

    def __init__(self, counts: tuple[int, ...]) -> None:
        object.__setattr__(self, "counts", counts)


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """``winner`` went out. ``points`` scored this round by seat, ``scores`` the match totals after it, ``hands`` the
    faces left in each hand, shown at the end (SPEC G9, C6, F9, X8)."""

    winner: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[Face, ...], ...]

    def __init__(
        self,
        winner: int,
        points: tuple[int, ...],
        scores: tuple[int, ...],
        hands: tuple[tuple[Face, ...], ...],
    ) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "hands", hands)


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """``winner`` won the match with the final ``scores`` (SPEC G9)."""

    winner: int
    scores: tuple[int, ...]

    def __init__(self, winner: int, scores: tuple[int, ...]) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    """``player`` left or was removed; ``returned`` cards went under the draw pile."""

    player: int
    returned: int

    def __init__(self, player: int, returned: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "returned", returned)


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """House rule ``elimination`` (SPEC H9): at the end of a round ``player``'s total, ``score``, passed the limit:
    they are out of the match (the seat plays no further round)."""

    player: int
    score: int

    def __init__(self, player: int, score: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "score", score)


@dataclass(frozen=True, slots=True)
class MatchAbandoned(Event):
    """Fewer than two players remain: the match ends without a winner."""


@dataclass(frozen=True, slots=True)
class StackPending(Event):
    """House rule ``stacking`` (SPEC H): ``player`` must now stack a draw card or take ``total`` cards."""

    player: int
    total: int

    def __init__(self, player: int, total: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "total", total)


@dataclass(frozen=True, slots=True)
class JumpedIn(Event):
    """House rule ``jump_in`` (SPEC H): ``player`` played a card identical to the top out of turn (the
    :class:`CardPlayed` follows); ``skipped`` lost their turn to it."""

    player: int
    skipped: int

    def __init__(self, player: int, skipped: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "skipped", skipped)


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    """House rule ``seven_zero`` (SPEC H): ``player`` played a 7 and swapped hands with ``target``."""

    player: int
    target: int

    def __init__(self, player: int, target: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "target", target)


@dataclass(frozen=True, slots=True)
class HandsPassed(Event):
    """House rule ``seven_zero`` (SPEC H): a 0 passed every hand one seat in ``direction`` (+1 left, -1 right)."""

    player: int
    direction: int

    def __init__(self, player: int, direction: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "direction", direction)


@dataclass(frozen=True, slots=True)
class HandReceived(PrivateEvent):
    """Private to ``to``: after a 7 or a 0 (SPEC H ``seven_zero``), the hand they now hold came from ``giver``."""

    giver: int
    faces: tuple[Face, ...]

    def __init__(self, to: int, giver: int, faces: tuple[Face, ...]) -> None:
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "giver", giver)
        object.__setattr__(self, "faces", faces)


for _cls in list(globals().values()):
    if isinstance(_cls, type) and issubclass(_cls, Event):
        fast_frozen_init(_cls)  # events are built at every step: see bot.engine.frozen
del _cls
