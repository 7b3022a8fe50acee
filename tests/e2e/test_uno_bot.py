"""The UNO bot end to end: the real discord.py client against the loopback emulator."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from tests.discord_emulator import DiscordEmulator

from .uno_driver import Table, make_bot, start_two_player_game, uno_world

#: Whole matches of hundreds of moves: on Discord's windows (3 channel requests a move, 5 per 5 s each) each would
#: take minutes; the same buckets on a 50x faster clock keep them under seconds (issue 20, point 6).
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="whole matches: hundreds of moves per test")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


@pytest.mark.parametrize("game", ["classic", "flip", "flex"])
async def test_a_whole_match_to_500_through_slash_commands_and_buttons(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, game: str
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    res = await emulator.slash(alice, channel, "uno new", game=game)
    assert not res.ephemeral_messages
    table = Table(emulator, bot, channel, [alice, bob])
    lobby = table.public_message()
    await emulator.click(bob, lobby, label="Join")
    await emulator.click(alice, lobby, label="Add AI")
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    session = table.session
    assert session.status == Status.PLAYING
    hands: dict[int, Any] = {}
    for _step in range(20000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        game_state = session.game
        pending = game_state.pending
        if pending is None:
            # between rounds the table names the bot's own pause (make_bot: 3600 s) and the button
            assert "Next round in 3600 s, or press Next round." in table.public_message().text
            await emulator.click(alice, table.public_message(), label="Next round")
            continue
        user = table.user_of(pending)
        assert user is not None, "AI seats act by themselves"
        if user.id not in hands:
            hands[user.id] = await table.open_hand(user)
        await table.take_turn(user, hands[user.id])
        await emulator.settle()
    assert table.session.status == Status.FINISHED
    result = table.session.result
    assert result is not None and result.completed and max(result.scores) >= 500
    # the match is on the leaderboard and in the players' stats at once
    winner_seat = result.winner
    winner = table.user_of(winner_seat)
    res = await emulator.slash(carol, channel, "uno leaderboard", game=game)
    (board,) = res.public_messages
    lines = board.text
    if winner is not None:  # only a player with a match won is on the board (issue 18)
        assert winner.username.title() in lines or winner.username in lines
        assert "**1.**" in lines and "wins 1" in lines.split("\n")[1]
        loser = bob if winner is alice else alice
        assert loser.username.title() not in lines and loser.username not in lines
    else:
        assert "No match has been won yet." in lines
    res = await emulator.slash(alice, channel, "uno stats", game=game)
    (stats,) = res.public_messages
    expected_wins = 1 if winner is alice else 0
    assert f"Matches won: **{expected_wins}** of 1" in stats.text
    # the final message offers a new game
    summary = emulator.public_messages(channel)[-3]
    assert any(b.label == "Play again" for m in emulator.public_messages(channel) for b in m.buttons())
    assert summary is not None
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_hands_are_ephemeral_and_never_public(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    table = await start_two_player_game(emulator, world, bot)
    hand = await table.open_hand(alice)
    assert hand.visible_to == alice.id and hand.is_visible_to(alice.id) and not hand.is_visible_to(bob.id)
    assert hand in emulator.visible_to(alice) and hand not in emulator.visible_to(bob)
    res = await emulator.slash(bob, world["channel"], "uno hand")
    (bob_hand,) = res.ephemeral_messages
    assert bob_hand.visible_to == bob.id
    # a spectator gets a short refusal, only for them
    res = await emulator.click(carol, table.public_message(), label="Show my hand")
    (refusal,) = res.ephemeral_messages
    assert "not" in refusal.text.lower() and refusal.visible_to == carol.id
    # no public message ever holds a hand
    game = table.session.game
    for message in emulator.public_messages(world["channel"]):
        for revision in [message, *message.history]:
            text = getattr(revision, "text", "") or ""
            assert "Your hand" not in text
        assert all(a.filename != "hand.png" for a in message.attachments)
    assert game is not None


def forge(message: Any, custom_id: str) -> None:
    """Put a crafted button on ``message`` (as a modified client might try): the bot must validate every field."""
    message.components[:] = [
        row for row in message.components if not any(c.get("label") == "forged" for c in row.get("components", []))
    ]
    message.components.append(
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}
    )


async def test_wrong_user_clicks_are_refused_and_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    res = await emulator.click(bob, table.public_message(), label="Start")  # only the host may start
    (refusal,) = res.ephemeral_messages
    assert refusal.visible_to == bob.id and "host" in refusal.text.lower()
    assert table.session.status == "lobby"
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    session = table.session
    game = session.game
    # give the player to move a Wild Draw Four and let them play it through their hand
    seat = game.pending
    victim_seat = 1 - seat
    wd4 = next(c for c in range(len(game.deck)) if str(game.faces[c]) == "W+4" and c not in game.discard)
    for pile in (game.draw_pile, *game.hands):
        if wd4 in pile:
            pile.remove(wd4)
    game.draw_pile.append(game.hands[seat].pop(0))
    game.hands[seat].append(wd4)
    table.republish()
    player = table.user_of(seat)
    hand = await table.open_hand(player)
    select = next(s for s in hand.selects() if s.custom_id.startswith("uno:hs:play"))
    option = next(o for o in select.options if "Wild Draw Four" in o.label)
    await emulator.select(player, hand, select.custom_id, [option.value])
    colour = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:colour"))
    await emulator.click(player, hand, colour.custom_id)
    await emulator.settle()
    assert game.phase.value == "challenge" and game.pending == victim_seat
    before = session.to_dict()
    res = await emulator.click(player, table.public_message(), label="Challenge")  # not the victim
    (refusal,) = res.ephemeral_messages
    assert refusal.visible_to == player.id and session.to_dict() == before
    res = await emulator.click(carol, table.public_message(), label="Accept")  # not even playing
    assert res.ephemeral_messages[0].visible_to == carol.id and session.to_dict() == before
    victim = table.user_of(victim_seat)
    res = await emulator.click(victim, table.public_message(), label="Challenge")
    (revealed,) = res.ephemeral_messages  # the challenged hand, for the challenger only
    assert revealed.visible_to == victim.id and "hand was" in revealed.text
    assert game.phase.value == "play"
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_forged_custom_ids_are_refused_and_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    _alice, _bob, carol = world["users"]
    table = await start_two_player_game(emulator, world, bot)
    session = table.session
    channel_id = world["channel"].id
    pending_user = table.user_of(session.game.pending)
    before = session.to_dict()
    cases = [
        (carol, f"uno:h:draw:{channel_id}:00000000:"),  # not seated
        (pending_user, f"uno:h:draw:{channel_id}:00000000:"),  # a fingerprint of no real hand: stale
        (pending_user, f"uno:h:draw:{channel_id + 7}:00000000:"),  # another channel
        (pending_user, f"uno:t:next:{channel_id + 7}"),  # another channel's table
        (pending_user, f"uno:d:challenge:{channel_id}:deadbeef:"),  # no challenge is pending
        (pending_user, f"uno:hs:play:{channel_id}:00000000:"),  # a select id on a button
        (pending_user, "uno:lb:1:all:9999:n"),  # another server's leaderboard page
    ]
    message = table.public_message()
    for user, custom_id in cases:
        forge(message, custom_id)
        res = await emulator.click(user, message, custom_id)  # a select's id on a button too: answered once
        assert res.response_type is not None, custom_id
        assert session.to_dict() == before, custom_id
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_restart_mid_game_resumes_it_with_its_buttons_working(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    from tests.discord_emulator import stop_bot

    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    table = await start_two_player_game(emulator, world, bot, game="flip")
    user = table.user_of(table.session.game.pending)
    hand = await table.open_hand(user)
    await table.take_turn(user, hand)
    await emulator.settle()
    before = table.session.to_dict()
    message = table.public_message()
    await stop_bot(bot)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    table2 = Table(emulator, bot2, world["channel"], table.users)
    assert table2.session.to_dict()["game"] == before["game"]
    pending = table2.user_of(table2.session.game.pending)
    res = await emulator.click(pending, message, label="Show my hand")  # the old message's button still works
    (hand2,) = res.ephemeral_messages
    version = table2.session.version
    await table2.take_turn(pending, hand2)
    await emulator.settle()
    assert table2.session.version > version
    assert emulator.message(message.id).history  # the table message is edited in place after the action
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_move_is_acknowledged_before_a_slow_save_and_shown_after_it(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """With card images the answer to a move is drawn after the move is saved: the click is acknowledged first, so a
    slow disk never turns into "This interaction failed"; the hand is updated once the move is on disk."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    seat = table.session.game.pending
    player = table.user_of(seat)
    hand = await table.open_hand(player)
    store = bot.manager.store
    save_game = store.save_game
    saving = asyncio.Event()
    release = asyncio.Event()

    async def slow_save(row: Any, **fence: Any) -> None:
        saving.set()
        await release.wait()
        await save_game(row, **fence)

    store.save_game = slow_save
    draw = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:draw"))
    revisions = len(hand.history)
    record = await emulator.click(player, hand, draw.custom_id, settle=False)
    assert record.acknowledged and saving.is_set()  # answered while the save is still waiting
    assert len(hand.history) == revisions  # nothing shown before it is saved
    release.set()
    await emulator.settle()
    store.save_game = save_game
    (stored,) = [g for g in await store.load_games() if g.channel_id == table.channel.id]
    assert stored.version == table.session.version
    assert len(hand.history) > revisions and "hand.png" in {a.filename for a in hand.attachments}
    assert len(table.session.game.hands[seat]) == 8  # the drawn card is in the hand
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_stopping_waits_for_the_images_being_drawn_before_closing_the_image_worker(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    from cogs.uno.cog import DRAWING_CONCURRENCY, UnoCog

    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    cog = bot.get_cog("Uno")
    assert isinstance(cog, UnoCog)
    await cog.images.slots.acquire()  # an image is being drawn
    unloading = asyncio.create_task(cog.cog_unload())
    await asyncio.sleep(0.2)
    assert not unloading.done() and cog.images.painter.pool.executor is not None  # the worker stays up for it
    cog.images.slots.release()  # the drawing is done
    await asyncio.wait_for(unloading, 2)
    assert cog.images.painter.pool.executor is None
    for _ in range(DRAWING_CONCURRENCY):
        cog.images.slots.release()  # as if the cog were fresh again, for the fixture's own shutdown
