"""Issue 21 point 1 end to end: the lobby's Add AI buttons add an AI seat of each level, the lobby names each seat's
level, and a round against a Hard seat is played to its end (its searches in the worker process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.ai import Level
from tests.discord_emulator import DiscordEmulator

from .uno_driver import Table, make_bot, uno_world

#: Seconds to wait for the bot to go quiet while a Hard seat searches (a fraction of a second of CPU, but the shared
#: test machine may be loaded many times over, and the worker process is spawned on the first search).
SEARCH_SETTLE = 120.0


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def test_the_lobby_adds_ai_seats_of_each_level_and_names_their_level(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice])
    lobby = table.public_message()
    await emulator.click(alice, lobby, label="Add easy AI")
    await emulator.click(alice, lobby, label="Add hard AI")
    await emulator.click(alice, lobby, label="Add AI")
    assert [s.level for s in table.session.seats] == [None, Level.EASY, Level.HARD, Level.NORMAL]
    text = table.public_message().text
    assert "AI 1 · Easy" in text and "AI 2 · Hard" in text and "AI 3 · Normal" in text


async def test_a_round_against_a_hard_ai_seat_is_played_to_its_end(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice])
    table.settle = False  # each click waits for its answer only; the test waits for the bot below, searches included
    lobby = table.public_message()
    await emulator.click(alice, lobby, label="Add hard AI")
    await emulator.click(alice, lobby, label="Start", settle=False)
    await emulator.settle(timeout=SEARCH_SETTLE)
    hand = None
    for _step in range(3000):
        session = table.session
        if session.status != Status.PLAYING or session.game.pending is None:
            break
        user = table.user_of(session.game.pending)
        assert user is not None, "AI seats act by themselves"
        if hand is None:
            hand = await table.open_hand(user)
        await table.take_turn(user, hand)
        await emulator.settle(timeout=SEARCH_SETTLE)
    assert table.session.status == Status.FINISHED
