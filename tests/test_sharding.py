"""Sharding: ``SHARD_COUNT`` / ``SHARD_IDS`` (README "Configuration"), the bot on ``AutoShardedBot`` against the
emulator's shards, and the shard id in log lines."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.manager import Limits
from bot.client import UnoBot
from bot.config import ConfigError, Settings, parse_shards
from bot.shardlog import ShardLogFilter, current_shard, describe_shards, set_process_shards
from tests.discord_emulator import DiscordEmulator, running_bot, shard_of

from .test_main import clean_env


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", (None, None)),
        ("4", "", (4, None)),
        ("4", "0-3", (4, (0, 1, 2, 3))),
        ("4", "0,2", (4, (0, 2))),
        ("8", " 6-7, 0 ,2 - 3 ", (8, (0, 2, 3, 6, 7))),
        ("2", "1", (2, (1,))),
    ],
)
def test_shard_settings_take_ids_and_ranges(count: str, ids: str, expected: tuple[Any, Any]) -> None:
    assert parse_shards(count, ids) == expected


@pytest.mark.parametrize(
    ("count", "ids", "names"),
    [
        ("", "0", "needs SHARD_COUNT"),
        ("0", "", "SHARD_COUNT"),
        ("-2", "", "SHARD_COUNT"),
        ("two", "", "SHARD_COUNT"),
        ("٢", "", "SHARD_COUNT"),  # an Arabic-Indic digit is not a shard count
        ("4", "4", "outside 0-3"),
        ("4", "3-1", "backwards"),
        ("4", "0,,1", "SHARD_IDS"),
        ("4", "0-", "SHARD_IDS"),
        ("4", "-1", "SHARD_IDS"),
        ("4", "a", "SHARD_IDS"),
        ("4", "0-2,2", "twice"),
    ],
)
def test_bad_shard_settings_are_refused_with_one_line(count: str, ids: str, names: str) -> None:
    with pytest.raises(ConfigError, match=names) as refused:
        parse_shards(count, ids)
    assert "\n" not in str(refused.value)


def test_settings_read_the_shard_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    monkeypatch.delenv("SHARD_IDS", raising=False)
    unset = Settings.from_env(tmp_path / "missing.env")
    assert (unset.shard_count, unset.shard_ids, unset.shard_id_list()) == (None, None, None)
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2-3")
    settings = Settings.from_env(tmp_path / "missing.env")
    assert (settings.shard_count, settings.shard_ids, settings.shard_id_list()) == (4, (2, 3), [2, 3])
    monkeypatch.setenv("SHARD_IDS", "4")
    with pytest.raises(ConfigError, match="SHARD_IDS"):
        Settings.from_env(tmp_path / "missing.env")


async def test_a_bad_shard_setting_prints_one_line_and_exits_with_code_2(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=clean_env(DISCORD_TOKEN="abc", SHARD_COUNT="2", SHARD_IDS="0-2"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "SHARD_IDS" in lines[0] and "0-1" in lines[0]


def test_log_records_carry_their_shard_or_the_processs_shards() -> None:
    assert [describe_shards(i) for i in ([], [1], [0, 1], [0, 1, 2, 3], [0, 2, 3])] == ["-", "1", "0,1", "0-3", "0,2,3"]
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "hello", None, None)
    set_process_shards([2, 3])
    assert ShardLogFilter().filter(record) and record.shard == "2,3"
    token = current_shard.set(3)
    try:
        other = logging.LogRecord("bot", logging.INFO, __file__, 1, "hello", None, None)
        ShardLogFilter().filter(other)
        ShardLogFilter().filter(record)  # a held record printed later keeps the shard of when it was logged
    finally:
        current_shard.reset(token)
    assert (other.shard, record.shard) == ("3", "2,3")


async def test_a_process_with_shard_count_2_and_shard_ids_1_sees_only_shard_1s_guilds(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    zero, one = emulator.add_guild("Zero", shard=(0, 2)), emulator.add_guild("One", shard=(1, 2))
    alice = emulator.add_user("alice", guild=zero)
    emulator.add_member(one, alice)
    env = clean_env(
        DISCORD_TOKEN=emulator.token,
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=emulator.gateway_url,
        UNO_DATABASE=str(tmp_path / "uno.sqlite3"),
        SHARD_COUNT="2",
        SHARD_IDS="1",
        LOG_LEVEL="INFO",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        await emulator.wait_shards(1, timeout=30)
        assert emulator.gateway.shards() == [(1, 2)]
        assert emulator.gateway.guilds_of(emulator.gateway.session(1)) == [one.id]
        await emulator.wait_until(lambda: bool(emulator.commands()), timeout=30, what="commands synced")
        res = await emulator.slash(alice, one.channel("general"), "uno rules", timeout=15)
        assert res.acknowledged and res.shards == [1] and res.ephemeral_messages
        with pytest.raises(AssertionError, match="shard"):  # shard 0's guild has no bot here
            await emulator.slash(alice, zero.channel("general"), "uno rules", timeout=0.2)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode()
    assert proc.returncode == 0, log[-2000:]
    assert ("GET", "gateway/bot") not in {(m, p) for _, m, p, _ in emulator.requests}  # the count was given
    assert "[shard 1]" in log and "[shard 0]" not in log and "[shard -]" not in log


class QuickIdentify(UnoBot):
    """The emulator does not rate-limit IDENTIFY: skip discord.py's 5 s wait between shards."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def test_without_shard_settings_one_process_runs_every_recommended_shard_and_logs_each_events_shard(
    emulator: DiscordEmulator, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    emulator.recommended_shards = 2
    guilds = [emulator.add_guild(f"G{i}", shard=(i % 2, 2)) for i in range(4)]
    alice = emulator.add_user("alice")
    for guild in guilds:
        emulator.add_member(guild, alice)
    settings = Settings(token=emulator.token, database=tmp_path / "uno.sqlite3")
    bot = QuickIdentify(settings, limits=Limits(ai_delay=0.0), guild_ready_timeout=0.05)
    seen: list[tuple[int | None, str | None]] = []
    log = logging.getLogger("tests.sharding")

    async def on_interaction(interaction: Any) -> None:
        log.info("interaction in guild %s", interaction.guild_id)
        seen.append((interaction.guild_id, caplog.records[-1].__dict__.get("shard")))

    bot.add_listener(on_interaction)
    caplog.handler.addFilter(ShardLogFilter())
    caplog.set_level(logging.INFO, logger="tests.sharding")
    async with running_bot(emulator, bot, timeout=15):
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert sorted(emulator.gateway.shards()) == [(0, 2), (1, 2)]
        assert {g.id for g in bot.guilds} == {g.id for g in guilds}
        for guild in guilds[:2]:
            res = await emulator.slash(alice, guild.channel("general"), "uno rules")
            assert res.shards == [shard_of(guild.id, 2)] and res.ephemeral_messages
        await emulator.wait_until(lambda: len(seen) == 2, what="both on_interaction listeners ran")
        log.info("outside any shard's work")
    assert seen == [(guilds[0].id, "0"), (guilds[1].id, "1")]
    assert caplog.records[-1].__dict__.get("shard") == "0,1"  # the process's shards


async def test_two_shard_processes_split_the_guilds_and_a_killed_one_restarts_without_pausing_the_other(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    zero, one = emulator.add_guild("Zero", shard=(0, 2)), emulator.add_guild("One", shard=(1, 2))
    alice = emulator.add_user("alice", guild=zero)
    emulator.add_member(one, alice)

    async def start(shard: int, db: str) -> asyncio.subprocess.Process:
        env = clean_env(
            DISCORD_TOKEN=emulator.token,
            UNO_DATABASE=str(tmp_path / db),
            SHARD_COUNT="2",
            SHARD_IDS=str(shard),
            **emulator.env(),
        )
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.DEVNULL
        )

    procs = [await start(0, "zero.sqlite3"), await start(1, "one.sqlite3")]
    try:
        await emulator.wait_shards(0, 1, timeout=30)
        await emulator.wait_until(lambda: bool(emulator.commands()), timeout=30, what="commands synced")
        for guild, shard in ((zero, 0), (one, 1)):
            res = await emulator.slash(alice, guild.channel("general"), "uno rules", timeout=15)
            assert res.shards == [shard] and res.ephemeral_messages
        procs[1].kill()
        await procs[1].wait()
        await emulator.wait_until(lambda: not emulator.gateway.connected(1), what="shard 1 gone")
        res = await emulator.slash(alice, zero.channel("general"), "uno rules", timeout=15)  # shard 0 goes on
        assert res.shards == [0] and res.ephemeral_messages
        with pytest.raises(AssertionError, match="shard"):
            await emulator.slash(alice, one.channel("general"), "uno rules", timeout=0.2)
        procs[1] = await start(1, "one.sqlite3")
        res = await emulator.slash(alice, one.channel("general"), "uno rules", timeout=30)
        assert res.ephemeral_messages and len(emulator.gateway.connected(1)) == 1
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 30)
    assert sorted(e.shard for e in emulator.gateway_events("identify")) == [(0, 2), (1, 2), (1, 2)]
    (lost,) = [e for e in emulator.gateway_events("closed") if e.detail["code"] not in (1000, 1001)]
    assert lost.shard == (1, 2)  # the killed process's session: never closed, not resumed by the new process
    assert [p.returncode for p in procs] == [0, 0]


async def test_point4_a_process_standing_down_leaves_its_shards_interactions_unanswered(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """Issue 16 point 4, after start-up: while another process runs this process's shards
    (``SessionManager.standing_down``, tested in tests/adapter/test_leases.py) Discord delivers their interactions to
    both, and this one must not answer any: neither "moving" nor anything else. Once it runs them again, it answers."""
    guild = emulator.add_guild("Zero")
    alice = emulator.add_user("alice", guild=guild)
    bot = UnoBot(Settings(token=emulator.token, database=tmp_path / "uno.sqlite3"), limits=Limits(ai_delay=0.0))
    async with running_bot(emulator, bot, timeout=15):
        assert (await emulator.slash(alice, guild.channel("general"), "uno rules")).ephemeral_messages
        bot.manager.shard_holders = ["machine-b:0123456789:2:all:bbbb"]  # as _stand_down sets it
        res = await emulator.slash(alice, guild.channel("general"), "uno rules", expect_ack=False)
        assert not res.acknowledged and not res.ephemeral_messages
        bot.manager.shard_holders = []
        assert (await emulator.slash(alice, guild.channel("general"), "uno rules")).ephemeral_messages
