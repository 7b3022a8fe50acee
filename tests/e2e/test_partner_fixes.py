"""Partner games (SPEC T) end to end, three defects of issue 17 point 7 fixed: the host's **Change partners** button
refuses a stale click, the second of a double click and the button of a lobby message posted by the release before
(no fingerprint) with one line, changing nothing (T1), and once the game has started says so; and ``/uno history``
shows a partner as a partner and the place among the teams (T1, T4).

The real discord.py client against the loopback emulator; four players at a one-round classic partner table."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.i18n import t
from tests.discord_emulator import DiscordEmulator
from tests.discord_emulator.model import Message

from .test_house_rules import lay_out, play
from .uno_driver import Table, make_bot, uno_world

pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match played through the hands")

STALE = t("lobby.partners_stale", "en")


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


def partners_id(table: Table) -> str:
    (button,) = [b for b in table.public_message().buttons() if b.custom_id and ":partners:" in b.custom_id]
    assert button.custom_id is not None
    return button.custom_id


def seated(table: Table) -> list[str]:
    return [s.name for s in table.session.seats]


def showing(emulator: DiscordEmulator, message: Message, now: str, then: str) -> None:
    """Make Discord hold ``message`` with the button ``now`` as it was: ``then`` (an older lobby message, or one a
    release before posted). A click on a button the message no longer has is answered "That message changed just as
    you clicked" before any handler (cogs.uno.cog.UnoCog.on_interaction): the stale clicks that reach the handler
    come from a message that still shows the older button."""

    def swap(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("custom_id") == now:
                node["custom_id"] = then
            for value in node.values():
                swap(value)
        elif isinstance(node, list):
            for value in node:
                swap(value)

    held = emulator.message(message.id)
    swap(held.components)
    assert any(b.custom_id == then for b in held.buttons())


async def test_t1_a_stale_change_partners_click_is_refused_and_changes_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice = world["users"][0]
    lobby = table.public_message()
    before = partners_id(table)
    await emulator.click(alice, lobby, before)
    assert "**Team 1**: Alice and Dave" in table.public_message().text
    after = partners_id(table)
    assert after != before  # the message now carries the lobby's new fingerprint
    seats = seated(table)
    # a lobby message that still shows the button as it was before
    showing(emulator, lobby, after, before)
    res = await emulator.click(alice, lobby, before)
    (reply,) = res.ephemeral_messages
    assert reply.text == STALE and reply.visible_to == alice.id
    assert seated(table) == seats and table.session.options.teams
    # the current button still works
    showing(emulator, lobby, before, after)
    await emulator.click(alice, lobby, after)
    assert "**Team 1**: Alice and Bob" in table.public_message().text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_t1_a_double_click_on_change_partners_changes_the_partners_once(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice = world["users"][0]
    lobby = table.public_message()
    shown = partners_id(table)
    version = table.session.version
    data = {"custom_id": shown, "component_type": 2}
    first, second = await asyncio.gather(
        emulator.forged_component(alice, lobby, data, settle=False),
        emulator.forged_component(alice, lobby, data, settle=False),
    )
    await emulator.settle()
    assert table.session.version == version + 1  # one change
    assert "**Team 1**: Alice and Dave" in table.public_message().text
    # one of the two is refused: by the handler (both clicks carried the message before its edit), or, when the edit
    # came first, before it (the message no longer has that button); which one depends on timing
    replies = [m.text for m in first.ephemeral_messages + second.ephemeral_messages]
    assert len(replies) == 1 and replies[0] in (STALE, t("hand.changed", "en")), replies
    # a double click whose second click comes after the message was edited: refused before the handler (the message
    # no longer has that button); with the message still unchanged on the clicker's side, by the handler
    shown = partners_id(table)
    data = {"custom_id": shown, "component_type": 2}
    await emulator.forged_component(alice, lobby, data)
    res = await emulator.forged_component(alice, lobby, data)
    assert [m.text for m in res.ephemeral_messages] == [t("hand.changed", "en")]
    showing(emulator, lobby, partners_id(table), shown)
    res = await emulator.click(alice, lobby, shown)
    assert [m.text for m in res.ephemeral_messages] == [STALE]
    assert table.session.version == version + 2 and "**Team 1**: Alice and Bob" in table.public_message().text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_t1_the_change_partners_button_of_the_release_before_is_refused_cleanly(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A lobby message posted by the release before carries ``uno:l:partners:<channel>`` (no fingerprint): its click
    is answered with the same line and changes nothing; the lobby's other buttons of that release still work."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice, bob = world["users"][:2]
    channel = world["channel"]
    lobby = table.public_message()
    seats = seated(table)
    old = f"uno:l:partners:{channel.id}"
    showing(emulator, lobby, partners_id(table), old)  # the lobby message as the release before posted it
    for user in (alice, bob):  # the host, and someone who may not change the partners anyway
        res = await emulator.click(user, lobby, old)
        (reply,) = res.ephemeral_messages
        assert reply.text == STALE
    assert seated(table) == seats
    await emulator.click(bob, lobby, f"uno:l:leave:{channel.id}")  # its other buttons work as they did
    assert "Bob" not in seated(table)
    await emulator.click(bob, table.public_message(), f"uno:l:join:{channel.id}")
    assert seated(table) == ["Alice", "Carol", "Dave", "Bob"]
    assert ":partners:" in partners_id(table) and partners_id(table) != old  # repainted with the fingerprint
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_t1_t4_the_history_shows_the_partner_as_a_partner(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lay_out(monkeypatch, ["R1 B5", "R2 G7", "R3", "Y4 Y5"], "R5 B1 B2 B3 B4")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice, bob, carol = world["users"][:3]
    channel = world["channel"]
    lobby = table.public_message()
    shown = partners_id(table)
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    # a lobby message that still shows Change partners after the start: the click says the game has started
    (button, *_) = [b for b in table.public_message().buttons() if b.custom_id]
    assert button.custom_id is not None
    showing(emulator, table.public_message(), button.custom_id, shown)
    res = await emulator.click(alice, table.public_message(), shown)
    assert [m.text for m in res.ephemeral_messages] == [t("error.already_started", "en")]
    showing(emulator, table.public_message(), shown, button.custom_id)
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
        assert "· place **" + ("1" if user is alice else "2") + "** of 2 ·" in page.text, page.text  # of 2 teams (T4)
        (option,) = page.select_options()  # the recap select: one recorded match
        assert option.label.endswith(f"with {partner} · vs {opponents}"), option.label
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
