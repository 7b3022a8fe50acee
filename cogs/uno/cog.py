"""The ``/uno`` slash commands, the handlers of every button and select, and the publisher that keeps the public
messages in step with the game (DESIGN "Discord layer").

Every interaction is answered once and quickly: adapter calls take milliseconds (one SQLite commit), and images are
rendered from cached card faces. Errors are answered ephemerally in the user's language; unexpected ones are logged
with their traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.adapter import AdapterError, Update
from bot.adapter.session import Session, Status
from bot.engine.actions import Accept, Action, CallUno, Catch, Challenge, DeclareColour, Draw, Keep, NextRound, Play
from bot.engine.cards import Colour, Mode
from bot.engine.errors import RuleError
from bot.engine.events import RoundEnded
from bot.engine.view import PlayerView
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, t
from bot.limits import TURN_TIMER_MAX, TURN_TIMER_MIN
from bot.storage import InvalidInputError

from . import ids, screens
from .painter import Painter
from .rules import rules_embed
from .screens import Screen
from .text import event_lines
from .views import LeaderboardButton

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

HAND_REFRESH_WINDOW = 14 * 60  # interaction tokens last 15 minutes
#: How many messages may be waiting for their images at once. When many games move together the rest queue here,
#: before any of their work starts, instead of as ready tasks in the event loop, where every click would wait behind
#: them before it could be answered. Sending is outside this limit, so a slow network does not slow drawing.
DRAWING_CONCURRENCY = 2
#: How long stopping waits for the images being drawn (s) before it closes the image worker.
DRAWING_DRAIN = 5.0
LEADERBOARD_PAGE = 10


Handler = Callable[..., Coroutine[Any, Any, None]]


def answered(handler: Handler) -> Handler:
    """Wrap a component handler: an unexpected error is logged with its traceback and answered ephemerally, so the
    user never sees "This interaction failed"."""

    @functools.wraps(handler)
    async def wrapper(self: UnoCog, interaction: discord.Interaction[Any], *args: Any) -> None:
        try:
            await handler(self, interaction, *args)
        except Exception:
            log.exception("handling %s failed", handler.__name__)
            from bot.client import send_ephemeral

            await send_ephemeral(interaction, t("error.unexpected", await self.lang(interaction)))

    return wrapper


def _l(text: str, key: str) -> locale_str:
    return locale_str(text, key=key)


GAME_CHOICES = [
    Choice(name=_l("Classic UNO", "choice.classic"), value="classic"),
    Choice(name=_l("UNO FLIP", "choice.flip"), value="flip"),
    Choice(name=_l("UNO Flex!", "choice.flex"), value="flex"),
]
MODE_CHOICES = [Choice(name=_l("All games", "choice.all"), value="all"), *GAME_CHOICES]
SCOPE_CHOICES = [
    Choice(name=_l("This server", "choice.server"), value="server"),
    Choice(name=_l("All servers", "choice.global"), value="global"),
]


@app_commands.guild_only()
class UnoCog(
    commands.GroupCog,
    name="Uno",
    group_name=_l("uno", "cmd.uno.name"),
    group_description=_l("Play UNO, UNO FLIP and UNO Flex! in this channel", "cmd.uno.desc"),
):
    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.logs: dict[int, deque[str]] = {}
        self.hands: dict[tuple[int, int], tuple[discord.Interaction[Any], str, float, str]] = {}
        self.painter = Painter()
        self.drawing = asyncio.Semaphore(DRAWING_CONCURRENCY)
        bot.manager.subscribe(self.on_update)
        super().__init__()

    async def cog_unload(self) -> None:
        """Let the images being drawn finish (at most :data:`DRAWING_DRAIN` s), then stop the image worker (closed
        under a running job, its feeder thread prints a traceback as the bot exits)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._hold_every_drawing_slot(), DRAWING_DRAIN)
        self.painter.close()

    async def _hold_every_drawing_slot(self) -> None:
        for _ in range(DRAWING_CONCURRENCY):
            await self.drawing.acquire()

    # ------------------------------------------------------------------------------------------------------------
    # Helpers

    @property
    def manager(self) -> Any:
        return self.bot.manager

    async def lang(self, interaction: discord.Interaction[Any]) -> str:
        return await self.bot.language(interaction)

    async def images(self, guild_id: int | None) -> bool:
        return not (await self.bot.guild_settings(guild_id)).text_only

    @staticmethod
    def is_admin(interaction: discord.Interaction[Any]) -> bool:
        perms = interaction.permissions
        return bool(perms.manage_guild or perms.administrator)

    @staticmethod
    def display_name(user: discord.abc.User) -> str:
        return (getattr(user, "display_name", None) or user.name)[:100]

    async def error(self, interaction: discord.Interaction[Any], error: Exception, lang: str) -> None:
        from bot.client import error_text, send_ephemeral

        await send_ephemeral(interaction, error_text(error, lang))

    async def ack(self, interaction: discord.Interaction[Any]) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()

    # ------------------------------------------------------------------------------------------------------------
    # Slash commands

    @app_commands.command(
        name=_l("new", "cmd.new.name"), description=_l("Open a new game in this channel", "cmd.new.desc")
    )
    @app_commands.describe(
        game=_l("Which game", "opt.game"),
        target=_l("Points that win the match (0: a single round)", "opt.target"),
        timer=_l("Seconds per turn", "opt.timer"),
        scoring=_l("Who scores", "opt.scoring"),
        block_illegal_wild_draw=_l("Forbid illegal wild draws instead of allowing the bluff", "opt.block"),
        false_catch_penalty=_l("Cards a false UNO catch costs", "opt.false_catch"),
        classic_deck=_l("Classic deck edition", "opt.classic_deck"),
        flip_pairing=_l("UNO FLIP: which dark face backs which light face", "opt.flip_pairing"),
        opening_flip=_l("UNO FLIP: a Flip as the first card", "opt.opening_flip"),
        exposed_wild_chooser=_l("UNO FLIP: who declares a wild exposed by a Flip", "opt.exposed_wild"),
        flip_invert_piles=_l("UNO FLIP: turn the piles over on a Flip", "opt.invert"),
        flex_reset_power=_l("UNO Flex!: Power Cards back to green each round", "opt.reset_power"),
        flex_target_can_challenge=_l(
            "UNO Flex!: the target of a flex Wild Draw Four may challenge", "opt.target_challenge"
        ),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        scoring=[
            Choice(name=_l("The round winner scores", "choice.winner"), value="winner"),
            Choice(name=_l("Lowest total wins", "choice.lowest"), value="lowest"),
        ],
        classic_deck=[Choice(name="108", value="108"), Choice(name="112", value="112")],
        flip_pairing=[
            Choice(name=_l("As printed", "choice.physical"), value="physical"),
            Choice(name=_l("Random", "choice.random"), value="random"),
        ],
        opening_flip=[
            Choice(name=_l("Turn another card", "choice.redraw"), value="redraw"),
            Choice(name=_l("Flip at once", "choice.apply"), value="apply"),
        ],
        exposed_wild_chooser=[
            Choice(name=_l("The next player", "choice.next"), value="next"),
            Choice(name=_l("The player who flipped", "choice.flipper"), value="flipper"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        target: app_commands.Range[int, 0, 100000] | None = None,
        timer: app_commands.Range[int, TURN_TIMER_MIN, TURN_TIMER_MAX] | None = None,
        scoring: str | None = None,
        block_illegal_wild_draw: bool | None = None,
        false_catch_penalty: app_commands.Range[int, 0, 10] | None = None,
        classic_deck: str | None = None,
        flip_pairing: str | None = None,
        opening_flip: str | None = None,
        exposed_wild_chooser: str | None = None,
        flip_invert_piles: bool | None = None,
        flex_reset_power: bool | None = None,
        flex_target_can_challenge: bool | None = None,
    ) -> None:
        """Open a lobby (SPEC O options as choices)."""
        lang = await self.lang(interaction)
        settings = await self.bot.guild_settings(interaction.guild_id)
        given = {
            "target_score": target,
            "scoring": scoring,
            "block_illegal_wild_draw": block_illegal_wild_draw,
            "false_catch_penalty": false_catch_penalty,
            "classic_deck": classic_deck,
            "flip_pairing": flip_pairing,
            "opening_flip": opening_flip,
            "exposed_wild_chooser": exposed_wild_chooser,
            "flip_invert_piles": flip_invert_piles,
            "flex_reset_power": flex_reset_power,
            "flex_target_can_challenge": flex_target_can_challenge,
        }
        options = {k: v for k, v in given.items() if v is not None}
        public_lang = await self.bot.public_language(interaction.guild_id, str(interaction.guild_locale or ""))
        try:
            session = await self.manager.open_lobby(
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                host_id=interaction.user.id,
                host_name=self.display_name(interaction.user),
                mode=game or settings.default_mode,
                options=options,
                turn_timer=timer or settings.turn_timer,
                ui={"lang": public_lang},
            )
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.post_lobby(interaction, session)

    async def post_lobby(self, interaction: discord.Interaction[Any], session: Session) -> None:
        """Answer with the lobby message and remember it: every later update edits this one message."""
        screen = screens.lobby_screen(session, session.ui.get("lang", "en"))
        callback = await interaction.response.send_message(**screen.send_kwargs())
        message_id = callback.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.manager.update_ui(session.channel_id, message=message_id)

    @app_commands.command(
        name=_l("join", "cmd.join.name"), description=_l("Join the game in this channel", "cmd.join.desc")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, "join")

    @app_commands.command(
        name=_l("leave", "cmd.leave.name"), description=_l("Leave the game in this channel", "cmd.leave.desc")
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, "leave")

    @app_commands.command(name=_l("start", "cmd.start.name"), description=_l("Start the game (host)", "cmd.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, "start")

    @app_commands.command(
        name=_l("end", "cmd.end.name"),
        description=_l("End the game in this channel (host or Manage Server)", "cmd.end.desc"),
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, "cancel")

    async def _lobby_command(self, interaction: discord.Interaction[Any], verb: str) -> None:
        lang = await self.lang(interaction)
        try:
            await self.lobby_op(interaction, verb, _channel(interaction))
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await interaction.response.send_message(t(f"done.{verb}", lang), ephemeral=True)

    @app_commands.command(
        name=_l("hand", "cmd.hand.name"), description=_l("Show your hand (only you can see it)", "cmd.hand.desc")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self.open_hand(interaction, _channel(interaction))

    @app_commands.command(
        name=_l("kick", "cmd.kick.name"),
        description=_l("Remove a player or AI seat (host or Manage Server)", "cmd.kick.desc"),
    )
    @app_commands.describe(player=_l("The seat to remove", "opt.player"))
    async def kick(self, interaction: discord.Interaction[Any], player: str) -> None:
        lang = await self.lang(interaction)
        try:
            seat = int(player) - 1
            await self.manager.kick(
                interaction.channel_id, interaction.user.id, seat, is_admin=self.is_admin(interaction)
            )
        except ValueError as exc:
            await self.error(interaction, exc if isinstance(exc, AdapterError | RuleError) else AdapterError(), lang)
            return
        await interaction.response.send_message(t("done.kick", lang), ephemeral=True)

    @kick.autocomplete("player")
    async def kick_autocomplete(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        session = self.manager.sessions.get(interaction.channel_id)
        if session is None:
            return []
        out = []
        for i, seat in enumerate(session.seats):
            if seat.left:
                continue
            label = f"{i + 1}. {screens.seat_name(session, i, await self.lang(interaction))}"
            if current.lower() in label.lower():
                out.append(Choice(name=label[:100], value=str(i + 1)))
        return out[:25]

    @app_commands.command(
        name=_l("rules", "cmd.rules.name"), description=_l("The rules of a game (only you see them)", "cmd.rules.desc")
    )
    @app_commands.describe(game=_l("Which game", "opt.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        lang = await self.lang(interaction)
        mode = Mode(game or (await self.bot.guild_settings(interaction.guild_id)).default_mode)
        await interaction.response.send_message(embed=rules_embed(mode, lang), ephemeral=True)

    @app_commands.command(
        name=_l("leaderboard", "cmd.leaderboard.name"),
        description=_l("Most matches won (500-point victories)", "cmd.leaderboard.desc"),
    )
    @app_commands.describe(scope=_l("This server or all servers", "opt.scope"), game=_l("Which game", "opt.game"))
    @app_commands.choices(scope=SCOPE_CHOICES, game=MODE_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], scope: str = "server", game: str = "all"
    ) -> None:
        guild = interaction.guild_id if scope == "server" else None
        mode = None if game == "all" else game
        embed, view = await self.leaderboard_page(interaction, guild, mode, 0)
        await interaction.response.send_message(embed=embed, view=view)

    @answered
    async def on_leaderboard_page(
        self, interaction: discord.Interaction[Any], guild: int | None, mode: str | None, page: int
    ) -> None:
        if guild is not None and guild != interaction.guild_id:
            guild = interaction.guild_id  # a forged id may not read another server's board
        embed, view = await self.leaderboard_page(interaction, guild, mode, page)
        await interaction.response.edit_message(embed=embed, view=view)

    async def leaderboard_page(
        self, interaction: discord.Interaction[Any], guild: int | None, mode: str | None, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        lang = await self.lang(interaction)
        store = self.bot.store
        total = await store.leaderboard_count(guild_id=guild, mode=mode)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = min(max(page, 0), pages - 1)
        rows = await store.leaderboard(
            guild_id=guild, mode=mode, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
        )
        scope = t("lb.scope_server", lang) if guild else t("lb.scope_global", lang)
        game = t(f"mode.{mode}", lang) if mode else t("lb.all_games", lang)
        embed = discord.Embed(title=t("lb.title", lang, scope=scope, game=game), colour=0xFFD600)
        lines = [
            t(
                "lb.row",
                lang,
                rank=r.rank,
                name=discord.utils.escape_markdown(r.display_name),
                wins=r.wins,
                played=r.played,
                rate=round(r.win_rate * 100),
                rounds=r.rounds_won,
                points=r.points,
            )
            for r in rows
        ]
        embed.description = "\n".join(lines) if lines else t("lb.empty", lang)
        embed.set_footer(text=t("lb.footer", lang, page=page + 1, pages=pages))
        view = discord.ui.View(timeout=None)
        view.add_item(LeaderboardButton(guild, mode, max(page - 1, 0), "p", "◀", disabled=page == 0))
        view.add_item(LeaderboardButton(guild, mode, min(page + 1, pages - 1), "n", "▶", disabled=page >= pages - 1))
        return embed, view

    @app_commands.command(
        name=_l("stats", "cmd.stats.name"), description=_l("A player's record and rank", "cmd.stats.desc")
    )
    @app_commands.describe(
        player=_l("Whose record (default: yours)", "opt.stats_player"),
        scope=_l("This server or all servers", "opt.scope"),
        game=_l("Which game", "opt.game"),
    )
    @app_commands.choices(scope=SCOPE_CHOICES, game=MODE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        scope: str = "server",
        game: str = "all",
    ) -> None:
        lang = await self.lang(interaction)
        user = player or interaction.user
        guild = interaction.guild_id if scope == "server" else None
        mode = None if game == "all" else game
        stats = await self.bot.store.player_stats(user.id, guild_id=guild, mode=mode)
        name = discord.utils.escape_markdown(self.display_name(user))
        embed = discord.Embed(title=t("stats.title", lang, name=name), colour=0x1E88E5)
        if stats is None:
            embed.description = t("stats.none", lang)
        else:
            rank = (
                t("stats.rank", lang, rank=stats.rank, of=stats.ranked_players)
                if stats.rank
                else t("stats.unranked", lang)
            )
            embed.description = t(
                "stats.body",
                lang,
                rank=rank,
                wins=stats.wins,
                played=stats.played,
                rate=round(stats.win_rate * 100),
                abandoned=stats.abandoned,
                rounds=stats.rounds_won,
                points=stats.points,
            )
        scope_text = t("lb.scope_server", lang) if guild else t("lb.scope_global", lang)
        game_text = t(f"mode.{mode}", lang) if mode else t("lb.all_games", lang)
        embed.set_footer(text=f"{scope_text} · {game_text}")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name=_l("settings", "cmd.settings.name"), description=_l("Server settings (Manage Server)", "cmd.settings.desc")
    )
    @app_commands.describe(
        default_game=_l("Game of /uno new without a choice", "opt.default_game"),
        turn_timer=_l("Seconds per turn", "opt.timer"),
        language=_l("Language of the bot in this server", "opt.language"),
        card_images=_l("Show card images (off: text only)", "opt.images"),
    )
    @app_commands.choices(
        default_game=GAME_CHOICES,
        language=[Choice(name=_l("Each user's Discord language", "choice.auto"), value="auto")]
        + [Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES],
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        default_game: str | None = None,
        turn_timer: app_commands.Range[int, TURN_TIMER_MIN, TURN_TIMER_MAX] | None = None,
        language: str | None = None,
        card_images: bool | None = None,
    ) -> None:
        lang = await self.lang(interaction)
        if not self.is_admin(interaction):
            await interaction.response.send_message(t("error.no_permission", lang), ephemeral=True)
            return
        changes: dict[str, Any] = {}
        if default_game is not None:
            changes["default_mode"] = default_game
        if turn_timer is not None:
            changes["turn_timer"] = turn_timer
        if language is not None:
            changes["language"] = None if language == "auto" else language
        if card_images is not None:
            changes["text_only"] = not card_images
        guild_id = interaction.guild_id
        assert guild_id is not None
        try:
            current = (
                await self.bot.store.update_settings(guild_id, **changes)
                if changes
                else await self.bot.guild_settings(guild_id)
            )
        except InvalidInputError:
            await interaction.response.send_message(t("error.bad_request", lang), ephemeral=True)
            return
        self.bot.forget_settings(guild_id)
        lang = await self.lang(interaction)
        text = t(
            "settings.current",
            lang,
            game=t(f"mode.{current.default_mode}", lang),
            timer=current.turn_timer,
            language=LANGUAGE_NAMES.get(current.language or "", t("settings.auto", lang)),
            images=t("settings.on", lang) if not current.text_only else t("settings.off", lang),
        )
        title = t("settings.saved", lang) if changes else t("settings.title", lang)
        await interaction.response.send_message(embed=discord.Embed(title=title, description=text), ephemeral=True)

    # ------------------------------------------------------------------------------------------------------------
    # Lobby buttons

    async def lobby_op(self, interaction: discord.Interaction[Any], verb: str, channel: int) -> None:
        user = interaction.user
        admin = self.is_admin(interaction)
        if verb == "join":
            await self.manager.join(channel, user.id, self.display_name(user))
        elif verb == "leave":
            await self.manager.leave(channel, user.id)
        elif verb == "ai":
            await self.manager.add_ai(channel, user.id, is_admin=admin)
        elif verb == "start":
            await self.manager.start_game(channel, user.id, is_admin=admin)
        elif verb == "cancel":
            await self.manager.end(channel, user.id, is_admin=admin)

    @answered
    async def on_lobby(self, interaction: discord.Interaction[Any], verb: str, channel: int) -> None:
        lang = await self.lang(interaction)
        if channel != interaction.channel_id:
            await self.error(interaction, AdapterError(), lang)
            return
        await self.ack(interaction)  # the lobby message itself shows the change: acknowledge before saving it
        try:
            await self.lobby_op(interaction, verb, channel)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)

    # ------------------------------------------------------------------------------------------------------------
    # Table buttons

    @answered
    async def on_table(self, interaction: discord.Interaction[Any], verb: str, channel: int) -> None:
        lang = await self.lang(interaction)
        if channel != interaction.channel_id:
            await self.error(interaction, AdapterError(), lang)
            return
        if verb == "hand":
            await self.open_hand(interaction, channel)
            return
        if verb == "again":
            await self.play_again(interaction, channel, lang)
            return
        user = interaction.user.id
        try:
            if verb == "uno":
                await self.ack(interaction)
                await self.manager.act(channel, user, lambda v: CallUno(self._me(v)))
            elif verb == "catch":
                view = self.manager.view(channel, user)
                if view.catchable is None or view.catchable == view.me:
                    await interaction.response.send_message(t("error.nothing_to_catch", lang), ephemeral=True)
                    return
                target = view.catchable
                await self.ack(interaction)
                await self.manager.act(
                    channel, user, lambda v: Catch(self._me(v), target), expect=lambda v: v.catchable == target
                )
            elif verb == "next":
                await self.ack(interaction)
                await self.manager.act(channel, user, lambda v: NextRound(self._me(v)))
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.ack(interaction)

    @staticmethod
    def _me(view: PlayerView) -> int:
        assert view.me is not None
        return view.me

    async def play_again(self, interaction: discord.Interaction[Any], channel: int, lang: str) -> None:
        old = self.manager.sessions.get(channel)
        if old is not None and old.status != Status.FINISHED:
            await interaction.response.send_message(t("error.game_exists", lang), ephemeral=True)
            return
        settings = await self.bot.guild_settings(interaction.guild_id)
        public_lang = await self.bot.public_language(interaction.guild_id, str(interaction.guild_locale or ""))
        try:
            session = await self.manager.open_lobby(
                channel_id=channel,
                guild_id=interaction.guild_id,
                host_id=interaction.user.id,
                host_name=self.display_name(interaction.user),
                mode=old.mode if old else settings.default_mode,
                options=old.options if old else None,
                turn_timer=old.turn_timer if old else settings.turn_timer,
                ui={"lang": old.ui.get("lang", public_lang) if old else public_lang},
            )
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.post_lobby(interaction, session)

    @answered
    async def on_decision(
        self, interaction: discord.Interaction[Any], verb: str, channel: int, fp: str, arg: str
    ) -> None:
        lang = await self.lang(interaction)
        if channel != interaction.channel_id:
            await self.error(interaction, AdapterError(), lang)
            return
        user = interaction.user.id
        build: Callable[[PlayerView], Action]
        if verb == "challenge":
            build = lambda v: Challenge(self._me(v))  # noqa: E731
        elif verb == "accept":
            build = lambda v: Accept(self._me(v))  # noqa: E731
        else:
            try:
                colour = Colour(arg)
            except ValueError:
                await self.error(interaction, AdapterError(), lang)
                return
            build = lambda v: DeclareColour(self._me(v), colour)  # noqa: E731
        if verb != "challenge":
            await self.ack(interaction)  # the table shows the outcome: acknowledge before saving the move
        elif await self.images(interaction.guild_id):
            await interaction.response.defer(ephemeral=True, thinking=True)  # the challenged hand follows, drawn
        try:
            await self.manager.act(channel, user, build, expect=lambda v: ids.decision_fingerprint(v) == fp)
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        if verb == "challenge":
            session = self.manager.get(channel)
            view = self.manager.view(channel, user)
            await self.send_hand(interaction, session, view, lang)
            return
        await self.ack(interaction)

    # ------------------------------------------------------------------------------------------------------------
    # The ephemeral hand

    async def open_hand(self, interaction: discord.Interaction[Any], channel: int) -> None:
        lang = await self.lang(interaction)
        try:
            session = self.manager.get(channel)
            view = self.manager.view(channel, interaction.user.id)
            if view.me is None:
                raise _not_seated()
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await self.send_hand(interaction, session, view, lang)

    async def hand_png(self, session: Session, view: PlayerView) -> bytes | None:
        """The hand image, drawn by the painter process (None in text-only servers and for an empty hand)."""
        if not await self.images(session.guild_id):
            return None
        args = screens.hand_image_args(view)
        return await self.painter.hand(*args) if args is not None else None

    async def seen_png(self, session: Session, view: PlayerView, lang: str) -> bytes | None:
        """UNO FLIP: the table as this player sees it, with the other faces of the opponents' hands (SPEC F10)."""
        if view.other_faces is None or not await self.images(session.guild_id):
            return None
        return await self.painter.table(screens.table_scene(session, view, lang))

    async def hand_images(self, session: Session, view: PlayerView, lang: str) -> tuple[bytes | None, bytes | None]:
        """The hand image and, in UNO FLIP, the table as this player sees it (within :data:`DRAWING_CONCURRENCY`)."""
        if not await self.images(session.guild_id):
            return None, None  # nothing to draw: do not queue for a drawing slot
        async with self.drawing:
            hand, seen = await asyncio.gather(self.hand_png(session, view), self.seen_png(session, view, lang))
        return hand, seen

    async def send_hand(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        view: PlayerView,
        lang: str,
        *,
        note: str | None = None,
    ) -> None:
        """Answer with a new ephemeral hand. With card images the answer is deferred first (the image takes a few
        milliseconds to draw) and the hand follows."""
        images = await self.images(session.guild_id)
        if images and not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        if not interaction.response.is_done():
            with screens.hand_screen(session, view, lang, note=note) as screen:
                await interaction.response.send_message(ephemeral=True, **screen.send_kwargs())
        else:
            png, seen = await self.hand_images(session, view, lang)
            with screens.hand_screen(session, view, lang, note=note, png=png, table_png=seen) as screen:
                await interaction.followup.send(ephemeral=True, **screen.send_kwargs())
        self.remember_hand(interaction, session, view, lang)

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        view: PlayerView,
        lang: str,
        *,
        page: int = 0,
        note: str | None = None,
    ) -> None:
        """Update the ephemeral hand the component is on (deferring first when an image is drawn)."""
        images = await self.images(session.guild_id)
        if images and not interaction.response.is_done():
            await interaction.response.defer()
        if not interaction.response.is_done():
            with screens.hand_screen(session, view, lang, page=page, note=note) as screen:
                await interaction.response.edit_message(**screen.edit_kwargs())
        else:
            png, seen = await self.hand_images(session, view, lang)
            with screens.hand_screen(session, view, lang, page=page, note=note, png=png, table_png=seen) as screen:
                await interaction.edit_original_response(**screen.edit_kwargs())
        self.remember_hand(interaction, session, view, lang)

    def remember_hand(
        self, interaction: discord.Interaction[Any], session: Session, view: PlayerView, lang: str
    ) -> None:
        self.hands[(session.channel_id, interaction.user.id)] = (
            interaction,
            ids.hand_fingerprint(view),
            time.monotonic(),
            lang,
        )

    @answered
    async def on_hand(
        self, interaction: discord.Interaction[Any], verb: str, channel: int, fp: str, arg: str, values: list[str]
    ) -> None:
        lang = await self.lang(interaction)
        user = interaction.user.id
        if interaction.message is None or not interaction.message.flags.ephemeral:
            # hand components live on ephemeral hands only: answering a forged one on a public message would edit
            # that message (the table) into the clicker's hand
            await self.error(interaction, _bad_request(), lang)
            return
        try:
            session = self.manager.get(channel)
            view = self.manager.view(channel, user)
            if view.me is None:
                raise _not_seated()
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        if verb in ("refresh", "back") or (verb == "page" and arg.lstrip("-").isdigit()):
            page = int(arg) if verb == "page" or (verb == "refresh" and arg.isdigit()) else 0
            await self.show_hand(interaction, session, view, lang, page=page)
            return
        if ids.hand_fingerprint(view) != fp:
            await self.show_hand(interaction, session, view, lang, note=t("hand.stale", lang))
            return
        options = ids.play_options(view)
        build: Callable[[PlayerView], Action] | None = None
        try:
            if verb == "play":
                index = _index(values[0] if values else "", len(options))
                option = options[index]
                if option.targeted:
                    await self.edit_hand(interaction, screens.target_picker(session, view, lang, index))
                    return
                if option.wild:
                    await self.edit_hand(interaction, screens.colour_picker(session, view, lang, index, None))
                    return
                build = lambda v: _play(v, index, None, None)  # noqa: E731
            elif verb == "target":
                index = _index(arg, len(options))
                chosen = _index(values[0] if values else "", view.players)
                await self.edit_hand(interaction, screens.colour_picker(session, view, lang, index, chosen))
                return
            elif verb == "colour":
                parts = arg.split(".")
                index = _index(parts[0], len(options))
                wild_colour = Colour(parts[1]) if len(parts) > 1 else None
                target = _index(parts[2], view.players) if len(parts) > 2 else None
                build = lambda v: _play(v, index, wild_colour, target)  # noqa: E731
            elif verb == "draw":
                build = lambda v: Draw(self._me(v))  # noqa: E731
            elif verb == "keep":
                build = lambda v: Keep(self._me(v))  # noqa: E731
            elif verb == "uno":
                build = lambda v: CallUno(self._me(v))  # noqa: E731
            elif verb == "challenge":
                build = lambda v: Challenge(self._me(v))  # noqa: E731
            elif verb == "accept":
                build = lambda v: Accept(self._me(v))  # noqa: E731
            elif verb == "declare":
                colour = Colour(arg)
                build = lambda v: DeclareColour(self._me(v), colour)  # noqa: E731
            if build is None:
                raise _bad_request()
            if await self.images(session.guild_id):
                await self.ack(interaction)  # the new hand is drawn after the move is saved: acknowledge first
            await self.manager.act(channel, user, build, expect=lambda v: ids.hand_fingerprint(v) == fp)
        except (AdapterError, RuleError, ValueError, IndexError) as exc:
            from bot.client import error_text

            error = exc if isinstance(exc, AdapterError | RuleError) else _bad_request()
            view = self.manager.view(channel, user) if channel in self.manager.sessions else view
            note = t("hand.stale", lang) if getattr(error, "code", "") == "stale" else error_text(error, lang)
            if session.status == Status.PLAYING and view.me is not None:
                await self.show_hand(interaction, session, view, lang, note=note)
            else:
                await self.error(interaction, error, lang)
            return
        session = self.manager.sessions.get(channel, session)
        if session.status != Status.PLAYING or session.game is None:
            await self.edit_hand(
                interaction, Screen(content=t("hand.game_over", lang), view=discord.ui.View(timeout=None))
            )
            return
        await self.show_hand(interaction, session, self.manager.view(channel, user), lang)

    async def edit_hand(self, interaction: discord.Interaction[Any], screen: Screen) -> None:
        with screen:
            if interaction.response.is_done():
                await interaction.edit_original_response(**screen.edit_kwargs())
            else:
                await interaction.response.edit_message(**screen.edit_kwargs())

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component that vanished as it was clicked (the message was just updated) matches nothing in
        discord.py and would show "This interaction failed": answer it with a short note instead."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("uno:"):
            return
        present = {
            getattr(child, "custom_id", None)
            for row in interaction.message.components
            for child in getattr(row, "children", [row])
        }
        if custom_id in present:
            return
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("hand.changed", await self.lang(interaction)), ephemeral=True)

    # ------------------------------------------------------------------------------------------------------------
    # Publisher: keep the public messages up to date

    async def on_update(self, update: Update) -> None:
        """Bring the public messages (and the hand of the player whose turn it is) up to date after ``update``."""
        session = update.session
        lang = session.ui.get("lang", "en")
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        kind = update.kind
        log_lines = self.logs.setdefault(session.channel_id, deque(maxlen=8))

        def name(seat: int) -> str:
            return screens.player_name(session, seat, lang)

        if session.game is not None and update.events:
            log_lines.extend(event_lines(update.events, name, lang))
        if kind == "lobby":
            if session.ui.get("message") is not None:  # the first lobby message is the answer to the command
                await self.edit_public(session, screens.lobby_screen(session, lang))
        elif kind.startswith("closed"):
            reason = kind.partition(":")[2]
            await self.edit_public(session, screens.closed_screen(session, lang, reason))
            self.logs.pop(session.channel_id, None)
            if session.game is not None and session.result is not None:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
        elif session.game is not None:
            if kind == "started":
                log_lines.clear()
                log_lines.extend(event_lines(update.events, name, lang))
            png = None
            if await self.images(session.guild_id):
                async with self.drawing:
                    png = await self.painter.table(screens.table_scene(session, session.game.view(None), lang))
            await self.edit_public(session, screens.table_screen(session, lang, list(log_lines), png=png))
            for event in update.events:
                if isinstance(event, RoundEnded):
                    await channel.send(**screens.round_summary(session, event, lang).send_kwargs())
            if kind == "finished":
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
            await self.refresh_turn_hand(session)

    async def edit_public(self, session: Session, screen: Screen) -> None:
        message_id = session.ui.get("message")
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if message_id is not None:
                try:
                    await channel.get_partial_message(int(message_id)).edit(**screen.edit_kwargs())
                    return
                except discord.NotFound:
                    for file in screen.files:
                        file.reset()  # the failed edit read the image: send it from its start again
            message = await channel.send(**screen.send_kwargs())
        if session.status != Status.FINISHED and session.channel_id in self.manager.sessions:
            await self.manager.update_ui(session.channel_id, message=message.id)

    async def refresh_turn_hand(self, session: Session) -> None:
        """Bring the ephemeral hand of the player whose decision is pending up to date (within the token's life)."""
        game = session.game
        if game is None or game.pending is None:
            return
        user = session.seats[game.pending].user_id
        if user is None:
            return
        entry = self.hands.get((session.channel_id, user))
        if entry is None:
            return
        interaction, fp, when, lang = entry
        if time.monotonic() - when > HAND_REFRESH_WINDOW:
            self.hands.pop((session.channel_id, user), None)
            return
        view = game.view(game.pending)
        new_fp = ids.hand_fingerprint(view)
        if new_fp == fp:
            return
        png, seen = await self.hand_images(session, view, lang)
        try:
            with screens.hand_screen(session, view, lang, png=png, table_png=seen) as screen:
                await interaction.edit_original_response(**screen.edit_kwargs())
            self.hands[(session.channel_id, user)] = (interaction, new_fp, when, lang)
        except discord.HTTPException:
            self.hands.pop((session.channel_id, user), None)


def _channel(interaction: discord.Interaction[Any]) -> int:
    channel = interaction.channel_id
    if channel is None:
        raise _bad_request()
    return channel


def _index(text: str, size: int) -> int:
    if not text.isdigit() or not 0 <= int(text) < size:
        raise _bad_request()
    return int(text)


def _play(view: PlayerView, index: int, colour: Colour | None, target: int | None) -> Play:
    option = ids.play_options(view)[index]
    assert view.me is not None
    return Play(view.me, option.card, colour, target, option.flex, option.uno)


def _not_seated() -> AdapterError:
    from bot.adapter.errors import NotSeated

    return NotSeated("not in this game")


def _bad_request() -> AdapterError:
    from bot.adapter.errors import BadRequest

    return BadRequest("bad request")


__all__ = ["UnoCog"]
