"""``python -m bot`` (or the ``uno-bot`` script): read settings, run the bot until SIGTERM/SIGINT, exit 0.

A missing ``DISCORD_TOKEN`` prints one line saying what to do and exits with code 2 (no traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable

from bot.config import ConfigError, Settings, apply_endpoints
from bot.shardlog import ShardLogFilter


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s [shard %(shard)s] %(name)s: %(message)s",
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(ShardLogFilter())
    apply_endpoints(settings)
    with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(_run(settings))
    return 0


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's faster event loop where it is installed (Linux and macOS), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _run(settings: Settings) -> None:
    from bot.client import UnoBot

    bot = UnoBot(settings)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop() -> None:
        logging.getLogger("bot").info("stopping: finishing the action in flight")
        stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        waiter = asyncio.create_task(stopping.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            waiter.cancel()
            runner.result()
            return
        await bot.close()
        await runner


if __name__ == "__main__":
    sys.exit(main())
