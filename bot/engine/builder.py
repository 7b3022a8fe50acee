"""Lay out any position directly, for tests (DESIGN "Engine contract": hands, both piles in order, side, turn,
direction, pending decision, Power Cards, scores).

Cards are named in the notation of :mod:`bot.engine.cards`, as they show on the side in play (``"R5"``), or as a whole
FLIP card ``"R5|O1"``. A Flex number with the flip icon may be named without its ``*``. Each name takes the first card
of the deck with that face that is not used yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Colour, Mode, Side, format_card, format_face
from .game import Game, _deck_for, _tables
from .options import Options
from .rng import NoShuffle, Rng
from .view import Phase


class PositionError(ValueError):
    """A position that cannot be laid out: an unknown card, too many copies of one, an inconsistent decision."""


def build(
    mode: Mode | str,
    hands: Sequence[str],
    discard: str,
    draw: str = "",
    *,
    side: Side | str = Side.LIGHT,
    current: int = 0,
    direction: int = 1,
    declared: Colour | str | None = None,
    phase: Phase | str = Phase.PLAY,
    after: int | None = None,
    power: Sequence[bool] | str | None = None,
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
    round: int = 1,
    active: Sequence[bool] | None = None,
    uno: Sequence[bool] | None = None,
    catchable: int | None = None,
    options: Options | None = None,
    rng: Rng | None = None,
    rest: str = "bottom",
) -> Game:
    """A game in the given position.

    - ``hands``: one string per seat, e.g. ``["R5 G3 W+4", "B2"]`` (hand order as given).
    - ``discard``: the discard pile from **bottom to top** (the last card is the top).
    - ``draw``: the draw pile from **top down** (the first card is drawn first).
    - ``rest``: the cards not named go under the named draw pile (``"bottom"``, in deck order) or nowhere else;
      ``"none"`` raises if any card is left over (you named the whole deck).
    - ``phase="play_drawn"``: the drawn card is the last card of the current player's hand.
    - ``phase="declare_colour"``: ``current`` declares, then ``after`` (default ``current``) plays.
    - ``power``: Flex Power Cards, e.g. ``"GGR"`` or ``[True, True, False]`` (default all green).
    - ``rng``: the game's generator (default :class:`~bot.engine.rng.NoShuffle`, so reshuffles keep order).

    Raises :class:`PositionError` for unknown or over-used cards and inconsistent positions.
    """
    mode = Mode(mode)
    options = options or Options()
    side = Side(side)
    phase = Phase(phase)
    n = len(hands)
    deck = _deck_for(mode, options, None)
    used = [False] * len(deck)

    def take(token: str) -> int:
        for card in deck.cards:
            if used[card.id]:
                continue
            if "|" in token:
                ok = format_card(card) == token
            else:
                text = format_face(card.face(side))
                ok = text == token or (mode is Mode.FLEX and text.rstrip("*") == token)
            if ok:
                used[card.id] = True
                return card.id
        raise PositionError(f"no {token!r} card left in the {mode.value} deck")

    def cards(text: str) -> list[int]:
        return [take(t.upper()) for t in text.replace(",", " ").split()]

    hand_ids = [cards(h) for h in hands]
    discard_ids = cards(discard)
    draw_ids = cards(draw)
    leftover = [c.id for c in deck.cards if not used[c.id]]
    if rest == "none" and leftover:
        raise PositionError(f"{len(leftover)} cards not placed")
    draw_pile = list(reversed(draw_ids))
    draw_pile[0:0] = list(reversed(leftover))
    if not discard_ids:
        raise PositionError("the discard pile needs a top card")
    declared_colour = Colour(declared) if declared is not None else None
    if isinstance(power, str):
        power = [ch.upper() == "G" for ch in power]
    game = Game(
        mode=mode,
        options=options,
        players=n,
        rng=rng if rng is not None else NoShuffle(0),
        pairing=None,
        step=0,
        round=round,
        dealer=dealer if dealer is not None else (current - 1) % n,
        active=list(active) if active is not None else [True] * n,
        scores=list(scores) if scores is not None else [0] * n,
        history=[],
        winner=None,
        abandoned=False,
        side=side,
        hands=hand_ids,
        draw_pile=draw_pile,
        discard=discard_ids,
        current=current,
        direction=direction,
        declared=declared_colour,
        phase=phase,
        drawn=hand_ids[current][-1] if phase is Phase.PLAY_DRAWN and hand_ids[current] else None,
        after=(after if after is not None else current) if phase is Phase.DECLARE_COLOUR else None,
        challenge=None,
        uno=list(uno) if uno is not None else [False] * n,
        catchable=catchable,
        power=(list(power) if power is not None else [True] * n) if mode is Mode.FLEX else None,
        revealed=None,
        deck=deck,
        faces=deck.faces(side),
        tables=_tables(deck, side),
    )
    if phase is Phase.CHALLENGE:
        raise PositionError("reach a challenge by playing the wild draw card")
    try:
        game.check_consistency()
    except ValueError as exc:
        raise PositionError(str(exc)) from exc
    return game


__all__ = ["PositionError", "build"]
