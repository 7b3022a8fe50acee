"""What the Discord layer reads of a session: a frozen view built right after each commit, under the session's lock
(DESIGN "Adapter": nothing is shown before it is saved).

A :class:`SessionView` holds the session's settings and seats, its Discord-layer data (``ui``, a frozen
:class:`~bot.adapter.ui.TableUi`), the match result, and the engine's public view and every seat's own view of the
game *as committed*. It never changes, and nothing in it refers to the live session or game, so rendering it later
(while the next move is being saved) cannot show an uncommitted move.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.engine.view import PlayerView
from bot.limits import turn_clock

from . import refusals as E
from .session import MatchOutcome, Session, Status
from .ui import TableUi
from .verdicts import Verdict


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat as committed: a Discord user (``user_id``) or an AI (``user_id is None``, ``ai_number`` 1, 2… in seat
    order among the AI seats); ``left``: removed during the match; ``timeouts``: the turn timer ran out on this many
    of the seat's decisions in a row (0 once its player acts); ``level``: an AI seat's level (issue 21: ``"easy"``,
    ``"normal"``, ``"hard"``; None for a human); ``out``: why it is out of the match (``"left"``, ``"kicked"``,
    ``"timeouts"``: :class:`~bot.adapter.session.Out`; None while it plays)."""

    user_id: int | None
    name: str
    left: bool
    ai_number: int | None
    timeouts: int = 0
    level: str | None = None
    out: str | None = None

    @property
    def ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class SessionView:
    """One channel's lobby or match as last committed.

    ``version`` is the session's change counter (``created_at`` and ``seed`` tell one session of the channel from
    the next); ``public`` the engine's public view (None in the lobby);
    ``seat_views[i]`` seat ``i``'s own view (None in the lobby). ``rounds_played``: rounds finished so far. Times are
    Unix seconds; ``deadline`` is when the pending decision times out (None: no timer).
    """

    channel_id: int
    guild_id: int
    created_at: float
    seed: int
    version: int
    status: Status
    mode: Mode
    options: Options
    host_id: int
    seats: tuple[SeatView, ...]
    turn_timer: float
    deadline: float | None
    ui: TableUi
    result: MatchOutcome | None
    min_players: int
    max_players: int
    public: PlayerView | None
    seat_views: tuple[PlayerView, ...] | None
    rounds_played: int
    #: The last-moves log as committed (oldest first; at most ``LOG_LINES`` lines).
    log: tuple[str, ...] = ()
    #: The name of the match's result and record (:attr:`Session.match_key`), once it started.
    match_key: str = ""
    #: The last challenge of a wild draw resolved in the match (SPEC G7), from the engine's events; None before one.
    verdict: Verdict | None = None

    @classmethod
    def of(cls, session: Session) -> SessionView:
        """The view of ``session`` as it is now (call it right after a commit, under the session's lock)."""
        game = session.game
        ai = 0
        seats = []
        for s in session.seats:
            if s.ai:
                ai += 1
            seats.append(
                SeatView(
                    s.user_id,
                    s.name,
                    s.left,
                    ai if s.ai else None,
                    s.timeouts,
                    s.level.value if s.level else None,
                    s.out.value if s.out else None,
                )
            )
        return cls(
            channel_id=session.channel_id,
            guild_id=session.guild_id,
            created_at=session.created_at,
            seed=session.seed,
            version=session.version,
            status=session.status,
            mode=session.mode,
            options=session.options,
            host_id=session.host_id,
            seats=tuple(seats),
            turn_timer=session.turn_timer,
            deadline=session.deadline,
            ui=session.ui,
            result=session.result,
            min_players=session.min_players,
            max_players=session.max_players,
            public=game.view(None) if game is not None else None,
            seat_views=tuple(game.view(i) for i in range(game.players)) if game is not None else None,
            rounds_played=len(game.history) if game is not None else 0,
            log=tuple(session.log),
            match_key=session.match_key if session.started_at is not None else "",
            verdict=session.challenges.verdict,
        )

    def same_session(self, other: SessionView) -> bool:
        """Whether ``other`` is a view of the same lobby-and-match (not of a later one in the channel)."""
        return (self.channel_id, self.created_at, self.seed) == (other.channel_id, other.created_at, other.seed)

    @property
    def playing(self) -> bool:
        return self.status is Status.PLAYING

    def shrunk_clock(self, seat: int) -> int | None:
        """Whole seconds of ``seat``'s clock for its next decisions when it is shorter than the turn timer, because
        its timer ran out on its last decisions (:func:`bot.limits.turn_clock`, issue 10.4); None when it has the full
        timer, has left, or no match is being played."""
        s = self.seats[seat]
        if self.status is not Status.PLAYING or s.left or s.ai:
            return None
        clock = turn_clock(self.turn_timer, s.timeouts)
        return int(clock) if clock < self.turn_timer else None

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` still playing (or waiting in the lobby), else None."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.left:
                return i
        return None

    def view_for(self, user_id: int | None) -> PlayerView | None:
        """``user_id``'s own view of the committed game; the public view for ``None`` or a spectator; None in the
        lobby."""
        if self.public is None or self.seat_views is None:
            return None
        seat = self.seat_of(user_id) if user_id is not None else None
        return self.seat_views[seat] if seat is not None else self.public

    def verdict_for(self, view: PlayerView) -> Verdict | None:
        """The verdict of the challenge whose challenged hand ``view`` (a seat's own view: the challenger's, SPEC G7)
        reveals, else None (no hand revealed, or the last verdict is of another challenge)."""
        verdict = self.verdict
        if view.revealed is None or view.me is None or verdict is None:
            return None
        if verdict.challenger != view.me or verdict.player != view.revealed[0]:
            return None
        return verdict

    def require_view(self, user_id: int | None) -> PlayerView:
        """:meth:`view_for` of a match being played. Raises :class:`~bot.adapter.refusals.NotStarted` in the lobby and
        :class:`~bot.adapter.refusals.GameFinished` once the match is over."""
        view = self.view_for(user_id)
        if self.status is Status.LOBBY or view is None:
            raise E.NotStarted("the game has not started yet")
        if self.status is Status.FINISHED:
            raise E.GameFinished("the match is over")
        return view


__all__ = ["SeatView", "SessionView"]
