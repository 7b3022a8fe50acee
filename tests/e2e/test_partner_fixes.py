"""Partner games (SPEC T) end to end, a defect of issue 17 point 7 fixed: ``/uno history`` shows a partner as a partner
(T1, T4).

The real discord.py client against the loopback emulator; four players at a one-round classic partner table."""

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


async def partner_lobby(emulator: DiscordEmulator, world: dict[str, Any], bot: Any) -> Table:
    alice, bob, carol, dave = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    await emulator.slash(alice, channel, "uno new", game="classic", target=0, teams=True)
    table = Table(emulator, bot, channel, [alice, bob, carol, dave])
    for user in (bob, carol, dave):
        await emulator.click(user, table.public_message(), label="Join")
    assert "**Team 1**: Alice and Carol" in table.public_message().text
    return table


async def test_t1_t4_the_history_shows_the_partner_as_a_partner(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lay_out(monkeypatch, ["R1 B5", "R2 G7", "R3", "Y4 Y5"], "R5 B1 B2 B3 B4")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice, bob, carol = world["users"][:3]
    channel = world["channel"]
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    await play(table, alice, hands[alice.id], "Red 1", uno=True)
    await play(table, bob, hands[bob.id], "Red 2", uno=True)
    await play(table, carol, hands[carol.id], "Red 3")  # carol goes out: alice and carol win
    await emulator.settle()
    assert table.session.status == Status.FINISHED
    for user, partner, opponents in ((alice, "Carol", "Bob, Dave"), (bob, "Dave", "Alice, Carol")):
        res = await emulator.slash(user, channel, "uno history")
        (page,) = res.public_messages
        assert f"with {partner} · against {opponents}" in page.text, page.text
        (option,) = page.select_options()  # the recap select: one recorded match
        assert option.label.endswith(f"with {partner} · vs {opponents}"), option.label
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
