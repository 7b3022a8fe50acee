"""Helpers for engine scenario tests: find cards by notation, play them, summarise events."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.engine.actions import Play
from bot.engine.builder import build
from bot.engine.cards import Colour, Deck, Mode, format_face
from bot.engine.events import Event
from bot.engine.game import Game

__all__ = [
    "ScriptedRng",
    "build",
    "card_in_hand",
    "faces",
    "hand",
    "ids",
    "names",
    "new_game_with_opening",
    "play",
    "snapshot",
    "to_top",
]


def card_in_hand(game: Game, seat: int, text: str) -> int:
    """The id of the first card in ``seat``'s hand showing ``text`` on the side in play."""
    for c in game.hands[seat]:
        shown = format_face(game.faces[c])
        if shown == text or shown.rstrip("*") == text:
            return c
    raise AssertionError(f"seat {seat} holds no {text}: {hand(game, seat)}")


def play(
    game: Game,
    seat: int,
    text: str,
    colour: Colour | str | None = None,
    *,
    target: int | None = None,
    flex: bool = False,
    uno: bool = False,
) -> list[Event]:
    """Apply ``Play`` of the card ``text`` from ``seat``'s hand."""
    c = Colour(colour) if colour is not None else None
    return game.apply(Play(seat, card_in_hand(game, seat, text), c, target, flex, uno))


def hand(game: Game, seat: int) -> list[str]:
    """``seat``'s hand in notation (side in play), in hand order."""
    return [format_face(game.faces[c]) for c in game.hands[seat]]


def faces(game: Game, ids: Iterable[int]) -> list[str]:
    return [format_face(game.faces[c]) for c in ids]


def names(events: Sequence[Event]) -> list[str]:
    """Event class names, in order."""
    return [type(e).__name__ for e in events]


def snapshot(game: Game) -> dict[str, object]:
    return game.to_dict()


class ScriptedRng:
    """A generator whose shuffles are scripted: each call takes the next arrangement function from ``script``
    (``None`` or an exhausted script: leave the order as it is). Any object with ``shuffle``, ``randrange`` and
    ``to_list`` will do (:class:`bot.engine.rng.RandomSource`): it subclasses no engine class, which the compiled
    engine's native classes would refuse (issue 21 point 5)."""

    def __init__(self, script: Sequence[Callable[[list[int]], None] | None]) -> None:
        self.seed = 0
        self.counter = 0
        self.script = list(script)

    def shuffle(self, items: list[int]) -> None:
        step = self.script.pop(0) if self.script else None
        self.counter += 1
        if step is not None:
            step(items)

    def randrange(self, n: int) -> int:
        if n < 1:
            raise ValueError("empty range")
        self.counter += 1
        return 0

    def to_list(self) -> list[int]:
        return [self.seed, self.counter]


def ids(deck: Deck, text: str) -> list[int]:
    """Distinct card ids with the given light faces, in order (``"R5 R5 G3"`` → two R5s and a G3)."""
    taken: list[int] = []
    for token in text.split():
        for c in deck.cards:
            if c.id not in taken and format_face(c.light).rstrip("*") == token:
                taken.append(c.id)
                break
        else:
            raise AssertionError(f"no {token} left")
    return taken


def to_top(wanted: list[int]) -> Callable[[list[int]], None]:
    """An arrangement that puts ``wanted`` at the top of the pile, ``wanted[0]`` drawn first."""

    def arrange(items: list[int]) -> None:
        rest = [c for c in items if c not in wanted]
        items[:] = rest + list(reversed(wanted))

    return arrange


def new_game_with_opening(mode: Mode, players: int, opening: str, **kwargs: object) -> tuple[Game, list[Event]]:
    """A new match where the last seat deals (so seat 0 plays first) and ``opening`` cards are turned in order.

    The dealer draw gives the last seat a 9 and the others 1s (SPEC G2). Hands are dealt from the deck's order, so
    they hold no card named in ``opening``."""
    from bot.engine.game import _deck_for
    from bot.engine.options import Options

    options = kwargs.pop("options", None) or Options()
    assert isinstance(options, Options)
    deck = _deck_for(mode, options, None)
    low = [f"{'RGBY'[i % 4]}{1 + i // 4}" for i in range(players - 1)]
    draws = ids(deck, " ".join([*low, "Y9" if mode is not Mode.FLEX else "Y8"]))
    opening_ids = ids(deck, opening)

    def deal(items: list[int]) -> None:
        rest = [c for c in items if c not in opening_ids]
        # cards are popped from the end: the 7 * players dealt first, then the opening cards in order
        dealt, rest = rest[-7 * players :], rest[: -7 * players]
        items[:] = rest + list(reversed(opening_ids)) + dealt

    game, events = Game.new(mode, players, rng=ScriptedRng([to_top(draws), deal]), options=options)
    return game, events
