"""Start a ``discord.Client``/``commands.Bot`` against an emulator, wait until it is ready, close it cleanly.

Build test bots with a small ``guild_ready_timeout`` (e.g. ``0.05``): discord.py waits that long after the last
GUILD_CREATE before READY (default 2 s), so it sets how long every bot start takes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from .emulator import DiscordEmulator
from .model import WAIT_TIMEOUT

ClientT = TypeVar("ClientT", bound=discord.Client)

_tasks: dict[int, asyncio.Task[None]] = {}


async def start_bot(emu: DiscordEmulator, bot: ClientT, *, timeout: float = WAIT_TIMEOUT) -> ClientT:
    """Log ``bot`` in with the emulator's token (login, ``setup_hook``, gateway) and wait until it is ready.

    The emulator must already be redirected (``emu.configure_discord()``). If the bot fails to start, its
    exception is raised here; if it is not ready within ``timeout`` s, ``AssertionError``.
    """
    task = asyncio.create_task(bot.start(emu.token), name=f"emulated-bot-{id(bot)}")
    _tasks[id(bot)] = task
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not bot.is_ready():
        if task.done():
            _tasks.pop(id(bot), None)
            task.result()
            raise AssertionError("the bot stopped before it was ready")
        if loop.time() > deadline:
            await stop_bot(bot)
            raise AssertionError(f"the bot was not ready within {timeout}s (guild_ready_timeout too large?)")
        await asyncio.sleep(0.002)
    return bot


async def stop_bot(bot: discord.Client) -> None:
    """Close ``bot`` (websocket and HTTP session) and wait for its ``start`` task to end."""
    await bot.close()
    task = _tasks.pop(id(bot), None)
    if task is not None:
        await task


@contextlib.asynccontextmanager
async def running_bot(emu: DiscordEmulator, bot: ClientT, *, timeout: float = WAIT_TIMEOUT) -> AsyncIterator[ClientT]:
    """``async with running_bot(emu, bot):`` — the bot is ready inside the block and closed after it."""
    await start_bot(emu, bot, timeout=timeout)
    try:
        yield bot
    finally:
        await stop_bot(bot)
