"""Issue 20, point 5: interaction tokens expire after 15 minutes, and nothing freezes silently because of it.

A hand is an ephemeral message the bot edits through the interaction that opened it (or the player's last click on
it); Discord refuses such edits after 15 minutes (401, 50027 Invalid Webhook Token). The bot drops a hand before its
token is that old, never spends a request on it again, and when that player's decision comes the turn ping (a new
message, so it notifies) tells them to press Show my hand. Played in emulated time: the emulator's clock (which
expires the tokens) and the bot's hand registry move together, ``advance_clock`` standing for the players' thinking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from cogs.uno import screens
from tests.discord_emulator import DiscordEmulator, Message

from .shown import shown
from .test_live_channel import mentioned, pings
from .uno_driver import Table, make_bot, uno_world

#: Discord's rate limits on windows 50x shorter: a match of dozens of moves (the tokens' 15 minutes are emulated time,
#: not affected by the scale).
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match of dozens of moves")

#: The line a reopen ping carries (English catalogue).
REOPEN = "Show my hand"


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def start_three_player_game(emulator: DiscordEmulator, world: dict[str, Any], bot: Any) -> Table:
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)  # one round
    table = Table(emulator, bot, channel, [alice, bob, carol])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(carol, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    return table


def standing_ping(emulator: DiscordEmulator, table: Table) -> Message | None:
    standing = [m for m in pings(emulator, table) if not m.deleted]
    assert len(standing) <= 1, [m.content for m in standing]
    return standing[0] if standing else None


def edited(emulator: DiscordEmulator, message: Message) -> bool:
    return any(method == "PATCH" and path.endswith(f"/{message.id}") for _, method, path, _ in emulator.requests)


async def test_issue_20_5_a_30_minute_match_with_expiring_hands_spends_nothing_on_dead_tokens_and_tells_the_player(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    bot.get_cog("Uno").hands.open.now = emulator.now  # the bot's clock for token ages is the emulated one
    table = await start_three_player_game(emulator, world, bot)
    began = moved_at = emulator.now()
    hands = {user.id: await table.open_hand(user) for user in table.users}
    told = reopened_and_played = moves = 0
    for step in range(600):
        session = table.session
        game = session.game
        if session.status is not Status.PLAYING or game.phase not in screens.DECISIONS:
            break
        player = table.user_of(game.pending)
        assert player is not None
        ping = standing_ping(emulator, table)
        assert ping is not None and ping.content.startswith(f"<@{player.id}>") and mentioned(ping) == [player.id]
        hand = hands[player.id]
        if REOPEN in ping.content:
            # told deliberately, in a new message (an edit would notify nobody): their hand can no longer be updated
            assert not edited(emulator, ping)
            told += 1
            hands[player.id] = hand = await table.open_hand(player)
            reopened_and_played += 1
        else:
            # not told: then their hand was brought up to date for this decision (it is not frozen)
            assert hand.history[-1].at >= moved_at, f"step {step}: {player.username}'s hand is frozen and untold"
        moved_at = emulator.now()
        await table.take_turn(player, hand)
        await emulator.settle()
        moves += 1
        # the players think: two long thinks in every four moves for the first half hour (longer than a token's life
        # between one player's turns), then quick play to the end of the round
        elapsed = emulator.now() - began
        emulator.advance_clock(470.0 if elapsed < 30 * 60 and step % 4 in (2, 3) else 25.0)
    assert table.session.status is not Status.PLAYING or table.session.game.phase not in screens.DECISIONS
    assert emulator.now() - began >= 30 * 60 and moves >= 10
    assert told >= 2 and reopened_and_played == told
    assert emulator.expired_token_requests() == []  # no request spent on a dead token
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_issue_20_5_a_hand_refused_as_expired_is_dropped_after_the_one_request_that_met_it(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A token Discord refuses before the bot expected (a clock that disagrees): the one 401 50027 met drops the hand,
    and no second request goes to that token; the players play on (a click on a hand gives it a fresh token)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    registry = bot.get_cog("Uno").hands.open
    registry.now = emulator.now
    registry.window = 10 * 24 * 3600.0  # the bot believes its tokens live for days
    table = await start_three_player_game(emulator, world, bot)
    hands = {user.id: await table.open_hand(user) for user in table.users}
    emulator.advance_clock(15 * 60 + 1)  # every hand's token has expired
    moves = 0
    for _ in range(12):
        game = table.session.game
        if game.phase not in screens.DECISIONS:
            break
        player = table.user_of(game.pending)
        assert player is not None
        ping = standing_ping(emulator, table)
        if ping is not None and REOPEN in ping.content:
            hands[player.id] = await table.open_hand(player)
        await table.take_turn(player, hands[player.id])
        await emulator.settle()
        moves += 1
    refused = [e.path.split("/")[2] for e in emulator.expired_token_requests()]
    assert refused, "the bot never met an expired token"
    assert len(refused) == len(set(refused)), "a second request went to a token already refused"
    for user in table.users:
        hand = registry.get(table.channel.id, user.id)
        assert hand is None or hand.interaction.token not in refused
    assert moves >= 6


async def test_issue_20_5_with_turn_pings_off_the_table_tells_the_player_whose_hand_can_no_longer_be_updated(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A server that turned pings off (``/uno settings turn_pings:False``) gets no ping, so the turn ping cannot be
    what tells a player their hand stopped following the game. The table's line (above the table, naming the player
    to move without notifying anyone; otherwise the table has no such line, issue 18.5) says it instead: press Show
    my hand; once they have, it no longer says so."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    bot.get_cog("Uno").hands.open.now = emulator.now
    carol = world["users"][2]
    await emulator.slash(carol, world["channel"], "uno settings", turn_pings=False)
    table = await start_three_player_game(emulator, world, bot)
    began = moved_at = emulator.now()
    hands = {user.id: await table.open_hand(user) for user in table.users}
    told = moves = 0
    for step in range(600):
        session = table.session
        game = session.game
        if session.status is not Status.PLAYING or game.phase not in screens.DECISIONS:
            break
        player = table.user_of(game.pending)
        assert player is not None
        line = shown(table.public_message()).content  # the line above the table (a text display of its own in V2)
        hand = hands[player.id]
        if REOPEN in line:
            assert line.startswith(f"<@{player.id}>"), line
            told += 1
            hands[player.id] = hand = await table.open_hand(player)
            await emulator.settle()
            assert REOPEN not in shown(table.public_message()).content  # told once they have reopened it
        else:
            assert hand.history[-1].at >= moved_at, f"step {step}: {player.username}'s hand is frozen and untold"
        moved_at = emulator.now()
        await table.take_turn(player, hand)
        await emulator.settle()
        moves += 1
        elapsed = emulator.now() - began
        emulator.advance_clock(470.0 if elapsed < 30 * 60 and step % 4 in (2, 3) else 25.0)
    assert emulator.now() - began >= 30 * 60 and moves >= 10
    assert told >= 2
    assert pings(emulator, table) == []  # pings are off: none was posted
    assert emulator.expired_token_requests() == []
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
