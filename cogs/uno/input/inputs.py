"""Checking what users type where it enters the bot: slash-command options and select values (DESIGN "Discord
layer": bad input gets a short clear message and changes nothing).

discord.py does not check an option against its registration when a command runs (``app_commands.Range`` only tells
Discord the bounds; a modified client can send anything, even a string for a boolean), so every value is checked here
against the one home of its limit, :mod:`bot.limits`; the engine's options table (SPEC O) and storage check the rest.
Each check raises :class:`BadInput`, answered with ``error.<code>`` of the catalogue.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapter import AdapterError
from bot.limits import FALSE_CATCH_PENALTY_MAX, TARGET_SCORE_MAX, TURN_TIMER_MAX, TURN_TIMER_MIN


class BadInput(AdapterError):
    """A value a user sent is outside what the bot accepts; ``code`` picks the message, ``details`` its numbers."""

    def __init__(self, code: str, **details: object) -> None:
        super().__init__(f"bad input: {code}", **details)
        self.code = code


def whole(value: object, lo: int, hi: int, code: str) -> int:
    """``value`` if it is a whole number (not a bool) from ``lo`` to ``hi``; :class:`BadInput` ``code`` (with ``min``
    and ``max``) otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise BadInput(code, min=lo, max=hi)
    return value


def turn_timer(value: object) -> int:
    """Seconds per decision, :data:`~bot.limits.TURN_TIMER_MIN`–:data:`~bot.limits.TURN_TIMER_MAX` (0 is refused:
    it is not "the server's default")."""
    return whole(value, TURN_TIMER_MIN, TURN_TIMER_MAX, "bad_timer")


def target_score(value: object) -> int:
    """Points that win a match, 0 (a single round, SPEC G9) to :data:`~bot.limits.TARGET_SCORE_MAX`."""
    return whole(value, 0, TARGET_SCORE_MAX, "bad_target")


def false_catch_penalty(value: object) -> int:
    """Cards a false UNO catch costs, 0 to :data:`~bot.limits.FALSE_CATCH_PENALTY_MAX` (SPEC G8)."""
    return whole(value, 0, FALSE_CATCH_PENALTY_MAX, "bad_penalty")


def flag(value: object) -> bool:
    """A true/false option: only a real boolean (discord.py passes a forged ``"maybe"`` through as it is)."""
    if not isinstance(value, bool):
        raise BadInput("bad_choice")
    return value


def choice(value: object, allowed: Sequence[str]) -> str:
    """One of the ``allowed`` choice values of an option."""
    if not isinstance(value, str) or value not in allowed:
        raise BadInput("bad_choice")
    return value


def one_index(values: Sequence[str], size: int) -> int:
    """The single value of a select as an index below ``size``: exactly one value, ASCII digits only (``str.isdigit``
    also takes "٠" or "²"). :class:`BadInput` ``bad_request`` otherwise."""
    if len(values) != 1:
        raise BadInput("bad_request")
    return index(values[0], size)


def index(text: str, size: int) -> int:
    """``text`` (ASCII digits, no sign or spaces) as an index below ``size``; :class:`BadInput` ``bad_request``
    otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or not 0 <= int(text) < size:
        raise BadInput("bad_request")
    return int(text)


__all__ = [
    "BadInput",
    "choice",
    "false_catch_penalty",
    "flag",
    "index",
    "one_index",
    "target_score",
    "turn_timer",
    "whole",
]
