"""The ``/uno`` slash commands (DESIGN "Discord layer", input side): each checks what it was given, asks the adapter
(or reads the store) and answers with a screen. :class:`Commands` is the part of :class:`~cogs.uno.cog.UnoCog` that
holds them (discord.py collects a cog's commands from all its classes); the cog gives it :attr:`Commands.bot` and
its collaborators. The page buttons of the boards they answer with come back here too (``on_*_page``,
``on_recap``: :class:`~cogs.uno.screens.components.Handlers`)."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.adapter import AdapterError, SessionManager, SessionView, TableUi
from bot.adapter.records import RecordError, recap
from bot.adapter.refusals import NoGame, NotHost
from bot.engine.cards import Mode
from bot.engine.errors import RuleError
from bot.i18n import LANGUAGES, t
from bot.limits import AI_LEVELS, SEASON_PERIODS, TARGET_SCORE_MAX, TURN_TIMER_MAX, TURN_TIMER_MIN
from bot.storage import InvalidInputError

from .. import screens
from ..output.replies import answered, channel_of, guild_of, send_ephemeral
from ..output.threads import GameThreads, follow, private_answer
from ..screens import boards
from ..screens.recap import history_embed, recap_embed
from ..screens.rule_panels import defaults_button, rule_lines, saved_options
from ..screens.rules_page import rules_embed
from ..screens.text import folded, shown_name
from . import inputs, seasons
from .choices import (
    GAME_CHOICES,
    LANGUAGE_CHOICES,
    LEVEL_CHOICES,
    MODE_CHOICES,
    ORDER_CHOICES,
    PERIOD_CHOICES,
    SCOPE_CHOICES,
    game_choice,
)
from .choices import localised as _l
from .clicks import Clicks, display_name, is_admin
from .inputs import BadInput
from .rule_options import for_game, given, rule_parameters

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

LEADERBOARD_PAGE = 10
HISTORY_PAGE = 10
Interaction = discord.Interaction["UnoBot"]


class Commands(commands.Cog):
    """The ``/uno`` commands and the pages of their boards: a part of :class:`~cogs.uno.cog.UnoCog` (a cog class of
    its own for the type checker; discord.py collects the commands of every class of a cog), which sets the
    attributes."""

    bot: UnoBot
    clicks: Clicks
    threads: GameThreads

    @property
    def manager(self) -> SessionManager:
        return self.bot.manager

    async def lang(self, interaction: Interaction) -> str:
        return await self.bot.language(interaction)

    async def error(self, interaction: Interaction, error: Exception, lang: str) -> None:
        await self.clicks.error(interaction, error, lang)

    @app_commands.command(
        name=_l("new", "cmd.new.name"), description=_l("Open a new game in this channel", "cmd.new.desc")
    )
    @app_commands.describe(
        game=_l("Which game", "opt.game"),
        target=_l("Points that win the match (0: a single round)", "opt.target"),
        timer=_l("Seconds per turn", "opt.timer"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @rule_parameters
    async def new(
        self,
        interaction: Interaction,
        game: str | None = None,
        target: app_commands.Range[int, 0, TARGET_SCORE_MAX] | None = None,
        timer: app_commands.Range[int, TURN_TIMER_MIN, TURN_TIMER_MAX] | None = None,
        **rules: Any,
    ) -> None:
        """Open a lobby (SPEC O options as choices, the house rules of SPEC H among them) from the server's defaults
        (``/uno settings``): its game, target score, turn timer and rule options, each overridden by what is given.
        Every value is checked here (discord.py does not check ranges or types at run time): a bad one is answered and
        opens nothing. With the server's ``game_threads`` on, a game opened in a text channel is played in a thread
        of its own (:mod:`cogs.uno.output.threads`); inside a thread, or where no thread can be opened, in the
        channel."""
        lang = await self.lang(interaction)
        settings = await self.bot.guild_settings(interaction.guild_id)
        try:
            typed = given(rules)
            mode = game_choice(game) if game is not None else settings.default_mode
            options = {
                **for_game(settings.default_options, mode),
                "target_score": inputs.target_score(target) if target is not None else settings.default_target_score,
                **typed,
            }
            turn_timer = inputs.turn_timer(timer) if timer is not None else settings.turn_timer
            guild_id, channel_id = guild_of(interaction), channel_of(interaction)
            self.manager.check_lobby(guild_id=guild_id, mode=mode, options=options, turn_timer=turn_timer)
            public_lang = await self.bot.public_language(
                interaction.guild_id, str(interaction.guild_locale or ""), str(interaction.locale)
            )
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        host = display_name(interaction.user)

        async def open_lobby(channel: int) -> None:
            await self.manager.open_lobby(
                channel_id=channel,
                guild_id=guild_id,
                host_id=interaction.user.id,
                host_name=host,
                mode=mode,
                options=options,
                turn_timer=turn_timer,
                ui=TableUi(lang=public_lang),
            )

        note = None
        if settings.game_threads and not isinstance(interaction.channel, discord.Thread):
            game_name = t(f"mode.{mode}", public_lang)
            note = await self.threads.open(
                interaction, open_lobby, game=game_name, host=host, public_lang=public_lang, lang=lang
            )
            if note is None:
                return  # opened in a thread of its own, or its error told
        try:
            await open_lobby(channel_id)
        except (AdapterError, RuleError) as exc:
            if interaction.response.is_done():  # deferred publicly for a thread that could not be opened
                await private_answer(interaction, await self.clicks.error_text(interaction, exc, lang))
            else:
                await self.error(interaction, exc, lang)
            return
        await self.clicks.post_lobby(interaction, channel_id)
        if note is not None:  # the server wants a thread per game: tell the host why this one is played here
            await send_ephemeral(interaction, note)

    @app_commands.command(
        name=_l("join", "cmd.join.name"), description=_l("Join the game in this channel", "cmd.join.desc")
    )
    async def join(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "join")

    @app_commands.command(
        name=_l("leave", "cmd.leave.name"), description=_l("Leave the game in this channel", "cmd.leave.desc")
    )
    async def leave(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "leave")

    @app_commands.command(name=_l("start", "cmd.start.name"), description=_l("Start the game (host)", "cmd.start.desc"))
    async def start(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "start")

    @app_commands.command(
        name=_l("end", "cmd.end.name"),
        description=_l("End the game in this channel (host or Manage Server)", "cmd.end.desc"),
    )
    async def end(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "cancel")

    async def _lobby_command(self, interaction: Interaction, verb: str) -> None:
        lang = await self.lang(interaction)
        try:
            await self.clicks.lobby_op(interaction, verb, channel_of(interaction))
        except (AdapterError, RuleError) as exc:
            await self.error(interaction, exc, lang)
            return
        await interaction.response.send_message(t(f"done.{verb}", lang), ephemeral=True)
        if verb == "join":
            await follow(interaction.channel, interaction.user)  # a game in a thread: the thread is theirs to follow

    @app_commands.command(
        name=_l("hand", "cmd.hand.name"), description=_l("Show your hand (only you can see it)", "cmd.hand.desc")
    )
    async def hand(self, interaction: Interaction) -> None:
        await self.clicks.open_hand(interaction, channel_of(interaction))

    @app_commands.command(
        name=_l("kick", "cmd.kick.name"),
        description=_l("Remove a player or AI seat (host or Manage Server)", "cmd.kick.desc"),
    )
    @app_commands.describe(player=_l("The seat to remove", "opt.player"))
    async def kick(self, interaction: Interaction, player: str) -> None:
        """Remove the seat ``player`` names: its number as shown (what the search below offers; ASCII digits only) or,
        as typed without picking, a part of one seat's name (accents and case aside). A refusal says what was wrong:
        no such seat, no or several names matching, not the host (issue 18 point 5)."""
        lang = await self.lang(interaction)
        try:
            channel = channel_of(interaction)
            session = self.manager.snapshot(channel)
            if session is not None and session.host_id != interaction.user.id and not is_admin(interaction):
                raise NotHost("only the host can do that")  # who may kick before whom: no search for anyone else
            seat = self.kick_target(session, player, lang)
            await self.manager.kick(channel, interaction.user.id, seat, is_admin=is_admin(interaction))
        except ValueError as exc:
            await self.error(interaction, exc if isinstance(exc, AdapterError | RuleError) else AdapterError(), lang)
            return
        await interaction.response.send_message(t("done.kick", lang), ephemeral=True)

    @staticmethod
    def kick_target(session: SessionView | None, player: str, lang: str) -> int:
        """The seat index ``player`` names (see :meth:`kick`). Raises :class:`~bot.adapter.refusals.NoGame` without a
        game and :class:`~cogs.uno.input.inputs.BadInput` (``kick_no_match``, ``kick_several``) for a name that matches
        no seat or several; a seat number is checked by :meth:`SessionManager.kick` (after whether one may kick)."""
        if session is None:
            raise NoGame("no game in this channel")
        text = player.strip()
        if text.isascii() and text.isdigit() and len(text) <= 4:
            return int(text) - 1
        wanted = folded(text)
        matches = [
            i
            for i, seat in enumerate(session.seats)
            if not seat.left and wanted and wanted in folded(screens.seat_name(session, i, lang))
        ]
        if len(matches) == 1:
            return matches[0]
        shown = shown_name(text[:100])  # as long as a display name may be
        raise BadInput("kick_several" if matches else "kick_no_match", name=shown)

    @kick.autocomplete("player")
    async def kick_autocomplete(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        session = self.manager.snapshot(interaction.channel_id or 0)
        if session is None:
            return []
        out = []
        for i, seat in enumerate(session.seats):
            if seat.left:
                continue
            label = f"{i + 1}. {screens.seat_name(session, i, await self.lang(interaction))}"
            if folded(current) in folded(label):  # "lub" finds "Ľubomír" (issue 18 point 5)
                out.append(Choice(name=label[:100], value=str(i + 1)))
        return out[:25]

    @app_commands.command(
        name=_l("rules", "cmd.rules.name"), description=_l("The rules of a game (only you see them)", "cmd.rules.desc")
    )
    @app_commands.describe(game=_l("Which game", "opt.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        """The rules of ``game`` (default: the game of this channel's table, else the server's default game), with
        the table's own target score when it plays that game, else the server's default target score."""
        lang = await self.lang(interaction)
        table = None
        with contextlib.suppress(AdapterError):
            table = self.manager.snapshot(channel_of(interaction))
        settings = await self.bot.guild_settings(interaction.guild_id)
        mode = Mode(game or (table.mode if table is not None else settings.default_mode))
        own = table is not None and table.mode is mode
        target = table.options.target_score if table is not None and own else settings.default_target_score
        options = table.options if table is not None and own else None
        await interaction.response.send_message(embed=rules_embed(mode, lang, target, options), ephemeral=True)

    @app_commands.command(
        name=_l("leaderboard", "cmd.leaderboard.name"),
        description=_l("Top players by matches won or by skill rating", "cmd.leaderboard.desc"),
    )
    @app_commands.describe(
        scope=_l("This server or all servers", "opt.scope"),
        game=_l("Which game", "opt.game"),
        order=_l("Rank by matches won or by skill rating", "opt.order"),
        season=_l("A season's standings: the current one or an earlier one", "opt.season"),
    )
    @app_commands.choices(scope=SCOPE_CHOICES, game=MODE_CHOICES, order=ORDER_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        scope: str = "server",
        game: str = "all",
        order: str = "wins",
        season: str | None = None,
    ) -> None:
        """The board of ``scope`` and ``game``, by match wins or (``order="rating"``, issue 19 point 3) by skill
        rating; a rating is per game, so ``game="all"`` by rating shows the server's default game. With ``season``
        (issue 19 point 4: ``current`` or a season key), the wins of that season only."""
        guild = interaction.guild_id if scope == "server" else None
        mode = None if game == "all" else game
        if season is not None:
            await self.season_leaderboard(interaction, guild, mode, order, season)
            return
        if order == "rating" and mode is None:
            mode = (await self.bot.guild_settings(interaction.guild_id)).default_mode
        embed, components = await self.leaderboard_page(interaction, guild, mode, 0, order)
        await interaction.response.send_message(embed=embed, view=components)

    async def season_leaderboard(
        self, interaction: Interaction, guild: int | None, mode: str | None, order: str, season: str
    ) -> None:
        """``/uno leaderboard season:…`` (issue 19 point 4): a season's board by match wins; a season that is none of
        the scope's, or a season asked for by rating (ratings are not per season), is refused in one line."""
        lang = await self.lang(interaction)
        try:
            if order == "rating":
                raise BadInput("season_rating")
            key = await seasons.resolve(self.bot, guild, season, time.time())
        except BadInput as exc:
            await self.error(interaction, exc, lang)
            return
        embed, components = await self.season_page(interaction, guild, mode, key, 0)
        await interaction.response.send_message(embed=embed, view=components)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The seasons of the scope chosen so far (this server's by default)."""
        scope = getattr(interaction.namespace, "scope", "server")
        guild = None if scope == "global" else interaction.guild_id
        return await seasons.season_choices(self.bot, guild, current, await self.lang(interaction))

    @answered
    async def on_season_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, season: str, page: int
    ) -> None:
        """A page button of a season's board: that page, edited in place (the season checked again: a forged one is
        refused in one line)."""
        if guild is not None and guild != interaction.guild_id:
            guild = interaction.guild_id  # a forged id may not read another server's board
        try:
            key = await seasons.resolve(self.bot, guild, season, time.time())
        except BadInput as exc:
            await self.error(interaction, exc, await self.lang(interaction))
            return
        embed, components = await self.season_page(interaction, guild, mode, key, page)
        message = interaction.message
        if message is not None and message.flags.components_v2:  # a forged page button on a table: no embed there
            await interaction.response.send_message(embed=embed, view=components, ephemeral=True)
            return
        await interaction.response.edit_message(embed=embed, view=components)

    async def season_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, key: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        """Page ``page`` (from 0, clamped) of season ``key``'s board, with its page buttons."""
        lang = await self.lang(interaction)
        store = self.bot.store
        total = await store.season_leaderboard_count(guild_id=guild, mode=mode, season=key)
        page, pages = screens.page_of(total, LEADERBOARD_PAGE, page)
        rows = await store.season_leaderboard(
            guild_id=guild, mode=mode, season=key, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
        )
        embed = boards.season_embed(rows, guild, mode, key, page, pages, lang)
        return embed, boards.season_buttons(guild, mode, key, page, pages)

    @answered
    async def on_leaderboard_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, page: int, order: str = "wins"
    ) -> None:
        if guild is not None and guild != interaction.guild_id:
            guild = interaction.guild_id  # a forged id may not read another server's board
        if order == "rating" and mode is None:
            mode = (await self.bot.guild_settings(interaction.guild_id)).default_mode
        embed, components = await self.leaderboard_page(interaction, guild, mode, page, order)
        message = interaction.message
        if message is not None and message.flags.components_v2:  # a forged page button on a table: no embed there
            await interaction.response.send_message(embed=embed, view=components, ephemeral=True)
            return
        await interaction.response.edit_message(embed=embed, view=components)

    async def leaderboard_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, page: int, order: str = "wins"
    ) -> tuple[discord.Embed, discord.ui.View]:
        lang = await self.lang(interaction)
        store = self.bot.store
        if order == "rating" and mode is not None:
            total = await store.rating_leaderboard_count(guild_id=guild, mode=mode)
            page, pages = screens.page_of(total, LEADERBOARD_PAGE, page)
            rated = await store.rating_leaderboard(
                guild_id=guild, mode=mode, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
            )
            embed = boards.rating_board_embed(rated, guild, mode, page, pages, lang)
        else:
            order = "wins"
            total = await store.leaderboard_count(guild_id=guild, mode=mode)
            page, pages = screens.page_of(total, LEADERBOARD_PAGE, page)
            rows = await store.leaderboard(
                guild_id=guild, mode=mode, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
            )
            embed = boards.wins_board_embed(rows, guild, mode, page, pages, lang)
        return embed, boards.leaderboard_buttons(guild, mode, page, pages, order)

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
        interaction: Interaction,
        player: discord.User | None = None,
        scope: str = "server",
        game: str = "all",
    ) -> None:
        lang = await self.lang(interaction)
        user = player or interaction.user
        guild = interaction.guild_id if scope == "server" else None
        mode = None if game == "all" else game
        stats = await self.bot.store.player_stats(user.id, guild_id=guild, mode=mode)
        name = shown_name(display_name(user))
        ratings = await self.bot.store.player_ratings(user.id, guild_id=guild, mode=mode)
        embed = boards.stats_embed(name, stats, ratings, guild, mode, lang)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name=_l("history", "cmd.history.name"),
        description=_l("A player's last matches, with a recap of each", "cmd.history.desc"),
    )
    @app_commands.describe(
        player=_l("Whose matches (default: yours)", "opt.history_player"),
        scope=_l("This server or all servers", "opt.scope"),
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def history(
        self, interaction: Interaction, player: discord.User | None = None, scope: str = "server"
    ) -> None:
        """A player's finished matches, newest first, 10 a page (issue 19 point 2): game, date, placement, points,
        opponents, rating change; a select opens the recap of any recorded match of the page."""
        user = player or interaction.user
        guild = interaction.guild_id if scope == "server" else None
        embed, components = await self.history_page(interaction, user.id, display_name(user), guild, 0)
        await interaction.response.send_message(embed=embed, view=components)

    @answered
    async def on_history_page(self, interaction: Interaction, user: int, guild: int | None, page: int) -> None:
        if guild is not None and guild != interaction.guild_id:
            guild = interaction.guild_id  # a forged id may not read another server's history
        name = await self.history_name(interaction, user)
        embed, components = await self.history_page(interaction, user, name, guild, page)
        await interaction.response.edit_message(embed=embed, view=components)

    async def history_name(self, interaction: Interaction, user: int) -> str:
        """The name a history page is titled with: the member's, else the name of their newest match."""
        member = interaction.guild.get_member(user) if interaction.guild is not None else None
        if member is not None:
            return display_name(member)
        stats = await self.bot.store.player_stats(user, guild_id=None, mode=None)
        return stats.display_name if stats is not None else str(user)

    async def history_page(
        self, interaction: Interaction, user: int, name: str, guild: int | None, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        lang = await self.lang(interaction)
        store = self.bot.store
        total = await store.match_history_count(user, guild_id=guild)
        page, pages = screens.page_of(total, HISTORY_PAGE, page)
        rows = await store.match_history(user, guild_id=guild, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE)
        scope = t("lb.scope_server", lang) if guild else t("lb.scope_global", lang)
        embed = history_embed(name, rows, lang, page, pages, scope)
        return embed, boards.history_components(user, guild, rows, page, pages, lang)

    @answered
    async def on_recap(self, interaction: Interaction, match_key: str) -> None:
        """The recap of the match ``match_key``, only for the one who asked, in their language."""
        lang = await self.lang(interaction)
        entries = await self.bot.store.match_record(match_key) if match_key and match_key != "-" else []
        if not entries or entries[0][0] != 0:  # none, or only the moves since an upgrade: no start entry
            await send_ephemeral(interaction, t("recap.none", lang))
            return
        try:
            told = recap(entries)
        except RecordError as exc:
            # an engine that no longer plays this record the same way (DESIGN "Saved formats and upgrades")
            log.warning("the record of match %s cannot be replayed: %s", match_key, exc)
            await send_ephemeral(interaction, t("recap.unreadable", lang))
            return
        await interaction.response.send_message(embed=recap_embed(told, lang), ephemeral=True)

    @app_commands.command(
        name=_l("settings", "cmd.settings.name"), description=_l("Server settings (Manage Server)", "cmd.settings.desc")
    )
    @app_commands.describe(
        default_game=_l("Game of /uno new without a choice", "opt.default_game"),
        turn_timer=_l("Seconds per turn", "opt.timer"),
        language=_l("Language of the bot in this server", "opt.language"),
        card_images=_l("Show card images (off: text only)", "opt.images"),
        default_target=_l(
            "Points that win a match of /uno new without a target (0: a single round)", "opt.default_target"
        ),
        turn_pings=_l("Mention the player whose turn it is in a short message", "opt.turn_pings"),
        game_threads=_l("Play each game in a thread of its own", "opt.game_threads"),
        season_period=_l("How long a season of this server's leaderboard lasts", "opt.season_period"),
        ai_level=_l("The level of the AI seat the lobby's Add AI adds", "opt.ai_level"),
        reset_rules=_l("Forget the saved rule options (back to the standard rules)", "opt.reset_rules"),
    )
    @app_commands.choices(
        default_game=GAME_CHOICES,
        language=LANGUAGE_CHOICES,
        season_period=PERIOD_CHOICES,
        ai_level=LEVEL_CHOICES,
    )
    async def settings(
        self,
        interaction: Interaction,
        default_game: str | None = None,
        turn_timer: app_commands.Range[int, TURN_TIMER_MIN, TURN_TIMER_MAX] | None = None,
        language: str | None = None,
        card_images: bool | None = None,
        default_target: app_commands.Range[int, 0, TARGET_SCORE_MAX] | None = None,
        turn_pings: bool | None = None,
        game_threads: bool | None = None,
        season_period: str | None = None,
        ai_level: str | None = None,
        reset_rules: bool | None = None,
    ) -> None:
        """Show or change the server's settings (Manage Server): the defaults of ``/uno new`` (game, target score,
        turn timer), language, card images, turn pings, a thread per game, the season period (issue 19 point 4) and
        the level of Add AI (issue 21 point 1). The default rules are changed in the panel its **Default rules**
        button opens (:mod:`cogs.uno.input.defaults`; ``reset_rules`` forgets them). Every value is checked here; one
        bad value changes nothing."""
        lang = await self.lang(interaction)
        if not is_admin(interaction):
            await interaction.response.send_message(t("error.no_permission", lang), ephemeral=True)
            return
        guild_id = guild_of(interaction)
        current = await self.bot.guild_settings(guild_id, strict=True)
        changes: dict[str, Any] = {}
        try:
            if default_game is not None:
                changes["default_mode"] = game_choice(default_game)
            if turn_timer is not None:
                changes["turn_timer"] = inputs.turn_timer(turn_timer)
            if language is not None:
                code = inputs.choice(language, ("auto", *LANGUAGES))
                changes["language"] = None if code == "auto" else code
            if card_images is not None:
                changes["text_only"] = not inputs.flag(card_images)
            if default_target is not None:
                changes["default_target_score"] = inputs.target_score(default_target)
            if turn_pings is not None:
                changes["turn_pings"] = inputs.flag(turn_pings)
            if game_threads is not None:
                changes["game_threads"] = inputs.flag(game_threads)
            if season_period is not None:
                changes["season_period"] = inputs.choice(season_period, SEASON_PERIODS)
            if ai_level is not None:
                changes["ai_level"] = inputs.choice(ai_level, AI_LEVELS)
            if reset_rules is not None and inputs.flag(reset_rules):
                changes["default_options"] = {}
            current = await self.bot.store.update_settings(guild_id, **changes) if changes else current
        except (AdapterError, InvalidInputError) as exc:
            await self.error(interaction, exc if isinstance(exc, AdapterError) else BadInput("bad_request"), lang)
            return
        self.bot.remember_settings(current)
        lang = await self.lang(interaction)
        embed = boards.settings_embed(current, rule_lines(saved_options(current), lang), lang, saved=bool(changes))
        await interaction.response.send_message(embed=embed, view=defaults_button(guild_id, lang), ephemeral=True)

    @app_commands.command(
        name=_l("prefs", "cmd.prefs.name"),
        description=_l("Your own display choices (only you see them)", "cmd.prefs.desc"),
    )
    @app_commands.describe(
        text_only=_l("Show your hand as text only, without card images", "opt.prefs_text_only"),
        large_cards=_l("Larger cards in your hand's image", "opt.prefs_large_cards"),
    )
    async def prefs(
        self, interaction: Interaction, text_only: bool | None = None, large_cards: bool | None = None
    ) -> None:
        """Show or change the user's own preferences, kept by the bot for every server and honoured whenever their
        hand is shown (ephemeral)."""
        lang = await self.lang(interaction)
        changes: dict[str, bool] = {}
        try:
            if text_only is not None:
                changes["text_only"] = inputs.flag(text_only)
            if large_cards is not None:
                changes["large_cards"] = inputs.flag(large_cards)
            user = interaction.user.id
            current = (
                await self.bot.store.update_prefs(user, **changes)
                if changes
                else await self.bot.user_prefs(user, strict=True)
            )
        except (AdapterError, InvalidInputError) as exc:
            await self.error(interaction, exc if isinstance(exc, AdapterError) else BadInput("bad_request"), lang)
            return
        self.bot.remember_prefs(current)
        await interaction.response.send_message(
            embed=boards.prefs_embed(current, lang, saved=bool(changes)), ephemeral=True
        )
