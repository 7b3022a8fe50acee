"""Actions a player may take (SPEC G4, G7, G8, F8). Frozen value types; ``player`` is a seat number 0..n-1.

A wild's declared colour and a targeted card's target travel with the play (SPEC G4 ruling).

Each class writes out the ``__init__`` dataclasses would write (``object.__setattr__`` per field): the compiled engine
(issue 21 point 5) then builds them natively, 14× faster; the Python source replaces it by a faster one of its own
(:func:`bot.engine.frozen.fast_frozen_init`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Colour
from .frozen import fast_frozen_init, picklable


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (a card id from the hand). ``colour`` for wilds, ``target`` for targeted Flex flex sides,
    ``flex`` to play the flex side (SPEC X4), ``uno`` to call UNO with the next-to-last card (SPEC G8)."""

    player: int
    card: int
    colour: Colour | None = None
    target: int | None = None
    flex: bool = False
    uno: bool = False

    def __init__(
        self,
        player: int,
        card: int,
        colour: Colour | None = None,
        target: int | None = None,
        flex: bool = False,
        uno: bool = False,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "flex", flex)
        object.__setattr__(self, "uno", uno)


@dataclass(frozen=True, slots=True)
class PlayMany:
    """House rule ``multi_play`` (SPEC H8): play ``cards`` (card ids from the hand: two or more numbers of the same
    number, regular sides) at once, in this order — the first must be playable as an ordinary play, the last ends on
    top of the discard pile. ``uno``: call UNO with them (they leave one card, SPEC G8). ``cards`` is always a tuple
    (any iterable is taken: a JSON list of a record, say), so the action is a hashable value like every other."""

    player: int
    cards: tuple[int, ...]
    uno: bool = False

    def __init__(self, player: int, cards: Iterable[int], uno: bool = False) -> None:
        # a tuple whatever it is given: a record or a message may carry the cards as a JSON list
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", tuple(cards))
        object.__setattr__(self, "uno", uno)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the draw pile instead of playing (SPEC G4)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the card just drawn and end the turn (SPEC G4)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class DeclareColour:
    """Declare the colour of an opening wild (SPEC C2, F4) or of a wild exposed by a Flip (SPEC F8)."""

    player: int
    colour: Colour

    def __init__(self, player: int, colour: Colour) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "colour", colour)


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the wild draw card just played against you (SPEC G7, C5, F7, X7)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the wild draw penalty without challenging (SPEC G7)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class CallUno:
    """Call UNO while holding exactly one card (SPEC G8)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch ``target`` for not calling UNO (SPEC G8). Catching someone not catchable is a false catch."""

    player: int
    target: int

    def __init__(self, player: int, target: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "target", target)


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round of the match (SPEC G9)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


Action = Play | PlayMany | Draw | Keep | DeclareColour | Challenge | Accept | CallUno | Catch | NextRound
#: Every action type :meth:`bot.engine.game.Game.apply` takes, e.g. for a layer that writes actions down by name.
ACTION_TYPES: tuple[type, ...] = (
    Play,
    PlayMany,
    Draw,
    Keep,
    DeclareColour,
    Challenge,
    Accept,
    CallUno,
    Catch,
    NextRound,
)

for _cls in ACTION_TYPES:
    if _cls is not PlayMany:  # PlayMany keeps its own __init__ (it makes a tuple of the cards)
        fast_frozen_init(_cls)  # see bot.engine.frozen
picklable(PlayMany)
del _cls
