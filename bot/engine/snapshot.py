"""Saving and loading a game: the versioned JSON snapshot and its upgrade chain (DESIGN "Saved formats and
upgrades").

:func:`dump` writes the current format (:data:`SNAPSHOT_VERSION`); :func:`load` reads any older one by first running
:func:`upgrade`, which applies one small pure step per version (``v1 → v2 → …``, like SQL migrations). A snapshot
newer than this code raises :class:`~bot.engine.errors.SnapshotTooNew` (a
:class:`~bot.engine.errors.SnapshotError`): the store sets it aside, never deletes it.

Adding a format change: bump :data:`SNAPSHOT_VERSION`, write ``_vN_to_vN1(d) -> d`` (pure: it returns a new dict and
never looks at the rules), register it in :data:`STEPS`, and test it on the committed fixtures of every older version
in ``tests/fixtures/snapshots/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from . import errors as E
from .cards import Colour, Mode, Side
from .decks import deck_for, tables_for
from .options import Options
from .pending import PendingChallenge
from .rng import Rng
from .rules import RULESETS
from .state import GameState
from .teams import team_count
from .view import Phase, RoundRecord

#: The class :func:`load` builds: :class:`~bot.engine.game.Game` (which passes itself), typed here by its state only so
#: that this module does not import the game (which imports it).
G = TypeVar("G", bound=GameState)

#: Snapshot format version written by :func:`dump`.
SNAPSHOT_VERSION = 4


def _v1_to_v2(d: dict[str, Any]) -> dict[str, Any]:
    """v2 adds ``box``: the cards left out of play (none in a v1 game)."""
    return dict(d, v=2, box=[])


def _v2_to_v3(d: dict[str, Any]) -> dict[str, Any]:
    """v3 adds ``stack``: the total of a pending stack (house rule ``stacking``, SPEC H); none in a v2 game."""
    return dict(d, v=3, stack=None)


def _v3_to_v4(d: dict[str, Any]) -> dict[str, Any]:
    """v4 may hold, in ``options``, option ``teams`` (SPEC T) and the house rules that v3 games were saved with by
    releases that did not bump the version (``number_finish``, ``stack_deflect``, ``multi_play``, ``elimination``,
    SPEC H6–H9): a release older than v4 refuses such a game as too new, and its store keeps it aside, instead of
    taking it for a corrupt one. The fields are those of v3; a v3 game is a v4 game without teams."""
    return dict(d, v=4)


#: ``STEPS[n]`` upgrades a version-``n`` snapshot to version ``n + 1``.
STEPS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def snapshot_version(d: object) -> int:
    """The format version of snapshot ``d``. Raises :class:`~bot.engine.errors.SnapshotError` if it has none."""
    v = d.get("v") if isinstance(d, dict) else None
    if type(v) is not int or v < 1:
        raise E.SnapshotError(f"unknown snapshot version {v!r}")
    return v


def upgrade(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` in the current format: the steps from its version up, applied in order (``d`` itself is not changed).

    Raises :class:`~bot.engine.errors.SnapshotTooNew` for a version above :data:`SNAPSHOT_VERSION`, and
    :class:`~bot.engine.errors.SnapshotError` for one without a version."""
    v = snapshot_version(d)
    if v > SNAPSHOT_VERSION:
        raise E.SnapshotTooNew(f"snapshot version {v} is newer than this code ({SNAPSHOT_VERSION})")
    while v < SNAPSHOT_VERSION:
        d = STEPS[v](d)
        if snapshot_version(d) != v + 1:  # pragma: no cover - a broken step
            raise E.SnapshotError(f"upgrade step from v{v} did not give v{v + 1}")
        v += 1
    return d


def dump(game: GameState) -> dict[str, Any]:
    """A JSON-able snapshot of ``game`` in the current format."""
    ch = game.challenge
    return {
        "v": SNAPSHOT_VERSION,
        "mode": game.mode.value,
        "options": game.options.to_dict(),
        "players": game.players,
        "rng": game.rng.to_list(),
        "pairing": list(game.pairing) if game.pairing is not None else None,
        "step": game.step,
        "round": game.round,
        "dealer": game.dealer,
        "active": [int(a) for a in game.active],
        "scores": list(game.scores),
        "history": [[r.winner, list(r.points)] for r in game.history],
        "winner": game.winner,
        "abandoned": game.abandoned,
        "side": game.side.value,
        "hands": [list(h) for h in game.hands],
        "draw": list(game.draw_pile),
        "discard": list(game.discard),
        "current": game.current,
        "direction": game.direction,
        "declared": game.declared.value if game.declared is not None else None,
        "phase": game.phase.value,
        "drawn": game.drawn,
        "after": game.after,
        "challenge": None
        if ch is None
        else [ch.player, ch.victim, ch.card, int(ch.guilty), list(ch.hand), int(ch.flex), ch.resume],
        "uno": [int(u) for u in game.uno],
        "catchable": game.catchable,
        "power": [int(x) for x in game.power] if game.power is not None else None,
        "revealed": None if game.revealed is None else [game.revealed[0], game.revealed[1], list(game.revealed[2])],
        "box": list(game.box),
        "stack": game.stack,
    }


def load(cls: type[G], data: dict[str, Any]) -> G:
    """Load a snapshot of any known version. Raises :class:`~bot.engine.errors.SnapshotError` (or
    :class:`~bot.engine.errors.SnapshotTooNew`) for an unknown version or a malformed or inconsistent snapshot."""
    try:
        return _load(cls, upgrade(data))
    except E.SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise E.SnapshotError(f"bad snapshot: {exc!r}") from exc


def _load(cls: type[G], d: dict[str, Any]) -> G:
    mode = Mode(d["mode"])
    options = Options.from_dict(d["options"])
    RULESETS[mode].check_options(options)
    players = int(d["players"])
    low, high = RULESETS[mode].players
    if not low <= players <= high:
        raise E.SnapshotError("player count out of range")
    team_count(mode, options, players)  # SPEC T1: a team game is for 4, 6 or 8 players (ValueError otherwise)
    pairing = tuple(int(x) for x in d["pairing"]) if d["pairing"] is not None else None
    deck = deck_for(mode, options, pairing)
    side = Side(d["side"])
    if mode is not Mode.FLIP and side is not Side.LIGHT:
        raise E.SnapshotError("only FLIP has a dark side")
    ch = d["challenge"]
    rev = d["revealed"]
    game = cls(
        mode=mode,
        options=options,
        players=players,
        rng=Rng.from_list([int(x) for x in d["rng"]]),
        pairing=pairing,
        step=int(d["step"]),
        round=int(d["round"]),
        dealer=_seat(d["dealer"], players),
        active=[bool(x) for x in d["active"]],
        scores=[int(x) for x in d["scores"]],
        history=[RoundRecord(_seat(w, players), tuple(int(x) for x in pts)) for w, pts in d["history"]],
        winner=None if d["winner"] is None else _seat(d["winner"], players),
        abandoned=bool(d["abandoned"]),
        side=side,
        hands=[[int(c) for c in h] for h in d["hands"]],
        draw_pile=[int(c) for c in d["draw"]],
        discard=[int(c) for c in d["discard"]],
        current=_seat(d["current"], players),
        direction=int(d["direction"]),
        declared=None if d["declared"] is None else Colour(d["declared"]),
        phase=Phase(d["phase"]),
        drawn=None if d["drawn"] is None else int(d["drawn"]),
        after=None if d["after"] is None else _seat(d["after"], players),
        challenge=None
        if ch is None
        else PendingChallenge(
            _seat(ch[0], players),
            _seat(ch[1], players),
            int(ch[2]),
            bool(ch[3]),
            tuple(int(c) for c in ch[4]),
            bool(ch[5]),
            None if ch[6] is None else _seat(ch[6], players),
        ),
        uno=[bool(x) for x in d["uno"]],
        catchable=None if d["catchable"] is None else _seat(d["catchable"], players),
        power=None if d["power"] is None else [bool(x) for x in d["power"]],
        revealed=None
        if rev is None
        else (_seat(rev[0], players), _seat(rev[1], players), tuple(int(c) for c in rev[2])),
        box=[int(c) for c in d["box"]],
        stack=None if d["stack"] is None else int(d["stack"]),
        deck=deck,
        faces=deck.faces(side),
        tables=tables_for(deck, side),
    )
    game.check_consistency()
    return game


def _seat(value: Any, players: int) -> int:
    seat = int(value)
    if not 0 <= seat < players:
        raise E.SnapshotError(f"seat {seat} out of range")
    return seat


__all__ = ["SNAPSHOT_VERSION", "STEPS", "dump", "load", "snapshot_version", "upgrade"]
