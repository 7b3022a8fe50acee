"""``python -m bot``: settings from the environment, a clear exit without a token, a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
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


async def test_a_missing_token_prints_one_line_and_exits_with_code_2(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=clean_env(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert "Traceback" not in err.decode() and out == b""


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
