"""The handlers of every button and select: a table from each verb of a custom_id (:mod:`cogs.uno.screens.ids`) to what
it does, so a verb is parsed once and handled in one place (DESIGN "Discord layer").

Every click is answered once: refused ones with a short ephemeral line (nothing changes), moves after their commit.
A move whose result the message shows anyway is acknowledged first, then saved.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord

from bot.adapter import AdapterError, SessionManager, SessionView, Status, Update
from bot.adapter.refusals import MatchForgotten, NoGame, NotMatchPlayer, Stale
from bot.adapter.session_view import SeatView as SessionSeat
from bot.ai import Level
from bot.engine.actions import Accept, Action, CallUno, Catch, Challenge, DeclareColour, Draw, Keep, NextRound, Play
from bot.engine.cards import Colour
from bot.engine.errors import RuleError
from bot.engine.view import PlayerView
from bot.i18n import t

from .. import screens
from ..output.hands import Hands
from ..output.images import Images
from ..output.replies import answered, bad_request, error_text, not_seated, send_ephemeral
from ..output.threads import follow, no_game_text
from ..screens import Screen, house, ids
from . import inputs
from .panel import RulesPanel

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]
#: What a hand or decision click asks of the adapter: the action, built from the clicker's current view.
Build = Callable[[PlayerView], Action]


def me(view: PlayerView) -> int:
    """The clicker's seat in ``view`` (the adapter builds actions from a seated player's view only)."""
    assert view.me is not None
    return view.me


def index(text: str, size: int) -> int:
    """``text`` (ASCII digits) as an index below ``size``; :class:`~cogs.uno.input.inputs.BadInput` otherwise."""
    return inputs.index(text, size)


def play(view: PlayerView, option_index: int, colour: Colour | None, target: int | None) -> Play:
    """The play ``play_options(view)[option_index]`` with its declared colour and target (SPEC G4, X5)."""
    option = ids.play_options(view)[option_index]
    return Play(me(view), option.card, colour, target, option.flex, option.uno)


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:100]


def is_admin(interaction: Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def may_rematch(finished: SessionView, interaction: Interaction) -> bool:
    """Whether the clicker may press **Play again** under ``finished``: a player of that match (seated at its end or
    removed during it) or a server manager. A rematch seats that match's players again, so nobody else may start one
    for them (issue 20, point 8); it seats the clicker only if they played it and were not kicked
    (:meth:`SessionManager.rematch`)."""
    return is_admin(interaction) or any(s.user_id == interaction.user.id for s in finished.seats)


# --------------------------------------------------------------------------------------------------------------------
# Lobby verbs: the adapter call each one makes


LobbyOp = Callable[[SessionManager, int, Interaction], Awaitable[object]]

LOBBY_ACTIONS: dict[str, LobbyOp] = {
    "join": lambda m, ch, i: m.join(ch, i.user.id, display_name(i.user)),
    "leave": lambda m, ch, i: m.leave(ch, i.user.id),
    "ai": lambda m, ch, i: m.add_ai(ch, i.user.id, is_admin=is_admin(i), level=Level.NORMAL),
    "ai_easy": lambda m, ch, i: m.add_ai(ch, i.user.id, is_admin=is_admin(i), level=Level.EASY),
    "ai_hard": lambda m, ch, i: m.add_ai(ch, i.user.id, is_admin=is_admin(i), level=Level.HARD),
    "start": lambda m, ch, i: m.start_game(ch, i.user.id, is_admin=is_admin(i)),
    "cancel": lambda m, ch, i: m.end(ch, i.user.id, is_admin=is_admin(i)),
}
#: The lobby verb of **Change partners** (SPEC T1): its button carries the lobby's fingerprint
#: (:func:`~cogs.uno.screens.ids.lobby_fingerprint`), checked by :meth:`Clicks.change_partners`.
PARTNERS = "partners"


# --------------------------------------------------------------------------------------------------------------------
# Decision verbs (the table's challenge / accept / colour buttons): the action each one builds


def _decision_colour(arg: str) -> Build:
    colour = Colour(arg)  # ValueError: a forged colour
    return lambda v: DeclareColour(me(v), colour)


DECISION_ACTIONS: dict[str, Callable[[str], Build]] = {
    "challenge": lambda arg: lambda v: Challenge(me(v)),
    "accept": lambda arg: lambda v: Accept(me(v)),
    "colour": _decision_colour,
}


# --------------------------------------------------------------------------------------------------------------------
# Hand verbs: each gives either a screen to show at once (a picker) or the action to send to the adapter


@dataclass(frozen=True, slots=True)
class HandClick:
    """One click on a hand: its ``arg`` (from the custom_id), the select's ``values``, and what the player sees."""

    session: SessionView
    view: PlayerView
    lang: str
    arg: str
    values: tuple[str, ...]

    @property
    def options(self) -> list[ids.PlayOption]:
        return ids.play_options(self.view)

    def chosen(self, size: int) -> int:
        """The one value chosen in the select, as an index below ``size``; a select sends exactly one (none, two, or
        anything but ASCII digits is forged: :class:`~cogs.uno.input.inputs.BadInput`)."""
        return inputs.one_index(self.values, size)


HandStep = Screen | Build


def _hand_play(c: HandClick) -> HandStep:
    i = c.chosen(len(c.options))
    option = c.options[i]
    if option.targeted:
        return screens.target_picker(c.session, c.view, c.lang, i)
    if option.wild:
        return screens.colour_picker(c.session, c.view, c.lang, i, None)
    return lambda v: play(v, i, None, None)


def _hand_target(c: HandClick) -> HandStep:
    i = index(c.arg, len(c.options))
    chosen = c.chosen(c.view.players)
    if not c.options[i].wild:  # a 7 under house rule seven_zero (SPEC H): the target is all it needs
        return lambda v: play(v, i, None, chosen)
    return screens.colour_picker(c.session, c.view, c.lang, i, chosen)


def _hand_colour(c: HandClick) -> HandStep:
    parts = c.arg.split(".")
    i = index(parts[0], len(c.options))
    colour = Colour(parts[1]) if len(parts) > 1 else None
    target = index(parts[2], c.view.players) if len(parts) > 2 else None
    return lambda v: play(v, i, colour, target)


def _hand_many(c: HandClick) -> HandStep:
    """House rule ``multi_play`` (SPEC H8): the chosen entry of the "Play several" list, rebuilt from the view the
    adapter checks (the hand's fingerprint makes it the list the player saw)."""
    i = c.chosen(len(ids.many_options(c.view)))
    return lambda v: ids.many_options(v)[i]


def _hand_declare(c: HandClick) -> HandStep:
    colour = Colour(c.arg)
    return lambda v: DeclareColour(me(v), colour)


def _own(action: Callable[[int], Action]) -> Callable[[HandClick], HandStep]:
    return lambda c: lambda v: action(me(v))


HAND_ACTIONS: dict[str, Callable[[HandClick], HandStep]] = {
    "play": _hand_play,
    "target": _hand_target,
    "many": _hand_many,
    "colour": _hand_colour,
    "declare": _hand_declare,
    "draw": _own(Draw),
    "keep": _own(Keep),
    "uno": _own(CallUno),
    "challenge": _own(Challenge),
    "accept": _own(Accept),
}
#: Hand verbs that make a move on the player's own turn.
TURN_VERBS = ("play", "target", "many", "colour", "draw", "keep")


def stale_note(view: PlayerView, verb: str, lang: str) -> str:
    """What a hand says when a click came from an out-of-date hand: "too late" when a move on the player's own turn
    lost the turn to someone who jumped in first (SPEC H ``jump_in``), else "the game moved on"."""
    if verb in TURN_VERBS and "jump_in" in view.house_rules and view.pending != view.me:
        return t("hand.too_late", lang)
    return t("hand.stale", lang)


#: The hand verb of a jump-in (SPEC H ``jump_in``), handled by :meth:`Clicks.jump_in` (a card's place in the hand,
#: checked against the jump fingerprint under the session's lock).
HAND_JUMP = "jump"
#: Hand verbs that only show the hand again (``arg``: the page of the "Play a card" list).
HAND_VIEWS = ("refresh", "back", "page")


class Clicks:
    """The click handlers the persistent components (:mod:`cogs.uno.screens.components`) call."""

    def __init__(self, bot: UnoBot, images: Images, hands: Hands) -> None:
        self.bot = bot
        self.images = images
        self.hands = hands
        self.panel = RulesPanel(bot)
        self.table_actions: dict[str, Callable[[Interaction, int, str], Awaitable[None]]] = {
            "hand": lambda i, ch, lang: self.open_hand(i, ch),
            "again": self.play_again,
            "uno": self._table_uno,
            "catch": self._table_catch,
            "next": self._table_next,
        }

    @property
    def manager(self) -> SessionManager:
        return self.bot.manager

    async def lang(self, interaction: Interaction) -> str:
        return await self.bot.language(interaction)

    async def error(self, interaction: Interaction, error: Exception, lang: str) -> None:
        await send_ephemeral(interaction, await self.error_text(interaction, error, lang))

    async def error_text(self, interaction: Interaction, error: Exception, lang: str) -> str:
        """The text of an adapter or engine error (``error.<code>``); "no game in this channel" says that the
        server's games are played in threads of their own when they are
        (:func:`~cogs.uno.output.threads.no_game_text`)."""
        return await no_game_text(self.bot, interaction, error, lang)

    def snapshot(self, channel: int) -> SessionView:
        """The channel's session as last committed. When this process runs none there, the manager says why
        (:meth:`SessionManager.get`): :class:`~bot.adapter.refusals.NotOwned` while the game waits for another process's
        lease (it is moving after a restart; issue 16 point 2), :class:`~bot.adapter.refusals.StorageDown` while it
        waits for the database, :class:`~bot.adapter.refusals.NoGame` when there is none."""
        session = self.manager.snapshot(channel)
        if session is None:
            self.manager.get(channel)  # raises the reason
            raise NoGame("no game in this channel")
        return session

    def seated(self, channel: int, user: int) -> tuple[SessionView, PlayerView]:
        """The committed session of a match being played and ``user``'s own view of it; adapter errors (no game, not
        started, over, not seated) otherwise."""
        session = self.snapshot(channel)
        view = session.require_view(user)
        if view.me is None:
            raise not_seated()
        return session, view

    def _out_seat(self, channel: int, user: int) -> SessionSeat | None:
        """``user``'s seat in the match being played in ``channel`` when they are out of it (left or removed)."""
        session = self.manager.snapshot(channel)
        if session is None or session.status is not Status.PLAYING:
            return None
        seats = [s for s in session.seats if s.user_id == user]
        return seats[-1] if seats and all(s.left for s in seats) else None

    @staticmethod
    async def ack(interaction: Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()

    # ------------------------------------------------------------------------------------------------------------
    # Lobby

    async def lobby_op(self, interaction: Interaction, verb: str, channel: int) -> None:
        """Do lobby ``verb`` (also the ``/uno join|leave|start|end`` commands); adapter and rule errors propagate."""
        op = LOBBY_ACTIONS.get(verb)
        if op is None:
            raise bad_request()
        await op(self.manager, channel, interaction)

    @answered
    async def on_lobby(self, interaction: Interaction, verb: str, channel: int, fp: str | None = None) -> None:
        lang = await self.lang(interaction)
        if channel != interaction.channel_id:
            await self.error(interaction, AdapterError(), lang)
            return
        if verb == "rules":  # the host's rule panel (issue 18 point 3): an ephemeral message of its own
            await self.panel.open(interaction, channel, lang)
            return
        if verb == PARTNERS:
            await self.change_partners(interaction, channel, fp, lang)
            return
        await self.ack(interaction)  # the lobby message itself shows the change: acknowledge before saving it
        try:
            await self.lobby_op(interaction, verb, channel)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        if verb == "join":
            await follow(interaction.channel, interaction.user)  # a game in a thread: the thread is theirs to follow

    async def change_partners(self, interaction: Interaction, channel: int, fp: str | None, lang: str) -> None:
        """**Change partners** (SPEC T1), clicked on a lobby message that showed the lobby of fingerprint ``fp``. A
        click on an older message, the second click of a double click, or a button posted by the release before the
        fingerprint (``fp`` None) is refused with one line and changes nothing: the partners move once per lobby the
        host saw. The adapter checks the version again under the session's lock (two clicks at once). Once the game
        has started (a lobby message still showing the button), the adapter's refusal says so."""
        try:
            session = self.snapshot(channel)
            lobby = session.status is Status.LOBBY  # else the adapter refuses (started, or over): self.error below
            if lobby and (fp is None or fp != ids.lobby_fingerprint(session)):
                await send_ephemeral(interaction, t("lobby.partners_stale", lang))
                return
            if lobby:
                await self.ack(interaction)  # the lobby message itself shows the change
            await self.manager.change_partners(
                channel, interaction.user.id, is_admin=is_admin(interaction), version=session.version
            )
        except Stale:
            await send_ephemeral(interaction, t("lobby.partners_stale", lang))
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)

    async def post_lobby(self, interaction: Interaction, channel: int) -> None:
        """Answer with the lobby just opened in ``channel`` and remember its message: every later update edits this
        one message."""
        session = self.snapshot(channel)
        level = (await self.bot.guild_settings(session.guild_id)).ai_level
        screen = screens.lobby_screen(session, session.ui.lang, level)
        if interaction.response.is_done():  # deferred (a thread that could not be opened): the lobby fills the answer
            message_id: int | None = (await interaction.edit_original_response(**screen.edit_kwargs())).id
        else:
            callback = await interaction.response.send_message(**screen.send_kwargs())
            message_id = callback.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        shown = message_id
        await self.manager.update_ui(session.channel_id, lambda ui: replace(ui, message=shown))

    # ------------------------------------------------------------------------------------------------------------
    # Table buttons

    @answered
    async def on_table(self, interaction: Interaction, verb: str, channel: int) -> None:
        lang = await self.lang(interaction)
        if channel != interaction.channel_id:
            await self.error(interaction, AdapterError(), lang)
            return
        handler = self.table_actions.get(verb)
        if handler is None:
            await self.error(interaction, bad_request(), lang)
            return
        try:
            await handler(interaction, channel, lang)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.ack(interaction)

    async def _table_uno(self, interaction: Interaction, channel: int, lang: str) -> None:
        await self.ack(interaction)
        await self.manager.act(channel, interaction.user.id, lambda v: CallUno(me(v)))

    async def _table_catch(self, interaction: Interaction, channel: int, lang: str) -> None:
        view = self.manager.view(channel, interaction.user.id)
        if view.catchable is None or view.catchable == view.me:
            # the only one who could be caught is the clicker (SPEC G8): their own UNO! still saves them
            key = "error.nothing_to_catch" if view.catchable is None else "error.catch_yourself_call_uno"
            await interaction.response.send_message(t(key, lang), ephemeral=True)
            return
        target = view.catchable
        await self.ack(interaction)
        await self.manager.act(
            channel, interaction.user.id, lambda v: Catch(me(v), target), expect=lambda v: v.catchable == target
        )

    async def _table_next(self, interaction: Interaction, channel: int, lang: str) -> None:
        await self.ack(interaction)
        await self.manager.act(channel, interaction.user.id, lambda v: NextRound(me(v)))

    async def play_again(self, interaction: Interaction, channel: int, lang: str) -> None:
        """A rematch of the match that ended here (same game, options, seats and host:
        :meth:`SessionManager.rematch`). When the channel no longer keeps that match (forgotten after
        :attr:`~bot.adapter.manager.Limits.finished_kept`), nothing opens: a table from the server's defaults with only
        the clicker would not be that match again (issue 18 point 5); the answer says to use ``/uno new``."""
        old = self.manager.snapshot(channel)
        if old is not None and old.status is not Status.FINISHED:
            await interaction.response.send_message(screens.busy_text(old, lang), ephemeral=True)
            return
        if old is None:
            await self.error(interaction, MatchForgotten("that match is no longer kept"), lang)
            return
        if not may_rematch(old, interaction):
            await self.error(interaction, NotMatchPlayer("not a player of this match"), lang)
            return
        try:
            await self.manager.rematch(channel, interaction.user.id, display_name(interaction.user))
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.post_lobby(interaction, channel)

    @answered
    async def on_decision(self, interaction: Interaction, verb: str, channel: int, fp: str, arg: str) -> None:
        lang = await self.lang(interaction)
        make = DECISION_ACTIONS.get(verb)
        if channel != interaction.channel_id or make is None:
            await self.error(interaction, AdapterError(), lang)
            return
        user = interaction.user.id
        try:
            build = make(arg)
        except ValueError:
            await self.error(interaction, AdapterError(), lang)
            return
        if verb != "challenge":
            await self.ack(interaction)  # the table shows the outcome: acknowledge before saving the move
        elif await self.images.shown(interaction.guild_id):
            await interaction.response.defer(ephemeral=True, thinking=True)  # the challenged hand follows, drawn
        try:
            update = await self.manager.act(channel, user, build, expect=lambda v: ids.decision_fingerprint(v) == fp)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        if verb == "challenge":
            view = update.view.view_for(user)  # the challenger sees the challenged hand (SPEC G7)
            if view is not None and view.me is not None:
                await self.hands.send(interaction, update.view, view, lang)
            else:
                await send_ephemeral(interaction, t("hand.game_over", lang))
            return
        await self.ack(interaction)

    # ------------------------------------------------------------------------------------------------------------
    # The ephemeral hand

    async def open_hand(self, interaction: Interaction, channel: int) -> None:
        """Answer with the clicker's hand as last committed (**Show my hand**, ``/uno hand``). While the database is
        unavailable the hand is still shown, from memory, with the outage line above it: a move would not be saved
        (issue 20, point 7)."""
        lang = await self.lang(interaction)
        try:
            session, view = self.seated(channel, interaction.user.id)
        except (AdapterError, RuleError) as exc:
            out = self._out_seat(channel, interaction.user.id)
            if out is not None:  # removed or left during this match: say which (issue 18 point 5)
                await send_ephemeral(interaction, screens.out_text(out)(lang))
                return
            await self.error(interaction, exc, lang)
            return
        note = None if await self.bot.database_up(interaction.user.id) else t("error.storage_unavailable", lang)
        await self.hands.send(interaction, session, view, lang, note=note)

    @answered
    async def on_hand(
        self, interaction: Interaction, verb: str, channel: int, fp: str, arg: str, values: list[str]
    ) -> None:
        lang = await self.lang(interaction)
        user = interaction.user.id
        if interaction.message is None or not interaction.message.flags.ephemeral:
            # hand components live on ephemeral hands only: answering a forged one on a public message would edit
            # that message (the table) into the clicker's hand
            await self.error(interaction, bad_request(), lang)
            return
        try:
            session, view = self.seated(channel, user)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        if verb in HAND_VIEWS and (verb != "page" or arg.isdigit()):
            page = int(arg) if verb != "back" and arg.isdigit() else 0
            await self.hands.show(interaction, session, view, lang, page=page)
            return
        if verb == HAND_JUMP:
            await self.jump_in(interaction, session, view, lang, fp, arg, values)
            return
        if ids.hand_fingerprint(view) != fp:
            await self.hands.show(interaction, session, view, lang, note=stale_note(view, verb, lang))
            return
        try:
            step = HAND_ACTIONS.get(verb)
            if step is None:
                raise bad_request()
            outcome = step(HandClick(session, view, lang, arg, tuple(values)))
            if isinstance(outcome, Screen):
                await self.hands.edit(interaction, outcome)
                return
            if await self.images.shown(session.guild_id):
                await self.ack(interaction)  # the new hand is drawn after the move is saved: acknowledge first
            update = await self.manager.act(channel, user, outcome, expect=lambda v: ids.hand_fingerprint(v) == fp)
        except (AdapterError, RuleError, ValueError, IndexError) as exc:
            error = exc if isinstance(exc, AdapterError | RuleError) else bad_request()
            latest = self.manager.snapshot(channel)
            if latest is not None and latest.same_session(session):
                session = latest
            mine = session.view_for(user) if session.playing else None
            stale = getattr(error, "code", "") == "stale"
            note = stale_note(mine or view, verb, lang) if stale else error_text(error, lang, self.bot.mentions)
            if mine is not None and mine.me is not None:
                await self.hands.show(interaction, session, mine, lang, note=note)
            else:
                await self.error(interaction, error, lang)
            return
        mine = update.view.view_for(user)
        if not update.view.playing or mine is None or mine.me is None:
            await self.hands.edit(
                interaction, Screen(content=t("hand.game_over", lang), view=discord.ui.View(timeout=None))
            )
            return
        await self.hands.show(interaction, update.view, mine, lang, note=self._said(update, mine, lang))

    @staticmethod
    def _said(update: Update, view: PlayerView, lang: str) -> str | None:
        """What the player's own move did, in their hand (house rules, SPEC H: whose hand they now hold…)."""
        session = update.view
        return house.action_note(
            update.events, me(view), session.options, lambda s: screens.player_name(session, s, lang), lang
        )

    async def jump_in(
        self,
        interaction: Interaction,
        session: SessionView,
        view: PlayerView,
        lang: str,
        fp: str,
        arg: str,
        values: list[str],
    ) -> None:
        """A **Jump in!** click (SPEC H ``jump_in``): ``arg`` is the card's place in the hand (``.u``: with UNO), a
        select's value the player to swap hands with (a 7 under ``seven_zero``). The click must have been made on the
        top card still in play (:func:`~cogs.uno.screens.house.jump_fingerprint`), checked again under the session's
        lock: of two players jumping in at once the first accepted plays, the other is told "too late"."""
        channel, user = session.channel_id, interaction.user.id
        too_late = t("hand.too_late", lang)
        if house.jump_fingerprint(view) != fp:
            await self.hands.show(interaction, session, view, lang, note=too_late)
            return
        place, _, flag = arg.partition(".")
        try:
            card = view.hand[index(place, len(view.hand))]
            target = inputs.one_index(values, view.players) if values else None
        except AdapterError as exc:
            await self.error(interaction, exc, lang)
            return
        if target is None and house.needs_target(view, card):
            await self.hands.edit(interaction, screens.jump_target_picker(session, view, lang, arg, card))
            return
        action = Play(me(view), card.id, None, target, False, flag == "u")
        if await self.images.shown(session.guild_id):
            await self.ack(interaction)
        try:
            update = await self.manager.act(
                channel, user, lambda v: action, expect=lambda v: house.jump_fingerprint(v) == fp
            )
        except (AdapterError, RuleError) as exc:
            late = getattr(exc, "code", "") in ("stale", "too_late")
            latest = self.manager.snapshot(channel)
            mine = latest.view_for(user) if latest is not None and latest.playing else None
            if latest is None or mine is None or mine.me is None:
                await self.error(interaction, exc, lang)
                return
            await self.hands.show(
                interaction, latest, mine, lang, note=too_late if late else error_text(exc, lang, self.bot.mentions)
            )
            return
        mine = update.view.view_for(user)
        if not update.view.playing or mine is None or mine.me is None:
            await self.hands.edit(
                interaction, Screen(content=t("hand.game_over", lang), view=discord.ui.View(timeout=None))
            )
            return
        await self.hands.show(interaction, update.view, mine, lang, note=self._said(update, mine, lang))


__all__ = ["DECISION_ACTIONS", "HAND_ACTIONS", "HAND_JUMP", "HAND_VIEWS", "LOBBY_ACTIONS", "Clicks", "HandClick"]
