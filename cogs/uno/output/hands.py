"""The ephemeral hands: answering with a hand, updating it in place, and remembering each player's open hand so the
publisher can bring it up to date while its interaction token lives (DESIGN "Discord layer": 15 minutes).

Latest state wins (issue 20, point 1): a hand has at most one edit in flight; a refresh asked meanwhile waits, and a
newer one replaces it before it is sent. A hand never goes back to an older committed state than the one it shows
(:func:`stamp`).

Issue 20, point 5: a hand is edited only through a token younger than :data:`HAND_REFRESH_WINDOW` (Discord's 15
minutes less :data:`~bot.limits.HAND_TOKEN_MARGIN`), measured from the interaction's creation; an older one, or one
Discord refused (401, 50027 Invalid Webhook Token, or the message gone), is dropped and never used again, and its
player is marked as having to reopen their hand (:meth:`HandRegistry.needs_reopen`): when their decision comes, the turn
ping and the table's line (also where a server turned pings off) tell them to press **Show my hand**.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.engine.view import Phase, PlayerView
from bot.limits import HAND_TOKEN_MARGIN, INTERACTION_TOKEN_SECONDS

from .. import screens
from ..screens import Screen, ids
from ..screens.layout import notice_kwargs
from .images import Images

if TYPE_CHECKING:
    from bot.adapter import SessionView
    from bot.client import UnoBot

#: How long an open hand may be edited through its interaction (s), from the interaction's creation: tokens last 15
#: minutes, less a margin for an edit waiting in a rate-limit bucket.
HAND_REFRESH_WINDOW = INTERACTION_TOKEN_SECONDS - HAND_TOKEN_MARGIN
#: 50027 Invalid Webhook Token: Discord's answer to a followup or edit through an expired interaction token.
INVALID_WEBHOOK_TOKEN = 50027

log = logging.getLogger(__name__)

#: A committed state's place in a channel's history: ``(created_at, version)`` of its session (a later session of the
#: channel was created later; within a session the version grows with each commit).
Stamp = tuple[float, int]


def stamp(session: SessionView) -> Stamp:
    """Where ``session`` stands in its channel's history (:data:`Stamp`)."""
    return (session.created_at, session.version)


def seen_key(view: PlayerView) -> tuple[object, ...]:
    """What a player not to move sees change in their hand (issue 10, point 3): their cards (a draw, a penalty, a
    catch, a swap), the side in play (a Flip), the round, the round or match being over, the challenged hand they
    were shown, their Power Card, who is still in. Another player's plain move leaves it as it is."""
    me = view.me
    return (
        tuple(c.id for c in view.hand),
        view.side,
        view.round,
        view.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER),
        view.phase is Phase.MATCH_OVER,
        view.revealed,
        view.power[me] if view.power is not None and me is not None else None,
        view.active,
    )


@dataclass(slots=True)
class OpenHand:
    """A hand message a player has open: the interaction that can edit it, the fingerprint of the view it shows
    (:func:`cogs.uno.screens.ids.hand_fingerprint`), when it was opened (``time.monotonic()`` s), its language, what its
    player saw in it (:func:`seen_key`), whether it was their decision, and the committed state it shows
    (``session``, ``view``; ``stamp`` orders it, :func:`stamp`); the ``note`` shown above it, if any (such as the
    database outage's line)."""

    interaction: discord.Interaction[UnoBot]
    fingerprint: str
    opened: float
    lang: str
    seen: tuple[object, ...] = ()
    mine: bool = False
    stamp: Stamp = (0.0, 0)
    session: SessionView | None = None
    view: PlayerView | None = None
    note: str | None = None


def token_age(interaction: discord.Interaction[UnoBot]) -> float:
    """Seconds since ``interaction`` was created (its snowflake's time), 0 when the clocks disagree."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


class HandRegistry:
    """The open hand of each (channel, user), dropped once its token is too old to edit it (``window`` s after the
    interaction was created, on the clock ``now``) or Discord refused an edit through it; the players whose hand was
    dropped so, until they open one again (:meth:`needs_reopen`)."""

    def __init__(self, *, window: float = HAND_REFRESH_WINDOW, now: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.now = now
        self._open: dict[tuple[int, int], OpenHand] = {}
        self._stale: set[tuple[int, int]] = set()

    def remember(
        self,
        channel_id: int,
        user_id: int,
        interaction: discord.Interaction[UnoBot],
        fp: str,
        lang: str,
        view: PlayerView | None = None,
        session: SessionView | None = None,
        note: str | None = None,
    ) -> None:
        seen = seen_key(view) if view is not None else ()
        mine = view is not None and view.me is not None and view.pending == view.me
        opened = self.now() - min(token_age(interaction), self.window)
        at = stamp(session) if session is not None else (0.0, 0)
        hand = OpenHand(interaction, fp, opened, lang, seen, mine, at, session, view, note)
        self._open[(channel_id, user_id)] = hand
        self._stale.discard((channel_id, user_id))

    def noted(self) -> list[tuple[int, int, OpenHand]]:
        """``(channel, user, hand)`` of every open hand that shows a note (tokens not checked)."""
        return [(channel, user, hand) for (channel, user), hand in self._open.items() if hand.note is not None]

    def get(self, channel_id: int, user_id: int) -> OpenHand | None:
        """The user's open hand in the channel, if its interaction can still edit it (an older one is dropped)."""
        hand = self._open.get((channel_id, user_id))
        if hand is not None and self.now() - hand.opened > self.window:
            self.drop(channel_id, user_id)
            return None
        return hand

    def take(self, channel_id: int, user_id: int) -> OpenHand | None:
        """The entry of the user's hand in the channel as it is (its token not checked), to :meth:`put` back."""
        return self._open.get((channel_id, user_id))

    def put(self, channel_id: int, user_id: int, hand: OpenHand | None, stale: bool) -> None:
        """Put back an entry taken with :meth:`take` (None: no open hand), and whether the user had to reopen it."""
        key = (channel_id, user_id)
        if hand is None:
            self._open.pop(key, None)
        else:
            self._open[key] = hand
        if stale:
            self._stale.add(key)
        else:
            self._stale.discard(key)

    def drop(self, channel_id: int, user_id: int) -> None:
        """The user's hand can no longer be edited (its token is too old, or Discord refused it): never use it
        again; the user must open their hand anew to follow the game."""
        if self._open.pop((channel_id, user_id), None) is not None:
            self._stale.add((channel_id, user_id))

    def needs_reopen(self, channel_id: int, user_id: int) -> bool:
        """Whether the user had a hand open in the channel that can no longer be brought up to date (and has not
        opened one since)."""
        self.get(channel_id, user_id)
        return (channel_id, user_id) in self._stale

    def forget(self, channel_id: int, user_id: int) -> None:
        """Forget the user's hand in the channel (the game is over or closed): nothing to reopen."""
        self._open.pop((channel_id, user_id), None)
        self._stale.discard((channel_id, user_id))

    def users(self, channel_id: int) -> list[int]:
        """The users with an open hand in the channel (tokens not checked)."""
        return [user for channel, user in self._open if channel == channel_id]

    def __len__(self) -> int:
        return len(self._open)


@dataclass(slots=True)
class Refresh:
    """A refresh of one open hand waiting to be sent: the committed ``session`` and the player's ``view`` of it, the
    ``note`` to show (a function of the hand's language), ``force``; ``done`` is resolved once it, or a newer refresh
    that replaced it, has been sent or dropped."""

    session: SessionView
    view: PlayerView
    note: Callable[[str], str | None] | None
    force: bool
    done: asyncio.Future[None]


class Hands:
    """Sends and edits ephemeral hands (deferring first when an image is drawn) and records them in :attr:`open`."""

    def __init__(self, images: Images, *, round_pause: float | None = None) -> None:
        self.images = images
        self.round_pause = round_pause  # named in a hand shown between rounds
        self.open = HandRegistry()
        #: One edit of a player's hand at a time: a refresh never lands over the answer to their click.
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        #: The refresh of each hand waiting while another edit of it is in flight (the newest replaces it).
        self._queued: dict[tuple[int, int], Refresh] = {}
        #: The hands whose refreshes are being sent now.
        self._sending: set[tuple[int, int]] = set()
        #: Hand edits sent by :meth:`refresh`, and refreshes replaced by a newer one before they were sent.
        self.edits = 0
        self.coalesced = 0
        #: Called with (channel, user) when a player whose hand could no longer be updated opens one again.
        self.reopened: Callable[[int, int], None] | None = None

    def _lock(self, channel_id: int, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((channel_id, user_id), asyncio.Lock())

    def _newest(self, session: SessionView, view: PlayerView, user_id: int) -> tuple[SessionView, PlayerView]:
        """``session`` and ``view``, or the newer state of the same game the user's open hand already shows (an
        answer drawn from an older commit never takes the hand back: issue 20, point 1)."""
        hand = self.open.get(session.channel_id, user_id)
        if (
            hand is not None
            and hand.session is not None
            and hand.view is not None
            and hand.session.same_session(session)
            and hand.stamp > stamp(session)
            and hand.view.me == view.me
        ):
            return hand.session, hand.view
        return session, view

    async def send(
        self,
        interaction: discord.Interaction[UnoBot],
        session: SessionView,
        view: PlayerView,
        lang: str,
        *,
        note: str | None = None,
    ) -> None:
        """Answer with a new ephemeral hand. With card images the answer is deferred first (the image takes a few
        milliseconds to draw) and the hand follows.

        The hand is open (in :attr:`open`) from the start, before it is sent: a change committed while it is drawn
        and sent (its state is older) refreshes it right after (:meth:`refresh` waits for this hand's lock), instead
        of finding no hand to refresh and leaving the new one behind (issue 20.1). Should sending fail, the hand the
        player had open before is open again."""
        async with self._lock(session.channel_id, interaction.user.id), self._opening(interaction, session.channel_id):
            session, view = self._newest(session, view, interaction.user.id)
            self._remember(interaction, session, view, lang, note)
            images = await self.images.shown(session.guild_id)
            if images and not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            if not interaction.response.is_done():
                with screens.hand_screen(session, view, lang, note=note, round_pause=self.round_pause) as screen:
                    await interaction.response.send_message(ephemeral=True, **screen.send_kwargs())
            else:
                png, seen = await self.images.hand(session, view, lang)
                with screens.hand_screen(
                    session, view, lang, note=note, png=png, table_png=seen, round_pause=self.round_pause
                ) as screen:
                    await interaction.followup.send(ephemeral=True, **screen.send_kwargs())
            self._remember(interaction, session, view, lang, note)

    async def show(
        self,
        interaction: discord.Interaction[UnoBot],
        session: SessionView,
        view: PlayerView,
        lang: str,
        *,
        page: int = 0,
        note: str | None = None,
    ) -> None:
        """Update the ephemeral hand the component is on (deferring first when an image is drawn); open from the
        start, as :meth:`send`'s."""
        async with self._lock(session.channel_id, interaction.user.id), self._opening(interaction, session.channel_id):
            session, view = self._newest(session, view, interaction.user.id)
            self._remember(interaction, session, view, lang, note)
            images = await self.images.shown(session.guild_id)
            if images and not interaction.response.is_done():
                await interaction.response.defer()
            if not interaction.response.is_done():
                with screens.hand_screen(
                    session, view, lang, page=page, note=note, round_pause=self.round_pause
                ) as screen:
                    await interaction.response.edit_message(**screen.edit_kwargs())
            else:
                png, seen = await self.images.hand(session, view, lang)
                with screens.hand_screen(
                    session, view, lang, page=page, note=note, png=png, table_png=seen, round_pause=self.round_pause
                ) as screen:
                    await interaction.edit_original_response(**screen.edit_kwargs())
            self._remember(interaction, session, view, lang, note)

    async def edit(self, interaction: discord.Interaction[UnoBot], screen: Screen) -> None:
        """Turn the hand the component is on into ``screen`` (a picker, or "the match is over")."""
        with screen:
            if interaction.response.is_done():
                await interaction.edit_original_response(**screen.edit_kwargs())
            else:
                await interaction.response.edit_message(**screen.edit_kwargs())

    async def refresh(
        self,
        session: SessionView,
        user_id: int,
        view: PlayerView,
        *,
        note: Callable[[str], str | None] | None = None,
        force: bool = False,
    ) -> None:
        """Bring ``user_id``'s open hand (if any, within its token's life) up to ``view`` when what they see
        changed: always once it is, or stops being, their decision; otherwise when :func:`seen_key` changed, when
        ``force`` (its controls changed, e.g. a jump-in became possible) or when ``note(lang)`` gives a text to show
        on it (what the turn timer did, whose hand they received). A hand that cannot be edited any more (its token
        too old, or the edit refused) is dropped: no request is spent on it, and its player must reopen it.

        Latest state wins (issue 20, point 1): while an edit of this hand is in flight the refresh waits, and a newer
        refresh replaces it (keeping its note when the newer has none, and its ``force``); a state older than the one
        the hand shows is never sent. Returns once this state or a newer one has been sent or dropped."""
        key = (session.channel_id, user_id)
        if self.open.get(*key) is None:
            return
        queued = self._queued.get(key)
        if queued is not None:
            if stamp(session) < stamp(queued.session):
                await asyncio.shield(queued.done)
                return
            self.coalesced += 1
            request = Refresh(session, view, note or queued.note, force or queued.force, queued.done)
        else:
            request = Refresh(session, view, note, force, asyncio.get_running_loop().create_future())
        self._queued[key] = request
        if key in self._sending:
            await asyncio.shield(request.done)
            return
        self._sending.add(key)
        try:
            while (job := self._queued.pop(key, None)) is not None:
                try:
                    await self._refresh_now(job, user_id)
                except Exception as exc:
                    log.warning("refreshing a hand in channel %s failed: %r", session.channel_id, exc)
                finally:
                    if not job.done.done():
                        job.done.set_result(None)
        finally:
            self._sending.discard(key)
            left = self._queued.pop(key, None)  # cancelled mid-way: nobody waits for ever
            if left is not None and not left.done.done():
                left.done.set_result(None)

    async def _refresh_now(self, request: Refresh, user_id: int) -> None:
        """Send one refresh (:meth:`refresh`), under the hand's lock."""
        session, view, note = request.session, request.view, request.note
        async with self._lock(session.channel_id, user_id):
            hand = self.open.get(session.channel_id, user_id)
            if hand is None or stamp(session) < hand.stamp:
                return  # gone, or it shows a newer state already
            fp = ids.hand_fingerprint(view)
            seen = seen_key(view)
            mine = view.me is not None and view.pending == view.me
            text = note(hand.lang) if note is not None else None
            if text is None and not request.force:
                if fp == hand.fingerprint:
                    hand.stamp, hand.session, hand.view = stamp(session), session, view
                    return
                if not mine and not hand.mine and seen == hand.seen:
                    return  # another player's move: nothing this player sees in their hand changed
            png, table_png = await self.images.hand(session, view, hand.lang)
            try:
                with screens.hand_screen(
                    session, view, hand.lang, note=text, png=png, table_png=table_png, round_pause=self.round_pause
                ) as screen:
                    self.edits += 1
                    hand.fingerprint, hand.seen, hand.mine, hand.note = fp, seen, mine, text
                    hand.stamp, hand.session, hand.view = stamp(session), session, view
                    await hand.interaction.edit_original_response(**screen.edit_kwargs())
            except discord.HTTPException as exc:
                if exc.code == INVALID_WEBHOOK_TOKEN:
                    log.info("the hand of %s in channel %s expired before its time", user_id, session.channel_id)
                self.open.drop(session.channel_id, user_id)

    async def close(self, channel_id: int, text: Callable[[str], str]) -> None:
        """Turn every open hand of the channel into ``text(lang)`` without controls (the game was ended or closed),
        and forget them. A refresh still waiting is dropped; one in flight lands first."""
        for user in self.open.users(channel_id):
            hand = self.open.get(channel_id, user)
            self.open.forget(channel_id, user)
            if hand is None:
                continue
            async with self._lock(channel_id, user):
                with contextlib.suppress(discord.HTTPException):
                    await hand.interaction.edit_original_response(**notice_kwargs(text(hand.lang)))

    async def retire(self, channel_id: int, user_id: int, text: Callable[[str], str]) -> None:
        """Turn ``user_id``'s open hand (if any) into ``text(lang)`` without controls and forget it: its player is out
        of the match (left, removed by the host or by the turn timer: issue 18 point 5). A refresh still waiting is
        dropped; one in flight lands first."""
        hand = self.open.get(channel_id, user_id)
        if hand is None:
            return
        self.open.forget(channel_id, user_id)
        waiting = self._queued.pop((channel_id, user_id), None)
        if waiting is not None and not waiting.done.done():
            waiting.done.set_result(None)
        async with self._lock(channel_id, user_id):
            with contextlib.suppress(discord.HTTPException):
                await hand.interaction.edit_original_response(**notice_kwargs(text(hand.lang)))

    @contextlib.asynccontextmanager
    async def _opening(self, interaction: discord.Interaction[UnoBot], channel_id: int) -> AsyncIterator[None]:
        """Put the user's previous open hand back should the body (sending a new one) fail."""
        user = interaction.user.id
        previous, stale = self.open.take(channel_id, user), self.open.needs_reopen(channel_id, user)
        try:
            yield
        except BaseException:
            self.open.put(channel_id, user, previous, stale)
            raise

    def _remember(
        self,
        interaction: discord.Interaction[UnoBot],
        session: SessionView,
        view: PlayerView,
        lang: str,
        note: str | None = None,
    ) -> None:
        if self.reopened is not None and self.open.needs_reopen(session.channel_id, interaction.user.id):
            self.reopened(session.channel_id, interaction.user.id)
        self.open.remember(
            session.channel_id, interaction.user.id, interaction, ids.hand_fingerprint(view), lang, view, session, note
        )


__all__ = [
    "HAND_REFRESH_WINDOW",
    "INVALID_WEBHOOK_TOKEN",
    "HandRegistry",
    "Hands",
    "OpenHand",
    "Refresh",
    "Stamp",
    "seen_key",
    "stamp",
    "token_age",
]
