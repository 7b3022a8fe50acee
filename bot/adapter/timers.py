"""Turn timers, AI moves and idle sweeps: what runs later, on the injected clock (DESIGN "Adapter").

When a human's decision times out it takes its default (:func:`default_action`); AI seats act after
:attr:`Limits.ai_delay` seconds. A seat whose timer ran out on its last decisions has a shorter clock
(:func:`bot.limits.turn_clock`: halved per consecutive timeout, never below ``TURN_TIMER_MIN``) until its player
acts. :class:`Timers` only decides *when* and *for whom*; the manager's callbacks do the
change under the session's lock, and each callback first checks that the session is still at the version it was armed
for (a stale timer does nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Action, Draw
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.view import Phase
from bot.limits import turn_clock

from .clock import Clock, TimerHandle
from .session import Session, Status


@dataclass
class Limits:
    """Tunables (seconds unless noted)."""

    ai_delay: float = 1.5
    ai_catch_delay: float = 4.0
    max_timeouts: int = 3
    round_pause: float = 30.0
    lobby_idle: float = 15 * 60.0
    game_idle: float = 30 * 60.0
    finished_kept: float = 6 * 3600.0
    sweep_every: float = 60.0
    retry_after: float = 5.0


@dataclass
class _Handles:
    timer: TimerHandle | None = None
    ai_timer: TimerHandle | None = None
    retry: TimerHandle | None = None

    def cancel(self) -> None:
        for handle in (self.timer, self.ai_timer, self.retry):
            if handle is not None:
                handle.cancel()
        self.timer = self.ai_timer = self.retry = None


Job = Coroutine[Any, Any, Any]
#: ``on_timeout(session, version)``: the pending decision of ``session`` (armed at ``version``) timed out.
OnTimeout = Callable[[Session, int], Job]
#: ``on_ai(session, version, seat)``: AI ``seat`` of ``session`` (armed at ``version``) may act.
OnAi = Callable[[Session, int, int], Job]


def default_action(game: Game, seat: int, apply: Callable[[Action], list[Event]] | None = None) -> list[Event]:
    """Apply the default of ``seat``'s pending decision (draw and keep; keep; accept; declare the colour held most)
    and return its events. ``apply`` applies each action (e.g. :meth:`Session.apply`, which notes it for the match
    record); default the game's own."""
    apply = apply or game.apply
    action = game.default_action(seat)  # the engine's default (house rules included: SPEC H)
    if action is None:
        return []
    events = apply(action)
    if isinstance(action, Draw) and game.phase is Phase.PLAY_DRAWN and game.current == seat:
        follow = game.default_action(seat)  # keep the drawn card (or play it, under force play)
        if follow is not None:
            events += apply(follow)
    return events


class Timers:
    """Per-session timer handles and the background tasks they start."""

    def __init__(self, clock: Clock, limits: Limits, *, on_timeout: OnTimeout, on_ai: OnAi) -> None:
        self.clock = clock
        self.limits = limits
        self._on_timeout = on_timeout
        self._on_ai = on_ai
        self._handles: dict[int, _Handles] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: TimerHandle | None = None
        self.closed = False

    def set_deadline(self, session: Session) -> None:
        """Set when the pending decision times out (Unix s; None when nobody human is waited for): the owner's clock,
        :func:`~bot.limits.turn_clock` of the session's turn timer and the seat's consecutive timeouts (so a
        resumed session, whose deadline is set afresh here, keeps a shrunk clock: ``timeouts`` is saved)."""
        game = session.game
        session.deadline = None
        if session.status != Status.PLAYING or game is None:
            return
        if game.phase is Phase.ROUND_OVER:
            session.deadline = self.clock.now() + self.limits.round_pause
            return
        owner = game.pending
        if owner is not None and not session.seats[owner].ai:
            session.deadline = self.clock.now() + turn_clock(session.turn_timer, session.seats[owner].timeouts)

    def arm(self, session: Session) -> None:
        """(Re-)arm the session's turn timer and AI move after a change (or a resume)."""
        if self.closed:
            return
        self.disarm(session.channel_id)
        handles = self._handles.setdefault(session.channel_id, _Handles())
        version = session.version
        game = session.game
        if session.status != Status.PLAYING or game is None:
            return
        if session.deadline is not None:
            delay = max(0.0, session.deadline - self.clock.now())
            handles.timer = self.clock.call_later(delay, lambda: self.spawn(self._on_timeout(session, version)))
        owner = game.pending
        if game.phase is Phase.ROUND_OVER and all(s.ai or s.left for s in session.seats):
            # an AI seat still in the match deals (not one out of it under house rule elimination, SPEC H9)
            owner = next(i for i, s in enumerate(session.seats) if not s.left and game.active[i])
        ai_seats = [i for i, s in enumerate(session.seats) if s.ai and not s.left]
        if owner is not None and session.seats[owner].ai:
            seat = owner
            handles.ai_timer = self.later(self.limits.ai_delay, lambda: self._on_ai(session, version, seat))
        elif game.catchable is not None and any(s != game.catchable for s in ai_seats):
            catcher = next(s for s in ai_seats if s != game.catchable)
            handles.ai_timer = self.later(self.limits.ai_catch_delay, lambda: self._on_ai(session, version, catcher))
        elif (jumper := next((s for s in ai_seats if game.jump_ins(s)), None)) is not None:  # house rule jump-in
            handles.ai_timer = self.later(self.limits.ai_delay, lambda: self._on_ai(session, version, jumper))

    def retry(self, session: Session, make: Callable[[], Job]) -> None:
        """Run a failed AI move or timeout again after :attr:`Limits.retry_after` seconds."""
        handles = self._handles.setdefault(session.channel_id, _Handles())
        handles.retry = self.later(self.limits.retry_after, make)

    def sweep_later(self, make: Callable[[], Job]) -> None:
        """Run the idle sweep ``make()`` after :attr:`Limits.sweep_every` seconds (cancelled by :meth:`close`)."""
        if not self.closed:
            self._sweeper = self.clock.call_later(self.limits.sweep_every, lambda: self.spawn(make()))

    def disarm(self, channel_id: int) -> None:
        handles = self._handles.get(channel_id)
        if handles is not None:
            handles.cancel()

    def later(self, delay: float, make: Callable[[], Job]) -> TimerHandle | None:
        """Run ``make()`` as a task after ``delay`` seconds on the clock; at once (no timer) for a zero delay."""
        if delay <= 0:
            self.spawn(make())
            return None
        return self.clock.call_later(delay, lambda: self.spawn(make()))

    def spawn(self, coro: Job) -> None:
        task = asyncio.get_running_loop().create_task(coro, name="uno-adapter-task")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def running(self) -> list[asyncio.Task[Any]]:
        """The background tasks not done yet."""
        return [t for t in self._tasks if not t.done()]

    def close(self) -> None:
        """Cancel every timer; nothing is armed from now on."""
        self.closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handles in self._handles.values():
            handles.cancel()


__all__ = ["Limits", "Timers", "default_action"]
