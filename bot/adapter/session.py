"""A session: the lobby and then the match of one channel, with who sits where (DESIGN "Adapter").

Plain data plus its JSON snapshot; the rules live in the engine and the orchestration in
:class:`~bot.adapter.manager.SessionManager`. Seat ``i`` of the session is seat ``i`` of the engine's game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot import limits
from bot.ai import DEFAULT_LEVEL, Level
from bot.engine.actions import Action
from bot.engine.cards import Mode
from bot.engine.errors import SnapshotError, SnapshotTooNew
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.scoring import placement

from . import records
from .ui import TableUi
from .verdicts import Challenges

#: Session snapshot format written by :meth:`Session.to_dict`; older ones are upgraded by :func:`upgrade`.
SESSION_VERSION = 7
#: How many lines of the last-moves log a session keeps (:attr:`Session.log`).
LOG_LINES = 8


def _v1_to_v2(d: dict[str, Any]) -> dict[str, Any]:
    """v2: a finished session's ``result`` carries ``placement``, the seats from first to last (SPEC G9), so the
    summary shows the engine's ranking instead of sorting scores itself (v1 ranked ``scoring = "lowest"`` the wrong
    way round)."""
    out = dict(d, v=2)
    result = d.get("result")
    if isinstance(result, dict) and "placement" not in result:
        scores = result.get("scores") or [0] * len(d["seats"])
        scoring = (d.get("options") or {}).get("scoring", "winner")
        out["result"] = dict(result, placement=placement(scores, result.get("winner"), scoring))
    return out


def _v2_to_v3(d: dict[str, Any]) -> dict[str, Any]:
    """v3: the session keeps its last-moves ``log`` (the table's lines, oldest first), so that it survives a
    restart; an older session starts with an empty one."""
    return dict(d, v=3, log=list(d.get("log") or []))


def _v3_to_v4(d: dict[str, Any]) -> dict[str, Any]:
    """v4: each seat carries its AI level (issue 21: ``"easy"``, ``"normal"``, ``"hard"``; None for a human) as a
    fifth entry; the AI seats of an older session played the one heuristic there was, so they become *Normal*."""
    seats = [[*seat[:4], DEFAULT_LEVEL.value if seat[0] is None else None] for seat in d["seats"]]
    return dict(d, v=4, seats=seats)


def _v4_to_v5(d: dict[str, Any]) -> dict[str, Any]:
    """v5: each seat carries why it is out of the match (issue 18 point 5: ``"left"``, ``"kicked"``,
    ``"timeouts"``; None while it plays) as a sixth entry. An older seat removed during the match left or was
    removed, which its row does not tell: it reads "left" as before."""
    seats = [[*seat[:5], "left" if seat[3] else None] for seat in d["seats"]]
    return dict(d, v=5, seats=seats)


def _v5_to_v6(d: dict[str, Any]) -> dict[str, Any]:
    """v6: ``ui`` is a typed record (:class:`~bot.adapter.ui.TableUi`, issue 17 point 3) with every field present:
    the keys the Discord layer wrote into the free dict of v5 and before (``lang``, default ``"en"`` as its readers
    took it; the message ids ``message``, ``ping``, ``round_summary``, ``link_channel``, ``link_message``;
    ``summary``; ``link_host``, default ``""``), each of its type. Other keys, which no release wrote, are not
    kept."""
    old = d.get("ui") or {}

    def id_of(key: str) -> int | None:
        value = old.get(key)
        return None if value is None else int(value)

    summary = old.get("summary")
    ui = {
        "lang": str(old.get("lang") or "en"),
        "message": id_of("message"),
        "ping": id_of("ping"),
        "summary": None if summary is None else str(summary),
        "round_summary": id_of("round_summary"),
        "link_channel": id_of("link_channel"),
        "link_message": id_of("link_message"),
        "link_host": str(old.get("link_host") or ""),
    }
    return dict(d, v=6, ui=ui)


def _v6_to_v7(d: dict[str, Any]) -> dict[str, Any]:
    """v7: the session keeps its match's challenge facts from the engine's events (``challenges``:
    :class:`~bot.adapter.verdicts.Challenges`, issue 17 point 3), the verdict of the last challenge for the
    challenger's hand. An older session knows none: a challenge resolved before the upgrade shows the challenged hand
    without its verdict (as it did after a restart), and one pending then shows its verdict without the colour."""
    return dict(d, v=7, challenges={"judged": None, "verdict": None})


#: ``STEPS[n]`` upgrades a version-``n`` session snapshot to version ``n + 1`` (pure; like SQL migrations). The
#: engine game inside is upgraded by :func:`bot.engine.snapshot.upgrade` when it is loaded.
STEPS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
    6: _v6_to_v7,
}


def upgrade(d: dict[str, Any]) -> dict[str, Any]:
    """Session snapshot ``d`` in the current format (``d`` is not changed). Raises
    :class:`~bot.engine.errors.SnapshotTooNew` for a version newer than :data:`SESSION_VERSION` (the store keeps
    such a row aside) and :class:`~bot.engine.errors.SnapshotError` for one without a known version."""
    v = d.get("v") if isinstance(d, dict) else None
    if type(v) is not int or v < 1:
        raise SnapshotError(f"unknown session version {v!r}")
    if v > SESSION_VERSION:
        raise SnapshotTooNew(f"session version {v} is newer than this code ({SESSION_VERSION})")
    while v < SESSION_VERSION:
        d = STEPS[v](d)
        v += 1
    return d


class Status(StrEnum):
    """Session statuses (also the store's live-game status: the values are what snapshots and the store hold)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class Out(StrEnum):
    """Why a seat is out of its match (:attr:`Seat.out`; the values are what snapshots hold)."""

    LEFT = "left"  # its player left (/uno leave)
    KICKED = "kicked"  # the host or a server manager removed it (/uno kick)
    TIMEOUTS = "timeouts"  # the turn timer removed it after too many timeouts in a row


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a finished match ended (``Session.result``): ``status`` ``"completed"`` or ``"abandoned"``, the winning
    seat (None when abandoned), the final scores by seat, the end time (Unix s) and ``placement``, the seats from
    first to last (SPEC G9)."""

    status: str
    winner: int | None
    scores: tuple[int, ...]
    ended: float
    placement: tuple[int, ...]

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    def to_dict(self) -> dict[str, Any]:
        """The snapshot form: ``{"status", "winner", "scores", "placement", "ended"}``."""
        return {
            "status": self.status,
            "winner": self.winner,
            "scores": list(self.scores),
            "placement": list(self.placement),
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchOutcome:
        """Read the snapshot form (of the current version). Raises ``KeyError`` / ``TypeError`` / ``ValueError``
        for a malformed one."""
        winner = d["winner"]
        return cls(
            str(d["status"]),
            None if winner is None else int(winner),
            tuple(int(x) for x in d["scores"]),
            float(d["ended"]),
            tuple(int(x) for x in d["placement"]),
        )


@dataclass
class Seat:
    """A seat: a Discord user (``user_id``) or an AI (``user_id is None``) of ``level`` (issue 21; None for a human,
    :data:`~bot.ai.DEFAULT_LEVEL` for an AI given none). ``timeouts`` counts consecutive turn-timer expiries; ``left``
    is set when the player left or was removed during the match, and ``out`` says which (:class:`Out`)."""

    user_id: int | None
    name: str
    timeouts: int = 0
    left: bool = False
    level: Level | None = None
    out: Out | None = None

    def __post_init__(self) -> None:
        if self.user_id is None and self.level is None:
            self.level = DEFAULT_LEVEL
        elif self.user_id is not None:
            self.level = None

    @property
    def ai(self) -> bool:
        return self.user_id is None


@dataclass
class Session:
    """One channel's lobby or match.

    ``version`` counts every change (the bot puts it in its buttons to refuse clicks on out-of-date messages).
    Times are Unix seconds. ``deadline`` is when the pending decision times out (None: no timer running). ``ui`` is
    the Discord layer's data (:class:`~bot.adapter.ui.TableUi`: the table's language, message ids), replaced whole by
    :meth:`~bot.adapter.manager.SessionManager.update_ui`; the adapter stores it and reads only its language.
    ``result`` summarises a finished match. ``challenges``: the verdict of the last challenge of a wild draw, and
    the colour the pending one is judged on, from the engine's events (kept by :meth:`apply`). ``log``: the last
    moves as the Discord layer wrote them (at most :data:`LOG_LINES`, oldest first).
    """

    channel_id: int
    guild_id: int
    mode: Mode
    options: Options
    host_id: int
    seats: list[Seat]
    turn_timer: float
    created_at: float
    seed: int
    status: Status = Status.LOBBY
    version: int = 0
    game: Game | None = None
    started_at: float | None = None
    last_activity: float = 0.0
    deadline: float | None = None
    ui: TableUi = field(default_factory=TableUi)
    result: MatchOutcome | None = None
    log: list[str] = field(default_factory=list)
    challenges: Challenges = field(default_factory=Challenges)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, compare=False, repr=False)
    #: The snapshot last committed to the store: what a failed change is rolled back to.
    committed: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: The match record's entries of the changes made since the last commit, ``(seq, entry)`` (issue 19 point 1,
    #: bot/adapter/records.py): written with the next commit, dropped when it fails.
    journal: list[tuple[int, dict[str, Any]]] = field(default_factory=list, compare=False, repr=False)

    # --- changes of the game (each noted for the match record) ------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` to the game (:meth:`Game.apply`, whose typed errors leave everything unchanged), note
        it for the match record and keep the challenge facts its events tell (:attr:`challenges`)."""
        game = self.game
        assert game is not None
        events = game.apply(action)
        self.journal.append((game.step, {"a": records.encode(action)}))
        self.challenges = self.challenges.after(events)
        return events

    def remove(self, seat: int) -> list[Event]:
        """Take ``seat`` out of the match (:meth:`Game.remove_player`) and note it for the match record."""
        game = self.game
        assert game is not None
        events = game.remove_player(seat)
        self.journal.append((game.step, {"remove": seat}))
        return events

    # --- seats -------------------------------------------------------------------------------------------------------

    @property
    def min_players(self) -> int:
        return limits.PLAYER_RANGE[self.mode.value][0]

    @property
    def max_players(self) -> int:
        return limits.PLAYER_RANGE[self.mode.value][1]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` still playing (or waiting in the lobby), else None."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.left:
                return i
        return None

    def humans(self) -> list[int]:
        """Seats of human players still in."""
        return [i for i, s in enumerate(self.seats) if not s.ai and not s.left]

    @property
    def match_key(self) -> str:
        """A unique name for this match's result (SPEC G9): channel, start time and seed."""
        return f"{self.channel_id}:{int((self.started_at or self.created_at) * 1000)}:{self.seed}"

    # --- snapshot ----------------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able snapshot of the whole session, engine game included (``"v"`` versioned)."""
        return {
            "v": SESSION_VERSION,
            "channel": self.channel_id,
            "guild": self.guild_id,
            "mode": self.mode.value,
            "options": self.options.to_dict(),
            "host": self.host_id,
            "seats": [
                [
                    s.user_id,
                    s.name,
                    s.timeouts,
                    int(s.left),
                    None if s.level is None else s.level.value,
                    None if s.out is None else s.out.value,
                ]
                for s in self.seats
            ],
            "timer": self.turn_timer,
            "created": self.created_at,
            "seed": self.seed,
            "status": self.status.value,
            "version": self.version,
            "game": self.game.to_dict() if self.game is not None else None,
            "started": self.started_at,
            "activity": self.last_activity,
            "deadline": self.deadline,
            "ui": self.ui.to_dict(),
            "result": self.result.to_dict() if self.result is not None else None,
            "log": list(self.log),
            "challenges": self.challenges.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Session:
        """Load a snapshot of this or any older format (see :func:`upgrade`). Raises
        :class:`~bot.engine.errors.SnapshotError` when it is unknown or inconsistent, and its subclass
        :class:`~bot.engine.errors.SnapshotTooNew` when it was written by a newer release."""
        try:
            d = upgrade(d)
            seats = [
                Seat(
                    None if u is None else int(u),
                    str(n),
                    int(t),
                    bool(left),
                    None if lv is None else Level(lv),
                    None if out is None else Out(out),
                )
                for u, n, t, left, lv, out in d["seats"]
            ]
            game = Game.from_dict(d["game"]) if d["game"] is not None else None
            session = cls(
                channel_id=int(d["channel"]),
                guild_id=int(d["guild"]),
                mode=Mode(d["mode"]),
                options=Options.from_dict(d["options"]),
                host_id=int(d["host"]),
                seats=seats,
                turn_timer=float(d["timer"]),
                created_at=float(d["created"]),
                seed=int(d["seed"]),
                status=Status(d["status"]),
                version=int(d["version"]),
                game=game,
                started_at=None if d["started"] is None else float(d["started"]),
                last_activity=float(d["activity"]),
                deadline=None if d["deadline"] is None else float(d["deadline"]),
                ui=TableUi.from_dict(d["ui"]),
                result=MatchOutcome.from_dict(d["result"]) if d["result"] is not None else None,
                log=[str(line) for line in d["log"]],
                challenges=Challenges.from_dict(d["challenges"]),
            )
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SnapshotError(f"bad session snapshot: {exc!r}") from exc
        if session.status not in (Status.LOBBY, Status.PLAYING, Status.FINISHED):
            raise SnapshotError(f"unknown status {session.status!r}")
        if session.status == Status.PLAYING and (game is None or game.players != len(seats)):
            raise SnapshotError("a playing session needs its game, one seat per player")
        return session
