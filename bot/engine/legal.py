"""Fast matching tables and the lazy list of legal actions (SPEC G3, G4, X4).

:class:`SideTables` turns the faces of a deck on one side into integer tuples so that matching a card is a few integer
comparisons. :class:`LegalActions` is a read-only sequence of a player's legal actions that builds an action object
only when it is read: ``len()``, indexing, iteration and ``in`` work as for a list (python-chess's legal-move generator
is the model).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, overload

from .actions import Accept, Action, CallUno, Challenge, Draw, Keep, NextRound, Play
from .cards import CHALLENGEABLE_KINDS, TARGETED_KINDS, Colour, Face, Kind, swaps_hands

#: Colour ↔ small integer, for the tables.
COLOUR_INDEX: Final[dict[Colour, int]] = {c: i for i, c in enumerate(Colour)}
_SYMBOL_CODE: dict[Kind, int] = {k: i for i, k in enumerate(Kind)}
#: A number card's match ``key`` is ``NUMBER_KEY + n`` (:class:`SideTables`): ``key >= NUMBER_KEY`` says "a number".
NUMBER_KEY: Final = 100


class SideTables:
    """Per card id, on one side: ``colour`` index (-1 for wilds), match ``key`` (numbers ``NUMBER_KEY + n``, actions
    their symbol code, wilds -1), ``wild``, ``flex_side`` (has a flex side), ``flex_colour`` index (-1 if none),
    ``targeted`` (flex side needs a target), ``restricted`` (a challengeable wild draw, SPEC G7), ``swaps`` (a 7 that
    names a player to swap hands with under house rule ``seven_zero``, SPEC H); and the side's
    ``colours``, which a wild may declare."""

    __slots__ = ("colour", "colours", "flex_colour", "flex_side", "key", "restricted", "swaps", "targeted", "wild")

    def __init__(self, faces: Sequence[Face], colours: tuple[Colour, ...]) -> None:
        self.colours = colours
        self.colour = tuple(COLOUR_INDEX[f.colour] if f.colour is not None else -1 for f in faces)
        self.key = tuple(
            -1 if f.is_wild else NUMBER_KEY + (f.number or 0) if f.kind is Kind.NUMBER else _SYMBOL_CODE[f.symbol]
            for f in faces
        )
        self.wild = tuple(f.is_wild for f in faces)
        self.flex_side = tuple(f.has_flex_side for f in faces)
        self.flex_colour = tuple(COLOUR_INDEX[f.flex_colour] if f.flex_colour is not None else -1 for f in faces)
        self.targeted = tuple(f.kind in TARGETED_KINDS for f in faces)
        self.restricted = tuple(f.kind in CHALLENGEABLE_KINDS for f in faces)
        self.swaps = tuple(swaps_hands(f) for f in faces)


class _Shared(dict[Any, Any]):
    """Shared action objects, built on first use by ``make(key)``: actions are immutable values, and building a frozen
    dataclass costs more than finding it again (the engine lists the same few hundred actions over and over)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> Any:
        if len(self) >= 100_000:  # far more than games use: only a bound against misuse
            self.clear()
        value = self[key] = self._make(key)
        return value


#: ``PLAYS[(player, card, colour, target, flex, uno)]`` is ``Play(player, card, colour, target, flex, uno)``.
PLAYS: Final[dict[tuple[int, int, Colour | None, int | None, bool, bool], Play]] = _Shared(lambda key: Play(*key))
#: Whether the engine runs compiled (issue 21 point 5): then building a play (natively, 30 ns) beats finding it in
#: :data:`PLAYS` (hashing and comparing a 6-tuple), in the Python source the other way round.
_NATIVE: Final = hasattr(Play, "__mypyc_attrs__")
#: ``DRAWS[player]`` is ``Draw(player)``; and so on for the actions that only name their player.
DRAWS: Final[dict[int, Draw]] = _Shared(Draw)
KEEPS: Final[dict[int, Keep]] = _Shared(Keep)
CHALLENGES: Final[dict[int, Challenge]] = _Shared(Challenge)
ACCEPTS: Final[dict[int, Accept]] = _Shared(Accept)
UNO_CALLS: Final[dict[int, CallUno]] = _Shared(CallUno)
NEXT_ROUNDS: Final[dict[int, NextRound]] = _Shared(NextRound)


class LegalActions(Sequence[Action]):
    """A player's legal actions, in a fixed order: plays (each card's regular side then flex side; for each, every
    declared colour × target × UNO variant), then the other decisions (plays of several cards at once under house rule
    ``multi_play``, draw, keep, declare, challenge, accept, next round), then UNO calls and catches. ``plays`` counts
    the plays of one card (the first ``plays`` items), ``moves`` everything but UNO calls and catches.

    Built by :meth:`~bot.engine.game.Game.legal_actions`, which gives the plays as ``(card, flex, wild, targeted)`` with
    their count ``size`` (every wild play stands for one action per colour, every targeted play one per target, each of
    those twice when ``uno``) and the other actions in ``simple``, of which the first ``decisions`` are moves."""

    __slots__ = ("_colours", "_len", "_plain", "_player", "_plays", "_simple", "_targets", "_uno", "moves", "plays")

    def __init__(
        self,
        player: int,
        plays: list[tuple[int, bool, bool, bool]],
        colours: tuple[Colour, ...],
        targets: tuple[int, ...],
        uno: bool,
        simple: list[Action],
        size: int,
        decisions: int,
    ) -> None:
        self._player = player
        self._plays = plays  # (card, flex, wild, targeted)
        self._colours = colours
        self._targets = targets
        self._uno = uno
        self._simple = simple
        self._plain = size == len(plays)  # one action per play: index i is plays[i]
        self.plays = size
        self.moves = size + decisions
        self._len = size + len(simple)

    def __len__(self) -> int:
        return self._len

    def __reduce__(self) -> tuple[type[LegalActions], tuple[Any, ...]]:
        """Rebuilt from its parts by ``copy`` and ``pickle`` (a view crosses to the AI's worker process)."""
        size = self.plays
        args = (self._player, self._plays, self._colours, self._targets, self._uno, self._simple, size)
        return LegalActions, (*args, self.moves - size)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if not isinstance(index, int):  # a slice (an int is checked natively, where ``slice`` is a global lookup)
            return list(self)[index]
        n = self._len
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal action index out of range")
        size = self.plays
        if index >= size:
            return self._simple[index - size]
        if self._plain:
            card, flex, wild, targeted = self._plays[index]
            colour = self._colours[0] if wild else None
            target = self._targets[0] if targeted else None
            if _NATIVE:
                return Play(self._player, card, colour, target, flex, False)
            return PLAYS[self._player, card, colour, target, flex, False]
        n_colours, n_targets, n_uno = len(self._colours), len(self._targets), 2 if self._uno else 1
        for card, flex, wild, targeted in self._plays:
            nc = n_colours if wild else 1
            nt = n_targets if targeted else 1
            m = nc * nt * n_uno
            if index < m:
                ci, rest = divmod(index, nt * n_uno)
                ti, ui = divmod(rest, n_uno)
                colour = self._colours[ci] if wild else None
                target = self._targets[ti] if targeted else None
                if _NATIVE:
                    return Play(self._player, card, colour, target, flex, ui == 1)
                return PLAYS[self._player, card, colour, target, flex, ui == 1]
            index -= m
        raise AssertionError("unreachable")  # pragma: no cover

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return any(a == action for a in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"
