"""The shard id in log lines (README "Configuration": ``SHARD_COUNT`` / ``SHARD_IDS``).

:class:`ShardLogFilter` gives every log record a ``shard`` attribute for the ``%(shard)s`` format field:

- the id of the shard whose gateway connection the work came from, where known: events read by a shard's
  connection, and every task started while handling them (commands, button clicks, the games' tasks they start),
  run in a context that carries that id (:data:`current_shard`, set by :class:`ShardedBot`);
  (after a shard reconnects, discord.py starts its new reader outside that context: the process's shards then);
- otherwise the shards this process runs (``"1"``, ``"0-3"``, ``"0,2"``), or ``"-"`` while not yet known
  (before the bot connects, when Discord's recommended count has not been asked yet).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterable
from typing import Any

import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket

#: The shard the current work came from (None: unknown; the filter then names the process's shards).
current_shard: contextvars.ContextVar[int | None] = contextvars.ContextVar("current_shard", default=None)
_process_shards = "-"
#: discord.py's own gateway address (``DiscordWebSocket.DEFAULT_GATEWAY`` unless ``DISCORD_GATEWAY_URL`` is set).
DISCORD_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


def describe_shards(shard_ids: Iterable[int]) -> str:
    """``"0-3"`` for consecutive ids, ``"0,2"`` otherwise, ``"-"`` for none."""
    ids = sorted(shard_ids)
    if not ids:
        return "-"
    if len(ids) > 2 and ids == list(range(ids[0], ids[-1] + 1)):
        return f"{ids[0]}-{ids[-1]}"
    return ",".join(map(str, ids))


def set_process_shards(shard_ids: Iterable[int]) -> None:
    """Record the shards this process runs (named by log lines whose own shard is unknown)."""
    global _process_shards
    _process_shards = describe_shards(shard_ids)


class ShardLogFilter(logging.Filter):
    """Adds ``record.shard`` (see the module docstring) unless it has one; never drops a record. Attach it to the
    handlers (a root logger filter would miss the records of child loggers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "shard"):  # set when it was logged (a held record printed later keeps it)
            return True
        shard = current_shard.get()
        record.shard = _process_shards if shard is None else str(shard)
        return True


class ShardedBot(commands.AutoShardedBot):
    """``commands.AutoShardedBot`` whose shard connections carry their shard id into the log lines of their work.

    ``shard_count`` None: one process runs every shard ``GET /gateway/bot`` recommends; with ``shard_ids``, only
    those (``shard_count`` required).
    """

    def __init__(self, *args: Any, **options: Any) -> None:
        count, ids = options.get("shard_count"), options.get("shard_ids")
        if count is not None:  # before discord.py's own first log lines
            set_process_shards(ids or range(count))
        super().__init__(*args, **options)

    async def launch_shard(self, gateway: yarl.URL, shard_id: int, *, initial: bool = False) -> None:
        # The shard's reader task is created in here and copies this context: its events and their tasks log
        # with this shard id.
        token = current_shard.set(shard_id)
        try:
            await super().launch_shard(gateway, shard_id, initial=initial)
        finally:
            current_shard.reset(token)

    async def launch_shards(self) -> None:
        if self.shard_count is None and DiscordWebSocket.DEFAULT_GATEWAY != DISCORD_GATEWAY:
            # A configured gateway (DISCORD_GATEWAY_URL: a proxy, the test emulator) wins over the address that
            # GET /gateway/bot answers; only the recommended shard count is taken from it.
            self.shard_count, _, _ = await self.http.get_bot_gateway()
        await super().launch_shards()  # without a count: asks GET /gateway/bot for it and for the address
        assert self.shard_count is not None
        set_process_shards(self.shard_ids or range(self.shard_count))
