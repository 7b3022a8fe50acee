"""The publisher: after each committed change it brings the channel's public message (lobby, table, closed game),
the round and match summaries, the turn ping and every open hand up to date (DESIGN "Discord layer").

- The live table stays at the bottom of the channel: once :data:`TABLE_REPOST_AFTER` messages stand below it, it is
  posted anew and the old one is deleted (issue 10, point 2; issue 18 point 5: no "the table moved" stubs left).
- A match leaves one round summary in the channel, its last round's: each round's summary is posted below the table
  (a new message, so the players see it come) and the summary of the round before is deleted; the match summary
  stays beside it (issue 18 point 5: a 500-point match left 25 of them).
- Every open hand whose token still lives is updated when what its player sees changes (:meth:`Hands.refresh`).
- On start-up (:meth:`SessionManager.republish`) and after any failed edit, every live session's public message is
  brought up to its committed state (:meth:`Publisher.repaint`), paced within Discord's rate limits; a lobby whose
  message id was never saved is found in the channel or posted anew (issue 12, point 2).

Within Discord's rate limits (issue 20, points 1–3):

- **Latest state wins.** An update is answered at once (:meth:`Publisher.on_update` sends nothing itself): each
  channel has one worker that changes its public message, one job at a time, so at most one edit of it is in
  flight; a change that comes while a job waits (for room in the channel's bucket, :class:`bot.pacing.Spacing`) is
  merged into it (:class:`Paint`), so the edit sent shows the newest committed state and never an older one after
  it. Summaries and the end of a game are never merged away (they are posted in order). Hands coalesce the same way
  (:meth:`Hands.refresh`); pings too (:class:`~cogs.uno.output.pings.TurnPings`).
- **The player to move first.** Their open hand (which holds any prompt they must answer) is refreshed first,
  through its own interaction webhook, and the table's edit waits for it (at most :data:`HAND_FIRST` s).
- **Fewer channel requests per move.** A table edit per move at most (fewer when moves come faster than the
  channel's bucket allows), a ping only for a turn still pending when it can be sent, its deletion in the
  background; :attr:`Publisher.requests` counts them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import AdapterError, SessionView, Status, TableUi, Update, UpdateKind
from bot.adapter.manager import Limits
from bot.engine.events import Event, HandReceived, RoundEnded
from bot.engine.view import Phase
from bot.i18n import LANGUAGES, t
from bot.pacing import GlobalLimit, Spacing, delete_route, edit_route

from .. import screens
from ..screens import DECISIONS, Screen, house, ids
from ..screens.layout import notice_kwargs, walk_components
from ..screens.text import event_lines, timeout_outcome, timeout_text
from .hands import Hands, stamp
from .images import Images
from .pings import Turn, TurnPings
from .threads import THREAD_ARCHIVED, mark_over, reopen

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

#: How many lines of the moves log the table shows.
LOG_SHOWN = 6
#: How many messages may stand below the live table before the next update posts it anew at the bottom.
TABLE_REPOST_AFTER = 5
#: How soon a public message whose edit failed is brought up to date again (s); doubled per failure, up to the max.
REPAINT_RETRY = 1.0
REPAINT_RETRY_MAX = 30.0
#: Repaints (start-up, retries) per second, all channels together: well within Discord's 50 requests/s per bot and
#: 5 messages per 5 s per channel, so a restart with many live tables never runs into rate limits.
REPAINT_RATE = 8.0
#: How far back a lobby message whose id was never saved is looked for (messages).
LOBBY_SEARCH = 50
#: Discord's error code for a channel that does not exist (any more): "Unknown Channel", with a 404.
UNKNOWN_CHANNEL = 10003
#: How long the table's edit waits for the hand of the player to move to be sent first (s; issue 20, point 2).
HAND_FIRST = 0.5


class Pacer:
    """Spaces calls at least ``1 / rate`` seconds apart (``async with pacer:``)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> None:
        async with self._lock:
            loop = asyncio.get_running_loop()
            delay = self._next - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self._next = max(loop.time(), self._next) + self.interval

    async def __aexit__(self, *exc: object) -> None:
        return None


def channel_deleted(error: BaseException) -> bool:
    """Whether ``error`` is Discord's answer for a channel that does not exist any more (404 Unknown Channel)."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL


def log_lines(update: Update, *, max_timeouts: int = Limits.max_timeouts) -> list[str]:
    """The last-moves log lines of a change (:data:`bot.adapter.manager.LogWriter`), in the table's language; a
    timeout's line says what the timer did and, when the seat's clock shrinks, its next clock (issue 10.4).
    ``max_timeouts``: the consecutive timeouts after which the turn timer removes a player
    (:attr:`bot.adapter.manager.Limits.max_timeouts`): a seat removed with that many says so rather than "left the
    game" (also when its removal ends the match)."""
    session, kind, events, actor = update.view, update.kind, update.events, update.actor
    lang = session.ui.lang

    def name(seat: int) -> str:
        return screens.player_name(session, seat, lang)

    dropped = {
        i: s.timeouts
        for i, s in enumerate(session.seats)
        if s.left and (s.out == "timeouts" or (s.out is None and s.timeouts >= max_timeouts))
    }
    kicked = {i for i, s in enumerate(session.seats) if s.out == "kicked"}  # issue 18 point 5: not "left the game"
    if kind is not UpdateKind.TIMEOUT or actor is None:
        return event_lines(events, name, lang, dropped=dropped, kicked=kicked)
    clock = session.shrunk_clock(actor)
    return event_lines(events, name, lang, timed_out=actor, next_clock=clock, dropped=dropped, kicked=kicked)


def timeout_note(session: SessionView, events: Sequence[Event], seat: int) -> Callable[[str], str] | None:
    """What the turn timer did for ``seat``, for their own hand (a function of the hand's language), with the seat's
    next clock when it shrinks ("Your next turn: 30 s.", issue 10.4); None when the events show no default."""
    if timeout_outcome(events, seat)[0] is None:
        return None
    seconds = session.shrunk_clock(seat)

    def note(lang: str) -> str:
        text = timeout_text(events, seat, lang) or ""
        return text + (" " + t("hand.next_clock", lang, seconds=seconds) if seconds is not None else "")

    return note


def summary_key(kind: str, number: int) -> str:
    """How the session's ``ui.summary`` names the last summary posted: ``round:3``, ``match:0``."""
    return f"{kind}:{number}"


@dataclass(slots=True)
class Paint:
    """A change of the channel's public message waiting to be shown: the newest committed ``session`` to show, and
    what the changes merged into it still owe: a ``repaint`` (start-up, a failed edit: :meth:`Publisher.repaint`;
    ``resumed`` at start-up), the round and match ``summaries`` to post (kind, the session of their change, the
    round's end), ``over`` (the game's thread line says it is over) and ``first`` (the refresh of the hand of the
    player to move, sent before the table)."""

    session: SessionView
    repaint: bool = False
    resumed: bool = False
    summaries: list[tuple[str, SessionView, RoundEnded | None]] = field(default_factory=list)
    over: bool = False
    first: asyncio.Task[Any] | None = None

    def merge(self, newer: Paint) -> None:
        """Take ``newer``'s change in: its session (when it is not older), and everything it owes."""
        if stamp(newer.session) >= stamp(self.session):
            self.session = newer.session
        self.repaint |= newer.repaint
        self.resumed |= newer.resumed
        self.summaries += newer.summaries
        self.over |= newer.over
        self.first = newer.first or self.first


@dataclass(slots=True)
class Close:
    """The session is gone (:attr:`UpdateKind.CLOSED`, for ``reason``): its last screen, then its hands closed."""

    session: SessionView
    reason: str


@dataclass(slots=True)
class Stage:
    """A channel's jobs, in order, and the worker that does them."""

    jobs: deque[Paint | Close] = field(default_factory=deque)
    worker: asyncio.Task[Any] | None = None


class Publisher:
    """``await publisher.on_update(update)`` for every :class:`~bot.adapter.Update`, in order per session."""

    def __init__(self, bot: UnoBot, images: Images, hands: Hands) -> None:
        self.bot = bot
        self.images = images
        self.hands = hands
        #: Paces each channel's edits and pings within its buckets and the bot's global limit (:mod:`bot.pacing`).
        self.spacing = Spacing(getattr(bot, "http", None))
        self.limit: GlobalLimit | None = getattr(bot, "global_limit", None)
        self.pings = TurnPings(bot, spawn=self._spawn, keep=self._keep_ping, spacing=self.spacing, limit=self.limit)
        self._stages: dict[int, Stage] = {}
        #: Requests sent to channels (``edit``, ``post``) and changes merged into a waiting one (``merged``), for
        #: tests and benchmarks (the pings count their own).
        self.requests: Counter[str] = Counter()
        #: Messages seen below each channel's live table since it was posted.
        self.below: dict[int, int] = {}
        self._pacer = Pacer(REPAINT_RATE)
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}
        self.jumps = house.JumpWatch()
        #: Channels (a game's thread, mostly) deleted under a live game: nothing is posted or edited there any more.
        self.gone: set[int] = set()
        #: The player each channel's table tells to press Show my hand (:meth:`reopen_user`).
        self.told: dict[int, int] = {}
        hands.reopened = self.hand_reopened

    # ------------------------------------------------------------------------------------------------------------
    # The adapter's hooks

    def log_lines(self, update: Update) -> list[str]:
        """The last-moves log lines of a change (:func:`log_lines`, with the manager's ``max_timeouts``)."""
        return log_lines(update, max_timeouts=self.bot.manager.limits.max_timeouts)

    async def on_update(self, update: Update) -> None:
        """Take ``update`` in (it sends nothing itself, issue 20 point 1): refresh the open hands (the player to
        move first), queue the public message's change for the channel's worker (merged into one still waiting) and
        ask for the turn's ping. In a channel found deleted (Discord's 404 Unknown Channel, also for a thread deleted
        while the bot was away) the game is ended instead (:meth:`channel_gone`)."""
        session = update.view
        channel_id = session.channel_id
        if channel_id in self.gone:  # deleted: the game is being ended, nothing is shown there
            if update.kind is UpdateKind.CLOSED:
                self.gone.discard(channel_id)
                self.pings.forget(channel_id)
                self.jumps.forget(channel_id)
                stage = self._stages.get(channel_id)
                if stage is not None:
                    stage.jobs.clear()
                await self.hands.close(channel_id, lambda hand_lang: t("hand.game_over", hand_lang))
                await mark_over(self.bot, update.view)
            return
        kind = update.kind
        if kind is UpdateKind.RESUMED:
            self._push(Paint(session, repaint=True, resumed=True))
        elif kind is UpdateKind.LOBBY:
            self._push(Paint(session))
        elif kind is UpdateKind.CLOSED:
            self.pings.clear(session)
            self._push(Close(session, update.reason or ""))
        elif session.public is not None:
            first = self.refresh_hands(session, update)
            summaries: list[tuple[str, SessionView, RoundEnded | None]] = [
                ("round", session, event) for event in update.events if isinstance(event, RoundEnded)
            ]
            if kind is UpdateKind.FINISHED:
                summaries.append(("match", session, None))
            self._push(Paint(session, summaries=summaries, over=kind is UpdateKind.FINISHED, first=first))
            await self.show_ping(session, session.ui.lang)

    def _spawn(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run ``work`` as one of the bot's delivery tasks (waited for when it stops)."""
        return self.bot.manager.spawn_delivery(work, name=name)

    def _push(self, job: Paint | Close) -> None:
        """Queue ``job`` for its channel's worker; a :class:`Paint` of the same session still waiting takes it in
        instead (latest state wins)."""
        channel_id = job.session.channel_id
        stage = self._stages.setdefault(channel_id, Stage())
        last = stage.jobs[-1] if stage.jobs else None
        if isinstance(job, Paint) and isinstance(last, Paint) and last.session.same_session(job.session):
            last.merge(job)
            self.requests["merged"] += 1
        else:
            stage.jobs.append(job)
        if stage.worker is None or stage.worker.done():
            stage.worker = self._spawn(self._work(channel_id, stage), f"uno-adapter-publish-{channel_id}")

    async def _work(self, channel_id: int, stage: Stage) -> None:
        """Do the channel's jobs in order, one at a time; a :class:`Paint` is taken only once the channel's edit
        bucket has room (and the hand of the player to move was sent), so that it shows the newest state."""
        while stage.jobs:
            job = stage.jobs[0]
            if isinstance(job, Paint):
                message_id = self._message_id(job.session)
                if message_id is not None:
                    await self.spacing.wait(edit_route(channel_id, message_id), self.limit)
                first = stage.jobs[0].first if stage.jobs and isinstance(stage.jobs[0], Paint) else None
                if first is not None and not first.done():
                    await asyncio.wait([first], timeout=HAND_FIRST)
            if not stage.jobs:
                break
            job = stage.jobs.popleft()
            try:
                await self._do(job)
            except Exception as exc:
                if channel_deleted(exc):
                    await self.channel_gone(channel_id)
                else:
                    log.exception("showing a change in channel %s failed", channel_id)
        if self._stages.get(channel_id) is stage and not stage.jobs:
            del self._stages[channel_id]

    async def _do(self, job: Paint | Close) -> None:
        """Show one job: the closed screen, a repaint, or the newest state with what the merged changes owe."""
        session = job.session
        lang = session.ui.lang
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        if isinstance(job, Close):
            await self.edit_public(session, screens.closed_screen(session, lang, job.reason))
            self.jumps.forget(session.channel_id)
            if session.public is not None and session.result is not None:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
                self.requests["post"] += 1
            await self.hands.close(session.channel_id, lambda hand_lang: t("hand.game_over", hand_lang))
            await mark_over(self.bot, session)
            return
        if job.repaint:
            await self.repaint(session, resumed=job.resumed)
        elif session.status is Status.LOBBY:
            if self._message_id(session) is not None:  # the first lobby message is the answer to the command
                await self.edit_public(session, screens.lobby_screen(session, lang, await self.ai_level(session)))
        elif session.public is not None:
            await self.show_table(session, lang)
        for kind, at, event in job.summaries:
            if kind == "round" and event is not None:
                await self.post_summary(at, screens.round_summary(at, event, lang), "round")
            elif kind == "match":
                await self.post_summary(at, screens.match_summary(at, lang), "match")
        if job.over:
            await mark_over(self.bot, session)

    def on_message(self, message: discord.Message) -> None:
        """Count the messages others post below a live table (the bot counts its own as it sends them)."""
        if message.guild is None or message.author.id == getattr(self.bot.user, "id", None):
            return
        session = self.bot.manager.snapshot(message.channel.id)
        table = session.ui.message if session is not None and session.public is not None else None
        if table is not None and message.id > table:
            self.below[message.channel.id] = self.below.get(message.channel.id, 0) + 1

    async def channel_gone(self, channel_id: int) -> None:
        """Channel ``channel_id`` was deleted (a moderator deleted a game's thread, or the channel with its threads):
        end its live game as a server manager's ``/uno end`` does (a match being played is recorded as abandoned),
        showing nothing more there. A game already over is left to expire; a failure to end it is logged (the idle
        sweep ends it later, still showing nothing)."""
        session = self.bot.manager.snapshot(channel_id)
        if session is None or session.status is Status.FINISHED or self.bot.user is None:
            return
        self.gone.add(channel_id)  # until its CLOSED update: nothing is posted in a deleted channel
        try:
            await self.bot.manager.end(channel_id, self.bot.user.id, is_admin=True)
        except AdapterError as exc:
            log.warning("could not end the game of deleted channel %s: %s", channel_id, exc)

    # ------------------------------------------------------------------------------------------------------------
    # Public messages

    async def show_table(self, session: SessionView, lang: str) -> None:
        """Edit the table (posted anew at the bottom once :data:`TABLE_REPOST_AFTER` messages stand below it)."""
        public = session.public
        assert public is not None
        png = await self.images.table(session, public, lang)
        log_lines = list(session.log[-LOG_SHOWN:])
        repost = self.below.get(session.channel_id, 0) >= TABLE_REPOST_AFTER and session.status == Status.PLAYING
        told = self.reopen_user(session)
        if told is not None:
            self.told[session.channel_id] = told
        else:
            self.told.pop(session.channel_id, None)
        screen = screens.table_screen(
            session,
            lang,
            log_lines,
            png=png,
            round_pause=self.bot.manager.limits.round_pause,
            reopen=told is not None,
        )
        await self.edit_public(session, screen, repost=repost)

    def reopen_user(self, session: SessionView) -> int | None:
        """The human to move whose open hand can no longer be updated (its token too old or refused: issue 20.5),
        or None. The table's line tells them to press Show my hand, as the turn ping does: also when the server
        turned pings off, so that nobody is left looking at a hand that silently stopped following the game."""
        public = session.public
        if session.status is not Status.PLAYING or public is None or public.phase not in DECISIONS:
            return None
        seat = public.pending
        user = session.seats[seat].user_id if seat is not None else None
        if user is None or not self.hands.open.needs_reopen(session.channel_id, user):
            return None
        return user

    def database_back(self) -> None:
        """The database is back after an outage (:attr:`bot.storage.OutageLog.listeners`, issue 20 point 7): every
        open hand that shows the outage line is shown again without it, at once, not at the next move."""
        down = {lang: t("error.storage_unavailable", lang) for lang in LANGUAGES}
        for channel_id, user_id, hand in self.hands.open.noted():
            if hand.note is None or hand.note != down.get(hand.lang):
                continue
            session = self.bot.manager.snapshot(channel_id)
            view = session.view_for(user_id) if session is not None and session.playing else None
            if session is None or view is None or view.me is None:
                continue
            self._spawn(self.hands.refresh(session, user_id, view, force=True), f"uno-adapter-hand-{channel_id}")

    def hand_reopened(self, channel_id: int, user_id: int) -> None:
        """``user_id`` opened their hand again (:attr:`Hands.reopened`): the table's line that told them to stops
        saying so (the table is shown again)."""
        if self.told.get(channel_id) != user_id or channel_id in self.gone:
            return
        session = self.bot.manager.snapshot(channel_id)
        if session is not None and session.public is not None and session.status is Status.PLAYING:
            self._push(Paint(session))

    async def post_summary(self, session: SessionView, screen: Screen, kind: str) -> None:
        """Post a round or match summary below the table, and note it with the session (so that a restart posts
        the one it may have missed, and no other)."""
        number = session.rounds_played if kind == "round" else 0
        key = summary_key(kind, number)
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if self._ui(session).summary == key:
                return  # posted already (a repaint merged with the change that posts it)
            message = await channel.send(**screen.send_kwargs())
        self.requests["post"] += 1
        self.below[session.channel_id] = self.below.get(session.channel_id, 0) + 1
        if kind != "round":
            await self._note(session, lambda ui: replace(ui, summary=key))
            return
        previous = self._ui(session).round_summary
        posted = message.id
        await self._note(session, lambda ui: replace(ui, summary=key, round_summary=posted))
        if previous is not None and previous != message.id:  # one round summary per match: the newest
            # in a task of its own, as the pings' deletes: waiting for the channel's delete bucket never holds the
            # channel's worker (the next table edit)
            self._spawn(self.delete(channel, previous), f"uno-adapter-unsummary-{session.channel_id}")

    async def edit_public(self, session: SessionView, screen: Screen, *, repost: bool = False) -> None:
        """Edit the session's public message into ``screen``; post it anew (and remember it) when it vanished or
        when ``repost`` (the old one is then deleted: :meth:`strip`). A failed edit is tried
        again shortly (:meth:`repaint`)."""
        message_id = self._message_id(session)
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if message_id is not None and not repost:
                try:
                    await self._edit(channel, message_id, screen)
                    self.requests["edit"] += 1
                    self._failures.pop(session.channel_id, None)
                    return
                except discord.NotFound:
                    message_id = None
                    screen.rewind()
                except discord.HTTPException as exc:
                    log.warning("editing the public message of channel %s failed: %s", session.channel_id, exc)
                    self.repaint_later(session.channel_id)
                    return
            message = await channel.send(**screen.send_kwargs(), allowed_mentions=discord.AllowedMentions.none())
        self.requests["post"] += 1
        self.below[session.channel_id] = 0
        if message_id is not None:  # in a task of its own: the new table's id is saved without waiting for it
            self._spawn(self.strip(channel, message_id, session.ui.lang), f"uno-adapter-strip-{channel.id}")
        latest = self.bot.manager.snapshot(session.channel_id)
        if session.status is not Status.FINISHED and latest is not None and latest.same_session(session):
            posted = message.id
            await self.bot.manager.update_ui(session.channel_id, lambda ui: replace(ui, message=posted))

    async def _edit(self, channel: discord.PartialMessageable, message_id: int, screen: Screen) -> None:
        """Edit message ``message_id`` of ``channel`` into ``screen``; in a game thread that was archived under the
        game (Discord refuses the edit), unarchive it and edit again (:func:`~cogs.uno.output.threads.reopen`). Raises
        discord.py's errors of the last try."""
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(**screen.edit_kwargs())
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or not await reopen(self.bot, channel.id):
                raise
            screen.rewind()
            await message.edit(**screen.edit_kwargs())

    def _ui(self, session: SessionView) -> TableUi:
        """The session's Discord-layer data as last committed (message ids saved since ``session`` was committed
        are in the newer snapshot)."""
        latest = self.bot.manager.snapshot(session.channel_id)
        return latest.ui if latest is not None and latest.same_session(session) else session.ui

    async def ai_level(self, session: SessionView) -> str:
        """The server's default AI level, for the lobby's Add AI (issue 21 point 1; cached settings)."""
        return (await self.bot.guild_settings(session.guild_id)).ai_level

    def _message_id(self, session: SessionView) -> int | None:
        """The public message of the session: as last committed (a table posted anew since ``session`` was
        committed is in the newer snapshot)."""
        return self._ui(session).message

    async def strip(self, channel: discord.PartialMessageable, message_id: int, lang: str) -> None:
        """Take an old public message away once the table was posted anew below: deleted (issue 18 point 5: a
        match left a "the table moved" stub at each repost); where it cannot be, a pointer to the channel's bottom,
        without buttons."""
        if await self.delete(channel, message_id):
            return
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).edit(**notice_kwargs(t("table.moved", lang)))

    async def delete(self, channel: discord.PartialMessageable, message_id: int) -> bool:
        """Delete the bot's message ``message_id`` of ``channel``; whether it is gone (a message already gone is).
        It takes its turn in the channel's delete bucket (5 per 5 s), which the turn pings' deletes share, through the
        same :class:`~bot.pacing.Spacing` (issue 20 point 3)."""
        await self.spacing.wait(delete_route(channel.id, message_id), self.limit)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            log.warning("deleting message %s of channel %s failed: %s", message_id, channel.id, exc)
            return False
        self.requests["delete"] += 1
        return True

    # ------------------------------------------------------------------------------------------------------------
    # Turn pings and hands

    async def show_ping(self, session: SessionView, lang: str) -> None:
        """Ping the human whose decision is pending (once per turn); delete the ping once the turn passes
        (:meth:`TurnPings.want`: the channel's ping worker sends only the newest)."""
        public = session.public
        turn = None
        if session.status is Status.PLAYING and public is not None and public.phase in DECISIONS:
            seat = public.pending
            user = session.seats[seat].user_id if seat is not None else None
            if seat is not None and user is not None:
                turn = Turn(user, seat, public.round)
        settings = await self.bot.guild_settings(session.guild_id)
        reopen = turn is not None and self.hands.open.needs_reopen(session.channel_id, turn.user)
        self.pings.want(session, turn, lang, enabled=settings.turn_pings, reopen=reopen)

    async def _keep_ping(self, session: SessionView, message_id: int | None) -> None:
        """Commit the id of the ping standing in the channel (None: none) with the session, right after the ping
        was sent or deleted: a restart deletes that one (issue 20, point 3)."""
        if self._ui(session).ping != message_id:
            await self._note(session, lambda ui: replace(ui, ping=message_id))

    def refresh_hands(self, session: SessionView, update: Update) -> asyncio.Task[Any] | None:
        """Refresh every open hand whose player sees something new after ``update`` (:meth:`Hands.refresh` skips
        the hands a change does not touch), the hand of the player to move first; the player whose turn timer ran
        out reads what the timer did, the players who received a hand by a 7 or a 0 (SPEC H) whose hand they now
        hold, and the players who can jump in, or could until this change, get their controls at once. Returns the
        task of the refresh of the player to move (None: none).

        The player who clicked on their hand reads it in the answer to their click: that answer takes the hand's lock
        before this refresh can (no await between the commit and it), so the refresh then finds the hand up to date
        and sends nothing."""
        views, public = session.seat_views, session.public
        if views is None or public is None:
            return None
        notes = self.house_notes(session, update)
        forced = self.jump_changes(session, update)
        if update.kind is UpdateKind.TIMEOUT and update.actor is not None:
            timed_out = timeout_note(session, update.events, update.actor)
            if timed_out is not None:
                notes[update.actor] = joined(timed_out, notes.get(update.actor))
        first: asyncio.Task[Any] | None = None
        seats = sorted(range(len(session.seats)), key=lambda seat: seat != public.pending)
        for seat in seats:
            s = session.seats[seat]
            if s.user_id is None or self.hands.open.get(session.channel_id, s.user_id) is None:
                continue
            if s.left:  # out of the match: their hand says why, without controls (issue 18 point 5)
                self._spawn(
                    self.hands.retire(session.channel_id, s.user_id, screens.out_text(s)),
                    f"uno-adapter-hand-{session.channel_id}",
                )
                continue
            task = self._spawn(
                self.hands.refresh(session, s.user_id, views[seat], note=notes.get(seat), force=seat in forced),
                f"uno-adapter-hand-{session.channel_id}",
            )
            if seat == public.pending:
                first = task
        return first

    # ------------------------------------------------------------------------------------------------------------
    # Repainting

    async def repaint(self, session: SessionView, *, resumed: bool = False) -> None:
        """Bring the session's public message up to its committed state (paced by :data:`REPAINT_RATE`): the lobby
        (found in the channel or posted anew when its id was never saved), the table, and the round or match summary
        that a stop may have kept from being posted; the turn ping for the decision pending now."""
        async with self._pacer:
            pass
        lang = session.ui.lang
        if resumed and session.ui.ping is not None:
            self.pings.adopt(session.channel_id, session.ui.ping)
        if session.status == Status.LOBBY:
            if session.ui.message is None:
                found = await self.find_lobby(session)
                if found is not None:
                    await self._note(session, lambda ui: replace(ui, message=found))
            await self.edit_public(session, screens.lobby_screen(session, lang, await self.ai_level(session)))
            return
        public = session.public
        if public is None:
            return
        await self.show_table(session, lang)
        summary = self._ui(session).summary
        rounds = session.rounds_played
        if public.phase is Phase.MATCH_OVER or session.status is Status.FINISHED:
            if summary != summary_key("match", 0) and session.result is not None:
                await self.post_summary(session, screens.match_summary(session, lang), "match")
                await mark_over(self.bot, session)  # its update was not shown before a stop: nor was the line
        elif public.phase is Phase.ROUND_OVER and rounds and summary != summary_key("round", rounds):
            ended = self.round_ended(session)
            await self.post_summary(session, screens.round_summary(session, ended, lang), "round")
        await self.show_ping(session, lang)

    @staticmethod
    def round_ended(session: SessionView) -> RoundEnded:
        """The :class:`RoundEnded` of the round just finished, rebuilt from the committed game (round over)."""
        public, views = session.public, session.seat_views
        assert public is not None and views is not None and public.history
        last = public.history[-1]
        hands = tuple(tuple(c.face for c in view.hand) for view in views)
        return RoundEnded(last.winner, tuple(last.points), tuple(public.scores), hands)

    async def find_lobby(self, session: SessionView) -> int | None:
        """The lobby message of ``session`` among the channel's last :data:`LOBBY_SEARCH` messages (posted before a
        stop kept its id from being saved), or None."""
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        prefix = ids.lobby_id("join", session.channel_id)
        me = getattr(self.bot.user, "id", None)
        try:
            async for message in channel.history(limit=LOBBY_SEARCH):
                if message.author.id != me:
                    continue
                for item in walk_components(message.components):  # inside a V2 container too
                    if str(getattr(item, "custom_id", "") or "").startswith(prefix):
                        return message.id
        except discord.HTTPException:
            log.warning("could not read the history of channel %s", session.channel_id)
        return None

    def repaint_later(self, channel_id: int) -> None:
        """Repaint the channel's public message after a failed edit: in :data:`REPAINT_RETRY` s, doubling per
        failure in a row up to :data:`REPAINT_RETRY_MAX`."""
        task = self._retries.get(channel_id)
        if task is not None and not task.done():
            return
        failures = self._failures[channel_id] = self._failures.get(channel_id, 0) + 1
        delay = min(REPAINT_RETRY * 2 ** (failures - 1), REPAINT_RETRY_MAX)
        self._retries[channel_id] = asyncio.get_running_loop().create_task(
            self._repaint_after(channel_id, delay), name=f"uno-adapter-repaint-{channel_id}"
        )

    async def _repaint_after(self, channel_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        if self._retries.get(channel_id) is asyncio.current_task():
            del self._retries[channel_id]  # due now: a repaint that fails again waits for a new one
        session = self.bot.manager.snapshot(channel_id)
        if session is None or channel_id in self.gone:
            return
        self._push(Paint(session, repaint=True))

    def close(self) -> None:
        """Cancel the repaints waiting to be retried."""
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()

    async def _note(self, session: SessionView, change: Callable[[TableUi], TableUi]) -> None:
        """Keep Discord-layer data with the session: its ``ui`` becomes ``change(ui)``, committed at once (nothing
        when the session is gone, or is another one by now)."""
        latest = self.bot.manager.snapshot(session.channel_id)
        if latest is None or not latest.same_session(session):
            return
        with contextlib.suppress(AdapterError):
            await self.bot.manager.update_ui(session.channel_id, change)

    def house_notes(self, session: SessionView, update: Update) -> dict[int, Callable[[str], str | None]]:
        """House rules (SPEC H): the note telling each player who received a hand by a 7 or a 0 whose hand they now
        hold, by seat (the player who acted sees it in the answer to their click)."""
        if not session.options.seven_zero:
            return {}
        own = update.actor if update.kind is UpdateKind.ACTION else None
        received = {e.to for e in update.events if isinstance(e, HandReceived) and e.to != own}
        notes: dict[int, Callable[[str], str | None]] = {}
        for seat in sorted(received):

            def note(lang: str, seat: int = seat) -> str | None:
                return house.received_note(update.events, seat, lambda s: screens.player_name(session, s, lang), lang)

            notes[seat] = note
        return notes

    def jump_changes(self, session: SessionView, update: Update) -> set[int]:
        """House rules (SPEC H): the seats whose open hands must change at once because they can jump in now, or
        could until this change (:class:`~cogs.uno.screens.house.JumpWatch`), so that a **Jump in!** control is there
        only while it can be used (the player to move and the player who acted aside)."""
        public, views = session.public, session.seat_views
        if public is None or views is None or not session.options.jump_in:
            return set()
        own = update.actor if update.kind is UpdateKind.ACTION else None
        humans = [views[i] if s.user_id is not None and not s.left else None for i, s in enumerate(session.seats)]
        return {seat for seat in self.jumps.changed(session.channel_id, humans) if seat not in (public.pending, own)}


def joined(first: Callable[[str], str | None], second: Callable[[str], str | None] | None) -> Callable[[str], str]:
    """Two notes of a hand as one (a function of the hand's language)."""

    def note(lang: str) -> str:
        return " ".join(text for text in (first(lang), second(lang) if second else None) if text)

    return note


__all__ = [
    "HAND_FIRST",
    "LOG_SHOWN",
    "REPAINT_RATE",
    "TABLE_REPOST_AFTER",
    "Close",
    "Pacer",
    "Paint",
    "Publisher",
    "Stage",
]
