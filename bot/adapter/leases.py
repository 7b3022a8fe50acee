"""Leases of live games: one process runs a game at a time (issue 11, sharding; DESIGN "Adapter").

Several bot processes may share one database (PostgreSQL, one process per group of Discord shards). Each process runs
only the games of its own guilds (``(guild_id >> 22) % shard_count in shard_ids``, :class:`bot.storage.Shards`), and
before it runs one it takes that game's **lease** in the database (:meth:`bot.storage.Store.acquire_lease`) for
:data:`bot.limits.LEASE_SECONDS_DEFAULT` seconds (``UNO_LEASE_SECONDS``). It renews its leases every third of that
time; a clean stop releases them all; after a crash (``kill -9``, a lost machine) they simply expire and the process
that runs that shard next takes the games over, loading each from its last commit. A process restarted on the same
machine need not wait: a lease whose owner names this machine and a process id that is gone (or this very process id,
with another owner name: a container's bot restarted as PID 1) is given up at once (``release_leases``).

The process trusts a lease only until the end of the period it last secured (measured from *before* the renewal was
sent), so it stops before any other process may start: a game whose lease was lost (taken over after an expiry, or
not renewable because the database is unreachable) has its timers stopped and its actions refused with
:class:`~bot.adapter.errors.NotOwned` until this process gets the lease back. Processes sharing a database need
synchronised clocks (NTP), well within the lease time.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Iterable

from bot.storage import Shards, StorageUnavailable, Store

from .clock import Clock

log = logging.getLogger(__name__)


def _host() -> str:
    return socket.gethostname().replace(":", "_")[:80] or "host"


def make_owner(shards: Shards | None) -> str:
    """A lease owner name unique to this process: ``host:pid:shards:random`` (at most 200 characters)."""
    which = "all" if shards is None else f"{'+'.join(map(str, sorted(shards.ids)))}of{shards.count}"
    return f"{_host()}:{os.getpid()}:{which[:60]}:{secrets.token_hex(4)}"


def gone(owner: str, me: str) -> bool:
    """Whether lease owner ``owner`` (a :func:`make_owner` name) is a process of this machine that no longer runs:
    its process id does not exist, or is ours while the name is not (this process's earlier incarnation)."""
    parts = owner.split(":")
    if len(parts) != 4 or parts[0] != _host() or not parts[1].isdigit() or owner == me:
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists (another user's process)
        return False
    return False


class Leases:
    """The leases this process holds, by channel id, each with the time (on ``clock``) it is safe to run that game
    until. ``shards`` None: this process runs every guild."""

    def __init__(self, store: Store, clock: Clock, *, shards: Shards | None, ttl: float, owner: str | None = None):
        self.store = store
        self.clock = clock
        self.shards = shards
        self.ttl = float(ttl)
        self.owner = owner or make_owner(shards)
        #: Whether the last renewal found the database unreachable (the games it stopped wait for it, not for a peer).
        self.unreachable = False
        self._until: dict[int, float] = {}

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs that guild's games (its shard is one of ours)."""
        return self.shards is None or self.shards.owns(guild_id)

    def holds(self, channel_id: int) -> bool:
        """Whether this process may change that channel's game right now."""
        return self._until.get(channel_id, float("-inf")) > self.clock.now()

    def held(self) -> list[int]:
        """The channels whose lease this process believes it has (expired or not)."""
        return list(self._until)

    async def acquire(self, channel_id: int) -> bool:
        """Take (or extend) the channel's lease; ``False`` while another process holds it. Raises
        :class:`~bot.storage.StorageUnavailable` when the database cannot be reached."""
        start = self.clock.now()
        if not await self.store.acquire_lease(channel_id, self.owner, self.ttl):
            holder = await self.store.lease_owner(channel_id)
            if holder is None or not gone(holder, self.owner):
                self._until.pop(channel_id, None)
                return False
            released = await self.store.release_leases(holder)
            log.info("released %d lease(s) of %s, a process of this machine that is gone", released, holder)
            start = self.clock.now()
            if not await self.store.acquire_lease(channel_id, self.owner, self.ttl):
                self._until.pop(channel_id, None)
                return False
        self._until[channel_id] = start + self.ttl
        return True

    async def renew(self, channels: Iterable[int]) -> list[int]:
        """Renew these leases; return the channels this process may no longer run (another process holds the lease,
        or it could not be renewed in time because the database is unreachable)."""
        lost: list[int] = []
        pending = list(channels)
        for i, channel in enumerate(pending):
            try:
                if not await self.renew_one(channel):
                    lost.append(channel)
            except StorageUnavailable as exc:
                # the others would fail the same way (each after a connection timeout): keep what is still valid
                self.unreachable = True
                log.debug("could not renew %d game lease(s): %s", len(pending) - i, exc)  # logged once by the store
                for other in pending[i:]:
                    if not self.holds(other):
                        log.warning("the lease of the game in channel %s ran out (database unreachable)", other)
                        self._until.pop(other, None)
                        lost.append(other)
                return lost
        self.unreachable = False
        return lost

    async def renew_one(self, channel_id: int) -> bool:
        """Renew one lease; ``False`` (and forgotten) if another process holds it now (it had expired and was taken
        over). Raises :class:`~bot.storage.StorageUnavailable` when the database cannot be reached."""
        start = self.clock.now()
        if await self.store.renew_lease(channel_id, self.owner, self.ttl):
            self._until[channel_id] = start + self.ttl
            return True
        log.warning("lost the lease of the game in channel %s: another process runs it now", channel_id)
        self._until.pop(channel_id, None)
        return False

    def forget(self, channel_id: int) -> None:
        """Stop counting on that lease (the store dropped it with the game, or it is being released)."""
        self._until.pop(channel_id, None)

    async def release(self, channel_id: int) -> None:
        """Give the channel's lease back (best effort: an unreachable database lets it expire)."""
        self._until.pop(channel_id, None)
        try:
            await self.store.release_lease(channel_id, self.owner)
        except StorageUnavailable as exc:
            log.warning("could not release the lease of channel %s (it will expire): %s", channel_id, exc)

    async def release_all(self) -> int:
        """Give every lease of this process back (a clean stop); returns how many the store released."""
        self._until.clear()
        try:
            return await self.store.release_leases(self.owner)
        except StorageUnavailable as exc:
            log.warning("could not release this process's leases (they will expire): %s", exc)
            return 0


__all__ = ["Leases", "gone", "make_owner"]
