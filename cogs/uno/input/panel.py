"""The lobby's rule panel (issue 18 point 3): the host changes the table's rule options before **Start** from an
ephemeral message, built from the option table (:data:`bot.engine.options.RULE_OPTIONS`) so that a new rule appears
in it without code of its own. Its screen is :func:`cogs.uno.screens.rule_panels.panel_screen`; this module
carries out what its selects send.

The panel has up to four selects (Discord allows five rows):

- **preset**: Official, Party, Chaos (:data:`bot.engine.options.PRESETS`);
- **flags**: every on/off option of the game, ticked when on (a multi-select: untick to switch off);
- **pick**: every other option of the game (choices and numbers), its current value beside it; choosing one shows
- **set**: that option's values, the current one selected.

Everything the panel sends is checked again here and by the adapter (:meth:`SessionManager.set_options`), which
commits the change before the lobby is repainted; the panel is then redrawn from the committed session. Only the host
may change the rules (everyone else is told so, and changes nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import AdapterError, SessionManager, SessionView, Status
from bot.adapter.refusals import AlreadyStarted, GameFinished, NoGame, NotHost
from bot.engine.errors import RuleError
from bot.engine.options import PRESETS, RuleOption
from bot.i18n import t

from ..output.replies import bad_request, error_text, send_ephemeral
from ..screens.rule_panels import panel_screen, rows_for
from . import inputs
from .rule_options import checked

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]


def _value(row: RuleOption, text: str) -> Any:
    """A select's value for ``row`` as the option's type, checked (:func:`cogs.uno.input.rule_options.checked`)."""
    if row.kind is int:
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise inputs.BadInput("bad_option")
        return checked(row, int(text))
    return checked(row, text)


def changes_of(session: SessionView, verb: str, arg: str, values: list[str]) -> tuple[str | None, dict[str, Any]]:
    """What a panel select asks: ``(preset or None, {option: value})``, every name and value checked against the
    table and the game (:class:`~cogs.uno.input.inputs.BadInput` for anything a real panel could not send)."""
    return changes_for(rows_for(session), verb, arg, values)


def changes_for(offered: list[RuleOption], verb: str, arg: str, values: list[str]) -> tuple[str | None, dict[str, Any]]:
    """:func:`changes_of` for a panel offering the rows ``offered``."""
    rows = {row.name: row for row in offered}
    if verb == "preset":
        if len(values) != 1 or values[0] not in PRESETS:
            raise inputs.BadInput("bad_option")
        return values[0], {}
    if verb == "flags":
        flags = [name for name, row in rows.items() if row.kind is bool]
        if len(set(values)) != len(values) or not set(values) <= set(flags):
            raise inputs.BadInput("bad_option")
        return None, {name: name in values for name in flags}
    if verb == "set":
        row = rows.get(arg)
        if row is None or row.kind is bool or len(values) != 1:
            raise inputs.BadInput("bad_option")
        return None, {row.name: _value(row, values[0])}
    raise bad_request()


class RulesPanel:
    """Opens the panel (the lobby's **Rules** button) and carries out its selects."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot

    @property
    def manager(self) -> SessionManager:
        return self.bot.manager

    def _lobby(self, channel: int, user: int) -> SessionView:
        session = self.manager.snapshot(channel)
        if session is None:
            raise NoGame("no game in this channel")
        if session.status is not Status.LOBBY:
            raise AlreadyStarted("started") if session.status is Status.PLAYING else GameFinished("over")
        if user != session.host_id:
            raise NotHost("only the host can change the rules")
        return session

    async def _refuse(self, interaction: Interaction, error: Exception, lang: str) -> None:
        text = t("panel.host_only", lang) if isinstance(error, NotHost) else error_text(error, lang, self.bot.mentions)
        await send_ephemeral(interaction, text)

    async def open(self, interaction: Interaction, channel: int, lang: str) -> None:
        """The lobby's **Rules** button: the panel for the host, a short refusal for anyone else."""
        try:
            session = self._lobby(channel, interaction.user.id)
        except AdapterError as exc:
            await self._refuse(interaction, exc, lang)
            return
        with panel_screen(session, lang) as screen:
            await interaction.response.send_message(ephemeral=True, **screen.send_kwargs())

    async def on_select(self, interaction: Interaction, verb: str, channel: int, arg: str, values: list[str]) -> None:
        """A panel select: ``pick`` only shows an option's values; the others change the rules (committed through
        the adapter) and the panel is redrawn from the committed session."""
        lang = await self.bot.language(interaction)
        try:
            session = self._lobby(channel, interaction.user.id)
            if verb == "pick":
                if len(values) != 1 or values[0] not in {row.name for row in rows_for(session)}:
                    raise inputs.BadInput("bad_option")
                with panel_screen(session, lang, values[0]) as screen:
                    await interaction.response.edit_message(**screen.edit_kwargs())
                return
            preset_name, changes = changes_of(session, verb, arg, values)
            await interaction.response.defer()
            await self.manager.set_options(channel, interaction.user.id, changes, preset_name=preset_name)
        except (AdapterError, RuleError) as exc:
            await self._refuse(interaction, exc, lang)
            return
        session = self._lobby(channel, interaction.user.id)
        with panel_screen(session, lang, arg if verb == "set" else None) as screen:
            await interaction.edit_original_response(**screen.edit_kwargs())


__all__ = ["RulesPanel", "changes_for", "changes_of"]
