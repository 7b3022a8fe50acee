"""The option tables of the ``/uno`` commands other than the rule options (those are derived from the engine's table
in :mod:`cogs.uno.input.rule_options`): which game, which scope, which order, which season period, which AI level,
which language (DESIGN "Discord layer"). Each choice's label is a catalogue key, translated for the Discord clients
by ``bot.i18n.translator``."""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

from bot.i18n import LANGUAGE_NAMES, LANGUAGES
from bot.limits import AI_LEVELS, SEASON_PERIODS

from . import inputs


def localised(text: str, key: str) -> locale_str:
    """A slash-command text: ``text`` in English, translated for the Discord clients through catalogue ``key``."""
    return locale_str(text, key=key)


_l = localised

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
PERIOD_CHOICES = [Choice(name=_l(period.title(), f"choice.period.{period}"), value=period) for period in SEASON_PERIODS]
LEVEL_CHOICES = [Choice(name=_l(level.title(), f"ai.level.{level}"), value=level) for level in AI_LEVELS]
ORDER_CHOICES = [
    Choice(name=_l("Most matches won", "choice.order_wins"), value="wins"),
    Choice(name=_l("Skill rating", "choice.order_rating"), value="rating"),
]
#: ``/uno settings language:``: each user's own, or one of the catalogues' languages by its own name.
LANGUAGE_CHOICES = [Choice(name=_l("Each user's Discord language", "choice.auto"), value="auto")] + [
    Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES
]


def game_choice(value: object) -> str:
    """``value`` if it is one of :data:`GAME_CHOICES`' values; :class:`~cogs.uno.input.inputs.BadInput` otherwise."""
    return inputs.choice(value, [c.value for c in GAME_CHOICES])


__all__ = [
    "GAME_CHOICES",
    "LANGUAGE_CHOICES",
    "LEVEL_CHOICES",
    "MODE_CHOICES",
    "ORDER_CHOICES",
    "PERIOD_CHOICES",
    "SCOPE_CHOICES",
    "game_choice",
    "localised",
]
