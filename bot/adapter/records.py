"""Match records (issue 19 point 1): what is needed to replay a match exactly, written beside its live snapshot.

A record is a list of numbered entries (``seq``), appended in the transaction that commits the change they made
(:meth:`~bot.storage.Store.save_game`, :meth:`~bot.storage.Store.finish_match` with ``records``):

- ``seq`` 0, the start: ``{"start": {"v", "engine", "mode", "players", "seed", "options", "seats"}}`` (``v`` the
  record format, :data:`RECORD_VERSION`; ``engine`` the engine snapshot version that played it) — the game is
  ``Game.new(mode, players, seed=seed, options=Options.from_dict(options))`` (the engine's own seeded generator, so
  the same deal); ``seats`` are ``[user_id or None, name, AI level or None]`` per seat.
- then one entry per change of the game, ``seq`` = the game's step after it (``Game.step`` counts every applied action
  and every removal, so entries are numbered 1, 2, … without a gap): ``{"a": <action>}`` for an applied action
  (:func:`encode`), ``{"remove": seat}`` for a seat taken out of the match (left, kicked, timed out, abandoned).

:func:`replay` plays a record back through the engine; the same seed and the same actions give the same game
(DESIGN "Engine contract"), so a finished match replays to its recorded result. Matches started before records
existed have no start entry and keep only their summary.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.actions import ACTION_TYPES, Action
from bot.engine.cards import Colour, Face
from bot.engine.events import CardPlayed, CardsDrawn, ChallengeResolved, Event, HandsSwapped, RoundEnded
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.snapshot import SNAPSHOT_VERSION

RECORD_VERSION: Final = 1
"""The format of the entries; a record of a newer format is refused by :func:`replay` (:class:`RecordError`)."""

ACTIONS: Final[dict[str, type[Any]]] = {cls.__name__: cls for cls in ACTION_TYPES}
"""Every engine action by its name in a record (the engine's own list: a new action, such as house rule multi_play's
``PlayMany``, is recorded without a change here)."""


class RecordError(ValueError):
    """A record that cannot be replayed: no start entry, a gap in its numbering, or an entry the engine refuses."""


def encode(action: Action) -> dict[str, Any]:
    """An action as a JSON-able dict: ``{"t": class name, field: value…}`` (colours by their value; fields at their
    default left out). Raises ``TypeError`` for a value that is not an engine action."""
    name = type(action).__name__
    if ACTIONS.get(name) is not type(action):
        raise TypeError(f"not an engine action: {action!r}")
    out: dict[str, Any] = {"t": name}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        out[f.name] = value.value if isinstance(value, Colour) else value
    return out


def decode(data: Mapping[str, Any]) -> Action:
    """The action :func:`encode` wrote. Raises :class:`RecordError` for anything else."""
    cls = ACTIONS.get(str(data.get("t")))
    if cls is None:
        raise RecordError(f"unknown action {data!r}")
    fields = {k: v for k, v in data.items() if k != "t"}
    if "colour" in fields and fields["colour"] is not None:
        fields["colour"] = Colour(fields["colour"])
    try:
        action: Action = cls(**fields)
    except TypeError as e:
        raise RecordError(f"bad action {data!r}: {e}") from None
    return action


def start_entry(
    mode: str, players: int, seed: int, options: Options, seats: Iterable[tuple[int | None, str, str | None]]
) -> dict[str, Any]:
    """The record's entry 0 (see the module text)."""
    return {
        "start": {
            "v": RECORD_VERSION,
            "engine": SNAPSHOT_VERSION,
            "mode": mode,
            "players": players,
            "seed": seed,
            "options": options.to_dict(),
            "seats": [[user, name, level] for user, name, level in seats],
        }
    }


def replay(entries: Iterable[tuple[int, Mapping[str, Any]]], events: list[Event] | None = None) -> Game:
    """Play a record (its ``(seq, entry)`` pairs, in any order) back through the engine and return the game it
    leads to; ``events`` (a list) receives every event of the match, the deal's included. Raises
    :class:`RecordError` without a start entry, on a gap in the numbering, or when the engine refuses an entry (its
    typed error as the cause)."""
    out: list[Event] = [] if events is None else events
    ordered = sorted(entries, key=lambda e: e[0])
    if not ordered or ordered[0][0] != 0 or "start" not in ordered[0][1]:
        raise RecordError("the record has no start entry (a match started before records existed)")
    start = ordered[0][1]["start"]
    if int(start.get("v", 1)) > RECORD_VERSION:
        raise RecordError(f"the record is of format {start['v']}, newer than this code's {RECORD_VERSION}")
    game, dealt = Game.new(
        start["mode"], int(start["players"]), seed=int(start["seed"]), options=Options.from_dict(start["options"])
    )
    out += dealt
    for seq, entry in ordered[1:]:
        if seq != game.step + 1:
            raise RecordError(f"entry {seq} follows step {game.step}: the record has a gap")
        try:
            if "remove" in entry:
                out += game.remove_player(int(entry["remove"]))
            else:
                out += game.apply(decode(entry["a"]))
        except ValueError as e:
            raise RecordError(f"entry {seq} ({entry!r}) was refused: {e}") from e
    return game


STACK_HIGHLIGHT: Final = 6
"""The fewest cards a draw penalty (a stack, or a wild draw) must make someone take to be a highlight of a recap."""


@dataclass(frozen=True, slots=True)
class RoundRecap:
    """A round played to its end: ``winner`` (a seat) went out with ``card`` (``None`` if the record does not show
    it); ``points`` the round's points, every seat's together (as the match's stored rounds), ``scored`` what the
    winner scored of them (SPEC G9: all of them, or none with ``scoring = "lowest"`` and under house rule
    elimination, SPEC H9, where each other player adds their own hand)."""

    number: int
    winner: int
    card: Face | None
    points: int
    scored: int


@dataclass(frozen=True, slots=True)
class Highlight:
    """A moment of a match worth telling (issue 19 point 2), in round ``round``:

    - ``challenge``: ``player`` challenged ``other``'s wild draw and won; ``other`` drew ``count`` (SPEC G7);
    - ``stack``: ``player`` had to take ``count`` cards at once (a stack or a wild draw, at least
      :data:`STACK_HIGHLIGHT`);
    - ``swap``: ``player`` swapped hands with ``other`` (a 7, house rule seven-zero) and went on to win the round.
    """

    kind: str
    round: int
    player: int
    other: int | None
    count: int


@dataclass(frozen=True, slots=True)
class Recap:
    """What a match's recap shows: its game and seats (``names`` by seat, from the record's start), the rounds, the
    highlights in the order they happened, and the winner (``None`` when abandoned). In a partner game (SPEC T)
    ``teams`` is the number of teams (0 without) and ``left`` says, by seat, who was taken out of the match (left,
    kicked or timed out: SPEC T5, they share neither their team's place nor its win)."""

    mode: str
    names: tuple[str, ...]
    rounds: tuple[RoundRecap, ...]
    highlights: tuple[Highlight, ...]
    winner: int | None
    teams: int = 0
    left: tuple[bool, ...] = ()


def recap(entries: Iterable[tuple[int, Mapping[str, Any]]]) -> Recap:
    """Replay a record (:func:`replay`, same errors) and tell it round by round, with its highlights."""
    entries = list(entries)
    events: list[Event] = []
    game = replay(entries, events)
    start = dict(entries)[0]["start"]
    rounds: list[RoundRecap] = []
    highlights: list[Highlight] = []
    last_card: dict[int, Face] = {}
    swaps: dict[int, int] = {}
    number = 1
    for e in events:
        if isinstance(e, CardPlayed):
            last_card[e.player] = e.face
        elif isinstance(e, ChallengeResolved) and e.guilty:
            highlights.append(Highlight("challenge", number, e.challenger, e.player, e.count))
        elif isinstance(e, CardsDrawn) and e.reason == "penalty" and e.count >= STACK_HIGHLIGHT:
            highlights.append(Highlight("stack", number, e.player, None, e.count))
        elif isinstance(e, HandsSwapped):
            swaps[e.player] = e.target
        elif isinstance(e, RoundEnded):
            rounds.append(RoundRecap(number, e.winner, last_card.get(e.winner), sum(e.points), e.points[e.winner]))
            if e.winner in swaps:
                highlights.append(Highlight("swap", number, e.winner, swaps[e.winner], 0))
            last_card, swaps = {}, {}
            number += 1
    names = tuple(str(name) for _, name, _ in start["seats"])
    left = tuple(not active for active in game.active) if game.teams else ()  # SPEC T6: no elimination with teams
    return Recap(str(start["mode"]), names, tuple(rounds), tuple(highlights), game.winner, game.teams, left)


__all__ = [
    "ACTIONS",
    "RECORD_VERSION",
    "STACK_HIGHLIGHT",
    "Highlight",
    "Recap",
    "RecordError",
    "RoundRecap",
    "decode",
    "encode",
    "recap",
    "replay",
    "start_entry",
]
