"""The boards and pages of the ``/uno`` commands that read the store rather than a game (DESIGN "Discord layer"):
``/uno leaderboard`` (by match wins, by skill rating, a season's), ``/uno stats``, the page buttons of each, the
components of a ``/uno history`` page, and the answers of ``/uno settings`` and ``/uno prefs``. Pure builders: rows
and settings in, a message's parts out, in ``lang``."""

from __future__ import annotations

import time
from collections.abc import Sequence

import discord

from bot.i18n import LANGUAGE_NAMES, t, tn
from bot.limits import RATING_MIN_MATCHES, RATING_TREND_MATCHES
from bot.storage import (
    GuildSettings,
    HistoryRow,
    LeaderboardRow,
    PlayerRating,
    PlayerStats,
    RatingRow,
    UserPrefs,
    season_bounds,
)

from .components import HistoryButton, HistoryRecapSelect, LeaderboardButton, SeasonBoardButton
from .recap import history_option
from .text import board_lines, shown_name


def _scope_and_game(guild: int | None, mode: str | None, lang: str) -> tuple[str, str]:
    """A board's scope (this server, all servers) and game (one, or all games), in ``lang``."""
    scope = t("lb.scope_server", lang) if guild else t("lb.scope_global", lang)
    game = t(f"mode.{mode}", lang) if mode else t("lb.all_games", lang)
    return scope, game


def rating_board_embed(
    rated: Sequence[RatingRow], guild: int | None, mode: str, page: int, pages: int, lang: str
) -> discord.Embed:
    """One page (``page`` of ``pages``, from 0) of the by-rating board of ``guild`` (``None``: all servers) and
    ``mode`` (issue 19 point 3): its ``rated`` rows."""
    scope, game = _scope_and_game(guild, mode, lang)
    embed = discord.Embed(title=t("lb.title_rating", lang, scope=scope, game=game), colour=0xFFD600)
    lines = [
        t(
            "lb.rating_row",
            lang,
            rank=r.rank,
            name=shown_name(r.display_name),
            rating=r.rating,
            matches=r.matches,
            wins=r.wins,
            played=r.played,
        )
        for r in rated
    ]
    embed.description = "\n".join(lines) if lines else tn("lb.rating_empty", RATING_MIN_MATCHES, lang)
    embed.set_footer(text=tn("lb.rating_footer", RATING_MIN_MATCHES, lang, page=page + 1, pages=pages))
    return embed


def wins_board_embed(
    rows: list[LeaderboardRow], guild: int | None, mode: str | None, page: int, pages: int, lang: str
) -> discord.Embed:
    """One page (``page`` of ``pages``, from 0) of the board by match wins of ``guild`` (``None``: all servers) and
    ``mode`` (``None``: all games): its ``rows``."""
    scope, game = _scope_and_game(guild, mode, lang)
    embed = discord.Embed(title=t("lb.title", lang, scope=scope, game=game), colour=0xFFD600)
    lines = board_lines(rows, lang)
    embed.description = "\n".join(lines) if lines else t("lb.empty", lang)
    embed.set_footer(text=t("lb.footer", lang, page=page + 1, pages=pages))
    return embed


def leaderboard_buttons(guild: int | None, mode: str | None, page: int, pages: int, order: str) -> discord.ui.View:
    """The ◀ ▶ buttons of a board's page ``page`` of ``pages`` (from 0; each disabled at its end)."""
    components = discord.ui.View(timeout=None)
    components.add_item(LeaderboardButton(guild, mode, max(page - 1, 0), "p", "◀", disabled=page == 0, order=order))
    components.add_item(
        LeaderboardButton(guild, mode, min(page + 1, pages - 1), "n", "▶", disabled=page >= pages - 1, order=order)
    )
    return components


def season_header(key: str, lang: str, now: float) -> str:
    """The board's first line: which season, its dates (Discord timestamps) and whether it is still on."""
    start, end = season_bounds(key)
    state = t("lb.season_on", lang, end=f"<t:{int(end)}:R>") if start <= now < end else t("lb.season_over", lang)
    return t("lb.season_line", lang, season=key, start=f"<t:{int(start)}:D>", end=f"<t:{int(end) - 1}:D>", state=state)


def season_embed(
    rows: list[LeaderboardRow], guild: int | None, mode: str | None, key: str, page: int, pages: int, lang: str
) -> discord.Embed:
    """One page (``page`` of ``pages``, from 0) of season ``key``'s board of ``guild`` (``None``: all servers) and
    ``mode`` (``None``: all games): its ``rows``, under the season's line."""
    scope = t("lb.scope_server", lang) if guild else t("lb.scope_global", lang)
    game = t(f"mode.{mode}", lang) if mode else t("lb.all_games", lang)
    embed = discord.Embed(title=t("lb.title_season", lang, scope=scope, game=game, season=key), colour=0xFFD600)
    lines = board_lines(rows, lang)
    body = "\n".join(lines) if lines else t("lb.season_empty", lang)
    embed.description = season_header(key, lang, time.time()) + "\n\n" + body
    embed.set_footer(text=t("lb.footer", lang, page=page + 1, pages=pages))
    return embed


def season_buttons(guild: int | None, mode: str | None, key: str, page: int, pages: int) -> discord.ui.View:
    """The ◀ ▶ buttons of page ``page`` of ``pages`` (from 0) of season ``key``'s board."""
    components = discord.ui.View(timeout=None)
    components.add_item(SeasonBoardButton(guild, mode, key, max(page - 1, 0), "p", "◀", disabled=page == 0))
    components.add_item(
        SeasonBoardButton(guild, mode, key, min(page + 1, pages - 1), "n", "▶", disabled=page >= pages - 1)
    )
    return components


def history_components(
    user: int, guild: int | None, rows: Sequence[HistoryRow], page: int, pages: int, lang: str
) -> discord.ui.View:
    """The components of a ``/uno history`` page (issue 19 point 2): a select of the recap of each recorded match of
    its ``rows`` (none without one), and the ◀ ▶ buttons of page ``page`` of ``pages`` (from 0)."""
    components = discord.ui.View(timeout=None)
    recorded = [history_option(r, lang) for r in rows if r.recorded]
    if recorded:
        components.add_item(HistoryRecapSelect(user, page, t("history.recap_pick", lang), recorded))
    components.add_item(HistoryButton(user, guild, max(page - 1, 0), "p", "◀", disabled=page == 0))
    components.add_item(HistoryButton(user, guild, min(page + 1, pages - 1), "n", "▶", disabled=page >= pages - 1))
    return components


def rating_line(r: PlayerRating, lang: str) -> str:
    """One game's line of ``/uno stats``' rating field (issue 19 point 3): the rating, its rank on the by-rating
    board (or how many rated matches it takes to be ranked) and its trend over the last rated matches."""
    rank = (
        t("stats.rating_rank", lang, rank=r.rank, of=r.ranked_players)
        if r.rank is not None
        else tn("stats.rating_unranked", RATING_MIN_MATCHES, lang)
    )
    arrow = "▲" if r.trend > 0 else "▼" if r.trend < 0 else "="
    change = f"{arrow} {r.trend:+d}" if r.trend else arrow
    trend = tn("stats.rating_trend", min(r.matches, RATING_TREND_MATCHES), lang, change=change)
    return t("stats.rating_line", lang, game=t(f"mode.{r.mode}", lang), rating=r.rating, rank=rank, trend=trend)


def stats_embed(
    name: str,
    stats: PlayerStats | None,
    ratings: Sequence[PlayerRating],
    guild: int | None,
    mode: str | None,
    lang: str,
) -> discord.Embed:
    """``/uno stats``: the record of the player called ``name`` in ``guild`` (``None``: all servers) and ``mode``
    (``None``: all games), their rank (none without a match won), and a line per game they are rated in."""
    embed = discord.Embed(title=t("stats.title", lang, name=name), colour=0x1E88E5)
    if stats is None:
        embed.description = t("stats.none", lang)
    else:
        rank = (
            t("stats.rank", lang, rank=stats.rank, of=stats.ranked_players)
            if stats.rank  # None without a match won: no "Rank 1 of 1" after a loss (issue 18 point 5)
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
    if ratings:
        embed.add_field(
            name=t("stats.rating_title", lang),
            value="\n".join(rating_line(r, lang) for r in ratings),
            inline=False,
        )
    scope_text, game_text = _scope_and_game(guild, mode, lang)
    embed.set_footer(text=f"{scope_text} · {game_text}")
    return embed


def settings_embed(current: GuildSettings, rules: list[str], lang: str, *, saved: bool) -> discord.Embed:
    """``/uno settings``' answer: the server's ``current`` settings, with ``rules`` the lines of its default rules
    (none: the standard rules), titled as saved when ``saved``."""
    text = t(
        "settings.current",
        lang,
        game=t(f"mode.{current.default_mode}", lang),
        timer=current.turn_timer,
        language=LANGUAGE_NAMES.get(current.language or "", t("settings.auto", lang)),
        images=t("settings.on", lang) if not current.text_only else t("settings.off", lang),
    )
    target = current.default_target_score
    text += "\n" + t(
        "settings.defaults",
        lang,
        target=target if target else t("settings.single_round", lang),
        pings=t("settings.enabled" if current.turn_pings else "settings.disabled", lang),
        threads=t("settings.enabled" if current.game_threads else "settings.disabled", lang),
        rules=("\n" + "\n".join(f"• {line}" for line in rules)) if rules else t("settings.standard_rules", lang),
    )
    text += "\n" + t(
        "settings.seasons_ai",
        lang,
        period=t(f"choice.period.{current.season_period}", lang),
        level=t(f"ai.level.{current.ai_level}", lang),
    )
    if current.language is None:  # how the tables' language is chosen, and how to choose it (issue 18 point 5)
        text += "\n\n" + t("settings.auto_tables", lang)
    text += "\n\n" + t("settings.rules_hint", lang)
    title = t("settings.saved", lang) if saved else t("settings.title", lang)
    return discord.Embed(title=title, description=text)


def prefs_embed(current: UserPrefs, lang: str, *, saved: bool) -> discord.Embed:
    """``/uno prefs``' answer: the user's ``current`` preferences, titled as saved when ``saved``."""
    text = t(
        "prefs.current",
        lang,
        text_only=t("settings.enabled" if current.text_only else "settings.disabled", lang),
        large_cards=t("settings.enabled" if current.large_cards else "settings.disabled", lang),
    )
    title = t("prefs.saved", lang) if saved else t("prefs.title", lang)
    return discord.Embed(title=title, description=text)


__all__ = [
    "history_components",
    "leaderboard_buttons",
    "prefs_embed",
    "rating_board_embed",
    "rating_line",
    "season_buttons",
    "season_embed",
    "season_header",
    "settings_embed",
    "stats_embed",
    "wins_board_embed",
]
