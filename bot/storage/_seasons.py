"""Seasons of the standings (issue 19 point 4): which season a moment belongs to, a season's dates, and what a match
adds to the seasons' standings.

A season is named by its key, in UTC: ``2026-W49`` (a week, ISO 8601: Monday to Sunday, numbered in the ISO year of
its Thursday), ``2026-12`` (a month), ``2026-Q4`` (a quarter). Every match of a server counts in the week, the month
and the quarter it ended in, whatever the server's period setting is (:attr:`GuildSettings.season_period` only says
which of them its board shows): a server that changes its period keeps a full history in the new one. The
all-servers board has monthly seasons only (:data:`bot.limits.GLOBAL_SEASON_PERIOD`). A season ends when the next
one starts; its standings are never changed again, so they are its archive.

The same keys are computed in SQL by the backfill of migration 0007 and by :meth:`SqlStore.rebuild_aggregates` (the
``{season:…}`` fragment of :mod:`bot.storage._dialect`); tests/storage/test_seasons.py checks that all three agree
across week, quarter and year boundaries.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from bot.limits import GLOBAL_SEASON_PERIOD, SEASON_PERIODS

from ._common import ALL_GUILDS, totals_upsert
from ._models import InvalidInputError

_KEY = re.compile(r"(?P<year>[0-9]{4})-(?:W(?P<week>[0-9]{2})|Q(?P<quarter>[1-4])|(?P<month>[0-9]{2}))")

SEASON_SCOPES: Final[tuple[tuple[bool, str], ...]] = (
    *((True, period) for period in SEASON_PERIODS),
    (False, GLOBAL_SEASON_PERIOD),
)
"""The seasons a match counts in: ``(in its server, period)``; ``False`` = the all-servers scope."""


def check_period(value: object, *, scope_global: bool = False) -> str:
    """A season period, one of :data:`bot.limits.SEASON_PERIODS` (the all-servers scope: only
    :data:`~bot.limits.GLOBAL_SEASON_PERIOD`); raises :class:`InvalidInputError` otherwise."""
    allowed = (GLOBAL_SEASON_PERIOD,) if scope_global else SEASON_PERIODS
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInputError(f"season period must be one of {', '.join(allowed)}")
    return value


def season_key(period: str, at: float) -> str:
    """The key of the ``period`` season (``weekly``, ``monthly`` or ``quarterly``) holding ``at`` (Unix seconds,
    UTC, years 1–9999): ``2026-W49``, ``2026-12``, ``2026-Q4``. Raises :class:`InvalidInputError` for an unknown
    period or a time that is not such a number."""
    period = check_period(period)
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise InvalidInputError("a season's time must be Unix seconds")
    try:
        day = datetime.fromtimestamp(at, UTC).date()
    except (OverflowError, OSError, ValueError):
        raise InvalidInputError(f"{at!r} is not a time a season can hold") from None
    if period == "weekly":
        year, week, _ = day.isocalendar()
        return f"{year:04d}-W{week:02d}"
    if period == "monthly":
        return f"{day.year:04d}-{day.month:02d}"
    return f"{day.year:04d}-Q{(day.month + 2) // 3}"


def season_period(key: str) -> str:
    """The period of a season key (``weekly``, ``monthly`` or ``quarterly``); :class:`InvalidInputError` for
    anything that is not a key :func:`season_key` gives."""
    season_bounds(key)
    m = _KEY.fullmatch(key)
    assert m is not None  # season_bounds checked it
    return "weekly" if m["week"] else "quarterly" if m["quarter"] else "monthly"


def check_season(value: object) -> str:
    """A season key as :func:`season_key` gives it; raises :class:`InvalidInputError` otherwise."""
    if not isinstance(value, str):
        raise InvalidInputError("season must be a season key such as 2026-12, 2026-W49 or 2026-Q4")
    season_bounds(value)
    return value


def season_bounds(key: str) -> tuple[float, float]:
    """The first moment of season ``key`` and the first moment after it, in Unix seconds (UTC): the season is
    ``start <= t < end``. Raises :class:`InvalidInputError` for a malformed key or one that does not exist (week 53 of
    a year of 52 weeks, month 13)."""
    m = _KEY.fullmatch(key) if isinstance(key, str) else None
    bad = InvalidInputError(f"{key!r} is not a season (2026-12, 2026-W49 or 2026-Q4)")
    if m is None:
        raise bad
    year = int(m["year"])
    try:
        if m["week"]:
            start = date.fromisocalendar(year, int(m["week"]), 1)
            end = start + timedelta(days=7)
        elif m["quarter"]:
            first = 3 * int(m["quarter"]) - 2
            start = date(year, first, 1)
            end = date(year + 1, 1, 1) if first == 10 else date(year, first + 3, 1)
        else:
            month = int(m["month"])
            start = date(year, month, 1)
            end = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    except (ValueError, OverflowError):  # OverflowError: a season ending past the year 9999 (9999-W52)
        raise bad from None
    return _unix(start), _unix(end)


def _unix(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def season_rows(totals: list[tuple[Any, ...]], ended_at: float) -> list[tuple[Any, ...]]:
    """What a match that ended at ``ended_at`` (Unix seconds) adds to ``season_standings``, from what it adds to
    ``player_totals`` (``totals``, as :func:`bot.storage._common.totals_rows` gives them): each row of the server's
    scopes once per period of :data:`SEASON_SCOPES`, each row of the all-servers scopes once for its period, with the
    season key after the guild id, sorted by key (concurrent writers lock rows in one order)."""
    keys = {(in_guild, period): season_key(period, ended_at) for in_guild, period in SEASON_SCOPES}
    rows = []
    for row in totals:
        in_guild = row[0] != ALL_GUILDS
        for (scope_guild, _), key in keys.items():
            if scope_guild == in_guild:
                rows.append((row[0], key, *row[1:]))
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3]))
    return rows


def season_counts(guild_id: int, ended_at: float) -> list[tuple[int, str, str]]:
    """The ``seasons`` rows a match counts one more match in: ``(guild, period, key)`` per :data:`SEASON_SCOPES`."""
    return sorted(
        (guild_id if in_guild else ALL_GUILDS, period, season_key(period, ended_at))
        for in_guild, period in SEASON_SCOPES
    )


__all__ = [
    "SEASON_SCOPES",
    "check_period",
    "check_season",
    "season_bounds",
    "season_counts",
    "season_key",
    "season_period",
    "season_rows",
]


# --- the statements, in the shared SQL of bot.storage._dialect ------------------------------------------------------

UPSERT_STANDING = totals_upsert("season_standings", ("guild_id", "season", "mode"))
"""What a match adds to one player's standing in one season (the parameters of :func:`season_rows`)."""

COUNT_MATCH = (
    "INSERT INTO seasons (guild_id, period, season, matches) VALUES ($1, $2, $3, 1) "
    "ON CONFLICT (guild_id, period, season) DO UPDATE SET matches = seasons.matches + 1"
)
"""One more match in a scope's season (the parameters of :func:`season_counts`)."""

_FACTS = (
    "WITH f AS (SELECT m.id AS match_id, m.guild_id, m.mode, p.user_id, "
    "CASE WHEN m.status = 'completed' AND p.placement = 1 THEN 1 ELSE 0 END AS won, "
    "CASE WHEN m.status = 'completed' THEN 1 ELSE 0 END AS completed, "
    "CASE WHEN m.status = 'abandoned' THEN 1 ELSE 0 END AS abandoned, p.rounds_won, p.points_scored, "
    + ", ".join(f"{{season:{period},m.ended_at}} AS {period}" for period in SEASON_PERIODS)
    + " FROM match_players AS p JOIN matches AS m ON m.id = p.match_id WHERE p.user_id IS NOT NULL), "
    "k (in_guild, period, all_modes) AS (VALUES "
    + ", ".join(
        f"({int(in_guild)}, '{period}', {all_modes})" for all_modes in (0, 1) for in_guild, period in SEASON_SCOPES
    )
    + ") "
)
_SEASON_OF_SCOPE = (
    "CASE k.period " + " ".join(f"WHEN '{period}' THEN f.{period}" for period in SEASON_PERIODS) + " END AS season"
)

REBUILD = (
    _FACTS + "INSERT INTO season_standings (guild_id, season, mode, user_id, display_name, last_match_id, wins, "
    "played, abandoned, rounds_won, points, win_rate) "
    "SELECT x.g, x.season, x.md, x.user_id, p.display_name, x.last_match_id, x.wins, x.played, x.abandoned, "
    "x.rounds_won, x.points, CASE WHEN x.played > 0 THEN CAST(x.wins AS DOUBLE PRECISION) / x.played ELSE 0.0 END "
    "FROM (SELECT g, season, md, user_id, max(match_id) AS last_match_id, sum(won) AS wins, sum(completed) AS played, "
    "sum(abandoned) AS abandoned, sum(rounds_won) AS rounds_won, sum(points_scored) AS points "
    "FROM (SELECT CASE WHEN k.in_guild = 1 THEN f.guild_id ELSE 0 END AS g, "
    f"{_SEASON_OF_SCOPE}, CASE WHEN k.all_modes = 1 THEN '*' ELSE f.mode END AS md, f.* "
    "FROM f CROSS JOIN k) AS y GROUP BY g, season, md, user_id) AS x "
    "JOIN match_players AS p ON p.match_id = x.last_match_id AND p.user_id = x.user_id",
    _FACTS + "INSERT INTO seasons (guild_id, period, season, matches) "
    "SELECT g, period, season, count(DISTINCT match_id) FROM (SELECT CASE WHEN k.in_guild = 1 THEN f.guild_id "
    f"ELSE 0 END AS g, k.period, {_SEASON_OF_SCOPE}, f.match_id FROM f CROSS JOIN k WHERE k.all_modes = 0) AS x "
    "GROUP BY g, period, season",
)
"""The statements that fill the emptied ``season_standings`` and ``seasons`` from the match tables (migration 0007's
backfill, in the shared SQL)."""
