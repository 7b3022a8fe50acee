"""The session manager: every live lobby and game, one per channel (DESIGN "Adapter").

Every change goes through one path: take the session's lock, check the request (stale version, wrong user), change
the session, **commit its snapshot to the store**, re-arm its timer, and only then return the events to the caller and
queue them for the subscribers (the Discord layer). A failed commit restores the session as it was and raises.

Turn timers: when a human's decision times out it takes its default (draw and keep; accept the penalty; declare the
colour they hold most); each expiry in a row shortens the seat's clock for its next decisions
(:func:`bot.limits.turn_clock`) until its player acts, and after ``max_timeouts`` expiries in a row the player is
removed (their cards go under the draw pile) and play goes on. AI seats act through the engine's legal actions
after ``ai_delay`` seconds. Idle lobbies and games without human activity are closed. :meth:`SessionManager.start`
resumes every saved session of this process's shards whose lease it gets (:mod:`bot.adapter.leases`: one process
runs a game at a time).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from random import Random
from typing import Any, TypeVar

from bot.ai import DEFAULT_LEVEL, Level
from bot.engine.actions import Action, NextRound
from bot.engine.cards import Mode
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import OptionError, Options, TeamsElimination, preset
from bot.engine.rules import RULESETS
from bot.engine.teams import TEAM_PLAYERS, plays_teams
from bot.engine.view import Phase, PlayerView
from bot.limits import LEASE_SECONDS_DEFAULT, TURN_TIMER_MAX, TURN_TIMER_MIN
from bot.storage import LiveGame, MatchResult, MatchSteps, Shards, StorageUnavailable, Store, WriteRefused

from . import records
from . import refusals as E
from .clock import Clock, SystemClock, TimerHandle
from .fanout import CloseReason, FanOut, Subscriber, Update
from .fanout import UpdateKind as K
from .leases import Leases
from .results import abandon, settle
from .session import LOG_LINES, Out, Seat, Session, Status
from .session_view import SessionView
from .thinker import Thinker
from .timers import Limits, Timers, default_action
from .ui import TableUi

log = logging.getLogger(__name__)
T = TypeVar("T")


#: ``writer(update)``: the lines a change adds to the session's last-moves log (:attr:`Session.log`), written by the
#: Discord layer in the table's language (the one text the adapter saves, and only stores). ``update`` is the change
#: as it is about to be committed: the :class:`Update` its subscribers receive after the commit, the same view, kind,
#: events and actor. It is called under the session's lock right before the commit, so the lines are saved with the
#: move they tell of (and survive a restart), and a failed commit drops them with the move.
LogWriter = Callable[[Update], Sequence[str]]


def _option_refused(exc: Exception) -> E.BadRequest:
    """The adapter's refusal of options the engine refused: SPEC T6's with its own reason, any other as a bad
    request."""
    return E.TeamsElimination(str(exc)) if isinstance(exc, TeamsElimination) else E.BadRequest(str(exc))


class SessionManager:
    """Owns the sessions. Use one per bot; call :meth:`start` once the store is open and :meth:`close` at the end.

    Raises :class:`~bot.adapter.refusals.AdapterError` subclasses and the engine's
    :class:`~bot.engine.errors.RuleError` subclasses (both ``ValueError``) for refused requests; nothing changes then.
    :class:`~bot.adapter.refusals.StorageDown` when the database could not be reached (the change was not saved and the
    session is back at its last commit); :class:`~bot.adapter.refusals.NotOwned` for a game another process runs.

    ``shards``: the Discord shards this process runs (None: all guilds); only their guilds' games are resumed or
    opened. ``lease_ttl`` (seconds): how long a game's lease lasts without renewal (renewed every third of it);
    ``owner``: this process's lease owner name (default: unique per process); ``slot``: the operator's stable name of
    this process slot (``UNO_PROCESS_SLOT``), whose earlier owners this process takes over at once.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        limits: Limits | None = None,
        rng: Random | None = None,
        shards: Shards | None = None,
        lease_ttl: float = LEASE_SECONDS_DEFAULT,
        owner: str | None = None,
        slot: str | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.limits = limits or Limits()
        self.sessions: dict[int, Session] = {}
        #: What the Discord layer reads of each session in :attr:`sessions`: the frozen view built right after its
        #: last commit (none before its first); :meth:`snapshot` answers from it.
        self.published: dict[int, SessionView] = {}
        self.leases = Leases(store, self.clock, shards=shards, ttl=lease_ttl, owner=owner, slot=slot)
        #: Channels of this process's guilds whose live game another process holds the lease of (taken over later).
        self.elsewhere: set[int] = set()
        #: The other owners of this process's shard locks while it stands down (issue 16 point 4, after start-up:
        #: another process took its shards over); empty while it runs them.
        self.shard_holders: list[str] = []
        self._lease_timer: TimerHandle | None = None
        self._renewing = asyncio.Lock()
        self._rng = rng or Random(secrets.randbits(64))
        self._timers = Timers(self.clock, self.limits, on_timeout=self._on_timeout, on_ai=self._ai_move)
        self._fanout = FanOut()
        self._log_writer: LogWriter | None = None
        #: Decides the AI seats' moves: the *Hard* searches in a worker process, off this event loop (issue 21 pt 4).
        self.thinker = thinker or Thinker()

    # ------------------------------------------------------------------------------------------------------------
    # Life cycle

    async def start(self) -> list[Session]:
        """Wait until this process holds the locks of its shards (issue 16 point 4: while another process runs them,
        one log line, and nothing is resumed or answered), then load every saved session of those shards (corrupt ones
        are set aside by the store) whose lease it gets, re-arm timers and AI turns; the others wait in
        :attr:`elsewhere` and are taken over by the periodic lease renewal once their owner releases them or its
        leases expire. Raises :class:`~bot.storage.StorageUnavailable` when the database cannot be reached."""
        await self._lock_shards()
        taken = await self._take_over()
        self._schedule_sweep()
        self._schedule_renewal()
        log.info("resumed %d session(s); %d run by another process for now", taken, len(self.elsewhere))
        return list(self.sessions.values())

    async def close(self) -> None:
        """Stop timers and workers; wait for the change in flight (sessions stay saved), then release the leases."""
        self._timers.close()
        if self._lease_timer is not None:
            self._lease_timer.cancel()
        for session in list(self.sessions.values()):
            async with session.lock:
                pass
        await self.idle()
        released = await self.leases.release_all()
        log.info("released %d game lease(s)", released)
        await self._fanout.close()
        self.thinker.close()

    async def _lock_shards(self) -> None:
        """Take the locks of this process's shards, waiting (polling every third of the lease time) while another
        process holds them."""
        waited = False
        while True:
            others = await self.leases.acquire_shards()
            if not others:
                break
            if not waited:
                log.warning(
                    "the shard(s) of this process (%s) are run by another bot process (%s): waiting until they are "
                    "free before running any of their games",
                    self._shard_names(),
                    ", ".join(others),
                )
                waited = True
            await self._sleep(self.leases.ttl / 3)
        if waited:
            log.info("the shard(s) of this process (%s) are free: running them now", self._shard_names())

    async def _sleep(self, seconds: float) -> None:
        """Wait ``seconds`` on this manager's clock (a manual clock in tests)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        handle = self.clock.call_later(seconds, lambda: None if done.done() else done.set_result(None))
        try:
            await done
        finally:
            handle.cancel()

    @property
    def standing_down(self) -> bool:
        """Whether another bot process runs this process's shards now (it took their locks after this process lost
        them: a pause or a network partition longer than the lease). Then this process runs, writes and answers none
        of their games — the Discord layer leaves their interactions unanswered for the other process to answer — and
        takes the locks back (never from a live holder) once they are free. False during a database outage."""
        return bool(self.shard_holders)

    async def _stand_down(self, others: list[str]) -> None:
        """Another process holds our shards' locks: stop every game (waiting for the change in flight), give back the
        leases still in our name so that it can take the games over, and log it once."""
        if not self.shard_holders:
            log.warning(
                "the shard(s) of this process (%s) are run by another bot process now (%s): this process stands down "
                "(it answers and runs none of their games) and takes them back when they are free",
                self._shard_names(),
                ", ".join(others),
            )
        self.shard_holders = others
        for channel in list(self.sessions):
            self.leases.forget(channel)
            await self._suspend(channel, quiet=True)
        released = await self.leases.release_all()
        if released:
            log.info("gave back %d game lease(s) to the process that runs the shard(s) now", released)

    async def _reclaim_shards(self) -> None:
        """While standing down: take the shard locks if they are free (never a live holder's), then the games."""
        others = await self.leases.acquire_shards()
        if others:
            self.shard_holders = others
            return
        self.shard_holders = []
        taken = await self._take_over(publish=True)
        log.info(
            "the shard(s) of this process (%s) are free again: running them (%d game(s))", self._shard_names(), taken
        )

    def _shard_names(self) -> str:
        shards = self.leases.shards
        return "all" if shards is None else f"{'+'.join(map(str, sorted(shards.ids)))} of {shards.count}"

    def _resume(self, row: LiveGame) -> Session:
        session = Session.from_dict(row.snapshot)
        session.committed = row.snapshot
        self.sessions[session.channel_id] = session
        # The bot was away: nobody could play, so the idle clock and the pending decision's timer start afresh.
        session.last_activity = max(session.last_activity, self.clock.now())
        self._timers.set_deadline(session)
        self._published(session)
        self._timers.arm(session)
        return session

    async def _take_over(self, *, publish: bool = False) -> int:
        """Take the leases of the saved games of our shards that nobody else runs, then load and resume them (loaded
        again after the lease is ours: the last owner may have committed until it let go). ``publish``: queue a
        ``resumed`` update of each (issue 16 point 1: its table is repainted from its last commit, as at start-up,
        where :meth:`republish` does it)."""
        known = await self.store.load_games(validate=Session.from_dict, shards=self.leases.shards)
        self.elsewhere &= {row.channel_id for row in known}
        wanted = [row.channel_id for row in known if row.channel_id not in self.sessions]
        got = await self.leases.acquire_many(wanted)  # one round trip for them all
        self.elsewhere |= set(wanted) - set(got)
        if not got:
            return 0
        again = await self.store.load_games(validate=Session.from_dict, shards=self.leases.shards)
        rows = {row.channel_id: row for row in again}
        for channel in got:
            self.elsewhere.discard(channel)
            found = rows.get(channel)
            if found is None:  # it ended (or was set aside) meanwhile
                await self.leases.release(channel)
                continue
            session = self._resume(found)
            self.leases.lapsed.discard(channel)
            if publish:
                self._publish(session, K.RESUMED)
        return len(got)

    def _schedule_renewal(self) -> None:
        """The next renewal in a third of the lease (one timer at a time: a new one replaces the one waiting)."""
        if self._lease_timer is not None:
            self._lease_timer.cancel()
        if not self._timers.closed:
            self._lease_timer = self.clock.call_later(self.leases.ttl / 3, lambda: self._timers.spawn(self._renew()))

    async def renew_now(self) -> None:
        """Renew the leases and shard locks now instead of at the next period (the periodic renewal's work, which
        then counts its period from here). It writes (the shard lock's expiry at least), so it is how a database that
        only refused writes, an SQLite disk that was full, is seen back at once (issue 20, point 7)."""
        if not self._timers.closed:
            await self._renew()

    async def _renew(self) -> None:
        """Renew our leases and shard locks in one round trip; stop the games whose lease is lost (all of them if the
        shard locks are lost); take over (and repaint) the games waiting in :attr:`elsewhere`, including ours whose
        lease lapsed while the database was away. One renewal at a time."""
        async with self._renewing:
            await self._renew_once()

    async def _renew_once(self) -> None:
        try:
            if self.standing_down:
                await self._reclaim_shards()
                return
            lost, regained = await self.leases.renew_all()
            for channel in lost:
                await self._suspend(channel)
            if not self.leases.unreachable and not self.leases.runs_shards():
                # our shard locks lapsed (a pause, an outage) or were lost: take them again unless another holds them
                others = await self.leases.acquire_shards()
                if others:
                    await self._stand_down(others)
                    return
                log.info("took the lock of this process's shard(s) (%s) again", self._shard_names())
            if regained:
                log.info("taking back %d game(s) whose lease lapsed while the database was away", len(regained))
            if self.elsewhere and not self.leases.unreachable:
                taken = await self._take_over(publish=True)
                if taken:
                    log.info("took over %d session(s)", taken)
        except StorageUnavailable as exc:
            log.debug("could not check the game leases: %s", exc)  # the store logs the outage once
        except Exception:
            log.exception("renewing the game leases failed")
        finally:
            self._schedule_renewal()

    async def _suspend(self, channel_id: int, *, quiet: bool = False) -> None:
        """Stop running a game whose lease we lost: its timers stop and its actions are refused (NotOwned) until we
        get the lease back; then it is loaded again from its last commit. ``quiet``: no log line of its own."""
        session = self.sessions.get(channel_id)
        if session is None:
            return
        async with session.lock:
            if self.leases.holds(channel_id) or self.sessions.get(channel_id) is not session:
                return
            self._forget(session)
            self.elsewhere.add(channel_id)
        if not quiet:
            log.warning("stopped running the game in channel %s until its lease is ours again", channel_id)

    async def _guard(self, session: Session) -> None:
        """Refuse a change to a game whose lease this process does not hold. A lease that ran out (renewal late: a
        busy process, a database that was away) is renewed first: that succeeds only if nobody took it over."""
        channel = session.channel_id
        if self.standing_down:
            raise E.NotOwned("another bot process runs this game right now")
        if self.leases.holds(channel):
            return
        try:
            kept = await self.leases.renew_one(channel)
        except StorageUnavailable as exc:
            raise E.StorageDown("the database is unavailable") from exc
        if not kept:
            self._timers.spawn(self._suspend(channel))  # once the caller lets go of the session's lock
            raise E.NotOwned("another bot process runs this game right now")

    async def idle(self) -> None:
        """Wait until no background work (AI moves, timeouts, subscriber deliveries) is left. For tests."""
        while True:
            pending = [*self._timers.running(), *self._fanout.running()]
            queues = self._fanout.busy()
            if not pending and not queues:
                await asyncio.sleep(0)
                if not self._timers.running() and not self._fanout.running():
                    return
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            for q in queues:
                await q.join()

    def set_log_writer(self, writer: LogWriter | None) -> None:
        """Have ``writer`` add each committed change's lines to the session's last-moves log (see :data:`LogWriter`);
        None: no lines any more (the log keeps what it has)."""
        self._log_writer = writer

    def republish(self) -> int:
        """Queue a ``resumed`` update of every live session for the subscribers, in the state it was committed in
        (at start-up: the public messages may be behind, or the updates queued before a stop were lost). Returns
        how many were queued."""
        sessions = list(self.sessions.values())
        for session in sessions:
            self._publish(session, K.RESUMED)
        return len(sessions)

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``await callback(update)`` after every committed change, in order per session. A failing subscriber is
        logged and never breaks a game."""
        self._fanout.subscribe(callback)

    def spawn_delivery(self, work: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run a subscriber's delivery work (requests it sends after answering an update) as a task that
        :meth:`idle` and :meth:`close` wait for; ``name`` should start with ``uno-adapter-``."""
        return self._fanout.spawn(work, name=name)

    def get(self, channel_id: int) -> Session:
        """The session of ``channel_id``; :class:`~bot.adapter.refusals.NoGame` if there is none."""
        session = self.sessions.get(channel_id)
        if session is None:
            if channel_id in self.elsewhere:
                # stopped because its lease could not be renewed: it waits for the database, not for another process
                if self.leases.unreachable or channel_id in self.leases.lapsed:
                    raise E.StorageDown("the database is unavailable")
                raise E.NotOwned("another bot process runs this game right now")
            raise E.NoGame("no game in this channel")
        return session

    # ------------------------------------------------------------------------------------------------------------
    # Lobby

    async def open_lobby(
        self,
        *,
        channel_id: int,
        guild_id: int,
        host_id: int,
        host_name: str,
        mode: Mode | str,
        options: Options | dict[str, Any] | None = None,
        turn_timer: float = 60.0,
        ui: TableUi | None = None,
        seat_host: bool = True,
        seats: Sequence[Seat] | None = None,
    ) -> Session:
        """Open a lobby with the host seated (``seat_host=False``: an empty table the host fills with AI seats, for
        tests and benchmarks; ``seats``: these seats instead, in order, as for a rematch). A finished session in the
        channel is replaced; a live one refused (:class:`~bot.adapter.refusals.GameExists`). Raises
        :class:`~bot.adapter.refusals.BadRequest` for a bad mode, option or timer."""
        if channel_id in self.elsewhere or self.standing_down:
            raise E.NotOwned("another bot process runs this server's games")
        mode, opts = self.check_lobby(guild_id=guild_id, mode=mode, options=options, turn_timer=turn_timer)
        existing = self.sessions.get(channel_id)
        if existing is not None and existing.status != Status.FINISHED:
            raise E.GameExists("a game is already running in this channel")
        now = self.clock.now()
        session = Session(
            channel_id=channel_id,
            guild_id=guild_id,
            mode=mode,
            options=opts,
            host_id=host_id,
            seats=[Seat(s.user_id, s.name, level=s.level) for s in seats]
            if seats is not None
            else ([Seat(host_id, host_name)] if seat_host else []),
            turn_timer=float(turn_timer),
            created_at=now,
            seed=self._rng.getrandbits(62),
            last_activity=now,
            ui=ui or TableUi(),
        )
        if not self.leases.holds(channel_id):
            try:
                if not await self.leases.acquire(channel_id):
                    raise E.NotOwned("another bot process runs this channel's game")
            except StorageUnavailable as exc:
                raise E.StorageDown("the database is unavailable") from exc
        if existing is not None:
            async with existing.lock:
                self._forget(existing)
        self.sessions[channel_id] = session
        async with session.lock:
            try:
                await self._commit(session)
            except Exception:
                self._forget(session)
                await self.leases.release(channel_id)
                raise
        self._publish(session, K.LOBBY)
        return session

    def check_lobby(
        self,
        *,
        guild_id: int,
        mode: Mode | str,
        options: Options | dict[str, Any] | None = None,
        turn_timer: float = 60.0,
    ) -> tuple[Mode, Options]:
        """Check a lobby's settings without opening it, as :meth:`open_lobby` does first: the mode, the rule options
        (SPEC O, and the house rules the game has, SPEC H) and the turn timer (seconds, bounds in
        :mod:`bot.limits`). Returns them parsed. Raises :class:`~bot.adapter.refusals.BadRequest`, and
        :class:`~bot.adapter.refusals.NotOwned` for a server whose games this process does not run. Nothing changes."""
        if not self.leases.owns_guild(guild_id):
            raise E.NotOwned("another bot process runs this server's games")
        try:
            parsed = Mode(mode)
            opts = options if isinstance(options, Options) else Options.from_dict(dict(options or {}))
            RULESETS[parsed].check_options(opts)  # e.g. seven_zero is classic only (SPEC H)
        except (ValueError, OptionError) as exc:
            raise _option_refused(exc) from exc
        if not TURN_TIMER_MIN <= turn_timer <= TURN_TIMER_MAX:
            raise E.BadRequest(f"turn timer must be {TURN_TIMER_MIN} to {TURN_TIMER_MAX} seconds")
        return parsed, opts

    async def rematch(self, channel_id: int, user_id: int, name: str) -> Session:
        """Play again after the match of ``channel_id`` ended: a new lobby with the same game, options, turn timer and
        ``ui`` language, and everyone still seated at the end (AI seats too) seated again in the same order; they may
        leave before the start. ``user_id`` is seated as well, after the others (at a partner table in their own
        place, so that partners stay partners: SPEC T1), if there is room and they played this match without being
        removed by the host (a player who left asks to play again; one kicked, or a server manager who never sat,
        opens the lobby for the others without a seat: issue 18). The match's host hosts it again while
        still seated (issue 18 point 5: pressing Play again does not take the table, nor ``/uno end``, from them); else
        ``user_id`` if seated, else the first human seated. Raises
        :class:`~bot.adapter.refusals.NoGame` when the channel keeps no finished match and
        :class:`~bot.adapter.refusals.GameExists` while a lobby or match is live."""
        old = self.get(channel_id)
        if old.status != Status.FINISHED:
            raise E.GameExists("a game is already running in this channel")
        seats = [s for s in old.seats if not s.left]
        returning = any(s.user_id == user_id and s.left and s.out is not Out.KICKED for s in old.seats)
        if returning and old.seat_of(user_id) is None and len(seats) < old.max_players:
            if plays_teams(old.mode, old.options):  # SPEC T1: back in their place, beside the same partner
                place = next(i for i, s in enumerate(old.seats) if s.user_id == user_id and s.left)
                seats.insert(sum(1 for s in old.seats[:place] if not s.left), Seat(user_id, name))
            else:
                seats.append(Seat(user_id, name))
        humans = [s for s in seats if s.user_id is not None]
        host = next(
            (s for s in humans if s.user_id == old.host_id),
            next((s for s in humans if s.user_id == user_id), humans[0] if humans else None),
        )
        return await self.open_lobby(
            channel_id=channel_id,
            guild_id=old.guild_id,
            host_id=host.user_id if host is not None and host.user_id is not None else user_id,
            host_name=host.name if host is not None else name,
            mode=old.mode,
            options=old.options,
            turn_timer=old.turn_timer,
            ui=TableUi(lang=old.ui.lang),
            seats=seats,
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> Session:
        """Seat ``user_id`` in the lobby."""

        def change(s: Session) -> K:
            self._require_lobby(s)
            if s.seat_of(user_id) is not None:
                raise E.AlreadySeated("you already joined")
            if len(s.seats) >= s.max_players:
                raise E.LobbyFull("the table is full")
            s.seats.append(Seat(user_id, name))
            return K.LOBBY

        return await self._lobby_change(channel_id, change, user_id)

    async def add_ai(
        self, channel_id: int, user_id: int, *, is_admin: bool = False, level: Level | str = DEFAULT_LEVEL
    ) -> Session:
        """The host (or a server manager) adds an AI seat of ``level`` (issue 21: easy, normal, hard; saved with the
        seat). Raises :class:`~bot.adapter.refusals.BadRequest` for an unknown level."""
        try:
            chosen = Level(level)
        except ValueError as exc:
            raise E.BadRequest(f"unknown AI level {level!r}") from exc

        def change(s: Session) -> K:
            self._require_lobby(s)
            self._require_host(s, user_id, is_admin)
            if len(s.seats) >= s.max_players:
                raise E.LobbyFull("the table is full")
            number = 1 + sum(1 for seat in s.seats if seat.ai)
            s.seats.append(Seat(None, f"AI {number}", level=chosen))
            return K.LOBBY

        return await self._lobby_change(channel_id, change, user_id)

    async def change_partners(
        self, channel_id: int, user_id: int, *, is_admin: bool = False, version: int | None = None
    ) -> Session:
        """The host (or a server manager) of a partner table changes who partners whom (SPEC T1: seat ``s`` partners
        seat ``s + n/2``): every seat but the first moves one place on, the last to the second. Pressed again and
        again it goes through every pairing of four players (and as many as there are seats but one of six or
        eight). ``version``: the lobby's version the request was made from (the message clicked); when the lobby has
        changed since, :class:`~bot.adapter.refusals.Stale` (a double click rotates once). Raises
        :class:`~bot.adapter.refusals.AlreadyStarted` (or ``GameFinished``) once the game has started,
        :class:`~bot.adapter.refusals.BadRequest` at a table without teams and
        :class:`~bot.adapter.refusals.TeamPlayers` without 4, 6 or 8 players; nothing changes."""

        def change(s: Session) -> K:
            self._require_lobby(s)  # a game that started says so, whichever lobby the click was made from
            if version is not None and version != s.version:
                raise E.Stale("the lobby has changed", version=s.version)
            self._require_host(s, user_id, is_admin)
            if not plays_teams(s.mode, s.options):
                raise E.BadRequest("this table is not a partner game")
            if len(s.seats) not in TEAM_PLAYERS:
                raise E.TeamPlayers("a partner game needs 4, 6 or 8 players")
            s.seats[1:] = [*s.seats[2:], s.seats[1]]
            return K.LOBBY

        return await self._lobby_change(channel_id, change, user_id)

    async def set_options(
        self, channel_id: int, user_id: int, changes: Mapping[str, Any], *, preset_name: str | None = None
    ) -> Session:
        """The host changes the lobby's rule options before the start (issue 18 point 3): preset ``preset_name``
        first (:func:`bot.engine.options.preset`, e.g. ``"party"``), then ``changes`` (option name -> value), checked
        as a whole (SPEC table O, and the house rules the game has, SPEC H). Committed like every lobby change, then
        published (the lobby shows them). Raises :class:`~bot.adapter.refusals.NotHost` for anyone else (a server
        manager included: the table's rules are the host's), :class:`~bot.adapter.refusals.AlreadyStarted` once the
        match started and :class:`~bot.adapter.refusals.BadRequest` for a value outside the table; nothing changes."""

        def change(s: Session) -> K:
            self._require_lobby(s)
            self._require_host(s, user_id, False)
            try:
                base = preset(preset_name, s.mode, s.options) if preset_name is not None else s.options
                options = Options.from_dict({**base.to_dict(), **changes})
                RULESETS[s.mode].check_options(options)
            except (OptionError, TypeError) as exc:
                raise _option_refused(exc) from exc
            s.options = options
            return K.LOBBY

        return await self._lobby_change(channel_id, change, user_id)

    async def leave(self, channel_id: int, user_id: int) -> Update:
        """``user_id`` leaves: from the lobby (the host role passes on; an empty lobby closes) or from the match
        (their cards go under the draw pile and play goes on; with fewer than two players or no human left the match
        ends as abandoned)."""
        session = self.get(channel_id)
        async with session.lock:
            seat = session.seat_of(user_id)
            if seat is None:
                raise E.NotSeated("you are not in this game")
            return await self._remove_seat(session, seat, kind=K.REMOVED, actor=seat, out=Out.LEFT)

    async def kick(self, channel_id: int, user_id: int, target_seat: int, *, is_admin: bool = False) -> Update:
        """The host (or a server manager) removes ``target_seat`` (a player or an AI seat; 0-based). Raises
        :class:`~bot.adapter.refusals.NotHost` for anyone else and :class:`~bot.adapter.refusals.NoSuchSeat` (``seat``:
        the number as shown, 1-based) when no player sits there."""
        session = self.get(channel_id)
        async with session.lock:
            self._require_host(session, user_id, is_admin)
            if session.status == Status.FINISHED:
                raise E.GameFinished("the match is over")
            if not 0 <= target_seat < len(session.seats) or session.seats[target_seat].left:
                raise E.NoSuchSeat("no such player", seat=target_seat + 1)
            return await self._remove_seat(session, target_seat, kind=K.REMOVED, actor=None, out=Out.KICKED)

    async def start_game(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> Update:
        """The host starts the match when the seat count fits the game (SPEC G1)."""
        session = self.get(channel_id)
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id, is_admin)
            if not session.min_players <= len(session.seats) <= session.max_players:
                raise E.NeedPlayers(
                    f"{session.mode.value} needs {session.min_players} to {session.max_players} players",
                    min=session.min_players,
                    max=session.max_players,
                )
            if plays_teams(session.mode, session.options) and len(session.seats) not in TEAM_PLAYERS:
                raise E.TeamPlayers("a partner game needs 4, 6 or 8 players")  # SPEC T1
            game, events = Game.new(session.mode, len(session.seats), seed=session.seed, options=session.options)
            session.game = game
            seats = [(s.user_id, s.name, None if s.level is None else s.level.value) for s in session.seats]
            session.journal = [
                (0, records.start_entry(session.mode.value, len(session.seats), session.seed, session.options, seats))
            ]
            session.status = Status.PLAYING
            session.started_at = self.clock.now()
            session.last_activity = session.started_at
            return await self._finish_change(session, events, K.STARTED, None)

    async def end(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> Update:
        """The host (or a server manager) ends the lobby or the match; a match in progress is recorded as abandoned.
        A match that is already over cannot be ended (:class:`~bot.adapter.refusals.GameFinished`; nothing changes)."""
        session = self.get(channel_id)
        async with session.lock:
            if session.status == Status.FINISHED:
                raise E.GameFinished("the match is over")
            self._require_host(session, user_id, is_admin)
            return await self._close(session, CloseReason.ENDED)

    # ------------------------------------------------------------------------------------------------------------
    # Playing

    async def act(
        self,
        channel_id: int,
        user_id: int,
        build: Callable[[PlayerView], Action],
        *,
        version: int | None = None,
        expect: Callable[[PlayerView], bool] | None = None,
    ) -> Update:
        """Apply the action that ``build`` makes from ``user_id``'s view (e.g. ``lambda v: Draw(v.me)`` or
        ``lambda v: v.legal[k]``). The request is refused as :class:`~bot.adapter.refusals.Stale` when ``version`` is
        given and the session has moved past it, or when ``expect(view)`` is false (the message it came from no
        longer matches the game). The change is committed before this returns."""
        session = self.get(channel_id)
        async with session.lock:
            if version is not None and version != session.version:
                raise E.Stale("the game has moved on", version=session.version)
            game = self._require_game(session)
            seat = session.seat_of(user_id)
            if seat is None:
                raise E.NotSeated("you are not playing in this game")
            view = game.view(seat)
            if expect is not None and not expect(view):
                raise E.Stale("the game has moved on", version=session.version)
            action = build(view)
            if getattr(action, "player", None) != seat:
                raise E.BadRequest("that action is not yours")
            events = session.apply(action)
            session.seats[seat].timeouts = 0
            session.last_activity = self.clock.now()
            return await self._finish_change(session, events, K.ACTION, seat)

    def snapshot(self, channel_id: int) -> SessionView | None:
        """The channel's session as last committed (frozen; None when there is none). This is all the Discord layer
        reads of a session: a move being saved is not in it until its commit."""
        session = self.sessions.get(channel_id)
        return self.published.get(channel_id) if session is not None else None

    def view(self, channel_id: int, user_id: int | None) -> PlayerView:
        """``user_id``'s view of the committed game (the public table view for ``None`` or a spectator). Raises
        :class:`~bot.adapter.refusals.NoGame`, :class:`~bot.adapter.refusals.NotStarted` or
        :class:`~bot.adapter.refusals.GameFinished`."""
        snapshot = self.snapshot(channel_id)
        if snapshot is None:
            raise E.NoGame("no game in this channel")
        return snapshot.require_view(user_id)

    async def update_ui(self, channel_id: int, change: Callable[[TableUi], TableUi], *, commit: bool = True) -> None:
        """Store Discord-layer data (message ids) with the session: its ``ui`` becomes ``change(ui)`` (say
        ``lambda ui: dataclasses.replace(ui, message=id)``), called under the session's lock so that two changes
        never lose one another; committed at once, or (``commit=False``, for data that may be lost in a crash, such
        as the turn ping's id) with the next change. Raises :class:`~bot.adapter.refusals.NoGame` (and the other
        errors of :meth:`get`) when the channel has no session here, and the commit's errors
        (:class:`~bot.adapter.refusals.StorageDown`, :class:`~bot.adapter.refusals.NotOwned`: the new ``ui`` is then
        kept in memory and saved with the next commit)."""
        session = self.get(channel_id)
        async with session.lock:
            session.ui = change(session.ui)
            if commit:
                await self._commit(session)

    # ------------------------------------------------------------------------------------------------------------
    # Internals: changes

    async def _lobby_change(self, channel_id: int, change: Callable[[Session], K], user_id: int) -> Session:
        session = self.get(channel_id)
        async with session.lock:
            kind = change(session)
            session.last_activity = self.clock.now()
            await self._finish_change(session, [], kind, session.seat_of(user_id))
        return session

    async def _finish_change(self, session: Session, events: Sequence[Event], kind: K, actor: int | None) -> Update:
        """Bump the version, settle a finished match, commit (on failure restore the last committed snapshot and
        re-raise), re-arm, publish."""
        events = list(events)
        session.version += 1
        game = session.game
        result: MatchResult | None = None
        if session.status == Status.PLAYING and game is not None:
            if kind in (K.REMOVED, K.TIMEOUT) and game.phase is not Phase.MATCH_OVER and not session.humans():
                events += abandon(game, session.remove)  # the last human left: nobody is left to play for
            if game.phase is Phase.MATCH_OVER:
                result = settle(session, self.clock.now())
                kind = K.FINISHED
        self._timers.set_deadline(session)
        self._write_log(session, kind, events, actor)
        try:
            await self._guard(session)
            if result is not None:
                row = self._row(session)
                expected = self._expected(session)
                steps = self._steps(session)
                await self._saving(
                    session.channel_id,
                    lambda: self.store.finish_match(
                        result, replace_with=row, owner=self.leases.owner, expected_version=expected, steps=steps
                    ),
                )
                session.journal = []
                session.committed = row.snapshot
                self._published(session)
            else:
                await self._commit(session)
        except BaseException:
            if session.committed is not None:
                self._restore(session, session.committed)
            raise
        self.thinker.observe(session, events)
        self._timers.arm(session)
        return self._publish(session, kind, events, actor)

    def _write_log(self, session: Session, kind: K, events: Sequence[Event], actor: int | None) -> None:
        if self._log_writer is None or session.game is None:
            return
        lines = list(self._log_writer(Update(SessionView.of(session), kind, tuple(events), actor)))
        if kind is K.STARTED:
            session.log = lines[-LOG_LINES:]
        elif lines:
            session.log = (session.log + lines)[-LOG_LINES:]

    async def _remove_seat(self, session: Session, seat: int, *, kind: K, actor: int | None, out: Out) -> Update:
        if session.status == Status.LOBBY:
            removed = session.seats.pop(seat)
            if not session.humans():
                return await self._close(session, CloseReason.EMPTY)
            if removed.user_id == session.host_id:
                session.host_id = session.seats[session.humans()[0]].user_id or session.host_id
            return await self._finish_change(session, [], K.LOBBY, actor)
        if session.status != Status.PLAYING:
            raise E.GameFinished("the match is over")
        game = self._require_game(session)
        # a seat out of the match under house rule elimination (SPEC H9) has nothing left in the game to take away
        events = session.remove(seat) if game.active[seat] else []
        session.seats[seat].left = True
        session.seats[seat].out = out
        self._pass_host(session, seat)
        return await self._finish_change(session, events, kind, actor)

    @staticmethod
    def _pass_host(session: Session, seat: int) -> None:
        """``seat`` is out of the match (left, kicked, or removed by the turn timer): if it hosted the table, the first
        human still in hosts it now (``/uno kick``, ``/uno end``, a rematch: issue 18 point 5)."""
        humans = session.humans()
        if humans and session.seats[seat].user_id == session.host_id:
            session.host_id = session.seats[humans[0]].user_id or session.host_id

    async def _close(self, session: Session, reason: CloseReason) -> Update:
        """Close a lobby (deleted) or a match (recorded as abandoned if it was being played)."""
        await self._guard(session)
        self._timers.disarm(session.channel_id)
        try:
            if session.status == Status.PLAYING and session.game is not None:
                abandon(session.game, session.remove)
                session.version += 1
                result = settle(session, self.clock.now(), abandoned=True)
                expected = self._expected(session)
                steps = self._steps(session)
                await self._saving(
                    session.channel_id,
                    lambda: self.store.finish_match(
                        result, replace_with=None, owner=self.leases.owner, expected_version=expected, steps=steps
                    ),
                )
                session.journal = []
            else:
                channel = session.channel_id
                await self._saving(channel, lambda: self.store.delete_game(channel, owner=self.leases.owner))
        except BaseException:
            if session.committed is not None:
                self._restore(session, session.committed)
            self._timers.arm(session)
            raise
        await self.leases.release(session.channel_id)
        session.version += 1
        session.status = Status.FINISHED
        self._published(session)
        update = self._publish(session, K.CLOSED, (), None, reason=reason)
        self.sessions.pop(session.channel_id, None)
        self.published.pop(session.channel_id, None)
        self.thinker.forget(session.channel_id)
        return update

    async def _commit(self, session: Session) -> None:
        await self._guard(session)
        row = self._row(session)
        expected = self._expected(session)
        steps = self._steps(session)
        await self._saving(
            session.channel_id,
            lambda: self.store.save_game(row, owner=self.leases.owner, expected_version=expected, steps=steps),
        )
        session.journal = []
        session.committed = row.snapshot
        self._published(session)

    def _published(self, session: Session) -> None:
        """Build the frozen view of ``session`` just committed (what :meth:`snapshot` answers from now on)."""
        self.published[session.channel_id] = SessionView.of(session)

    @staticmethod
    def _expected(session: Session) -> int | None:
        """The version of the session's stored row that a fenced write expects (None: never committed here)."""
        return None if session.committed is None else int(session.committed["version"])

    async def _saving(self, channel_id: int, write: Callable[[], Awaitable[T]]) -> T:
        """Make a fenced store write (``write()``). An unreachable database becomes
        :class:`~bot.adapter.refusals.StorageDown` (nothing was saved).

        A refused write (issue 16 point 5) is first checked against the database: when the lease is still in this
        process's name it had only run out by the database's clock while the write was on its way (point 9: sent a
        moment before it ran out, it reached the database after — behind a new connection to a restarted server, or a
        busy event loop), so it is renewed and the write made once more. Otherwise (another process took the game
        over, or the game moved on without this process) this process stops running the game, as for a lost lease,
        and the write becomes :class:`~bot.adapter.refusals.NotOwned`. On any error the caller restores the session to
        its last commit."""
        ours = False
        try:
            try:
                return await write()
            except WriteRefused as exc:
                refused = exc
            ours = await self.leases.renew_one(channel_id)  # nobody took it over: ours again, for a whole lease
            if ours:
                try:
                    return await write()
                except WriteRefused as exc:  # still ours, but the stored game is not the one this process has
                    refused = exc
        except StorageUnavailable as exc:
            log.debug("a change was not saved: %s", exc)  # the store logs the outage once (issue 20.7)
            raise E.StorageDown("the database is unavailable; the change was not saved") from exc
        log.warning("a change was refused by the database (%s); stopping this game here", refused)
        self.leases.forget(channel_id)
        self._timers.spawn(self._suspend(channel_id))  # once the caller lets go of the session's lock
        if ours:
            # The database has a later commit of this process's own (a save whose answer was lost in an outage):
            # the game is loaded again from it by the next renewal (as a lease lapsed in an outage); meanwhile its
            # clicks say the database is unavailable.
            self.leases.lapsed.add(channel_id)
            raise E.StorageDown("the game is being loaded again after a database outage") from refused
        raise E.NotOwned("another bot process runs this game right now") from refused

    def _row(self, session: Session) -> LiveGame:
        return LiveGame(
            channel_id=session.channel_id,
            guild_id=session.guild_id,
            mode=session.mode.value,
            status=session.status.value,
            version=session.version,
            snapshot=session.to_dict(),
            updated_at=self.clock.now(),
        )

    @staticmethod
    def _steps(session: Session) -> MatchSteps | None:
        """The match record's entries the next commit writes (issue 19 point 1), or None."""
        return MatchSteps(session.match_key, tuple(session.journal)) if session.journal else None

    def _restore(self, session: Session, before: dict[str, Any]) -> None:
        session.journal = []  # the changes noted since the last commit are undone with it
        restored = Session.from_dict(before)
        for name in (
            "host_id",
            "options",
            "seats",
            "status",
            "version",
            "game",
            "started_at",
            "last_activity",
            "deadline",
            "ui",
            "result",
            "log",
            "challenges",
        ):
            setattr(session, name, getattr(restored, name))

    def _forget(self, session: Session) -> None:
        self._timers.disarm(session.channel_id)
        self.thinker.forget(session.channel_id)
        self.sessions.pop(session.channel_id, None)
        self.published.pop(session.channel_id, None)

    # ------------------------------------------------------------------------------------------------------------
    # Internals: checks

    @staticmethod
    def _require_lobby(session: Session) -> None:
        if session.status == Status.PLAYING:
            raise E.AlreadyStarted("the game has already started")
        if session.status != Status.LOBBY:
            raise E.GameFinished("the match is over")

    @staticmethod
    def _require_host(session: Session, user_id: int, is_admin: bool) -> None:
        if user_id != session.host_id and not is_admin:
            raise E.NotHost("only the host can do that")

    @staticmethod
    def _require_game(session: Session) -> Game:
        if session.status == Status.LOBBY or session.game is None:
            raise E.NotStarted("the game has not started yet")
        if session.status == Status.FINISHED:
            raise E.GameFinished("the match is over")
        return session.game

    # ------------------------------------------------------------------------------------------------------------
    # Timers and AI

    def _still(self, session: Session, version: int) -> Game | None:
        """The session's game if the session is still live, playing, and at ``version`` (else a timer is stale)."""
        if session.version != version or session.status != Status.PLAYING:
            return None
        if self.sessions.get(session.channel_id) is not session:
            return None
        return session.game

    async def _ai_move(self, session: Session, version: int, seat: int) -> None:
        """AI ``seat`` moves (armed at ``version``). Its level decides from the seat's own view, the match options and
        what the seat was shown (:class:`~bot.ai.memory.Memory`); a *Hard* search runs in the thinker's worker
        process without the session's lock, and its move is applied only if the session has not moved on meanwhile
        (else the timer armed by that change moves again)."""
        async with session.lock:
            game = self._still(session, version)
            if game is None:
                return
            view = game.view(seat)
            level = session.seats[seat].level or DEFAULT_LEVEL
            memory = self.thinker.memory(session, seat)
            seed = self._rng.getrandbits(63)
        action = await self.thinker.decide(level, view, options=session.options, memory=memory, seed=seed)
        if action is None:
            return
        async with session.lock:
            game = self._still(session, version)
            if game is None:
                return
            try:
                events = session.apply(action)
                await self._finish_change(session, events, K.AI, seat)
            except Exception as exc:
                # The game was restored as it was: try the move again shortly, or the table would wait forever.
                if isinstance(exc, E.StorageDown):  # the store logs the outage once (issue 20.7)
                    log.debug("AI move not saved in channel %s; retrying", session.channel_id)
                else:
                    log.exception("AI move failed in channel %s; retrying", session.channel_id)
                self._timers.retry(session, lambda: self._ai_move(session, version, seat))

    async def _on_timeout(self, session: Session, version: int) -> None:
        async with session.lock:
            game = self._still(session, version)
            if game is None:
                return
            try:
                if game.phase is Phase.ROUND_OVER:
                    # a seat still in the match (not one out of it under house rule elimination, SPEC H9)
                    dealer = next(i for i, s in enumerate(session.seats) if not s.left and game.active[i])
                    events = session.apply(NextRound(dealer))
                    await self._finish_change(session, events, K.ACTION, None)
                    return
                owner = game.pending
                if owner is None:
                    return
                seat = owner
                events = default_action(game, seat, session.apply)
                session.seats[seat].timeouts += 1
                if session.seats[seat].timeouts >= self.limits.max_timeouts and game.phase is not Phase.MATCH_OVER:
                    session.seats[seat].left = True
                    session.seats[seat].out = Out.TIMEOUTS
                    events += session.remove(seat)
                    self._pass_host(session, seat)
                await self._finish_change(session, events, K.TIMEOUT, seat)
            except Exception as exc:
                if isinstance(exc, E.StorageDown):  # the store logs the outage once (issue 20.7)
                    log.debug("turn timeout not saved in channel %s; retrying", session.channel_id)
                else:
                    log.exception("turn timeout failed in channel %s; retrying", session.channel_id)
                self._timers.retry(session, lambda: self._on_timeout(session, version))

    def _schedule_sweep(self) -> None:
        self._timers.sweep_later(self._sweep)

    async def _sweep(self) -> None:
        """Close idle lobbies and games without human activity; forget finished sessions after a while."""
        limits = {
            Status.LOBBY: self.limits.lobby_idle,
            Status.PLAYING: self.limits.game_idle,
            Status.FINISHED: self.limits.finished_kept,
        }

        def expired(session: Session, status: Status) -> bool:
            return (
                self.sessions.get(session.channel_id) is session
                and session.status == status
                and self.clock.now() - session.last_activity > limits[status]
            )

        for session in list(self.sessions.values()):
            status = session.status
            if status not in limits or not expired(session, status):
                continue
            try:
                async with session.lock:
                    if not expired(session, status):  # someone acted while we waited for the lock
                        continue
                    if status == Status.FINISHED:
                        self._forget(session)
                        try:
                            await self.store.delete_game(session.channel_id, owner=self.leases.owner)
                        except WriteRefused:  # another process runs that channel now: the row is its business
                            self.leases.forget(session.channel_id)
                            continue
                        await self.leases.release(session.channel_id)
                    else:
                        await self._close(session, CloseReason.IDLE)
            except Exception as exc:
                if isinstance(exc, E.StorageDown | StorageUnavailable):  # the store logs the outage once
                    log.debug("closing idle session %s: database unavailable", session.channel_id)
                else:
                    log.exception("closing idle session %s failed", session.channel_id)
        self._schedule_sweep()

    # ------------------------------------------------------------------------------------------------------------
    # Fan-out

    def _publish(
        self,
        session: Session,
        kind: K,
        events: Sequence[Event] = (),
        actor: int | None = None,
        *,
        reason: CloseReason | None = None,
    ) -> Update:
        """Queue the update of the change just committed (:attr:`published` holds its view)."""
        view = self.published.get(session.channel_id)
        assert view is not None and view.version == session.version
        return self._fanout.publish(Update(view, kind, tuple(events), actor, reason))


__all__ = ["Limits", "SessionManager", "Subscriber", "Update"]
