"""Issue 11 end to end: TWO bot processes (``python -m bot``, ``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``) on ONE
PostgreSQL database, with matches in guilds of both shards at once.

Each process sees only its guilds and runs only their games (their leases name it); ``kill -9`` of shard 1's process
in the middle of its matches, then a restart, resumes them from their last commit while shard 0's matches go on the
whole time; every match ends (two are played to the end, target score 0: one round; the host ends the other two) and
the global leaderboard counts each exactly once.

The players use only what Discord shows them (the table, their ephemeral hand); the test reads the saved session
from the database solely to know whose turn it is. Needs the PostgreSQL server of tests/storage (skipped with a
one-line reason without one, failing in CI)."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Session, Status
from bot.engine.view import Phase
from bot.storage import open_store
from tests.discord_emulator import DiscordEmulator, Guild, User
from tests.storage.conftest import Backend, drop_pg_backend, pg_backend, pg_database  # noqa: F401 (a fixture)
from tests.test_main import clean_env

from .uno_driver import Table

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="matches played on two shards")

#: Most committed decisions a one-round match of two players may take here before the test gives up on it. The
#: players play a card whenever they can (``play_rate`` 1.0): over 20,000 seeded two-player classic rounds of that play
#: on the engine alone the longest took 374 decisions (the median 46); drawing one time in ten when a card could be
#: played, as the driver does by default, 13 of 4,000 rounds took more than 400 and the longest 552.
MAX_DECISIONS = 1000
#: Most picks of one match refused (nothing saved within 3 s: a stale pick, looked at again) before the test gives up.
MAX_REFUSED = 50
READING = asyncio.Lock()


@pytest.fixture
async def backend(pg_database: str) -> AsyncIterator[Backend]:  # noqa: F811 (pg_database is the fixture)
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


class Shard:
    """One ``python -m bot`` process running shard ``shard`` of 2."""

    def __init__(self, emulator: DiscordEmulator, database: str, shard: int, logs: Path) -> None:
        self.emulator, self.database, self.shard, self.logs = emulator, database, shard, logs
        self.proc: asyncio.subprocess.Process | None = None
        self.runs = 0

    async def start(self) -> None:
        self.runs += 1
        env = clean_env(
            DISCORD_TOKEN=self.emulator.token,
            UNO_DATABASE=self.database,
            SHARD_COUNT="2",
            SHARD_IDS=str(self.shard),
            LOG_LEVEL="INFO",
            **self.emulator.env(),
        )
        log = (self.logs / f"shard{self.shard}-run{self.runs}.log").open("wb")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.logs, env=env, stdout=log, stderr=log
        )
        log.close()

    def log(self, run: int) -> str:
        return (self.logs / f"shard{self.shard}-run{run}.log").read_text()


class Match:
    """A two-player match in ``guild``'s #general, played by alice and bob through their hands."""

    def __init__(self, emulator: DiscordEmulator, backend: Backend, guild: Guild, users: list[User], seed: int):
        self.emulator, self.backend, self.guild, self.users = emulator, backend, guild, users
        self.channel = guild.channel("general")
        self.table = Table(emulator, None, self.channel, users, rng=random.Random(seed), play_rate=1.0)
        self.decisions = self.refused = 0

    async def saved(self) -> tuple[str, Session] | None:
        async with READING:  # the test's one connection, one query at a time
            rows = await self.backend.fetch(
                "SELECT status, snapshot FROM live_games WHERE channel_id = ?", self.channel.id
            )
        if not rows:
            return None
        return rows[0][0], Session.from_dict(json.loads(rows[0][1]))

    async def version(self) -> int:
        saved = await self.saved()
        assert saved is not None
        return saved[1].version

    async def open(self) -> None:
        alice, bob = self.users
        await self.emulator.slash(alice, self.channel, "uno new", game="classic", target=0, settle=False)
        lobby = await self.wait_for(lambda s: s.status == Status.LOBBY and s.ui.message is not None, "the lobby")
        message = self.emulator.message(int(lobby.ui.message))
        await self.emulator.click(bob, message, label="Join", settle=False)
        await self.wait_for(lambda s: len(s.seats) == 2, "bob seated")
        await self.emulator.click(alice, message, label="Start", settle=False)
        await self.wait_for(lambda s: s.status == Status.PLAYING, "the match to start")

    async def end(self) -> None:
        await self.emulator.slash(self.users[0], self.channel, "uno end", settle=False)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while await self.saved() is not None:
            assert loop.time() < deadline, f"{self.guild.name}: the ended match is still saved as live"
            await asyncio.sleep(0.02)

    async def wait_for(self, done: Any, what: str, timeout: float = 30) -> Session:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            saved = await self.saved()
            if saved is not None and done(saved[1]):
                return saved[1]
            if loop.time() > deadline:
                raise AssertionError(f"{self.guild.name}: {what} not saved within {timeout}s")
            await asyncio.sleep(0.02)

    async def play(self, decisions: int | None = None) -> None:
        """Take ``decisions`` decisions (None: until the match is over), each answered and saved before the next; a
        refused pick is not a decision: the player looks again."""
        taken = 0
        while decisions is None or taken < decisions:
            saved = await self.saved()
            assert saved is not None, f"{self.guild.name}: the game disappeared"
            status, session = saved
            game = session.game
            if status == Status.FINISHED or game is None or game.phase in (Phase.MATCH_OVER, Phase.ROUND_OVER):
                return
            seat = game.pending
            if seat is None or session.seats[seat].user_id is None:
                await asyncio.sleep(0.02)
                continue
            user = next(u for u in self.users if u.id == session.seats[seat].user_id)
            table = self.emulator.message(int(session.ui.message))
            await self.emulator.wait_until(  # the table is edited right after the commit
                lambda t=table: any(b.label == "Show my hand" for b in t.buttons()), what="the table", timeout=30
            )
            shown = await self.emulator.click(user, table, label="Show my hand", settle=False)
            (hand,) = shown.ephemeral_messages
            await self.emulator.wait_until(lambda h=hand: not h.loading, what="the hand", timeout=30)
            await self.table.take_turn(user, hand)
            try:
                await self.wait_for(lambda s, v=session.version: s.version > v, "the decision", timeout=3)
            except AssertionError:  # a refused choice (a stale pick) changes nothing: look again
                self.refused += 1
                assert self.refused < MAX_REFUSED, f"{self.guild.name}: {MAX_REFUSED} picks refused"
                continue
            taken += 1
            self.decisions += 1
            assert self.decisions < MAX_DECISIONS, f"{self.guild.name}: no end after {MAX_DECISIONS} decisions"


async def test_two_shard_processes_on_one_postgresql_database(
    emulator: DiscordEmulator, backend: Backend, tmp_path: Path
) -> None:
    guilds = [emulator.add_guild(f"Shard{i % 2}-{i // 2}", shard=(i % 2, 2)) for i in range(4)]
    alice, bob = emulator.add_user("alice", guild=guilds[0]), emulator.add_user("bob", guild=guilds[0])
    for guild in guilds[1:]:
        emulator.add_member(guild, alice)
        emulator.add_member(guild, bob)
    emulator.settle_task_prefixes = ()  # the bots are other processes: wait for their answers, not for our tasks
    shards = [Shard(emulator, str(backend.target), i, tmp_path) for i in (0, 1)]
    for shard in shards:
        await shard.start()
    matches = [Match(emulator, backend, guild, [alice, bob], seed) for seed, guild in enumerate(guilds)]
    zero, one = [m for m in matches if m.guild in guilds[0::2]], [m for m in matches if m.guild in guilds[1::2]]
    try:
        await emulator.wait_shards(0, 1, timeout=60)
        await emulator.wait_until(lambda: bool(emulator.commands()), timeout=60, what="commands synced")
        for i in (0, 1):  # each process sees only its own guilds
            assert emulator.gateway.guilds_of(emulator.gateway.session(i)) == [g.id for g in guilds[i::2]]
        await asyncio.gather(*(m.open() for m in matches))
        await asyncio.gather(*(m.play(2) for m in matches))
        owners = {
            m.channel.id: await backend.fetch("SELECT owner FROM game_leases WHERE channel_id = ?", m.channel.id)
            for m in matches
        }
        for m in zero:
            assert ":0of2:" in owners[m.channel.id][0][0]
        for m in one:
            assert ":1of2:" in owners[m.channel.id][0][0]

        before = {m.guild.id: await m.version() for m in one}
        proc = shards[1].proc
        assert proc is not None
        proc.kill()  # kill -9 in the middle of shard 1's matches
        await proc.wait()
        await emulator.wait_until(lambda: not emulator.gateway.connected(1), what="shard 1 gone", timeout=30)
        # shard 0's matches never pause: they go on while shard 1 is down ...
        going_on = asyncio.gather(*(m.play(4) for m in zero))
        await shards[1].start()  # ... and while it comes back and takes its games over
        await emulator.wait_shards(1, timeout=60)
        await going_on
        assert {m.guild.id: await m.version() for m in one} == before  # nothing lost, nothing moved meanwhile
        # one match of each shard is played to its end, both at once; the host ends the other two (abandoned)
        played, ended = [zero[0], one[0]], [zero[1], one[1]]
        await asyncio.gather(*(m.play() for m in played), *(m.end() for m in ended))
        for m in played:
            saved = await m.saved()
            assert saved is not None and saved[0] == Status.FINISHED, m.guild.name
        for m in ended:
            assert await m.saved() is None, m.guild.name
    finally:
        for shard in shards:
            if shard.proc is not None and shard.proc.returncode is None:
                shard.proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(shard.proc.wait(), 60)
    assert [s.proc.returncode for s in shards if s.proc is not None] == [0, 0]
    assert await backend.fetch("SELECT owner FROM game_leases") == []  # a clean stop gives every lease back

    store = await open_store(str(backend.target))
    try:  # the global totals count each of the four matches exactly once: two played, two abandoned
        stats = {u.id: await store.player_stats(u.id, guild_id=None, mode=None) for u in (alice, bob)}
        assert all(s is not None for s in stats.values())
        assert [(s.played, s.abandoned) for s in stats.values() if s is not None] == [(2, 2), (2, 2)]
        assert sum(s.wins for s in stats.values() if s is not None) == len(played)
        rows = await store.leaderboard(guild_id=None, mode=None)  # those with a match won (issue 18)
        assert {r.user_id for r in rows} == {u for u, s in stats.items() if s is not None and s.wins}
    finally:
        await store.close()
    recorded = await backend.fetch("SELECT guild_id, status FROM matches ORDER BY guild_id")
    expected = [(m.guild.id, "completed" if m in played else "abandoned") for m in matches]
    assert recorded == sorted(expected)
    restarted = shards[1].log(2)
    assert "resumed 2 session(s)" in restarted, restarted[-3000:]
    assert "[shard 0]" not in restarted and "[shard 0]" not in shards[1].log(1)
    assert "[shard 1]" not in shards[0].log(1)
