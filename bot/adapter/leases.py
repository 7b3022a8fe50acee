"""Leases of live games: one process runs a game at a time (issue 11, sharding; issue 16; DESIGN "Scale-out").

Several bot processes may share one database (PostgreSQL, one process per group of Discord shards). Each process runs
only the games of its own guilds (``(guild_id >> 22) % shard_count in shard_ids``, :class:`bot.storage.Shards`).

One process per shard (issue 16 point 4): before it resumes or opens any game, a process takes the **lock of each of
its shards** in the database (:meth:`bot.storage.Store.acquire_shards`); a second process for shards already run waits
(one log line) until they are free. Then, before it runs a game, it takes that game's **lease**
(:meth:`bot.storage.Store.acquire_lease`) for :data:`bot.limits.LEASE_SECONDS_DEFAULT` seconds (``UNO_LEASE_SECONDS``).
It renews all of its leases and shard locks every third of that time in one statement (:meth:`Leases.renew_all`,
point 7); a clean stop releases them all; after a crash they expire and the process that runs those shards next takes
the games over, loading each from its last commit.

A process can also lose its shard locks after start-up: a pause or a network partition longer than the lease lets
another process for those shards take them (and then the games). When it next reaches the database it **stands down**
(:attr:`SessionManager.standing_down <bot.adapter.manager.SessionManager.standing_down>`; one warning line): it stops
every game, gives back the leases still in its name, answers no interaction of its shards (the other process does;
Discord delivers to both) and writes nothing; at every renewal it tries the locks again — only free or expired ones,
never a live holder's — and once they are its own it takes the games back. A lock that was merely lost (its row gone,
nobody else holding it) is simply taken again.

The database's clock decides expiry (point 6), and every write of a live game is fenced in SQL on holding its lease
and on its version (point 5): a process that wrongly believes it still runs a game (paused past its lease, a clock
that jumps) has its write refused (:class:`~bot.storage.WriteRefused`) and stops running that game. Locally the process
trusts a lease only until the end of the period it last secured (measured on its own clock from *before* the renewal
was sent), so it normally stops before any other process may start.

A restarted process need not wait for its predecessor's leases to expire when it can tell the predecessor is gone:
- with a **process slot** (``UNO_PROCESS_SLOT``, point 8: a name the operator gives exactly one running process at a
  time, such as a compose service or a StatefulSet pod), every earlier owner of the same slot is its predecessor;
- otherwise (point 3), an owner of this host *in this same PID namespace on this same boot* whose process id no longer
  exists (or is ours, under another owner name: a bot restarted as PID 1 in its container). An owner from another PID
  namespace (another container, even with the same host name) or another machine is never declared gone: its leases
  are taken only once they expire by the database's clock.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Iterable
from pathlib import Path

from bot.storage import Shards, StorageUnavailable, Store
from bot.storage._models import shard_keys

from .clock import Clock

log = logging.getLogger(__name__)


def _host() -> str:
    return socket.gethostname().replace(":", "_")[:80] or "host"


def _namespace() -> str:
    """A short fingerprint of this boot of this machine and of this process's PID namespace: process ids mean the
    same thing to two processes only when theirs are equal. ``"-"`` when it cannot be told (then never equal)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        space = os.readlink("/proc/self/ns/pid")
    except OSError:
        return "-"
    return hashlib.sha256(f"{boot}|{space}".encode()).hexdigest()[:10]


def make_owner(shards: Shards | None, slot: str | None = None) -> str:
    """A lease owner name unique to this process (at most 200 characters): ``slot:<slot>:random`` with a process slot,
    else ``host:namespace:pid:shards:random``."""
    if slot:
        return f"slot:{slot.replace(':', '_')[:120]}:{secrets.token_hex(4)}"
    which = "all" if shards is None else f"{'+'.join(map(str, sorted(shards.ids)))}of{shards.count}"
    return f"{_host()}:{_namespace()}:{os.getpid()}:{which[:60]}:{secrets.token_hex(4)}"


def gone(owner: str, me: str) -> bool:
    """Whether lease owner ``owner`` is a predecessor of this process (``me``) that no longer runs: an earlier owner
    of the same process slot, or a process of this host and PID namespace whose process id does not exist (or is ours
    while the name is not). Never for an owner of another namespace or machine (issue 16 point 3)."""
    if owner == me:
        return False
    if me.startswith("slot:"):
        return owner.startswith(me.rsplit(":", 1)[0] + ":")
    parts = owner.split(":")
    mine = me.split(":")
    if len(parts) != 5 or len(mine) != 5 or parts[:2] != mine[:2] or parts[1] == "-" or not parts[2].isdigit():
        return False
    pid = int(parts[2])
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

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        shards: Shards | None,
        ttl: float,
        owner: str | None = None,
        slot: str | None = None,
    ):
        self.store = store
        self.clock = clock
        self.shards = shards
        self.ttl = float(ttl)
        self.owner = owner or make_owner(shards, slot)
        #: Whether the last renewal found the database unreachable (the games it stopped wait for it, not for a peer).
        self.unreachable = False
        #: Channels whose lease ran out while the database was unreachable, until this process has them back (or finds
        #: another process running them): their clicks wait for the database, not for another process.
        self.lapsed: set[int] = set()
        self._until: dict[int, float] = {}
        #: Until when (on ``clock``) the locks of all of this process's shards are safely ours; -inf: not held.
        self._shards_until = float("-inf")

    # --- shard locks (issue 16 point 4) -----------------------------------------------------------------------------

    def runs_shards(self) -> bool:
        """Whether this process holds the locks of all of its shards right now (it may run their games)."""
        return self._shards_until > self.clock.now()

    async def acquire_shards(self) -> list[str]:
        """Take the locks of this process's shards (those of a predecessor that is gone are released first); returns
        the other owners still holding some of them (empty: all are ours). Raises
        :class:`~bot.storage.StorageUnavailable` when the database cannot be reached."""
        for attempt in range(2):
            start = self.clock.now()
            owners = await self.store.acquire_shards(self.shards, self.owner, self.ttl)
            others = sorted(
                {o for key, o in owners.items() if o != self.owner}
                | ({"(unknown)"} if len(owners) < len(shard_keys(self.shards)) else set())
            )
            if not others:
                self._shards_until = start + self.ttl
                return []
            dead = [o for o in others if gone(o, self.owner)]
            if not dead or attempt:
                return others
            for holder in dead:
                released = await self.store.release_leases(holder)
                log.info("released the shard lock and %d lease(s) of %s, a predecessor that is gone", released, holder)
        return others

    # --- game leases ----------------------------------------------------------------------------------------------

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

    async def acquire_many(self, channels: Iterable[int]) -> list[int]:
        """Take (or extend) the leases of ``channels`` in one round trip (start-up and takeovers; as renewal, issue 16
        point 7), those of a predecessor that is gone after releasing its leases; returns the channels taken (the
        others are held by another process). Raises :class:`~bot.storage.StorageUnavailable` when the database cannot
        be reached."""
        wanted = sorted(set(channels))
        if not wanted:
            return []
        start = self.clock.now()
        owners = await self.store.acquire_leases(wanted, self.owner, self.ttl)
        taken = {c: start for c in wanted if owners.get(c) == self.owner}
        dead = sorted({o for c, o in owners.items() if c not in taken and gone(o, self.owner)})
        if dead:
            for holder in dead:
                released = await self.store.release_leases(holder)
                log.info("released %d lease(s) of %s, a process of this machine that is gone", released, holder)
            start = self.clock.now()
            again = await self.store.acquire_leases([c for c in wanted if owners.get(c) in dead], self.owner, self.ttl)
            taken |= {c: start for c, o in again.items() if o == self.owner}
        for channel in wanted:
            if channel in taken:
                self._until[channel] = taken[channel] + self.ttl
            else:
                self._until.pop(channel, None)
        return sorted(taken)

    async def renew_all(self) -> tuple[list[int], list[int]]:
        """Renew every lease and shard lock of this process in one round trip (issue 16 point 7). Returns the channels
        this process may no longer run (another process holds them now, or the database is unreachable and their
        lease ran out) and the channels whose lease the database still gives this process although it had stopped
        counting on them (they lapsed during an outage and nobody took them over: this process takes them back)."""
        start = self.clock.now()
        before = dict(self._until)
        try:
            held = await self.store.renew_leases(self.owner, self.ttl)
        except StorageUnavailable as exc:
            log.debug("could not renew %d game lease(s): %s", len(self._until), exc)  # logged once by the store
            self.unreachable = True
            lost = [c for c in self._until if not self.holds(c)]
            for channel in lost:
                log.warning("the lease of the game in channel %s ran out (database unreachable)", channel)
                self._until.pop(channel, None)
            self.lapsed.update(lost)
            return lost, []
        if self.unreachable:
            log.info("the database is reachable again: renewed %d game lease(s)", len(held.channels))
        self.unreachable = False
        renewed = set(held.channels)
        # Leases taken or given back while the renewal was on its way (a game opened, taken over, ended) are not in
        # its answer, or are there for nothing: only a lease this process counted on when it was sent, and has not
        # taken again since, is lost; only one it had stopped counting on before then is regained.
        lost = [c for c, until in before.items() if c not in renewed and self._until.get(c) == until]
        for channel in lost:
            log.warning("lost the lease of the game in channel %s: another process runs it now", channel)
            self._until.pop(channel, None)
        regained = [c for c in held.channels if c not in self._until and c not in before]
        self.lapsed &= renewed  # those another process took over meanwhile wait for it now
        for channel in held.channels:
            if channel in self._until or channel in regained:
                self._until[channel] = max(self._until.get(channel, start), start + self.ttl)
        if len(held.shards) == len(shard_keys(self.shards)):
            self._shards_until = start + self.ttl
        elif self._shards_until > float("-inf"):
            log.debug("the lock of this process's shards was not renewed (lost, or taken by another process)")
            self._shards_until = float("-inf")
        return lost, regained

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
        """Give every lease and shard lock of this process back (a clean stop); returns how many game leases the store
        released."""
        self._until.clear()
        self._shards_until = float("-inf")
        try:
            return await self.store.release_leases(self.owner)
        except StorageUnavailable as exc:
            log.warning("could not release this process's leases (they will expire): %s", exc)
            return 0


__all__ = ["Leases", "gone", "make_owner"]
