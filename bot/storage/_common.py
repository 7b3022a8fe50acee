"""What both stores share: reading settings and live-game rows back, the leaderboard scopes, the totals a match adds.

One home for each rule, so that SQLite and PostgreSQL give the same answers (tests/storage runs on both).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from ._models import (
    DEFAULT_MODE,
    DEFAULT_TURN_TIMER,
    LANGUAGES,
    MODES,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    GuildSettings,
    InvalidInputError,
    LiveGame,
    MatchResult,
    _Unset,
    check_language,
    check_live_game,
    check_mode,
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


def settings_from_row(guild_id: int, row: Any) -> GuildSettings:
    """The settings of a stored ``(default_mode, turn_timer, language, text_only)`` row (``None``: no row, defaults).

    A value that is not valid (a damaged or hand-edited row) is replaced by its default, with one warning per value.
    """
    if row is None:
        return GuildSettings(guild_id)
    mode, timer, language, text_only = tuple(row)

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
    if text_only not in (0, 1) or type(text_only) is not int:
        bad("text_only", text_only, False)
        text_only = 0
    return GuildSettings(guild_id, mode, timer, language, bool(text_only))


def settings_changes(
    default_mode: str | _Unset, turn_timer: int | _Unset, language: str | _Unset | None, text_only: bool | _Unset
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
    return changes


def merge_settings(current: GuildSettings, changes: dict[str, Any]) -> GuildSettings:
    return GuildSettings(
        current.guild_id,
        changes.get("default_mode", current.default_mode),
        changes.get("turn_timer", current.turn_timer),
        changes.get("language", current.language),
        changes.get("text_only", current.text_only),
    )


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
    order). AI seats add nothing."""
    completed = result.status == "completed"
    rows = []
    for p in result.players:
        if p.is_ai or p.user_id is None:
            continue
        counts = (
            int(completed and p.seat == result.winner_seat),
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
