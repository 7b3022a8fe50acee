"""What both stores share: reading settings and live-game rows back, the leaderboard scopes, the totals a match adds.

One home for each rule, so that SQLite and PostgreSQL give the same answers (tests/storage runs on both).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable
from typing import Any, Final

from bot.limits import (
    AI_LEVEL_DEFAULT,
    AI_LEVELS,
    SEASON_PERIOD_DEFAULT,
    SEASON_PERIODS,
    TARGET_SCORE_DEFAULT,
    TARGET_SCORE_MAX,
)

from ._models import (
    DEFAULT_MODE,
    DEFAULT_TURN_TIMER,
    LANGUAGES,
    MODES,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    UNSET,
    GuildSettings,
    InvalidInputError,
    LiveGame,
    MatchResult,
    OptionsValidator,
    UserPrefs,
    _Unset,
    check_ai_level,
    check_default_options,
    check_flag,
    check_language,
    check_live_game,
    check_mode,
    check_season_period,
    check_target_score,
    check_text_only,
    check_turn_timer,
)

log = logging.getLogger("bot.storage")

ALL_GUILDS: Final = 0
"""``player_totals.guild_id`` of the all-servers scope."""
ALL_MODES: Final = "*"
"""``player_totals.mode`` of the all-modes scope."""
BUCKET_SHIFT: Final = 52
"""``rank_by_bucket.bucket = user_id >> 52`` (migration 0001 explains the rank tables)."""
RANK_COLUMNS: Final = "user_id, display_name, wins, played, abandoned, win_rate, rounds_won, points"


def scope(guild_id: int | None, mode: str | None) -> tuple[int, str]:
    """The ``player_totals`` key of a leaderboard: ``None`` = all servers (0) / all modes (``'*'``)."""
    return (ALL_GUILDS if guild_id is None else guild_id), (ALL_MODES if mode is None else mode)


SETTINGS_COLUMNS: Final = (
    "default_mode, turn_timer, language, text_only, default_target_score, turn_pings, game_threads, default_options, "
    "season_period, ai_level"
)
"""The ``guild_settings`` columns after ``guild_id``, in the order :func:`settings_from_row` and
:func:`settings_row` use."""


def stored_flag(
    name: str, value: object, default: bool, bad: Callable[[str, object, object], None], *, optional: bool = True
) -> bool:
    """A stored 0/1 as a bool; NULL (a column added later, never set) is ``default`` when ``optional``; anything else
    is reported with ``bad`` and is ``default``."""
    if value is None and optional:
        return default
    if type(value) is not int or value not in (0, 1):
        bad(name, value, default)
        return default
    return bool(value)


def settings_from_row(guild_id: int, row: Any, validate_options: OptionsValidator | None) -> GuildSettings:
    """The settings of a stored row of :data:`SETTINGS_COLUMNS` (``None``: no row, the defaults).

    A value that is not valid (a damaged or hand-edited row) is replaced by its default, with one warning per value.
    """
    if row is None:
        return GuildSettings(guild_id)
    mode, timer, language, text_only, target, pings, threads, options_text, period, level = tuple(row)

    def bad(name: str, value: object, default: object) -> None:
        log.warning("guild %d: stored setting %s=%r is not valid; using the default %r", guild_id, name, value, default)

    if not (isinstance(mode, str) and mode in MODES):
        bad("default_mode", mode, DEFAULT_MODE)
        mode = DEFAULT_MODE
    if not (type(timer) is int and TURN_TIMER_MIN <= timer <= TURN_TIMER_MAX):
        bad("turn_timer", timer, DEFAULT_TURN_TIMER)
        timer = DEFAULT_TURN_TIMER
    if language is not None and language not in LANGUAGES:
        bad("language", language, None)
        language = None
    text_only = stored_flag("text_only", text_only, False, bad, optional=False)
    # the columns of migration 0002: NULL = never set, the default without a warning
    if target is None:
        target = TARGET_SCORE_DEFAULT
    elif not (type(target) is int and 0 <= target <= TARGET_SCORE_MAX):
        bad("default_target_score", target, TARGET_SCORE_DEFAULT)
        target = TARGET_SCORE_DEFAULT
    pings = stored_flag("turn_pings", pings, True, bad)
    threads = stored_flag("game_threads", threads, False, bad)
    options: dict[str, Any] = {}
    if options_text is not None:
        try:
            parsed: Any = json.loads(options_text) if isinstance(options_text, str) else None
            check_default_options(parsed, validate_options)
            options = dict(parsed)
        except (ValueError, InvalidInputError):
            bad("default_options", options_text, {})
    # the columns of migration 0007: NULL = never set
    if period is None:
        period = SEASON_PERIOD_DEFAULT
    elif period not in SEASON_PERIODS:
        bad("season_period", period, SEASON_PERIOD_DEFAULT)
        period = SEASON_PERIOD_DEFAULT
    if level is None:
        level = AI_LEVEL_DEFAULT
    elif level not in AI_LEVELS:
        bad("ai_level", level, AI_LEVEL_DEFAULT)
        level = AI_LEVEL_DEFAULT
    return GuildSettings(guild_id, mode, timer, language, text_only, target, pings, threads, options, period, level)


def settings_changes(
    validate_options: OptionsValidator | None,
    *,
    default_mode: str | _Unset,
    turn_timer: int | _Unset,
    language: str | _Unset | None,
    text_only: bool | _Unset,
    default_target_score: int | _Unset,
    turn_pings: bool | _Unset,
    game_threads: bool | _Unset,
    default_options: dict[str, Any] | _Unset,
    season_period: str | _Unset = UNSET,
    ai_level: str | _Unset = UNSET,
) -> dict[str, Any]:
    """The validated arguments of ``update_settings`` that were given (raises :class:`InvalidInputError`)."""
    changes: dict[str, Any] = {}
    if not isinstance(default_mode, _Unset):
        changes["default_mode"] = check_mode(default_mode, "default_mode")
    if not isinstance(turn_timer, _Unset):
        changes["turn_timer"] = check_turn_timer(turn_timer)
    if not isinstance(language, _Unset):
        changes["language"] = check_language(language)
    if not isinstance(text_only, _Unset):
        changes["text_only"] = check_text_only(text_only)
    if not isinstance(default_target_score, _Unset):
        changes["default_target_score"] = check_target_score(default_target_score)
    if not isinstance(turn_pings, _Unset):
        changes["turn_pings"] = check_flag("turn_pings", turn_pings)
    if not isinstance(game_threads, _Unset):
        changes["game_threads"] = check_flag("game_threads", game_threads)
    if not isinstance(default_options, _Unset):
        check_default_options(default_options, validate_options)
        changes["default_options"] = dict(default_options)
    if not isinstance(season_period, _Unset):
        changes["season_period"] = check_season_period(season_period)
    if not isinstance(ai_level, _Unset):
        changes["ai_level"] = check_ai_level(ai_level)
    return changes


def merge_settings(current: GuildSettings, changes: dict[str, Any]) -> GuildSettings:
    return dataclasses.replace(current, **changes)


def settings_row(new: GuildSettings) -> tuple[Any, ...]:
    """The row to store: ``guild_id`` then :data:`SETTINGS_COLUMNS` (flags as 0/1, options as JSON text)."""
    return (
        new.guild_id,
        new.default_mode,
        new.turn_timer,
        new.language,
        int(new.text_only),
        new.default_target_score,
        int(new.turn_pings),
        int(new.game_threads),
        check_default_options(new.default_options, None),
        new.season_period,
        new.ai_level,
    )


def prefs_from_row(user_id: int, row: Any) -> UserPrefs:
    """A user's preferences from a stored ``(text_only, large_cards)`` row (``None``: the defaults); a bad value is
    its default, with a warning."""
    if row is None:
        return UserPrefs(user_id)
    text_only, large = tuple(row)

    def bad(name: str, value: object, default: object) -> None:
        log.warning(
            "user %d: stored preference %s=%r is not valid; using the default %r", user_id, name, value, default
        )

    return UserPrefs(
        user_id, stored_flag("text_only", text_only, False, bad), stored_flag("large_cards", large, False, bad)
    )


def prefs_changes(text_only: bool | _Unset, large_cards: bool | _Unset) -> dict[str, bool]:
    changes: dict[str, bool] = {}
    if not isinstance(text_only, _Unset):
        changes["text_only"] = check_flag("text_only", text_only)
    if not isinstance(large_cards, _Unset):
        changes["large_cards"] = check_flag("large_cards", large_cards)
    return changes


class Corrupt(Exception):
    """A live-game row that cannot be loaded; the message is the reason stored with it in ``quarantined_games``."""


def live_game_from_row(
    channel_id: Any, guild_id: Any, mode: Any, status: Any, version: Any, raw: bytes | str, updated_at: Any
) -> LiveGame:
    """The :class:`LiveGame` of a stored row; raises :class:`Corrupt` with the reason when it is not one."""
    try:
        text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8")
        snapshot = json.loads(text)
    except (ValueError, TypeError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise Corrupt(f"snapshot is not valid JSON: {e}") from None
    if not isinstance(snapshot, dict):
        raise Corrupt(f"snapshot is a JSON {type(snapshot).__name__}, not an object")
    game = LiveGame(channel_id, guild_id, mode, status, version, snapshot, updated_at)
    try:
        check_live_game(game)
    except InvalidInputError as e:
        raise Corrupt(f"bad column: {e}") from None
    return game


def totals_rows(result: MatchResult, match_id: int) -> list[tuple[Any, ...]]:
    """What a match adds to ``player_totals``: per human seat and scope (4 scopes), ``(guild, mode, user, name,
    match_id, wins, played, abandoned, rounds_won, points)``, sorted by key (so concurrent writers lock rows in one
    order). AI seats add nothing. A win is a first place in a completed match: the winner's, and in a partner game
    (SPEC T4) their partner's too, who shares it."""
    completed = result.status == "completed"
    rows = []
    for p in result.players:
        if p.is_ai or p.user_id is None:
            continue
        counts = (
            int(completed and p.placement == 1),  # the winner, and in a partner game their partner (SPEC T4)
            int(completed),
            int(not completed),
            p.rounds_won,
            p.points_scored,
        )
        for guild in (result.guild_id, ALL_GUILDS):
            for mode in (str(result.mode), ALL_MODES):
                rows.append((guild, mode, p.user_id, p.display_name, match_id, *counts))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return rows


def totals_upsert(table: str, keys: tuple[str, ...]) -> str:
    """The statement that adds one match's counts to a row of running totals (``player_totals``, or a season's
    ``season_standings``), in the shared SQL of :mod:`bot.storage._dialect` (``{greatest}``): parameters are ``keys``,
    then ``user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points``; the win rate is
    derived. The newest match's name wins."""
    cols = (*keys, "user_id", "display_name", "last_match_id")
    n = len(cols)
    wins, played = f"${n + 1}::int", f"${n + 2}::int"
    values = ", ".join(f"${i + 1}" for i in range(n))
    rest = ", ".join(f"${i}" for i in range(n + 3, n + 6))
    return f"""
INSERT INTO {table} AS t
    ({", ".join(cols)}, wins, played, abandoned, rounds_won, points, win_rate)
VALUES ({values}, {wins}, {played}, {rest},
        CASE WHEN {played} > 0 THEN CAST({wins} AS DOUBLE PRECISION) / {played} ELSE 0.0 END)
ON CONFLICT ({", ".join((*keys, "user_id"))}) DO UPDATE SET
    display_name = CASE WHEN excluded.last_match_id >= t.last_match_id
                        THEN excluded.display_name ELSE t.display_name END,
    last_match_id = {{greatest}}(t.last_match_id, excluded.last_match_id),
    wins = t.wins + excluded.wins,
    played = t.played + excluded.played,
    abandoned = t.abandoned + excluded.abandoned,
    rounds_won = t.rounds_won + excluded.rounds_won,
    points = t.points + excluded.points,
    win_rate = CASE WHEN t.played + excluded.played > 0
                    THEN CAST(t.wins + excluded.wins AS DOUBLE PRECISION) / (t.played + excluded.played) ELSE 0.0 END
"""
