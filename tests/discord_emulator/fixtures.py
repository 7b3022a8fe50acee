"""Pytest fixtures; import them in a ``conftest.py``: ``from tests.discord_emulator.fixtures import *``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from .emulator import DiscordEmulator
from .runner import start_bot, stop_bot

__all__ = ["bot_starter", "emulator"]


@pytest.fixture
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[DiscordEmulator]:
    """A started emulator on a free port with discord.py redirected to it (restored afterwards).

    The world is empty but for the application and its bot user: add guilds and users in the test.
    Discord's rate limits are on (``ratelimits``), with Discord's windows unless the test (or its module, through
    ``pytestmark``) is marked ``@pytest.mark.rate_limit_scale(factor, reason="...")``: the same buckets on windows
    ``factor`` times as long (e.g. 0.02: 5 edits per 0.1 s), for a test whose play would otherwise wait minutes.
    At teardown it fails the test if the bot called a route the emulator does not know.
    """
    marker = request.node.get_closest_marker("rate_limit_scale")
    if marker is not None and not marker.kwargs.get("reason"):
        raise pytest.UsageError("rate_limit_scale needs a reason: why this test cannot wait on Discord's windows")
    emu = DiscordEmulator(rate_limit_scale=marker.args[0] if marker is not None else 1.0)
    await emu.start()
    with emu.configure_discord():
        yield emu
    await emu.stop()
    emu.assert_no_unknown_routes()


@pytest.fixture
async def bot_starter(emulator: DiscordEmulator) -> AsyncIterator[Callable[[Any], Awaitable[Any]]]:
    """``bot = await bot_starter(make_bot())``: starts the bot and waits until ready; closed at teardown."""
    started: list[discord.Client] = []

    async def start(bot: Any) -> Any:
        started.append(bot)
        return await start_bot(emulator, bot)

    yield start
    for bot in started:
        if not bot.is_closed():
            await stop_bot(bot)
