"""The server's default rules (``/uno settings`` had reached Discord's 25 options a command, and needed room for the
season period and the AI level): the lobby's rule panel (:mod:`cogs.uno.input.panel`) opened from ``/uno settings``'
**Default rules** button, changing the rules every new table of the server starts from
(:attr:`bot.storage.GuildSettings.default_options`) instead of one lobby's.

The panel offers every rule option of ``/uno new`` of every game (from the one option table,
:data:`bot.engine.options.RULE_OPTIONS`; the game-specific ones say their game in their label), in the same selects:
a preset, the on/off options, the pick of another option and its values. A preset here applies to every game (Chaos:
every house rule of any game on, elimination aside; a table plays those of its game). The target score has its own
option of ``/uno settings`` (``default_target``), as ``/uno new`` has ``target``. Only server managers (Manage Server)
may open it or change anything through it; a change is checked against the table, saved, then the panel is redrawn
from what was saved. Its screen is :func:`cogs.uno.screens.rule_panels.defaults_screen`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.options import KEPT_BY_PRESETS, PRESETS, RULE_OPTIONS, OptionError, Options
from bot.i18n import t
from bot.storage import InvalidInputError

from ..output.replies import answered, bad_request, send_ephemeral
from ..screens.rule_panels import ROWS, defaults_screen, saved_options
from .clicks import is_admin
from .inputs import BadInput
from .panel import changes_for

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]


def with_preset(name: str, options: Options) -> Options:
    """``options`` with preset ``name`` for every game: the options of ``/uno new`` back to the standard rules, then
    the preset's values (the target score, the options ``/uno new`` does not take and ``teams`` are kept, as a lobby's
    preset keeps them: :data:`bot.engine.options.KEPT_BY_PRESETS`)."""
    values: dict[str, Any] = {
        n: getattr(options, n) for n, row in RULE_OPTIONS.items() if not row.slash or n in KEPT_BY_PRESETS
    }
    values.update(PRESETS[name])
    return Options(**values)


#: How a refusal is answered: the cog's one error reply (``error.<code>``, ephemeral).
ErrorReply = Callable[[Interaction, Exception, str], Awaitable[None]]


class DefaultsPanel:
    """Opens the server's default-rules panel and carries out its selects; ``error`` answers a refusal."""

    def __init__(self, bot: UnoBot, error: ErrorReply) -> None:
        self.bot = bot
        self.error = error

    async def lang(self, interaction: Interaction) -> str:
        return await self.bot.language(interaction)

    async def _allowed(self, interaction: Interaction, guild: int, lang: str) -> bool:
        """Only a server manager of this very server (a forged guild id changes nothing)."""
        if interaction.guild_id != guild or not is_admin(interaction):
            await send_ephemeral(interaction, t("error.no_permission", lang))
            return False
        return True

    @answered
    async def open(self, interaction: Interaction, guild: int) -> None:
        """The **Default rules** button: the panel, only for the one who pressed it."""
        lang = await self.bot.language(interaction)
        if not await self._allowed(interaction, guild, lang):
            return
        settings = await self.bot.guild_settings(guild, strict=True)
        with defaults_screen(settings, lang) as screen:
            await interaction.response.send_message(ephemeral=True, **screen.send_kwargs())

    @answered
    async def on_select(self, interaction: Interaction, verb: str, guild: int, arg: str, values: list[str]) -> None:
        """A select of the panel: ``pick`` only shows an option's values; the others change the server's default
        rules (saved, then the panel is redrawn from what was saved). Anything a real panel could not send is
        refused in one line and changes nothing."""
        lang = await self.bot.language(interaction)
        if not await self._allowed(interaction, guild, lang):
            return
        settings = await self.bot.guild_settings(guild, strict=True)
        try:
            if verb == "pick":
                if len(values) != 1 or values[0] not in {row.name for row in ROWS}:
                    raise BadInput("bad_option")
                with defaults_screen(settings, lang, values[0]) as screen:
                    await interaction.response.edit_message(**screen.edit_kwargs())
                return
            preset_name, changes = changes_for(ROWS, verb, arg, values)
            base = saved_options(settings)
            if preset_name is not None:
                base = with_preset(preset_name, base)
            try:
                options = Options.from_dict({**base.to_dict(), **changes})
            except OptionError as exc:  # SPEC T6: partners and elimination, with its own reason
                raise BadInput(exc.code) from exc
            settings = await self.bot.store.update_settings(guild, default_options=options.to_dict())
        except (BadInput, InvalidInputError) as exc:
            await self.error(interaction, exc if isinstance(exc, BadInput) else bad_request(), lang)
            return
        self.bot.remember_settings(settings)
        with defaults_screen(settings, lang, arg if verb == "set" else None) as screen:
            await interaction.response.edit_message(**screen.edit_kwargs())


__all__ = ["DefaultsPanel", "with_preset"]
