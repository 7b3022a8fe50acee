"""Lay out any position directly, for tests (DESIGN "Engine contract": hands, both piles in order, side, turn,
direction, pending decision, Power Cards, scores).

Cards are named in the notation of :mod:`bot.engine.cards`, as they show on the side in play (``"R5"``), or as a whole
FLIP card ``"R5|O1"``. A Flex number with the flip icon may be named without its ``*``. Each name takes the first card
of the deck with that face that is not used yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Colour, Mode, Side, format_card, format_face
from .decks import deck_for, tables_for
from .events import Event
from .game import Game
from .options import Options
from .rng import NoShuffle, RandomSource
from .rules import RULESETS
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
    rng: RandomSource | None = None,
    rest: str = "bottom",
    box: str = "",
) -> Game:
    """A game in the given position.

    - ``hands``: one string per seat, e.g. ``["R5 G3 W+4", "B2"]`` (hand order as given).
    - ``discard``: the discard pile from **bottom to top** (the last card is the top).
    - ``draw``: the draw pile from **top down** (the first card is drawn first).
    - ``box``: cards left out of play (in the box): no draw, reshuffle or later deal uses them.
    - ``rest``: the cards not named go under the named draw pile (``"bottom"``, in deck order), or into the box
      (``"box"``: the draw pile is exactly ``draw``); ``"none"`` raises if any card is left over (you named the whole
      deck).
    - ``phase="play_drawn"``: the drawn card is the last card of the current player's hand.
    - ``phase="declare_colour"``: ``current`` declares, then ``after`` (default ``current``) plays.
    - ``power``: Flex Power Cards, e.g. ``"GGR"`` or ``[True, True, False]`` (default all green).
    - ``rng``: the game's generator (default :class:`~bot.engine.rng.NoShuffle`, so reshuffles keep order).

    Raises :class:`PositionError` for unknown or over-used cards and inconsistent positions.
    """
    return _lay_out(
        mode=mode,
        hands=hands,
        discard=discard,
        draw=draw,
        side=side,
        current=current,
        direction=direction,
        declared=declared,
        phase=phase,
        after=after,
        power=power,
        scores=scores,
        dealer=dealer,
        round=round,
        active=active,
        uno=uno,
        catchable=catchable,
        options=options,
        rng=rng,
        rest=rest,
        box=box,
    )


def _lay_out(
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
    rng: RandomSource | None = None,
    rest: str = "bottom",
    box: str = "",
    opening: bool = False,
) -> Game:
    """:func:`build`; with ``opening`` the discard pile may be empty and the position is checked by the caller."""
    mode = Mode(mode)
    options = options or Options()
    RULESETS[mode].check_options(options)
    side = Side(side)
    phase = Phase(phase)
    n = len(hands)
    if rest not in ("bottom", "box", "none"):
        raise PositionError(f"rest must be bottom, box or none, not {rest!r}")
    deck = deck_for(mode, options, None)
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
    box_ids = cards(box)
    leftover = [c.id for c in deck.cards if not used[c.id]]
    if rest == "none" and leftover:
        raise PositionError(f"{len(leftover)} cards not placed")
    draw_pile = list(reversed(draw_ids))
    if rest == "box":
        box_ids += leftover
    else:
        draw_pile[0:0] = list(reversed(leftover))
    if not discard_ids and not opening:
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
        box=box_ids,
        stack=None,
        deck=deck,
        faces=deck.faces(side),
        tables=tables_for(deck, side),
    )
    if phase is Phase.CHALLENGE:
        raise PositionError("reach a challenge by playing the wild draw card")
    if opening:
        return game
    try:
        game.check_consistency()
    except ValueError as exc:
        raise PositionError(str(exc)) from exc
    return game


def deal(
    mode: Mode | str,
    hands: Sequence[str],
    draw: str,
    *,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    round: int = 1,
    options: Options | None = None,
    rng: RandomSource | None = None,
    rest: str = "box",
    box: str = "",
) -> tuple[Game, list[Event]]:
    """Open a round from a laid-out deal: ``hands`` are dealt, ``draw`` is the draw pile from the top down, and the
    opening card is turned from it by the game's own rule (SPEC C2, F4, X2) — a returned card goes back, the draw
    pile is reshuffled (with the default :class:`~bot.engine.rng.NoShuffle` it keeps its order) and the next is turned;
    an opening wild asks the first player for the colour. Play starts left of ``dealer`` (default: the last seat).

    ``rest``: the cards not named stay in the box (default ``"box"``) or go under the draw pile (``"bottom"``).
    Returns the game and the events of the opening (:class:`~bot.engine.events.OpeningCard` and its effect).
    Raises :class:`PositionError` as :func:`build` does, and when the draw pile holds no card that can open.
    """
    n = len(hands)
    first_dealer = dealer if dealer is not None else n - 1
    game = _lay_out(
        mode,
        hands,
        "",
        draw,
        current=(first_dealer + 1) % n,
        dealer=first_dealer,
        scores=scores,
        round=round,
        options=options,
        rng=rng,
        rest=rest,
        box=box,
        opening=True,
    )
    events: list[Event] = []
    try:
        game.open_round(events)
        game.check_consistency()
    except IndexError as exc:
        raise PositionError("the draw pile ran out before a card could open the round") from exc
    except ValueError as exc:
        raise PositionError(str(exc)) from exc
    return game, events


__all__ = ["PositionError", "build", "deal"]
