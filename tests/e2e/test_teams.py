"""Partner games (SPEC T) end to end: the real discord.py client against the loopback emulator.

Four players at a one-round classic table with ``teams`` on, dealt a laid-out deal: alice and carol (seats 1 and 3)
partner each other against bob and dave. The lobby says who partners whom, the table tags the teams, carol goes out
and her team wins the match: the summary names both partners, the result ranks them first and the partner's cards
count for nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from tests.discord_emulator import DiscordEmulator

from .test_house_rules import lay_out, play
from .uno_driver import Table, make_bot, uno_world

pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match played through the hands")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    world = uno_world(emulator)
    world["users"].append(emulator.add_user("dave", locale="en-US", guild=world["guild"]))
    return world


async def test_t2_t3_a_partner_wins_the_match_for_the_team(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lay_out(monkeypatch, ["R1 B5", "R2 G7", "R3", "Y4 Y5"], "R5 B1 B2 B3 B4")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol, dave = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    await emulator.slash(alice, channel, "uno new", game="classic", target=0, teams=True)
    table = Table(emulator, bot, channel, [alice, bob, carol, dave])
    lobby = table.public_message()
    assert "Teams are formed with 4, 6 or 8 players" in lobby.text
    for user in (bob, carol, dave):
        await emulator.click(user, lobby, label="Join")
    text = table.public_message().text
    assert "Partners" in text and "**Team 1**: Alice and Carol" in text and "**Team 2**: Bob and Dave" in text
    assert "teams of two sit opposite" in text
    await emulator.click(bob, lobby, label="Change partners")  # only the host may: refused, nothing changes
    assert "**Team 1**: Alice and Carol" in table.public_message().text
    await emulator.click(alice, lobby, label="Change partners")
    assert "**Team 1**: Alice and Dave" in table.public_message().text
    for _ in range(2):  # round again to the first pairing
        await emulator.click(alice, lobby, label="Change partners")
    assert "**Team 1**: Alice and Carol" in table.public_message().text
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING
    board = table.public_message().text
    assert "Team 1" in board and "Team 2" in board

    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    await play(table, alice, hands[alice.id], "Red 1", uno=True)
    await play(table, bob, hands[bob.id], "Red 2", uno=True)
    await play(table, carol, hands[carol.id], "Red 3")  # carol goes out: her team wins
    await emulator.settle()

    session = table.session
    assert session.status == Status.FINISHED and session.result is not None and session.result.winner == 2
    assert set(session.result.placement[:2]) == {0, 2}
    assert session.game.history[-1].points == (0, 0, 7 + 4 + 5, 0)  # bob's and dave's cards; alice's Blue 5 not
    texts = "\n".join(m.text for m in emulator.messages(world["channel"]))
    assert "Team 1 wins the match: Alice and Carol!" in texts
    assert "Team 1 wins the round: Alice and Carol." in texts
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
