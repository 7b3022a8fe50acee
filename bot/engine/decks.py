"""The deck of a match and its matching tables, built once and shared (decks are immutable).

- :func:`deck_for` gives the deck of ``(mode, options, pairing)`` (SPEC C1, F1, F2, X1), cached.
- :func:`tables_for` gives a deck's :class:`~bot.engine.legal.SideTables` on one side, cached with the deck.
- :func:`random_pairing` draws a FLIP pairing for ``flip_pairing = "random"`` (SPEC F2).
"""

from __future__ import annotations

from . import errors as E
from .cards import Deck, Mode, Side, build_deck, colours_of, flip_dark_faces, flip_light_faces
from .legal import SideTables
from .options import Options
from .rng import RandomSource


def tables_for(deck: Deck, side: Side) -> SideTables:
    """The matching tables of ``deck`` on ``side`` (built on first use, then kept in ``deck.cache``)."""
    tables = deck.cache.get(side)
    if tables is None:
        tables = deck.cache[side] = SideTables(deck.faces(side), colours_of(side))
    assert isinstance(tables, SideTables)
    return tables


def random_pairing(rng: RandomSource) -> tuple[int, ...]:
    """SPEC F2 option ``random``: for each light face (F1 order) the index of its dark face; no card wild twice."""
    light, dark = flip_light_faces(), flip_dark_faces()
    order = list(range(len(dark)))
    while True:
        rng.shuffle(order)
        if not any(light[i].is_wild and dark[j].is_wild for i, j in enumerate(order)):
            return tuple(order)


def deck_for(mode: Mode, options: Options, pairing: tuple[int, ...] | None) -> Deck:
    """The deck of a match, shared between games with the same definition. Raises
    :class:`~bot.engine.errors.SnapshotError` for a FLIP pairing that is not a permutation."""
    key = (mode, options.classic_deck if mode is Mode.CLASSIC else "", pairing)
    deck = _DECKS.get(key)
    if deck is None:
        pairs = None
        if mode is Mode.FLIP and pairing is not None:
            light, dark = flip_light_faces(), flip_dark_faces()
            if sorted(pairing) != list(range(len(dark))):
                raise E.SnapshotError("the FLIP pairing is not a permutation")
            pairs = [(light[i], dark[j]) for i, j in enumerate(pairing)]
        deck = build_deck(mode, classic_edition=options.classic_deck, flip_pairs=pairs)
        if len(_DECKS) > 64:
            _DECKS.clear()
        _DECKS[key] = deck
    return deck


_DECKS: dict[tuple[Mode, str, tuple[int, ...] | None], Deck] = {}
