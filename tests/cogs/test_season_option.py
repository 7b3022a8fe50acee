"""The ``season`` option of ``/uno leaderboard`` as users type it (cogs/uno/input/seasons.py, issue 19 point 4;
review8)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest

from cogs.uno.input import seasons
from cogs.uno.input.inputs import BadInput

NOW = datetime(2026, 12, 2, 8, 0, tzinfo=UTC).timestamp()
NO_BOT = cast(Any, None)  # a season key never asks the bot for anything (only "current" reads the server's period)


@pytest.mark.parametrize(
    ("typed", "key"),
    [("2026-W49", "2026-W49"), ("2026-w49", "2026-W49"), (" 2026-q4 ", "2026-Q4"), ("2026-11", "2026-11")],
)
async def test_a_season_key_is_read_whatever_its_case(typed: str, key: str) -> None:
    assert await seasons.resolve(NO_BOT, 1, typed, NOW) == key


@pytest.mark.parametrize("typed", ["2027-01", "2026-W50", "9999-W52", "2026-13", "december", "2026-W49x"])
async def test_a_season_that_is_none_or_not_started_is_refused_in_one_line(typed: str) -> None:
    with pytest.raises(BadInput):
        await seasons.resolve(NO_BOT, 1, typed, NOW)


async def test_all_servers_have_monthly_seasons_only() -> None:
    with pytest.raises(BadInput):
        await seasons.resolve(NO_BOT, None, "2026-W49", NOW)
    assert await seasons.resolve(NO_BOT, None, "2026-12", NOW) == "2026-12"
