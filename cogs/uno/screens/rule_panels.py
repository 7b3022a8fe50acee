"""The rule panels' screens (DESIGN "Discord layer", screens): the lobby's rule panel (issue 18 point 3) and the same
panel for a server's default rules (``/uno settings``' **Default rules**), built from the engine's option table
(:data:`bot.engine.options.RULE_OPTIONS`) so that a new rule appears in them without code of its own; the lines of a
server's default rules. What their selects send back is checked and carried out by :mod:`cogs.uno.input.panel` and
:mod:`cogs.uno.input.defaults`."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.adapter import SessionView
from bot.engine.options import PRESETS, RULE_OPTIONS, Options, RuleOption
from bot.i18n import t
from bot.storage import GuildSettings

from . import MODE_COLOUR, Screen, game_name, house, option_lines, options_text
from .components import DefaultsButton, DefaultsSelect, RuleSelect
from .rule_lines import house_lines, label, value_label


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


ROWS: list[RuleOption] = [row for row in RULE_OPTIONS.values() if row.slash]
"""The options the panel offers: those of ``/uno new``, every game's."""


def saved_options(settings: GuildSettings) -> Options:
    """The server's default rules as options (the standard rules where it saved none)."""
    return Options.from_dict(settings.default_options)


def rule_lines(options: Options, lang: str) -> list[str]:
    """One line per default rule that differs from the standard rules (the lines ``/uno settings`` shows)."""
    return option_lines(options, None, lang) + house.option_lines(options, lang)


def defaults_screen(settings: GuildSettings, lang: str, picked: str | None = None) -> Screen:
    """The panel of ``settings``' default rules in ``lang``; ``picked``: the option whose values the last select
    shows."""
    guild = settings.guild_id
    o = saved_options(settings)
    embed = discord.Embed(title=t("defaults.title", lang), description=t("defaults.intro", lang), colour=0xFFD600)
    lines = rule_lines(o, lang)
    embed.add_field(
        name=t("defaults.current", lang),
        value="\n".join(f"• {line}" for line in lines)[:1024] if lines else t("settings.standard_rules", lang),
        inline=False,
    )
    components = discord.ui.View(timeout=None)
    for item in rule_selects(
        ROWS,
        o,
        lang,
        picked,
        lambda verb, arg, placeholder, options, **kw: DefaultsSelect(verb, guild, arg, placeholder, options, **kw),
    ):
        components.add_item(item)
    return Screen(embed=embed, view=components)


def defaults_button(guild: int, lang: str) -> discord.ui.View:
    """The components under ``/uno settings``' answer: its **Default rules** button."""
    components = discord.ui.View(timeout=None)
    components.add_item(DefaultsButton(guild, t("btn.default_rules", lang)))
    return components


__all__ = [
    "ROWS",
    "SelectMaker",
    "defaults_button",
    "defaults_screen",
    "panel_screen",
    "rows_for",
    "rule_lines",
    "rule_selects",
    "saved_options",
]
