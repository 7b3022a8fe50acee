"""``python -m bot``: settings from the environment, a clear exit without a token, a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from tests.discord_emulator import DiscordEmulator
from tests.e2e.uno_driver import uno_world

ROOT = Path(__file__).resolve().parents[2]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "UNO_", "DEV_GUILD", "LOG_LEVEL"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


async def run_bot(cwd: Path, env: dict[str, str], timeout: float = 60) -> tuple[int | None, str, str]:
    """``python -m bot`` in ``cwd`` with ``env``: (exit code, stdout, stderr)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        out, err = await proc.communicate()
    return proc.returncode, out.decode(), err.decode()


def assert_one_line_and_exit_2(result: tuple[int | None, str, str], *words: str) -> str:
    """The run printed exactly one line (on stderr, no traceback) that names every one of ``words``, and exited 2."""
    code, out, err = result
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and out == "", (code, out, err[-3000:])
    assert lines[0].startswith("error: ") and "Traceback" not in err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def free_port() -> int:
    """A loopback port nobody listens on (connections to it are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_missing_token_prints_one_line_and_exits_with_code_2(tmp_path: Path) -> None:
    line = assert_one_line_and_exit_2(await run_bot(tmp_path, clean_env()), "DISCORD_TOKEN", ".env.example")
    assert "not set" in line


async def test_a_wrong_token_prints_one_line_and_exits_with_code_2(emulator: DiscordEmulator, tmp_path: Path) -> None:
    env = clean_env(DISCORD_TOKEN="not-the-token", UNO_DATABASE=str(tmp_path / "uno.sqlite3"), **emulator.env())
    assert_one_line_and_exit_2(await run_bot(tmp_path, env), "DISCORD_TOKEN", "refused", "Reset Token")
    assert ("GET", "users/@me", 401) in [(m, p, s) for _, m, p, s in emulator.requests]
    assert emulator.gateway.identifies == 0


async def test_an_unreachable_api_prints_one_line_and_exits_with_code_2(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(
        DISCORD_TOKEN="some-token",
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        UNO_DATABASE=str(tmp_path / "uno.sqlite3"),
    )
    assert_one_line_and_exit_2(
        await run_bot(tmp_path, env), "cannot reach Discord's API", f"127.0.0.1:{port}", "DISCORD_API_BASE"
    )


async def test_an_unreachable_gateway_prints_one_line_and_exits_with_code_2(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    port = free_port()
    env = clean_env(
        DISCORD_TOKEN=emulator.token,
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway",
        UNO_DATABASE=str(tmp_path / "uno.sqlite3"),
    )
    assert_one_line_and_exit_2(
        await run_bot(tmp_path, env), "cannot reach Discord's gateway", f"127.0.0.1:{port}", "DISCORD_GATEWAY_URL"
    )
    assert (tmp_path / "uno.sqlite3").exists()  # the database was opened, and closed again


@pytest.mark.parametrize("case", ["folder is a file", "database is a folder", "not a database", "read-only folder"])
async def test_a_database_that_cannot_be_used_prints_one_line_and_exits_with_code_2(
    emulator: DiscordEmulator, tmp_path: Path, case: str
) -> None:
    if case == "folder is a file":
        (tmp_path / "data").write_text("a file where the folder should be")
        database = tmp_path / "data" / "uno.sqlite3"
    elif case == "database is a folder":
        database = tmp_path / "uno.sqlite3"
        database.mkdir()
    elif case == "not a database":
        database = tmp_path / "uno.sqlite3"
        database.write_text("these are notes, not an SQLite database\n" * 100)
    else:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o500)
        if os.access(folder, os.W_OK):
            pytest.skip("this user may write to any folder (root)")
        database = folder / "uno.sqlite3"
    env = clean_env(DISCORD_TOKEN=emulator.token, UNO_DATABASE=str(database), **emulator.env())
    assert_one_line_and_exit_2(await run_bot(tmp_path, env), str(database.parent), "UNO_DATABASE")
    assert emulator.gateway.identifies == 0


def test_settings_read_dotenv_and_refuse_bad_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in (
        "DISCORD_TOKEN",
        "UNO_DATABASE",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "DISCORD_API_BASE",
        "DISCORD_GATEWAY_URL",
    ):
        monkeypatch.delenv(key, raising=False)
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n")
    settings = Settings.from_env(env)
    assert (settings.token, settings.dev_guild_id, settings.log_level) == ("abc", 123, "DEBUG")
    assert settings.database == Path("data/uno.sqlite3")
    monkeypatch.setenv("DEV_GUILD_ID", "not-a-number")
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        Settings.from_env(env)


async def test_sigterm_stops_the_bot_cleanly_with_exit_code_0(emulator: DiscordEmulator, tmp_path: Path) -> None:
    guild = emulator.add_guild("UNO Club", channels=("uno",))
    env = clean_env(
        DISCORD_TOKEN=emulator.token,
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=emulator.gateway_url,
        UNO_DATABASE=str(tmp_path / "uno.sqlite3"),
        DEV_GUILD_ID=str(guild.id),
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await emulator.wait_until(lambda: bool(emulator.commands(guild)), timeout=30, what="commands synced")
        await emulator.wait_until(lambda: emulator.gateway.identifies >= 1, timeout=30, what="gateway identify")
        assert {c["name"] for c in emulator.commands(guild)} == {"uno"}
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert (tmp_path / "uno.sqlite3").exists()


async def test_sigterm_to_the_process_group_while_images_are_drawn_stops_without_tracebacks(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """A service manager signals the whole process group: the image worker ignores it, the bot finishes the images
    in flight, then closes the worker and its HTTP session (no "image worker died", no "Session is closed")."""
    world = uno_world(emulator)
    alice, bob, _ = world["users"]
    channel = world["channel"]
    env = clean_env(
        DISCORD_TOKEN=emulator.token,
        DISCORD_API_BASE=emulator.api_base,
        DISCORD_GATEWAY_URL=emulator.gateway_url,
        UNO_DATABASE=str(tmp_path / "uno.sqlite3"),
        DEV_GUILD_ID=str(world["guild"].id),
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,  # its own process group, as under a service manager
    )
    try:
        await emulator.wait_until(lambda: bool(emulator.commands(world["guild"])), timeout=30, what="commands synced")
        await emulator.wait_until(lambda: emulator.gateway.identifies >= 1, timeout=30, what="gateway identify")
        await emulator.slash(alice, channel, "uno new", timeout=30)
        lobby = emulator.public_messages(channel)[-1]
        await emulator.click(bob, lobby, label="Join", timeout=30)
        await emulator.click(alice, lobby, label="Start", timeout=30)
        await emulator.wait_until(
            lambda: any(b.label == "Show my hand" for b in lobby.buttons()), timeout=60, what="the table"
        )
        hands = []
        for user in (alice, bob):
            rec = await emulator.click(user, lobby, label="Show my hand", settle=False, timeout=30)
            hands.extend(rec.ephemeral_messages)
        drawing = [hand for hand in hands if hand.loading]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    output = out.decode() + err.decode()
    assert proc.returncode == 0, output[-3000:]
    for bad in ("Traceback", "died", "Session is closed"):
        assert bad not in output, output[-3000:]
    assert drawing, "no image was being drawn when the signal came"
    assert not [hand for hand in hands if hand.loading], "a hand being drawn was never sent"
