"""A session: the lobby and then the match of one channel, with who sits where (DESIGN "Adapter").

Plain data plus its JSON snapshot; the rules live in the engine and the orchestration in
:class:`~bot.adapter.manager.SessionManager`. Seat ``i`` of the session is seat ``i`` of the engine's game.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.engine.cards import Mode
from bot.engine.errors import SnapshotError
from bot.engine.game import PLAYER_RANGE, Game
from bot.engine.options import Options

if TYPE_CHECKING:
    from .session_view import SessionView

SESSION_VERSION = 1


class Status(StrEnum):
    """Session statuses (also the store's live-game status: the values are what snapshots and the store hold)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a finished match ended (``Session.result``): ``status`` ``"completed"`` or ``"abandoned"``, the winning
    seat (None when abandoned), the final scores by seat and the end time (Unix s)."""

    status: str
    winner: int | None
    scores: tuple[int, ...]
    ended: float

    @property
    def completed(self) -> bool:
        return self.status == "completed"

    def to_dict(self) -> dict[str, Any]:
        """The snapshot form: ``{"status", "winner", "scores", "ended"}``."""
        return {"status": self.status, "winner": self.winner, "scores": list(self.scores), "ended": self.ended}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchOutcome:
        """Raises ``KeyError`` / ``TypeError`` / ``ValueError`` for a malformed one."""
        winner = d["winner"]
        return cls(
            str(d["status"]),
            None if winner is None else int(winner),
            tuple(int(x) for x in d["scores"]),
            float(d["ended"]),
        )


@dataclass
class Seat:
    """A seat: a Discord user (``user_id``) or an AI (``user_id is None``). ``timeouts`` counts consecutive turn-timer
    expiries; ``left`` is set when the player left or was removed during the match."""

    user_id: int | None
    name: str
    timeouts: int = 0
    left: bool = False

    @property
    def ai(self) -> bool:
        return self.user_id is None


@dataclass
class Session:
    """One channel's lobby or match.

    ``version`` counts every change (the bot puts it in its buttons to refuse clicks on out-of-date messages).
    Times are Unix seconds. ``deadline`` is when the pending decision times out (None: no timer running). ``ui`` is
    free for the Discord layer (message ids); the adapter only stores it. ``result`` summarises a finished match.
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
    ui: dict[str, Any] = field(default_factory=dict)
    result: MatchOutcome | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, compare=False, repr=False)
    #: The snapshot last committed to the store: what a failed change is rolled back to.
    committed: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: What the Discord layer reads: the frozen view built right after the last commit (set by the manager).
    published: SessionView | None = field(default=None, compare=False, repr=False)

    # --- seats -------------------------------------------------------------------------------------------------------

    @property
    def min_players(self) -> int:
        return PLAYER_RANGE[self.mode][0]

    @property
    def max_players(self) -> int:
        return PLAYER_RANGE[self.mode][1]

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
            "seats": [[s.user_id, s.name, s.timeouts, int(s.left)] for s in self.seats],
            "timer": self.turn_timer,
            "created": self.created_at,
            "seed": self.seed,
            "status": self.status.value,
            "version": self.version,
            "game": self.game.to_dict() if self.game is not None else None,
            "started": self.started_at,
            "activity": self.last_activity,
            "deadline": self.deadline,
            "ui": dict(self.ui),
            "result": self.result.to_dict() if self.result is not None else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Session:
        """Load a snapshot. Raises :class:`~bot.engine.errors.SnapshotError` when it is unknown or inconsistent."""
        try:
            if d.get("v") != SESSION_VERSION:
                raise SnapshotError(f"unknown session version {d.get('v')!r}")
            seats = [Seat(None if u is None else int(u), str(n), int(t), bool(left)) for u, n, t, left in d["seats"]]
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
                ui=dict(d["ui"]),
                result=MatchOutcome.from_dict(d["result"]) if d["result"] is not None else None,
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
