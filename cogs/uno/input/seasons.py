"""Seasons in Discord (issue 19 point 4): the ``season`` option of ``/uno leaderboard`` (its autocomplete of a
scope's seasons, the check of what a user typed); the page of a season's board is
:func:`cogs.uno.screens.boards.season_embed`'s.

A server's board shows the seasons of its period setting (``/uno settings season_period``: weekly, monthly or
quarterly; the seasons of the other periods are kept too and can be asked for by key, e.g. ``2026-W49``); the
all-servers board has monthly seasons (:data:`bot.limits.GLOBAL_SEASON_PERIOD`). Seasons are in UTC
(:mod:`bot.storage._seasons`); the board gives a season's dates as Discord timestamps, which each reader's client
shows in their own language and time zone.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol

from discord.app_commands import Choice

from bot.i18n import t
from bot.limits import GLOBAL_SEASON_PERIOD
from bot.storage import (
    GuildSettings,
    InvalidInputError,
    Season,
    StorageUnavailable,
    Store,
    season_bounds,
    season_key,
    season_period,
)

from ..screens.text import folded
from .inputs import BadInput

CURRENT = "current"
"""The ``season`` value of the season in progress (the first choice of the autocomplete)."""
SEASON_CHOICES = 25
"""Seasons the autocomplete offers (Discord shows at most 25 choices)."""


class SeasonSource(Protocol):
    """What the seasons read: a server's settings (its season period) and the store (the seasons it holds). The bot
    (:class:`~bot.client.UnoBot`) is one."""

    @property
    def store(self) -> Store: ...

    async def guild_settings(self, guild_id: int | None) -> GuildSettings: ...


async def period_of(bot: SeasonSource, guild: int | None) -> str:
    """The period of ``guild``'s seasons (its setting), or the all-servers board's (``guild`` ``None``)."""
    return GLOBAL_SEASON_PERIOD if guild is None else (await bot.guild_settings(guild)).season_period


def _day(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


def choice_label(season: Season, lang: str, *, current: bool) -> str:
    """An autocomplete line: the season's key, its dates (ISO, UTC: a choice's name cannot hold a Discord timestamp)
    and how many matches it counts; the season in progress says so."""
    key = "lb.season_choice_current" if current else "lb.season_choice"
    return t(key, lang, season=season.key, start=_day(season.start), end=_day(season.end - 1), matches=season.matches)


async def season_choices(bot: SeasonSource, guild: int | None, typed: str, lang: str) -> list[Choice[str]]:
    """The autocomplete of ``season``: the scope's season in progress, then its earlier seasons with matches, newest
    first, those whose line contains what the user typed (accents and case aside); none while the database is
    unavailable."""
    try:
        seasons = await bot.store.seasons(
            guild_id=guild, period=await period_of(bot, guild), now=time.time(), limit=SEASON_CHOICES
        )
    except StorageUnavailable:  # logged once per outage by the store; the user can still type "current" or a key
        return []
    out = []
    for i, season in enumerate(seasons):
        label = choice_label(season, lang, current=i == 0)[:100]
        if folded(typed) in folded(label):
            out.append(Choice(name=label, value=CURRENT if i == 0 else season.key))
    return out


async def resolve(bot: SeasonSource, guild: int | None, value: object, now: float) -> str:
    """The season key a ``season`` value names: :data:`CURRENT` is the scope's season in progress; a key must be one
    the scope keeps (any period for a server, a month for all servers) and must have started; its case and the spaces
    around it do not matter. :class:`BadInput` ``bad_season`` otherwise."""
    if not isinstance(value, str):
        raise BadInput("bad_season")
    if value.strip().lower() == CURRENT:
        return season_key(await period_of(bot, guild), now)
    key = value.strip().upper()  # typed by hand: 2026-w49, 2026-q4
    try:
        start, _ = season_bounds(key)
        period = season_period(key)
    except InvalidInputError:
        raise BadInput("bad_season") from None
    if (guild is None and period != GLOBAL_SEASON_PERIOD) or start > now:
        raise BadInput("bad_season")
    return key


__all__ = ["CURRENT", "SeasonSource", "choice_label", "period_of", "resolve", "season_choices"]
