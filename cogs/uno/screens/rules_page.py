"""``/uno rules``: a summary of each game's rules in the reader's language (catalogue keys ``rules.<game>.*``)."""

from __future__ import annotations

import discord

from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.engine.teams import plays_teams
from bot.i18n import t, tn

from .rule_lines import house_explanations

#: Sections of each game's summary, in order: (title key, text key).
SECTIONS: dict[Mode, tuple[str, ...]] = {
    Mode.CLASSIC: ("goal", "turn", "actions", "wild_draw", "uno", "scoring"),
    Mode.FLIP: ("goal", "sides", "light", "dark", "flip", "challenge", "scoring"),
    Mode.FLEX: ("goal", "power", "flex", "actions", "challenge", "scoring"),
}


def rules_embed(mode: Mode, lang: str, target: int, options: Options | None = None) -> discord.Embed:
    """The rules of ``mode`` as an embed (SPEC sections G, C, F, X summarised); its goal names ``target``, the points
    that win the match (0: a single round decides it, SPEC G9). With the ``options`` of a table, the house rules in
    force there are explained too (SPEC H), and the partner game when the table plays it (SPEC T)."""
    goal = tn("rules.target", target, lang) if target else t("rules.single_round", lang)
    if options is not None and options.elimination:  # house rule elimination (SPEC H9): to the last one in
        goal = t("lobby.house.elimination", lang, n=options.elimination)
    embed = discord.Embed(title=t(f"rules.{mode.value}.title", lang), colour=0x5C6BC0)
    for section in SECTIONS[mode]:
        embed.add_field(
            name=t(f"rules.{mode.value}.{section}.title", lang),
            value=t(f"rules.{mode.value}.{section}", lang, **({"target": goal} if section == "goal" else {}))[:1024],
            inline=False,
        )
    if options is not None and plays_teams(mode, options):  # SPEC T: the partner game
        embed.add_field(name=t("lobby.teams", lang), value=t("rules.teams", lang), inline=False)
    for title, text in house_explanations(mode, options, lang) if options is not None else []:
        embed.add_field(name=title, value=text[:1024], inline=False)
    embed.set_footer(text=t("rules.footer", lang))
    return embed
