"""``python -m bot`` (or the ``uno-bot`` script): read settings, run the bot until SIGTERM/SIGINT, exit 0.

A start-up failure the user can fix prints one line saying what to do and exits with code 2 (no traceback): a
missing or malformed setting, a database that cannot be created or opened (``UNO_DATABASE``), a token Discord refuses
(``DISCORD_TOKEN``), Discord's API or gateway out of reach (the network, ``DISCORD_API_BASE``,
``DISCORD_GATEWAY_URL``). Until the bot is ready the log is held back (and, after such a failure, only its warnings
and errors are printed), so that the line stands alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import logging.handlers
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
import discord
import yarl

from bot.config import ConfigError, Settings, apply_endpoints
from bot.shardlog import ShardLogFilter
from bot.storage import StorageError, redact_database

if TYPE_CHECKING:
    from bot.client import UnoBot

#: Exit code of a start-up failure the user can fix (as for a missing token).
EXIT_FIX_SETTINGS = 2
#: How long the log is held back at most while the bot starts (s); after that it is printed as it comes.
LOG_HOLD = 15.0
#: How long reaching the gateway may take before it counts as out of reach (s).
GATEWAY_TIMEOUT = 10.0
LOG_FORMAT = "%(asctime)s %(levelname)-7s [shard %(shard)s] %(name)s: %(message)s"


class StartupError(Exception):
    """The bot cannot start for a reason the user can fix; the message (one line) says what to do."""


def main() -> int:
    try:
        settings = Settings.from_env()
        if isinstance(settings.database, Path):  # a PostgreSQL address is checked when it is opened
            check_database(settings.database)
    except (ConfigError, StartupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FIX_SETTINGS
    log = HeldLog(settings.log_level)
    apply_endpoints(settings)
    try:
        with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(_run(settings, log))
    except StartupError as exc:
        log.drop_chatter()
        log.release()
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FIX_SETTINGS
    finally:
        log.release()
    return 0


def check_database(path: Path) -> None:
    """Make sure the database's folder exists and the bot may write there (and to the file, if it exists).

    Raises :class:`StartupError` otherwise. Whether the file is an SQLite database of a known version is checked when
    the bot opens it (:class:`bot.storage.StorageError`)."""
    folder = path.parent
    hint = "set UNO_DATABASE to a file in a folder the bot may write to"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(f"cannot create the database folder {folder}: {exc.strerror or exc}; {hint}.") from None
    if path.is_dir():
        raise StartupError(f"the database {path} is a folder, not a file; {hint}.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StartupError(f"the database folder {folder} is not writable; {hint}.")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StartupError(f"the database {path} cannot be read and written; {hint}.")


class HeldLog:
    """The root logger's output (stderr), held back until :meth:`release` (the bot is ready, or :data:`LOG_HOLD` s
    passed), so that a start-up failure can be told in one line: :meth:`drop_chatter` forgets the held records below
    WARNING first. discord.py's warnings that voice is not supported are left out (this bot never uses voice)."""

    def __init__(self, level: str) -> None:
        self.target = logging.StreamHandler()
        self.target.setFormatter(logging.Formatter(LOG_FORMAT))
        self.target.addFilter(_not_about_voice)
        self.target.addFilter(ShardLogFilter())
        self.held: logging.handlers.MemoryHandler | None = logging.handlers.MemoryHandler(
            capacity=10_000, flushLevel=logging.CRITICAL + 1, target=self.target, flushOnClose=False
        )
        self.held.addFilter(ShardLogFilter())  # the shard of the moment it was logged, not of the flush
        root = logging.getLogger()
        root.setLevel(level)
        root.addHandler(self.held)

    def release(self) -> None:
        """Print what was held back and log straight to stderr from now on (idempotent)."""
        held, self.held = self.held, None
        if held is None:
            return
        root = logging.getLogger()
        root.addHandler(self.target)
        root.removeHandler(held)
        held.flush()
        held.close()

    def drop_chatter(self) -> None:
        """Forget the held records below WARNING (the start-up's progress, pointless after it failed)."""
        if self.held is not None:
            with self.held.lock or contextlib.nullcontext():
                self.held.buffer = [r for r in self.held.buffer if r.levelno >= logging.WARNING]


def _not_about_voice(record: logging.LogRecord) -> bool:
    return not (record.name == "discord.client" and "voice will NOT be supported" in record.getMessage())


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's faster event loop where it is installed (Linux and macOS), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _run(settings: Settings, held: HeldLog) -> None:
    from bot.client import UnoBot

    bot = UnoBot(settings)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    loop.call_later(LOG_HOLD, held.release)

    async def ready() -> None:
        held.release()

    bot.add_listener(ready, "on_ready")

    def stop() -> None:
        logging.getLogger("bot").info("stopping: finishing the action in flight")
        stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    async with bot:
        runner = asyncio.create_task(_start(bot, settings))
        waiter = asyncio.create_task(stopping.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            waiter.cancel()
            runner.result()
            return
        await bot.close()
        await runner


async def _start(bot: UnoBot, settings: Settings) -> None:
    """``bot.start`` in its steps, each failure a user can fix told as a :class:`StartupError`: log in (which opens
    the database and syncs the commands in ``setup_hook``), make sure the gateway can be reached, connect."""
    try:
        await bot.login(settings.token)
    except discord.LoginFailure:
        raise StartupError(
            "Discord refused the token in DISCORD_TOKEN (401 Unauthorized): copy the bot's current token from the "
            "Developer Portal (Bot → Reset Token) into .env."
        ) from None
    except aiohttp.ClientConnectionError as exc:
        raise StartupError(
            f"cannot reach Discord's API at {discord.http.Route.BASE}: {_reason(exc)}; check the network connection "
            "(and DISCORD_API_BASE, if set)."
        ) from None
    except StorageError as exc:
        shown = redact_database(settings.database)
        where = "" if shown in str(exc) else f" ({shown})"
        raise StartupError(f"{exc}; check UNO_DATABASE{where}.") from None
    await reach_gateway(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    await bot.connect()


async def reach_gateway(url: yarl.URL) -> None:
    """Open (and close) a TCP connection to the gateway's host, so that an unreachable gateway is told in one line
    instead of by discord.py's reconnect loop. Raises :class:`StartupError`."""
    host = url.host or ""
    port = url.port or (443 if url.scheme in ("wss", "https") else 80)
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), GATEWAY_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise StartupError(
            f"cannot reach Discord's gateway at {url}: {_reason(exc)}; check the network connection "
            "(and DISCORD_GATEWAY_URL, if set)."
        ) from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


def _reason(exc: BaseException) -> str:
    """The operating system's words for a failed connection ("Connection refused"), else the exception's."""
    if isinstance(exc, TimeoutError):
        return "no answer"
    inner = getattr(exc, "os_error", None) or exc
    number = getattr(inner, "errno", None)
    if isinstance(number, int) and number > 0:
        return os.strerror(number)
    return str(getattr(inner, "strerror", None) or inner or type(exc).__name__)


if __name__ == "__main__":
    sys.exit(main())
