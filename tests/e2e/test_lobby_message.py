"""/uno new posts one lobby message (found in a review of the Discord layer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.discord_emulator import DiscordEmulator
from tests.e2e.uno_driver import Table, make_bot

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match played move by move")


async def test_uno_new_posts_one_lobby_message(emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path) -> None:
    guild = emulator.add_guild("UNO Club", locale="en-US", channels=("general", "uno"))
    alice = emulator.add_user("alice", locale="en-US", guild=guild)
    bob = emulator.add_user("bob", locale="en-US", guild=guild)
    channel = guild.channel("uno")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", guild))
    await emulator.slash(alice, channel, "uno new", game="classic")
    await emulator.settle()
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.settle()
    lobbies = [m for m in emulator.public_messages(channel) if any(b.label == "Join" for b in m.buttons())]
    # The interaction response and the publisher's "lobby" update both post a lobby: the second is never edited
    # again (it keeps saying "1 player") while its buttons still act on the game.
    assert len(lobbies) == 1, [m.text.splitlines()[:3] for m in lobbies]
