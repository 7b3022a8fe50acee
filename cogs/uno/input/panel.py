"""The lobby's rule panel (issue 18 point 3): the host changes the table's rule options before **Start** from an
ephemeral message, built from the option table (:data:`bot.engine.options.RULE_OPTIONS`) so that a new rule appears
in it without code of its own.

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

from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.adapter import AdapterError, SessionManager, SessionView, Status
from bot.adapter.refusals import AlreadyStarted, GameFinished, NoGame, NotHost
from bot.engine.errors import RuleError
from bot.engine.options import PRESETS, RULE_OPTIONS, Options, RuleOption
from bot.i18n import t

from ..output.replies import bad_request, error_text, send_ephemeral
from ..screens import MODE_COLOUR, Screen, game_name, options_text
from ..screens.components import RuleSelect
from ..screens.rule_lines import house_lines, label, value_label
from . import inputs
from .rule_options import checked

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]


def rows_for(session: SessionView) -> list[RuleOption]:
    """The rule options the panel offers for ``session``'s game, in the order of the table."""
    return [row for row in RULE_OPTIONS.values() if row.applies_to(session.mode)]


def _option(row: RuleOption, value: object, lang: str, *, current: object = None) -> discord.SelectOption:
    return discord.SelectOption(label=value_label(row, value, lang)[:100], value=str(value), default=value == current)


def panel_screen(session: SessionView, lang: str, picked: str | None = None) -> Screen:
    """The panel for ``session`` (a lobby) in ``lang``; ``picked``: the option whose values the last select shows."""
    ch = session.channel_id
    o = session.options
    embed = discord.Embed(
        title=t("panel.title", lang, game=game_name(session.mode, lang)), colour=MODE_COLOUR[session.mode]
    )
    embed.description = t("panel.intro", lang)
    embed.add_field(name=t("lobby.options", lang), value=options_text(session, lang), inline=False)
    house = house_lines(o, lang, session.mode)
    embed.add_field(
        name=t("lobby.house_rules", lang), value="\n".join(house) if house else t("panel.no_house_rules", lang)
    )
    components = discord.ui.View(timeout=None)
    for item in rule_selects(
        rows_for(session),
        o,
        lang,
        picked,
        lambda verb, arg, placeholder, options, **kw: RuleSelect(verb, ch, arg, placeholder, options, **kw),
    ):
        components.add_item(item)
    return Screen(embed=embed, view=components)


class SelectMaker(Protocol):
    """Builds one select of a rule panel: ``verb`` (preset, flags, pick, set), ``arg`` (the option a ``set``
    changes), its placeholder and options; ``row``, ``min_values``, ``max_values`` as discord.py's."""

    def __call__(
        self, verb: str, arg: str, placeholder: str, options: list[discord.SelectOption], **kw: Any
    ) -> discord.ui.Item[Any]: ...


def rule_selects(
    rows: list[RuleOption], o: Options, lang: str, picked: str | None, make: SelectMaker
) -> list[discord.ui.Item[Any]]:
    """The selects of a rule panel over ``rows`` at options ``o`` (a lobby's, or a server's defaults: see
    :mod:`cogs.uno.input.defaults`), one per row of the message: the preset, the on/off options, the pick of another
    option and, once one is ``picked``, its values."""
    flags = [row for row in rows if row.kind is bool]
    others = [row for row in rows if row.kind is not bool]
    items = [
        make(
            "preset",
            "",
            t("panel.preset", lang),
            [
                discord.SelectOption(
                    label=t(f"panel.preset.{name}", lang), value=name, description=t(f"panel.preset.{name}.desc", lang)
                )
                for name in PRESETS
            ],
            row=0,
        )
    ]
    if flags:
        items.append(
            make(
                "flags",
                "",
                t("panel.flags", lang),
                [
                    discord.SelectOption(
                        label=label(row, lang)[:100], value=row.name, default=bool(getattr(o, row.name))
                    )
                    for row in flags
                ],
                row=1,
                min_values=0,
                max_values=len(flags),
            )
        )
    if others:
        items.append(
            make(
                "pick",
                "",
                t("panel.pick", lang),
                [
                    discord.SelectOption(
                        label=label(row, lang)[:100],
                        value=row.name,
                        description=value_label(row, getattr(o, row.name), lang)[:100],
                        default=row.name == picked,
                    )
                    for row in others
                ],
                row=2,
            )
        )
    row = RULE_OPTIONS.get(picked or "")
    if row is not None and row in others:
        current = getattr(o, row.name)
        values = list(row.values) if current in row.values else sorted([*row.values, current])
        items.append(
            make("set", row.name, label(row, lang), [_option(row, v, lang, current=current) for v in values], row=3)
        )
    return items


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


__all__ = ["RulesPanel", "SelectMaker", "changes_for", "changes_of", "panel_screen", "rows_for", "rule_selects"]
