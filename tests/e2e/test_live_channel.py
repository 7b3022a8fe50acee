"""Playing in a real, busy channel (issue 10, points 1-4), end to end through the emulator with the real client:
turn pings, the table kept at the bottom, hands that are always current, the visible clock."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import ManualClock, Status
from bot.engine.cards import Side
from cogs.uno import screens
from cogs.uno.output.publisher import TABLE_REPOST_AFTER
from tests.discord_emulator import DiscordEmulator, Message
from tests.discord_emulator.model import COMPONENTS_V2

from .shown import shown
from .uno_driver import Table, make_bot, start_two_player_game, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="games played move by move with pings")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def pings(emulator: DiscordEmulator, table: Table) -> list[Message]:
    """The bot's turn pings in the table's channel, deleted ones included, oldest first."""
    return [
        m
        for m in emulator.messages(table.channel, include_deleted=True)
        if not m.ephemeral and m.author.id == emulator.bot_user.id and not m.embeds and m.content.startswith("<@")
    ]


def mentioned(message: Message) -> list[int]:
    """The users ``message`` may notify, from the allowed_mentions the bot sent with it."""
    allowed = message.allowed_mentions or {}
    assert allowed.get("parse") == [], allowed  # nobody through parsing: no @everyone, no roles, no stray users
    assert not allowed.get("roles"), allowed
    return [int(u) for u in allowed.get("users", [])]


async def test_each_human_turn_pings_only_that_player_and_the_ping_goes_when_the_turn_passes(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.1: Discord notifies nobody of an edit, so each human turn gets a new message mentioning only that
    player, deleted when the turn passes: the channel holds at most one."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    turns = 0
    for _step in range(10):
        game = table.session.game
        if game.phase not in screens.DECISIONS:
            break
        player = table.user_of(game.pending)
        standing = [m for m in pings(emulator, table) if not m.deleted]
        assert len(standing) == 1, [m.content for m in standing]
        (ping,) = standing
        assert ping.content.startswith(f"<@{player.id}>") and mentioned(ping) == [player.id]
        hand = await table.open_hand(player)
        await table.take_turn(player, hand)
        await emulator.settle()
        turns += 1
    sent = pings(emulator, table)
    assert turns >= 3 and len(sent) >= 2
    for earlier, later in itertools.pairwise(sent):
        assert earlier.deleted, "a ping stays only while its turn lasts"
        assert earlier.deleted_at is not None and earlier.deleted_at <= later.created_at + 1.0
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_an_ai_turn_never_pings_and_a_finished_turn_leaves_no_ping(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.1: with an AI that takes its time, the AI's turn stands with no ping at all."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], ai_delay=3600.0))
    alice = world["users"][0]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice])
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = table.session.game
    if game.pending == 0:  # alice first: she is pinged; she draws (and keeps), the AI's turn comes
        assert [mentioned(m) for m in pings(emulator, table)] == [[alice.id]]
        hand = await table.open_hand(alice)
        for _ in range(2):
            draw = [b for b in hand.buttons() if b.custom_id.startswith(("uno:h:draw", "uno:h:keep"))]
            if table.session.game.pending != 0 or not draw:
                break
            await emulator.click(alice, hand, draw[0].custom_id)
            await emulator.settle()
    assert table.session.game.pending == 1  # the AI's turn
    assert [m for m in pings(emulator, table) if not m.deleted] == []
    assert all(mentioned(m) == [alice.id] for m in pings(emulator, table))


async def test_the_table_is_posted_anew_at_the_bottom_once_messages_pile_up_below_it(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.2: chat pushes the table up; at the next move it is posted at the bottom and the old one is deleted
    (issue 18 point 5: it used to stay as a "the table moved" stub). The table never notifies when posted anew."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    _alice, bob, carol = world["users"]
    table = await start_two_player_game(emulator, world, bot)
    old = table.public_message()
    for i in range(TABLE_REPOST_AFTER):
        await emulator.post(carol if i % 2 else bob, table.channel, f"chat {i}")
    await emulator.sync_gateway()
    player = table.user_of(table.session.game.pending)
    hand = await table.open_hand(player)
    await table.take_turn(player, hand)
    await emulator.settle()
    new = table.public_message()
    assert new.id != old.id
    assert new.allowed_mentions == {"parse": []}  # posting the table (it names the player to move) pings nobody
    assert old.deleted and not any("moved" in m.text for m in emulator.public_messages(table.channel))
    # the new table is below every chat message, and the game goes on through it
    chat = [m for m in emulator.public_messages(table.channel) if m.author.id in (bob.id, carol.id)]
    assert all(m.id < new.id for m in chat)
    assert any(b.label == "Show my hand" for b in new.buttons())
    player = table.user_of(table.session.game.pending)
    res = await emulator.click(player, new, label="Show my hand")
    assert res.ephemeral_messages
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


def _give_flip(table: Table) -> None:
    """Put a Flip of the colour in play into the hand of the player to move (a position, as a test may build)."""
    game = table.session.game
    seat = game.pending
    colour = game.view(None).colour_in_play
    flip = next(
        c
        for c in range(len(game.deck))
        if str(game.faces[c]).endswith("F") and game.faces[c].colour == colour and c not in game.discard
    )
    for pile in (game.draw_pile, *game.hands):
        if flip in pile:
            pile.remove(flip)
    game.draw_pile.append(game.hands[seat].pop(0))
    game.hands[seat].append(flip)
    table.republish()  # the position laid out above is what the bot shows as committed


async def test_after_a_flip_every_open_hand_shows_its_players_view(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.3: a Flip changes every hand; the hands of the players not to move are updated too (they used to keep
    the light side)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="flip")
    table = Table(emulator, bot, channel, [alice, bob, carol])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(carol, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    hands = {u.id: await table.open_hand(u) for u in table.users}
    await emulator.settle()
    _give_flip(table)
    seat = table.session.game.pending
    player = table.user_of(seat)
    hand = await table.open_hand(player)
    hands[player.id] = hand
    select = next(s for s in hand.selects() if s.custom_id.startswith("uno:hs:play"))
    option = next(o for o in select.options if "Flip" in o.label)
    await emulator.select(player, hand, select.custom_id, [option.value])
    await emulator.settle()
    session = table.view  # the session as committed
    assert session.public.side is Side.DARK
    for user in table.users:
        expected = screens.hand_screen(session, session.view_for(user.id), "en").embed
        assert shown(hands[user.id]).description == expected.description, user.username
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("v2", [True, False], ids=["v2", "embeds"])  # both modes (UNO_COMPONENTS_V2)
async def test_the_clock_is_shown_and_a_timeout_says_what_it_did(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, v2: bool
) -> None:
    """Issue 10.4: the table and the hand show the deadline as ``<t:UNIX:R>``; when it runs out the log and the
    hand say what the timer did."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock, components_v2=v2))
    table = await start_two_player_game(emulator, world, bot)
    session = table.session
    seat = session.game.pending
    player = table.user_of(seat)
    deadline = session.deadline
    assert deadline == pytest.approx(clock.now() + session.turn_timer)
    stamp = f"<t:{int(deadline)}:R>"
    assert stamp in shown(table.public_message()).description
    hand = await table.open_hand(player)
    assert stamp in shown(hand).description
    other = table.user_of(1 - seat)
    other_hand = await table.open_hand(other)
    assert "<t:" not in shown(other_hand).description  # only the player to move has a clock running
    assert all(bool(m.flags & COMPONENTS_V2) == v2 for m in (table.public_message(), hand, other_hand))
    clock.advance(session.turn_timer + 0.5)
    await emulator.settle()
    name = player.username.title()
    log = table.public_message().text
    assert f"⏰ Time's up: {name} drew a card and passed" in log
    assert "drew 1 card" not in log.split("Time's up")[-1].split("\n")[0]
    assert "⏰ Time's up: you drew a card and passed." in shown(hand).description
    # the next player's clock is on the table now
    assert re.search(r"<t:\d+:R>", shown(table.public_message()).description)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def _draw_and_pass(table: Table, user: Any) -> Message:
    """``user`` draws from their hand and keeps the card if asked (a deterministic turn that passes)."""
    hand = await table.open_hand(user)
    for verb in ("draw", "keep"):
        button = next((b for b in hand.buttons() if b.custom_id and b.custom_id.startswith(f"uno:h:{verb}:")), None)
        if button is not None:
            await table.emulator.click(user, hand, button.custom_id)
    await table.emulator.settle()
    return hand


async def test_after_a_timeout_the_players_clock_is_halved_on_the_table_and_the_log_says_so(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.4, the shrinking timer: a player whose timer ran out has half the turn timer next time. The log's
    "Time's up" line and their hand name the next clock, the table's ``<t:UNIX:R>`` shows it, and once they act
    themselves the full timer is back."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    table = await start_two_player_game(emulator, world, bot)
    session = table.session
    assert session.turn_timer == 60
    seat = session.game.pending
    player, other = table.user_of(seat), table.user_of(1 - seat)
    hand = await table.open_hand(player)
    clock.advance(60.5)
    await emulator.settle()
    name = player.username.title()
    assert f"⏰ Time's up: {name} drew a card and passed (next turn: 30 s)" in table.public_message().text
    assert "⏰ Time's up: you drew a card and passed. Your next turn: 30 s." in shown(hand).description
    assert f"<t:{int(clock.now() + 60)}:R>" in shown(table.public_message()).description  # the other's clock
    await _draw_and_pass(table, other)
    assert session.game.pending == seat
    shrunk = f"<t:{int(clock.now() + 30)}:R>"
    assert shrunk in shown(table.public_message()).description
    assert shrunk in shown(await table.open_hand(player)).description
    await _draw_and_pass(table, player)  # the player acts: the full timer again from their next turn
    await _draw_and_pass(table, other)
    assert session.game.pending == seat and session.seats[seat].timeouts == 0
    assert f"<t:{int(clock.now() + 60)}:R>" in shown(table.public_message()).description
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_server_that_turned_pings_off_gets_none(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 10.1: the server setting ``turn_pings`` off: the table still names the player, no ping is sent."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await bot.store.update_settings(world["guild"].id, turn_pings=False)
    bot.forget_settings(world["guild"].id)
    table = await start_two_player_game(emulator, world, bot)
    player = table.user_of(table.session.game.pending)
    hand = await table.open_hand(player)
    await table.take_turn(player, hand)
    await emulator.settle()
    assert pings(emulator, table) == []
    assert "<@" in table.public_message().text


async def test_a_player_removed_by_the_turn_timer_is_logged_as_such_and_drawn_as_out(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A player whose turn timer ran out ``max_timeouts`` times in a row is removed and the game goes on: the log
    says why ("… was removed from the game after 3 timeouts in a row", not "… left the game"), the table lists them
    as out, and the table image draws their seat as left (no cards)."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    session = table.session
    for _ in range(40):
        if any(s.left for s in session.seats):
            break
        assert session.deadline is not None
        clock.advance(session.deadline - clock.now() + 0.5)
        await emulator.settle()
    (seat,) = [i for i, s in enumerate(session.seats) if s.left]
    n = bot.manager.limits.max_timeouts
    assert session.seats[seat].timeouts == n == 3
    name = table.user_of(seat).username.title()
    text = table.public_message().text
    assert f"{name} was removed from the game after {n} timeouts in a row" in text
    assert f"{name} left the game" not in text
    assert f"~~{name}~~ · removed after {n} timeouts in a row" in text  # not "left the game" (issue 18 point 5)
    view = table.view
    assert view.status is Status.PLAYING  # the game goes on without them
    scene = screens.table_scene(view, view.public, "en")
    assert scene.seats[seat].left == f"removed after {n} timeouts in a row"
    assert [s.left for i, s in enumerate(scene.seats) if i != seat] == [None, None]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
