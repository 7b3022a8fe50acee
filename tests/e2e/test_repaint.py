"""Nothing a player saw is ever lost (issue 12, point 2 and the faults of the Discord side), end to end through the
emulator with the real client: a restart repaints every live session's public message from its committed state,
and a table whose edits failed catches up.

A kill is simulated by stopping the bot's deliveries first (what it commits from then on is never shown, as with
updates still queued when ``kill -9`` hits) and then closing it; the next bot starts on the same database.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import ManualClock
from bot.adapter.session import Status
from bot.engine.view import Phase
from cogs.uno import screens
from cogs.uno.output.publisher import LOG_SHOWN
from tests.discord_emulator import DiscordEmulator, Message, stop_bot
from tests.discord_emulator.model import COMPONENTS_V2

from .shown import as_sent, shown
from .test_live_channel import mentioned, pings
from .uno_driver import Table, make_bot, start_two_player_game, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="games played move by move, restarts")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def go_dark(bot: Any) -> None:
    """From now on the bot's committed updates never reach Discord (they die in its queue, as at a kill)."""
    bot.manager._fanout._subscribers.clear()


def expected_table(table: Table) -> str:
    """What the table the committed session should show says (its image aside), as the bot sends it."""
    session = table.view  # the session as committed
    lang = session.ui.lang
    screen = screens.table_screen(session, lang, list(session.log[-LOG_SHOWN:]))
    return shown(as_sent(screen, v2=table.bot.settings.components_v2)).body


def shown_table(message: Message) -> str:
    """What the table ``message`` says (its embed's or its container's text: :func:`tests.e2e.shown.shown`)."""
    return shown(message).body


def lobby_buttons(message: Message) -> list[str]:
    return [b.custom_id for b in message.buttons() if (b.custom_id or "").startswith("uno:l:")]


@pytest.mark.parametrize("v2", [True, False], ids=["v2", "embeds"])  # both modes (UNO_COMPONENTS_V2)
async def test_a_restart_mid_turn_repaints_the_table_pings_the_player_and_gives_them_the_full_time(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, v2: bool
) -> None:
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"], components_v2=v2))
    table = await start_two_player_game(emulator, world, bot)
    message = table.public_message()
    go_dark(bot)
    for _ in range(2):  # two moves committed, never shown
        player = table.user_of(table.session.game.pending)
        hand = await table.open_hand(player)
        await table.take_turn(player, hand)
        await emulator.settle()
    committed = table.session.to_dict()
    assert shown_table(message) != expected_table(table)  # the channel is behind
    await stop_bot(bot)

    restarted = time.time()
    bot2 = await bot_starter(make_bot(emulator, db, world["guild"], components_v2=v2))
    await emulator.settle()
    table2 = Table(emulator, bot2, world["channel"], table.users)
    session = table2.session
    assert session.to_dict()["game"] == committed["game"]
    assert session.log == committed["log"] and session.log  # the last moves survived the restart
    assert table2.public_message().id == message.id
    assert shown_table(message) == expected_table(table2)  # brought up to the committed state
    assert bool(message.flags & COMPONENTS_V2) == v2 and bool(message.embeds) != v2
    # the player to move is told, and has the whole turn again
    pending = table2.user_of(session.game.pending)
    standing = [m for m in pings(emulator, table2) if not m.deleted]
    assert [mentioned(m) for m in standing] == [[pending.id]]
    assert session.deadline is not None and session.deadline >= restarted + session.turn_timer - 0.5
    assert f"<t:{int(session.deadline)}:R>" in shown(message).description
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_lobby_killed_before_its_message_id_was_saved_is_found_again(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """The lobby message is posted, then the bot dies before saving its id: the Join it acknowledged meanwhile is
    shown after the restart, and Start turns that same message into the table (no orphan lobby beside it)."""
    db = tmp_path / "uno.sqlite3"
    alice, bob, _ = world["users"]
    channel = world["channel"]
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    Table(emulator, bot, channel, [alice, bob])  # settling waits for the bot's deliveries too

    async def killed_before_saving(channel_id: int, *args: Any, **values: Any) -> None:
        return None

    bot.manager.update_ui = killed_before_saving  # type: ignore[method-assign]
    res = await emulator.slash(alice, channel, "uno new", game="classic")
    lobby = res.original
    assert lobby is not None and lobby_buttons(lobby)
    await emulator.click(bob, lobby, label="Join")  # acknowledged and saved, but the lobby is not edited
    await emulator.settle()
    assert "Bob" not in lobby.text
    await stop_bot(bot)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table = Table(emulator, bot2, channel, [alice, bob])
    assert table.session.ui.message == lobby.id  # found again, not posted twice
    assert "Bob" in lobby.text
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING and table.public_message().id == lobby.id
    assert [m.id for m in emulator.public_messages(channel) if lobby_buttons(m)] == []
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_lobby_message_that_vanished_is_posted_anew_at_restart(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    db = tmp_path / "uno.sqlite3"
    alice, bob, _ = world["users"]
    channel = world["channel"]
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob])
    old = table.public_message()
    await emulator.click(bob, old, label="Join")
    await emulator.settle()
    await stop_bot(bot)
    emulator.rest.delete(old)  # someone deleted it while the bot was away

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table = Table(emulator, bot2, channel, [alice, bob])
    new = table.public_message()
    assert new.id != old.id and lobby_buttons(new) and "Bob" in new.text


async def test_a_match_that_ended_at_the_kill_shows_its_result_and_play_again_after_the_restart(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    db = tmp_path / "uno.sqlite3"
    alice = world["users"][0]
    channel = world["channel"]
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice])
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    message = table.public_message()
    go_dark(bot)
    hand = await table.open_hand(alice)
    for _ in range(3000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        assert session.game.pending == 0, "the AI moves at once"
        hand = await table.take_turn(alice, hand)
        await emulator.settle()
    assert table.session.status == Status.FINISHED
    assert not any(b.label == "Play again" for b in message.buttons())  # the channel never saw the end
    last_before = max(m.id for m in emulator.messages(channel, include_deleted=True))
    await stop_bot(bot)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table2 = Table(emulator, bot2, channel, [alice])
    assert table2.session.status == Status.FINISHED
    assert table2.session.game.phase is Phase.MATCH_OVER
    assert any(b.label == "Play again" for b in message.buttons())
    assert shown_table(message) == expected_table(table2)
    posted = [m for m in emulator.public_messages(channel) if m.id > last_before]
    assert any("Play again" in [b.label for b in m.buttons()] and shown(m).title for m in posted)  # the match summary
    assert [m for m in pings(emulator, table2) if not m.deleted] == []
    # a second restart posts no second summary
    await stop_bot(bot2)
    count = len(emulator.public_messages(channel))
    await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    assert len(emulator.public_messages(channel)) == count


async def test_a_restart_repaints_many_tables_within_discords_rate_limits(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path
) -> None:
    """Six live tables, all behind: after the restart each is right, and the repaint edits come at most
    :data:`~cogs.uno.output.publisher.REPAINT_RATE` a second (:class:`~cogs.uno.output.publisher.Pacer`, tested in
    tests/cogs)."""

    db = tmp_path / "uno.sqlite3"
    guild = emulator.add_guild("Busy", channels=tuple(f"t{i}" for i in range(6)))
    alice = emulator.add_user("alice", guild=guild)
    bob = emulator.add_user("bob", guild=guild)
    bot = await bot_starter(make_bot(emulator, db, guild))
    tables = []
    for i in range(6):
        channel = guild.channel(f"t{i}")
        await emulator.slash(alice, channel, "uno new", game="classic")
        table = Table(emulator, bot, channel, [alice, bob])
        await emulator.click(bob, table.public_message(), label="Join")
        await emulator.click(alice, table.public_message(), label="Start")
        tables.append(table)
    await emulator.settle()
    go_dark(bot)
    for table in tables:
        player = table.user_of(table.session.game.pending)
        await table.take_turn(player, await table.open_hand(player))
    await emulator.settle()
    messages = [t.public_message() for t in tables]
    await stop_bot(bot)
    started = emulator.now()
    bot2 = await bot_starter(make_bot(emulator, db, guild))
    await emulator.settle(timeout=30)
    for table, message in zip(tables, messages, strict=True):
        restarted = Table(emulator, bot2, table.channel, table.users)
        assert shown_table(message) == expected_table(restarted)
    edits = [path for at, method, path, _ in emulator.requests if method == "PATCH" and at >= started]
    assert len(edits) >= 6 and not [r for r in emulator.requests if r[3] == 429]


# --------------------------------------------------------------------------------------------------------------------
# Faults of the Discord side


async def play_one(table: Table) -> None:
    """One move by the player to move; then wait (long enough for discord.py's retries) until the bot is quiet."""
    table.settle = False
    player = table.user_of(table.session.game.pending)
    await table.take_turn(player, await table.open_hand(player))
    await table.emulator.settle(timeout=20)


async def test_table_edits_refused_with_429_wait_retry_after_and_land(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    limited = emulator.fail_edits(429, times=3, retry_after=0.1)
    await play_one(table)
    assert limited.fired == 3
    assert shown_table(table.public_message()) == expected_table(table)
    await play_one(table)  # the game goes on
    assert shown_table(table.public_message()) == expected_table(table)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("status", [500, 502])
async def test_a_server_error_on_a_table_edit_is_retried_and_the_table_catches_up(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, status: int
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    failed = emulator.fail_next("PATCH /channels/*/messages/*", status)
    await play_one(table)
    assert failed.fired == 1
    assert shown_table(table.public_message()) == expected_table(table)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_table_edit_that_fails_for_good_is_repainted_shortly_after(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """An edit refused outright (discord.py does not retry a 4xx): the publisher repaints the table from the
    committed state a moment later instead of leaving it behind until the next move."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    failed = emulator.fail_next("PATCH /channels/*/messages/*", 400, code=50035, message="Invalid Form Body")
    await play_one(table)
    assert failed.fired == 1
    assert shown_table(table.public_message()) == expected_table(table)


async def test_a_table_edit_refused_again_at_its_repaint_is_repainted_again(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """The repaint itself can be refused (a fault that lasts a moment, a game thread archived under the game): the
    publisher tries again later, its wait doubled (``REPAINT_RETRY`` up to ``REPAINT_RETRY_MAX``), rather than
    leaving the table behind after one retry."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    failed = emulator.fail_next("PATCH /channels/*/messages/*", 400, code=50035, message="Invalid Form Body", times=2)
    await play_one(table)
    assert failed.fired == 2
    assert shown_table(table.public_message()) == expected_table(table)


async def test_a_gateway_drop_with_resume_loses_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """During an outage the turn timer still plays (REST works) and the table shows it; on RESUME the players
    carry on through the same buttons."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    table = await start_two_player_game(emulator, world, bot)
    version = table.session.version
    async with emulator.gateway_outage():
        clock.advance(table.session.turn_timer + 1)  # the player to move times out while the gateway is down
        await emulator.settle()
        assert table.session.version > version
        assert shown_table(table.public_message()) == expected_table(table)
    assert emulator.gateway_events("resume")
    await play_one(table)
    assert shown_table(table.public_message()) == expected_table(table)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_an_invalid_session_and_a_new_identify_lose_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    before = table.session.to_dict()
    await emulator.invalidate_session()
    player = table.user_of(table.session.game.pending)
    res = await emulator.click(player, table.public_message(), label="Show my hand", timeout=15)
    assert res.acknowledged and table.session.to_dict()["game"] == before["game"]
    (hand,) = res.ephemeral_messages
    table.settle = False
    await table.take_turn(player, hand)
    await emulator.settle(timeout=10)
    assert emulator.gateway.identifies == 2 and table.session.version > before["version"]
    assert shown_table(table.public_message()) == expected_table(table)
    emulator.assert_all_interactions_answered_once(max_latency=15.0)


async def test_a_restart_after_a_ping_deletes_the_standing_ping_and_leaves_exactly_one(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 20.3: the id of the ping standing in the channel is committed right after the move that posted it, so
    the restarted bot deletes that ping (and no older one, already deleted: no 404) and the channel holds exactly one
    ping, for the player to move. Before, the id saved was always the previous ping's: the restart deleted it again
    (404) and left the standing one beside the new one."""
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    turns = 0
    for _ in range(40):  # until the turn has passed twice (two pings sent after the first, each deleting the last)
        pending = table.session.game.pending
        player = table.user_of(pending)
        await table.take_turn(player, await table.open_hand(player))
        await emulator.settle()
        turns += table.session.game.pending != pending
        if turns >= 2:
            break
    assert len(pings(emulator, table)) >= 3
    standing = [m for m in pings(emulator, table) if not m.deleted]
    assert len(standing) == 1
    await stop_bot(bot)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table2 = Table(emulator, bot2, world["channel"], table.users)
    left = [m for m in pings(emulator, table2) if not m.deleted]
    assert [mentioned(m) for m in left] == [[table2.user_of(table2.session.game.pending).id]]
    assert standing[0].deleted, "the ping standing at the restart was deleted"
    deletes = [(method, path, status) for _, method, path, status in emulator.requests if method == "DELETE"]
    assert deletes and all(status < 300 for _, _, status in deletes), deletes
