"""The publisher: after each committed change it brings the channel's public message (lobby, table, closed game),
the round and match summaries, the turn ping and every open hand up to date (DESIGN "Discord layer").

- The live table stays at the bottom of the channel: once :data:`TABLE_REPOST_AFTER` messages stand below it, it is
  posted anew and the old one keeps a one-line pointer, without buttons (issue 10, point 2).
- Every open hand whose token still lives is updated when what its player sees changes (:meth:`Hands.refresh`).
- On start-up (:meth:`SessionManager.republish`) and after any failed edit, every live session's public message is
  brought up to its committed state (:meth:`Publisher.repaint`), paced within Discord's rate limits; a lobby whose
  message id was never saved is found in the channel or posted anew (issue 12, point 2).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.adapter import AdapterError, SessionView, Status, Update, UpdateKind
from bot.adapter.manager import Limits
from bot.engine.events import Event, HandReceived, RoundEnded
from bot.engine.view import Phase
from bot.i18n import t

from . import house, ids, screens
from .hands import Hands
from .images import Images
from .pings import Turn, TurnPings
from .screens import DECISIONS, Screen
from .text import event_lines, timeout_outcome, timeout_text
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


def log_lines(
    session: SessionView,
    kind: UpdateKind,
    events: Sequence[Event],
    actor: int | None,
    *,
    max_timeouts: int = Limits.max_timeouts,
) -> list[str]:
    """The last-moves log lines of a change (:data:`bot.adapter.manager.LogWriter`), in the table's language; a
    timeout's line says what the timer did and, when the seat's clock shrinks, its next clock (issue 10.4).
    ``max_timeouts``: the consecutive timeouts after which the turn timer removes a player
    (:attr:`bot.adapter.manager.Limits.max_timeouts`): a seat removed with that many says so rather than "left the
    game" (also when its removal ends the match)."""
    lang = str(session.ui.get("lang", "en"))

    def name(seat: int) -> str:
        return screens.player_name(session, seat, lang)

    dropped = {i: s.timeouts for i, s in enumerate(session.seats) if s.left and s.timeouts >= max_timeouts}
    if kind is not UpdateKind.TIMEOUT or actor is None:
        return event_lines(events, name, lang, dropped=dropped)
    return event_lines(events, name, lang, timed_out=actor, next_clock=session.shrunk_clock(actor), dropped=dropped)


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
    """How the session's ``ui["summary"]`` names the last summary posted: ``round:3``, ``match:0``."""
    return f"{kind}:{number}"


class Publisher:
    """``await publisher.on_update(update)`` for every :class:`~bot.adapter.Update`, in order per session."""

    def __init__(self, bot: UnoBot, images: Images, hands: Hands) -> None:
        self.bot = bot
        self.images = images
        self.hands = hands
        self.pings = TurnPings(bot)
        #: Messages seen below each channel's live table since it was posted.
        self.below: dict[int, int] = {}
        self._pacer = Pacer(REPAINT_RATE)
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}
        self.jumps = house.JumpWatch()
        #: Channels (a game's thread, mostly) deleted under a live game: nothing is posted or edited there any more.
        self.gone: set[int] = set()

    # ------------------------------------------------------------------------------------------------------------
    # The adapter's hooks

    def log_lines(
        self, session: SessionView, kind: UpdateKind, events: Sequence[Event], actor: int | None
    ) -> list[str]:
        """The last-moves log lines of a change (:func:`log_lines`, with the manager's ``max_timeouts``)."""
        return log_lines(session, kind, events, actor, max_timeouts=self.bot.manager.limits.max_timeouts)

    async def on_update(self, update: Update) -> None:
        """Bring the public messages, the turn ping and the open hands up to date after ``update``; in a channel
        found deleted (Discord's 404 Unknown Channel, also for a thread deleted while the bot was away) end the game
        instead (:meth:`channel_gone`)."""
        channel_id = update.view.channel_id
        if channel_id in self.gone:  # deleted: the game is being ended, nothing is shown there
            if update.kind is UpdateKind.CLOSED:
                self.gone.discard(channel_id)
                self.pings.forget(channel_id)
                self.jumps.forget(channel_id)
                await self.hands.close(channel_id, lambda hand_lang: t("hand.game_over", hand_lang))
                await mark_over(self.bot, update.view)
            return
        try:
            await self._show(update)
        except discord.NotFound as exc:
            if not channel_deleted(exc):
                raise
            await self.channel_gone(channel_id)

    async def _show(self, update: Update) -> None:
        session = update.view
        lang = str(session.ui.get("lang", "en"))
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        kind = update.kind
        if kind is UpdateKind.RESUMED:
            await self.repaint(session, resumed=True)
            return
        if kind is UpdateKind.LOBBY:
            if self._message_id(session) is not None:  # the first lobby message is the answer to the command
                await self.edit_public(session, screens.lobby_screen(session, lang))
        elif kind is UpdateKind.CLOSED:
            reason = update.reason or ""
            await self.pings.clear(session.channel_id, session.guild_id)
            await self.edit_public(session, screens.closed_screen(session, lang, reason))
            self.jumps.forget(session.channel_id)
            if session.public is not None and session.result is not None:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
            await self.hands.close(session.channel_id, lambda hand_lang: t("hand.game_over", hand_lang))
            await mark_over(self.bot, session)
        elif session.public is not None:
            await self.show_table(session, lang)
            for event in update.events:
                if isinstance(event, RoundEnded):
                    await self.post_summary(session, screens.round_summary(session, event, lang), "round")
            if kind is UpdateKind.FINISHED:
                await self.post_summary(session, screens.match_summary(session, lang), "match")
            await self.show_ping(session, lang)
            await self.refresh_house_hands(session, update)
            timed_out = update.actor if kind is UpdateKind.TIMEOUT else None
            await self.refresh_hands(session, update.events, timed_out)
            if kind is UpdateKind.FINISHED:
                await mark_over(self.bot, session)

    def on_message(self, message: discord.Message) -> None:
        """Count the messages others post below a live table (the bot counts its own as it sends them)."""
        if message.guild is None or message.author.id == getattr(self.bot.user, "id", None):
            return
        session = self.bot.manager.snapshot(message.channel.id)
        table = session.ui.get("message") if session is not None and session.public is not None else None
        if table is not None and message.id > int(table):
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
        screen = screens.table_screen(
            session, lang, log_lines, png=png, round_pause=self.bot.manager.limits.round_pause
        )
        await self.edit_public(session, screen, repost=repost)

    async def post_summary(self, session: SessionView, screen: Screen, kind: str) -> None:
        """Post a round or match summary below the table, and note it with the session (so that a restart posts
        the one it may have missed, and no other)."""
        number = session.rounds_played if kind == "round" else 0
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            await channel.send(**screen.send_kwargs())
        self.below[session.channel_id] = self.below.get(session.channel_id, 0) + 1
        await self._note(session, commit=True, summary=summary_key(kind, number))

    async def edit_public(self, session: SessionView, screen: Screen, *, repost: bool = False) -> None:
        """Edit the session's public message into ``screen``; post it anew (and remember it) when it vanished or
        when ``repost`` (the old one then keeps a pointer to the new one, without buttons). A failed edit is tried
        again shortly (:meth:`repaint`)."""
        message_id = self._message_id(session)
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if message_id is not None and not repost:
                try:
                    await self._edit(channel, message_id, screen)
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
        self.below[session.channel_id] = 0
        if message_id is not None:
            await self.strip(channel, message_id, str(session.ui.get("lang", "en")))
        latest = self.bot.manager.snapshot(session.channel_id)
        if session.status is not Status.FINISHED and latest is not None and latest.same_session(session):
            await self.bot.manager.update_ui(session.channel_id, message=message.id)

    async def _edit(self, channel: discord.PartialMessageable, message_id: int, screen: Screen) -> None:
        """Edit message ``message_id`` of ``channel`` into ``screen``; in a game thread that was archived under the
        game (Discord refuses the edit), unarchive it and edit again (:func:`~cogs.uno.threads.reopen`). Raises
        discord.py's errors of the last try."""
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(**screen.edit_kwargs())
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or not await reopen(self.bot, channel.id):
                raise
            screen.rewind()
            await message.edit(**screen.edit_kwargs())

    def _message_id(self, session: SessionView) -> int | None:
        """The public message of the session: as last committed (a table posted anew since ``session`` was
        committed is in the newer snapshot)."""
        latest = self.bot.manager.snapshot(session.channel_id)
        ui = latest.ui if latest is not None and latest.same_session(session) else session.ui
        message = ui.get("message")
        return int(message) if message is not None else None

    async def strip(self, channel: discord.PartialMessageable, message_id: int, lang: str) -> None:
        """Turn an old public message into a pointer to the channel's bottom, without buttons."""
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).edit(
                content=t("table.moved", lang), embeds=[], attachments=[], view=None
            )

    # ------------------------------------------------------------------------------------------------------------
    # Turn pings and hands

    async def show_ping(self, session: SessionView, lang: str) -> None:
        """Ping the human whose decision is pending (once per turn); delete the ping once the turn passes."""
        public = session.public
        turn = None
        if session.status is Status.PLAYING and public is not None and public.phase in DECISIONS:
            seat = public.pending
            user = session.seats[seat].user_id if seat is not None else None
            if seat is not None and user is not None:
                turn = Turn(user, seat, public.round)
        settings = await self.bot.guild_settings(session.guild_id)
        enabled = settings.turn_pings
        before = self.pings.standing(session.channel_id)
        reopen = turn is not None and self.hands.open.needs_reopen(session.channel_id, turn.user)
        ping = await self.pings.show(session.channel_id, session.guild_id, turn, lang, enabled=enabled, reopen=reopen)
        if ping != before:
            await self._note(session, commit=False, ping=ping.message_id if ping is not None else None)

    async def refresh_hands(
        self, session: SessionView, events: Sequence[Event] = (), timed_out: int | None = None
    ) -> None:
        """Bring every open hand up to date with what its player now sees (:meth:`Hands.refresh` skips the hands a
        change does not touch); the player whose turn timer ran out reads what the timer did."""
        views = session.seat_views
        if views is None:
            return
        jobs = []
        for seat, s in enumerate(session.seats):
            if s.user_id is None or s.left:
                continue
            view = views[seat]
            note = timeout_note(session, events, seat) if seat == timed_out else None
            jobs.append(self.hands.refresh(session, s.user_id, view, note=note))
        for outcome in await asyncio.gather(*jobs, return_exceptions=True):
            if isinstance(outcome, Exception):
                log.warning("refreshing a hand in channel %s failed: %r", session.channel_id, outcome)

    # ------------------------------------------------------------------------------------------------------------
    # Repainting

    async def repaint(self, session: SessionView, *, resumed: bool = False) -> None:
        """Bring the session's public message up to its committed state (paced by :data:`REPAINT_RATE`): the lobby
        (found in the channel or posted anew when its id was never saved), the table, and the round or match summary
        that a stop may have kept from being posted; the turn ping for the decision pending now."""
        async with self._pacer:
            pass
        lang = str(session.ui.get("lang", "en"))
        if resumed and session.ui.get("ping") is not None:
            self.pings.adopt(session.channel_id, int(session.ui["ping"]))
        if session.status == Status.LOBBY:
            if session.ui.get("message") is None:
                found = await self.find_lobby(session)
                if found is not None:
                    await self._note(session, commit=True, message=found)
            await self.edit_public(session, screens.lobby_screen(session, lang))
            return
        public = session.public
        if public is None:
            return
        await self.show_table(session, lang)
        summary = session.ui.get("summary")
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
                for row in message.components:
                    for item in getattr(row, "children", ()):
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
        if session is None:
            return
        try:
            await self.repaint(session)
        except Exception as exc:
            if channel_deleted(exc):
                await self.channel_gone(channel_id)
                return
            log.exception("repainting channel %s failed", channel_id)
            self._retries.pop(channel_id, None)
            self.repaint_later(channel_id)

    def close(self) -> None:
        """Cancel the repaints waiting to be retried."""
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()

    async def _note(self, session: SessionView, *, commit: bool, **values: object) -> None:
        """Keep Discord-layer data with the session (nothing when it is gone)."""
        latest = self.bot.manager.snapshot(session.channel_id)
        if latest is None or not latest.same_session(session):
            return
        with contextlib.suppress(AdapterError):
            await self.bot.manager.update_ui(session.channel_id, commit=commit, **values)

    async def refresh_house_hands(self, session: SessionView, update: Update) -> None:
        """House rules (SPEC H): tell the players who received a hand by a 7 or a 0 whose hand they now hold (the
        player who acted sees it in the answer to their click), and bring the open hands of the players who can jump
        in, or could until this change, up to date, so that a **Jump in!** control is there at once and only while it
        can be used. Reads the views committed with ``update`` only."""
        options = session.options
        public, views = session.public, session.seat_views
        if public is None or views is None or not (options.seven_zero or options.jump_in):
            return
        own = update.actor if update.kind is UpdateKind.ACTION else None
        received = {e.to for e in update.events if isinstance(e, HandReceived) and e.to != own}
        for seat in sorted(received):
            user = session.seats[seat].user_id
            if user is not None:

                def note(lang: str, seat: int = seat) -> str | None:
                    return house.received_note(
                        update.events, seat, lambda s: screens.player_name(session, s, lang), lang
                    )

                await self.hands.refresh(session, user, views[seat], note=note)
        if not options.jump_in:
            return
        humans = [views[i] if s.user_id is not None and not s.left else None for i, s in enumerate(session.seats)]
        for seat in self.jumps.changed(session.channel_id, humans):
            user = session.seats[seat].user_id
            if user is not None and seat != public.pending and seat not in received and seat != own:
                await self.hands.refresh(session, user, views[seat], force=True)


__all__ = ["LOG_SHOWN", "REPAINT_RATE", "TABLE_REPOST_AFTER", "Pacer", "Publisher"]
