"""Limits that several layers check, written once (the project's "one home per limit").

A leaf module: it imports nothing from the project, so the engine, the adapter, storage and the Discord layer can all
import it. Change a bound here and every layer follows.

- :data:`MODES`: the three games, as their stored strings (the engine's ``Mode`` values).
- :data:`PLAYER_RANGE`: seats per game, ``(min, max)`` inclusive (SPEC G1); :data:`MAX_PLAYERS` the largest.
- :data:`TURN_TIMER_MIN` … :data:`TURN_TIMER_MAX`: seconds a player has for a decision (server setting and
  ``/uno new``); :data:`TURN_TIMER_DEFAULT` when nothing is set. :func:`turn_clock`: the shorter clock of a seat
  whose timer ran out on its last decisions (issue 10.4).
- :data:`LANGUAGES`: language codes of the message catalogues, English first (the fallback).
- :data:`TARGET_SCORE_MAX`: the largest match target (SPEC G9, table O); :data:`TARGET_SCORE_DEFAULT` the target of
  a server that set none (``/uno settings``).
- :data:`FALSE_CATCH_PENALTY_MAX`: the most cards a false UNO catch may cost (SPEC G8, table O).
- :data:`LEASE_SECONDS_MIN` … :data:`LEASE_SECONDS_MAX`: how long a process's lease of a live game lasts without a
  renewal (``UNO_LEASE_SECONDS``; renewed every third of it): after a crash, how long its games wait before another
  process takes them over (:mod:`bot.adapter.leases`); :data:`LEASE_SECONDS_DEFAULT` when nothing is set.
- :data:`DISCORD_GLOBAL_RATE`: Discord's global limit, requests per second per bot; :data:`GLOBAL_REQUESTS_PER_SECOND`
  the share of it the bot allows itself (:class:`bot.pacing.GlobalLimit`, issue 20 point 4).
- :data:`PROCESS_SLOT_MAX`: the longest process slot name (``UNO_PROCESS_SLOT``, issue 16 point 8).
- :data:`INTERACTION_TOKEN_SECONDS`: how long Discord accepts an interaction's token for followups and edits (15
  minutes; interactions/receiving-and-responding); :data:`HAND_TOKEN_MARGIN`: how long before that the bot stops
  editing an open hand through it (issue 20, point 5).
- :data:`RATING_MIN_MATCHES`: rated matches a player needs in a scope before the by-rating leaderboard lists them
  and ``/uno stats`` gives them a rating rank (issue 19 point 3); :data:`RATING_TREND_MATCHES`: how many of their
  last rated matches the trend of ``/uno stats`` spans.
- :data:`SEASON_PERIODS`: how long a season of the standings lasts (issue 19 point 4), as the server setting stores it;
  :data:`SEASON_PERIOD_DEFAULT` a server's when it set none, :data:`GLOBAL_SEASON_PERIOD` the all-servers board's.
- :data:`AI_LEVELS`: the AI seats' levels (issue 21 point 1; :class:`bot.ai.Level` has the same values, a test keeps
  them equal), :data:`AI_LEVEL_DEFAULT` the level of the lobby's **Add AI** in a server that chose none.
"""

from __future__ import annotations

from typing import Final

MODES: Final[tuple[str, ...]] = ("classic", "flip", "flex")
PLAYER_RANGE: Final[dict[str, tuple[int, int]]] = {"classic": (2, 10), "flip": (2, 10), "flex": (2, 8)}
MAX_PLAYERS: Final[int] = max(high for _, high in PLAYER_RANGE.values())
MIN_PLAYERS: Final[int] = min(low for low, _ in PLAYER_RANGE.values())

TURN_TIMER_MIN: Final[int] = 15
TURN_TIMER_MAX: Final[int] = 600
TURN_TIMER_DEFAULT: Final[int] = 60


def turn_clock(timer: float, timeouts: int) -> float:
    """Seconds a seat has for its next decision (issue 10.4, "a shrinking timer per consecutive timeout").

    ``timer``: the table's turn timer in seconds (:data:`TURN_TIMER_MIN` … :data:`TURN_TIMER_MAX`); ``timeouts``:
    how many times in a row the seat's timer ran out (0 once the player acts themselves). The timer is halved per
    consecutive timeout, in whole seconds (rounded down), never below :data:`TURN_TIMER_MIN`: 60 → 30 → 15, 45 → 22
    → 15; a timer at or below the minimum does not shrink. It is the seat's clock for every decision it owes
    (a play, a drawn card, a colour, a challenge, a stack).
    """
    if timeouts <= 0 or timer <= TURN_TIMER_MIN:
        return timer
    return float(max(TURN_TIMER_MIN, int(timer) >> min(timeouts, 16)))


LANGUAGES: Final[tuple[str, ...]] = ("en", "it", "es", "sk", "de", "fr", "pl", "pt_BR")

TARGET_SCORE_MAX: Final[int] = 100_000
TARGET_SCORE_DEFAULT: Final[int] = 500

FALSE_CATCH_PENALTY_MAX: Final[int] = 10

LEASE_SECONDS_MIN: Final[int] = 2
LEASE_SECONDS_MAX: Final[int] = 3600
LEASE_SECONDS_DEFAULT: Final[int] = 30
PROCESS_SLOT_MAX: Final[int] = 80

#: "All bots can make up to 50 requests per second to our API" (Discord's developer documentation, topics/rate-limits,
#: "Global Rate Limit"); interaction callbacks and interaction webhooks do not count.
DISCORD_GLOBAL_RATE: Final[int] = 50
#: What the bot sends in any second, at most: 90 % of the global limit, a margin for the network's jitter (requests
#: sent a second apart may arrive closer together).
GLOBAL_REQUESTS_PER_SECOND: Final[int] = DISCORD_GLOBAL_RATE * 9 // 10
INTERACTION_TOKEN_SECONDS: Final[int] = 15 * 60
#: An edit may wait seconds in a rate-limit bucket before it is sent: a minute of margin keeps it in the token's life.
HAND_TOKEN_MARGIN: Final[int] = 60
#: A Components V2 message (Discord's developer documentation, components/reference, "Component Reference"): at most
#: 40 components in all, nested ones included, and 4,000 characters of text across its text displays.
V2_COMPONENTS_MAX: Final[int] = 40
V2_TEXT_MAX: Final[int] = 4000

RATING_MIN_MATCHES: Final[int] = 5
RATING_TREND_MATCHES: Final[int] = 10

SEASON_PERIODS: Final[tuple[str, ...]] = ("weekly", "monthly", "quarterly")
SEASON_PERIOD_DEFAULT: Final[str] = "monthly"
GLOBAL_SEASON_PERIOD: Final[str] = "monthly"

AI_LEVELS: Final[tuple[str, ...]] = ("easy", "normal", "hard")
AI_LEVEL_DEFAULT: Final[str] = "normal"

__all__ = [
    "AI_LEVELS",
    "AI_LEVEL_DEFAULT",
    "DISCORD_GLOBAL_RATE",
    "FALSE_CATCH_PENALTY_MAX",
    "GLOBAL_REQUESTS_PER_SECOND",
    "GLOBAL_SEASON_PERIOD",
    "HAND_TOKEN_MARGIN",
    "INTERACTION_TOKEN_SECONDS",
    "LANGUAGES",
    "LEASE_SECONDS_DEFAULT",
    "LEASE_SECONDS_MAX",
    "LEASE_SECONDS_MIN",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODES",
    "PLAYER_RANGE",
    "PROCESS_SLOT_MAX",
    "RATING_MIN_MATCHES",
    "RATING_TREND_MATCHES",
    "SEASON_PERIODS",
    "SEASON_PERIOD_DEFAULT",
    "TARGET_SCORE_DEFAULT",
    "TARGET_SCORE_MAX",
    "TURN_TIMER_DEFAULT",
    "TURN_TIMER_MAX",
    "TURN_TIMER_MIN",
    "V2_COMPONENTS_MAX",
    "V2_TEXT_MAX",
    "turn_clock",
]
