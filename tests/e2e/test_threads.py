"""A thread per game (issue 10, point 2), end to end through the emulator with the real discord.py client: with the
server setting ``game_threads`` on, ``/uno new`` in a text channel opens the game in a public thread of it, and the
whole game (seats, plays, turn pings, timers, a restart, Play again, ``/uno end``) lives in that thread.

Every test but the one with the setting off fails on the code before this change: ``/uno settings`` had no
``game_threads`` option, and ``/uno new`` always opened the game in the channel it was run in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.adapter import ManualClock
from bot.adapter.refusals import StorageDown
from bot.adapter.session import Status
from bot.engine.cards import Kind
from bot.engine.view import Phase
from cogs.uno import screens
from cogs.uno.output.publisher import LOG_SHOWN
from cogs.uno.output.threads import THREAD_ARCHIVE_MINUTES
from tests.discord_emulator import Channel, DiscordEmulator, InteractionRecord, Message, stop_bot

from .shown import as_sent, shown
from .test_commands import find, give, play_select
from .test_live_channel import mentioned, pings
from .uno_driver import Table, make_bot, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="games played in threads move by move")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def threads_on(bot: Any, world: dict[str, Any]) -> None:
    """The server plays each game in a thread of its own (as ``/uno settings game_threads:True`` saves it)."""
    guild = world["guild"]
    await bot.store.update_settings(guild.id, game_threads=True)
    bot.forget_settings(guild.id)


async def pings_off(bot: Any, world: dict[str, Any]) -> None:
    """No turn pings (``/uno settings turn_pings:False``): the bot posts no message in a game's thread on a turn,
    it only edits the table."""
    await bot.store.update_settings(world["guild"].id, turn_pings=False)
    bot.forget_settings(world["guild"].id)


def thread_starts(emulator: DiscordEmulator) -> list[str]:
    """The bot's requests to start a thread (``POST /channels/{id}/threads``), whatever they were answered."""
    return [path for _, method, path, _ in emulator.requests if method == "POST" and path.endswith("/threads")]


def bot_public(emulator: DiscordEmulator, channel: Channel) -> list[Message]:
    """The bot's public messages standing in ``channel``."""
    return [m for m in emulator.public_messages(channel) if m.author.id == emulator.bot_user.id]


def lobby_buttons(message: Message) -> list[str]:
    return [b.custom_id for b in message.buttons() if (b.custom_id or "").startswith("uno:l:")]


async def open_in_thread(
    emulator: DiscordEmulator, world: dict[str, Any], bot: Any, **options: Any
) -> tuple[InteractionRecord, Channel, Table]:
    """alice runs ``/uno new`` in #general with threads on; the thread it opened and its table (alice and bob)."""
    alice, bob, _ = world["users"]
    general = world["guild"].channel("general")
    res = await emulator.slash(alice, general, "uno new", **options)
    (thread,) = emulator.threads_of(general)
    return res, thread, Table(emulator, bot, thread, [alice, bob])


async def start_in_thread(emulator: DiscordEmulator, world: dict[str, Any], bot: Any, **options: Any) -> Table:
    """A game of alice and bob opened in a thread of #general, bob seated through the lobby's Join, started."""
    _, _, table = await open_in_thread(emulator, world, bot, **options)
    alice, bob = table.users
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    return table


async def to_play(table: Table) -> Any:
    """Decide whatever is pending until a card is to be played (an opening wild's colour on the table's buttons,
    a challenge, a drawn card…), by the players through Discord; the game then."""
    emulator = table.emulator
    for _ in range(12):
        game = table.session.game
        if game.phase is Phase.PLAY:
            return game
        user = table.user_of(game.pending)
        colours = [b for b in table.public_message().buttons() if (b.custom_id or "").startswith("uno:d:colour")]
        if colours:
            await emulator.click(user, table.public_message(), colours[0].custom_id)
        else:
            await table.take_turn(user, await table.open_hand(user))
        await emulator.settle()
    raise AssertionError(f"no card to play after 12 decisions: {table.session.game.phase}")


async def finish_the_match(table: Table) -> None:
    """The player to move is given one playable card and plays it: with target 0 the round decides the match."""
    game = await to_play(table)
    seat = game.pending
    colour = game.colour_in_play()
    last = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    give(game, seat, [last])
    table.republish()  # the position laid out above is what the bot shows as committed
    player = table.user_of(seat)
    hand = await table.open_hand(player)
    select = play_select(hand)
    await table.emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await table.emulator.settle()
    assert table.session.status == Status.FINISHED and table.session.result.status == "completed"


# --------------------------------------------------------------------------------------------------------------------
# The setting


async def test_uno_settings_game_threads_saves_and_shows_it_and_bad_values_are_refused(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _bob, carol = world["users"]
    guild, channel = world["guild"], world["channel"]
    res = await emulator.slash(carol, channel, "uno settings")
    assert "Thread per game: off" in res.ephemeral_messages[0].text

    res = await emulator.slash(carol, channel, "uno settings", game_threads=True)
    (saved,) = res.ephemeral_messages
    assert saved.visible_to == carol.id and "Thread per game: on" in saved.text, saved.text
    assert (await bot.store.get_settings(guild.id)).game_threads is True

    res = await emulator.forged_slash(carol, channel, "uno settings", game_threads="maybe", turn_pings=False)
    (refused,) = res.ephemeral_messages
    assert "Thread per game" not in refused.text and refused.visible_to == carol.id
    settings = await bot.store.get_settings(guild.id)
    assert settings.game_threads is True and settings.turn_pings is True  # one bad value changes nothing
    res = await emulator.slash(alice, channel, "uno settings", game_threads=False)  # not a server manager
    assert "Manage Server" in res.ephemeral_messages[0].text
    assert (await bot.store.get_settings(guild.id)).game_threads is True

    res = await emulator.slash(carol, channel, "uno settings", game_threads=False)
    assert "Thread per game: off" in res.ephemeral_messages[0].text
    assert (await bot.store.get_settings(guild.id)).game_threads is False
    # the option is described in the clients' languages (the translator reads opt.game_threads)
    (uno,) = [c for c in emulator.commands(guild) if c["name"] == "uno"]
    (settings_command,) = [o for o in uno["options"] if o["name"] == "settings"]
    (option,) = [o for o in settings_command["options"] if o["name"] == "game_threads"]
    assert option["type"] == 5 and option["description"] == "Play each game in a thread of its own"
    assert option["description_localizations"]["it"] == "Gioca ogni partita in un thread a parte"
    assert option["description_localizations"]["es-ES"] == "Juega cada partida en su propio hilo"
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Opening a game in a thread


async def test_uno_new_opens_the_lobby_in_a_new_thread_and_links_it_from_the_channel(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    guild = world["guild"]
    general = guild.channel("general")
    alice = world["users"][0]
    res, thread, table = await open_in_thread(emulator, world, bot, game="flip")

    # one public thread of #general, started by the bot, named after the game and the host, followed by the host
    assert thread.type == 11 and thread.parent_id == general.id and thread.name == "UNO FLIP · Alice"
    assert thread.owner_id == emulator.bot_user.id and thread.auto_archive_duration == THREAD_ARCHIVE_MINUTES == 1440
    assert alice.id in thread.member_ids
    assert isinstance(bot.get_channel(thread.id), discord.Thread)  # THREAD_CREATE reached the bot
    # the lobby is keyed by the thread and posted in it, as a message of its own
    session = table.view
    assert session.channel_id == thread.id and session.guild_id == guild.id and session.status == Status.LOBBY
    lobby = table.public_message()
    assert lobby.channel_id == thread.id and lobby.interaction_id is None and lobby_buttons(lobby)
    assert f":{thread.id}" in lobby_buttons(lobby)[0] and "UNO FLIP" in lobby.text
    # the channel holds one public line that links the thread, and nothing else of the game
    announcement = res.original
    assert announcement is not None and not announcement.ephemeral and not announcement.loading
    assert announcement.content == f"Alice opened a UNO FLIP game in <#{thread.id}> — join it there."
    assert announcement.allowed_mentions is not None and announcement.allowed_mentions.get("parse") == []
    assert announcement.components == [] and res.ephemeral_messages == []
    assert bot_public(emulator, general) == [announcement]
    assert bot.manager.snapshot(general.id) is None
    assert len(thread_starts(emulator)) == 1
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_bad_options_are_answered_and_create_no_thread(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    alice = world["users"][0]
    general = world["guild"].channel("general")
    for options in ({"target": -5}, {"timer": 5}, {"game": "flip", "seven_zero": True}, {"scoring": "most"}):
        res = await emulator.forged_slash(alice, general, "uno new", **options)
        (answer,) = res.ephemeral_messages
        assert answer.visible_to == alice.id and not res.public_messages, options  # seven_zero: SPEC H, classic only
    assert emulator.threads_of(general) == [] and thread_starts(emulator) == []
    assert bot.manager.sessions == {} and bot_public(emulator, general) == []
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize(
    ("denied", "named"),
    [("create_public_threads", "Create Public Threads"), ("send_messages_in_threads", "Send Messages in Threads")],
)
async def test_without_the_thread_permissions_the_game_is_played_in_the_channel_and_the_host_is_told(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, denied: str, named: str
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    alice, bob, _ = world["users"]
    general = world["guild"].channel("general")
    emulator.set_permissions(general, emulator.bot_user, deny=discord.Permissions(**{denied: True}))
    await emulator.sync_gateway()
    res = await emulator.slash(alice, general, "uno new")
    assert emulator.threads_of(general) == [] and thread_starts(emulator) == []  # not even tried
    lobby = res.original
    assert lobby is not None and not lobby.ephemeral and lobby_buttons(lobby)  # as without threads
    (note,) = res.ephemeral_messages
    assert note.visible_to == alice.id
    assert note.content == (
        f"Threads are on, but I can't open a thread for this game here (missing permission: {named}), "
        "so it is played in this channel."
    )
    table = Table(emulator, bot, general, [alice, bob])
    assert table.view.channel_id == general.id and table.public_message().id == lobby.id
    await emulator.click(bob, lobby, label="Join")  # the game goes on in the channel
    assert [s.user_id for s in table.session.seats] == [alice.id, bob.id]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_thread_that_cannot_be_created_leaves_the_game_in_the_channel_with_a_note(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    alice, bob, _ = world["users"]
    general = world["guild"].channel("general")
    fault = emulator.fail_next(
        "POST /channels/*/threads", 400, code=160006, message="Maximum number of active threads reached"
    )
    res = await emulator.slash(alice, general, "uno new", game="flex")
    assert fault.fired == 1 and emulator.threads_of(general) == []
    lobby = res.original  # the deferred answer became the lobby
    assert lobby is not None and not lobby.ephemeral and not lobby.loading and "UNO Flex!" in lobby.text
    assert lobby_buttons(lobby) and Table(emulator, bot, general, [alice, bob]).public_message().id == lobby.id
    (note,) = res.ephemeral_messages
    assert note.visible_to == alice.id
    assert note.content == "Threads are on, but I couldn't open a thread here, so this game is played in this channel."
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("manage_threads", [True, False])
async def test_a_lobby_that_cannot_be_opened_leaves_no_thread_and_the_host_gets_the_error(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, manage_threads: bool
) -> None:
    """The thread is deleted; a bot without Manage Threads (the invite does not ask for it) may not delete it and
    archives it instead, as the thread's owner may."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    alice = world["users"][0]
    general = world["guild"].channel("general")
    if not manage_threads:
        emulator.set_permissions(general, emulator.bot_user, deny=discord.Permissions(manage_threads=True))
        await emulator.sync_gateway()

    async def database_down(**kwargs: Any) -> None:
        raise StorageDown("the database is unavailable")

    bot.manager.open_lobby = database_down  # type: ignore[method-assign]
    res = await emulator.slash(alice, general, "uno new")
    assert len(thread_starts(emulator)) == 1
    await emulator.sync_gateway()
    if manage_threads:
        assert emulator.threads_of(general) == []
        (thread,) = emulator.deleted_channels.values()
        assert thread.parent_id == general.id
        assert bot.get_channel(thread.id) is None  # THREAD_DELETE reached the bot
    else:
        (thread,) = emulator.threads_of(general)
        assert thread.archived and emulator.deleted_channels == {} and thread.message_ids == []
        assert bot.get_channel(thread.id) is None  # THREAD_UPDATE reached the bot: discord.py drops archived threads
    (answer,) = res.messages  # the public "thinking" answer is gone; the error is for the host alone
    assert answer.visible_to == alice.id and "database is unavailable" in answer.text
    assert bot_public(emulator, general) == [] and bot.manager.sessions == {}
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_uno_new_inside_a_thread_plays_there_and_creates_no_thread(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    alice, bob, _ = world["users"]
    general = world["guild"].channel("general")
    side = emulator.add_channel(world["guild"], "side-table", thread_of=general)
    await emulator.sync_gateway()
    res = await emulator.slash(alice, side, "uno new")
    assert thread_starts(emulator) == [] and emulator.threads_of(general) == [side]
    lobby = res.original
    assert lobby is not None and lobby.channel_id == side.id and lobby_buttons(lobby) and not res.ephemeral_messages
    table = Table(emulator, bot, side, [alice, bob])
    assert table.view.channel_id == side.id
    await emulator.click(bob, lobby, label="Join")
    assert bob.id in side.member_ids  # the joiner follows the thread
    assert bot_public(emulator, general) == []
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_with_the_setting_off_uno_new_plays_in_the_channel_as_before(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A guard (it passes on the code before this change too): off is the default, and changes nothing."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _ = world["users"]
    general = world["guild"].channel("general")
    res = await emulator.slash(alice, general, "uno new")
    assert thread_starts(emulator) == [] and emulator.threads_of(general) == []
    lobby = res.original
    assert lobby is not None and lobby.channel_id == general.id and lobby_buttons(lobby) and not res.ephemeral_messages
    await emulator.click(bob, lobby, label="Join")
    assert [s.user_id for s in bot.manager.snapshot(general.id).seats] == [alice.id, bob.id]
    assert bob.id not in {m for c in emulator.channels.values() for m in c.member_ids}  # no thread to follow
    res = await emulator.slash(alice, general, "uno hand")  # not started: the usual answer, no word of threads
    assert "thread" not in res.ephemeral_messages[0].text.lower()
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Playing in the thread


async def test_a_whole_match_is_played_in_the_thread_with_its_pings_timer_and_result(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    await threads_on(bot, world)
    guild = world["guild"]
    general = guild.channel("general")
    _, thread, table = await open_in_thread(emulator, world, bot, game="classic", target=0)
    alice, bob = table.users
    await emulator.click(bob, table.public_message(), label="Join")
    assert bob.id in thread.member_ids  # Join added him to the thread
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING and table.public_message().channel_id == thread.id

    turns = 0
    for _ in range(6):  # plays and draws from the players' hands, each turn pinged in the thread
        game = table.session.game
        if game.phase not in screens.DECISIONS:
            break
        player = table.user_of(game.pending)
        standing = [m for m in pings(emulator, table) if not m.deleted]
        assert [(m.channel_id, mentioned(m)) for m in standing] == [(thread.id, [player.id])]
        hand = await table.open_hand(player)
        assert hand.channel_id == thread.id and hand.visible_to == player.id
        await table.take_turn(player, hand)
        await emulator.settle()
        turns += 1
    assert turns >= 3 and len(pings(emulator, table)) >= 2

    game = await to_play(table)  # the turn timer runs out in the thread too
    name = table.user_of(game.pending).username.title()
    clock.advance(table.session.turn_timer + 0.5)
    await emulator.settle()
    assert f"⏰ Time's up: {name}" in table.public_message().text

    await finish_the_match(table)
    summary = next(m for m in reversed(bot_public(emulator, thread)) if m.find_button(label="Play again"))
    assert summary.channel_id == thread.id and "wins the match" in summary.text
    assert [m for m in pings(emulator, table) if not m.deleted] == []  # no ping left standing
    result = table.session.result
    winner = table.session.seats[result.winner].user_id
    rows = await bot.store.leaderboard(guild_id=guild.id, mode="classic")  # the server's board
    assert [(r.user_id, r.wins, r.played) for r in rows] == [(winner, 1, 1)]  # the loser won none: not ranked
    winner_name = table.session.seats[result.winner].name
    assert [m.content for m in bot_public(emulator, general)] == [
        f"Alice's Classic UNO game in <#{thread.id}> is over: {winner_name} won the match."
    ]  # the game never spoke in the channel: its one line, edited, says it is over
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_play_again_in_the_thread_reseats_the_players_in_the_same_thread(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    table = await start_in_thread(emulator, world, bot, game="flip", target=0)
    thread = table.channel
    finished = table.session
    await finish_the_match(table)
    seats = [(s.user_id, s.name) for s in finished.seats]
    summary = next(m for m in reversed(bot_public(emulator, thread)) if m.find_button(label="Play again"))
    alice, bob = table.users
    res = await emulator.click(bob, summary, label="Play again")
    rematch = table.session
    assert rematch is not finished and rematch.status == Status.LOBBY and rematch.channel_id == thread.id
    assert [(s.user_id, s.name) for s in rematch.seats] == seats and rematch.mode.value == "flip"
    lobby = table.public_message()
    assert lobby.id == res.original.id and lobby.channel_id == thread.id and lobby_buttons(lobby)
    assert emulator.threads_of(general) == [thread] and len(thread_starts(emulator)) == 1  # no new thread
    assert len(bot_public(emulator, general)) == 1  # the first announcement only
    await emulator.click(alice, lobby, label="Start")  # the match's host hosts the rematch (issue 18 point 5)
    assert table.session.status == Status.PLAYING and table.public_message().channel_id == thread.id
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("archived", [False, True])
async def test_a_restart_mid_game_resumes_in_the_thread_and_play_goes_on_until_uno_end(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, archived: bool
) -> None:
    """``archived``: the bot was away longer than the thread's auto-archive time, so Discord archived it and no
    GUILD_CREATE holds it (see the archived-thread tests below); with pings off the move committed before the stop
    is shown by the table's edit alone."""
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    await threads_on(bot, world)
    if archived:
        await pings_off(bot, world)
    general = world["guild"].channel("general")
    table = await start_in_thread(emulator, world, bot)
    thread = table.channel
    player = table.user_of(table.session.game.pending)
    await table.take_turn(player, await table.open_hand(player))
    await emulator.settle()
    message = table.public_message()
    bot.manager._fanout._subscribers.clear()  # the next move is committed but never shown (killed before)
    player = table.user_of(table.session.game.pending)
    await table.take_turn(player, await table.open_hand(player))
    await emulator.settle()
    await stop_bot(bot)
    if archived:
        emulator.archive(thread)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table2 = Table(emulator, bot2, thread, table.users)
    session = table2.view
    assert session.channel_id == thread.id and table2.public_message().id == message.id and not thread.archived
    lang = session.ui.lang
    screen = screens.table_screen(session, lang, list(session.log[-LOG_SHOWN:]))
    expected = shown(as_sent(screen, v2=bot2.settings.components_v2))
    assert shown(message).body == expected.body  # repainted
    pending = table2.user_of(table2.session.game.pending)
    standing = [m for m in pings(emulator, table2) if not m.deleted]
    assert [(m.channel_id, mentioned(m)) for m in standing] == ([] if archived else [(thread.id, [pending.id])])
    revisions = len(message.history)
    await table2.take_turn(pending, await table2.open_hand(pending))  # play goes on in the thread
    await emulator.settle()
    assert len(table2.public_message().history) > revisions or table2.public_message().id != message.id

    alice = table.users[0]
    res = await emulator.slash(alice, thread, "uno end")
    assert res.ephemeral_messages and bot2.manager.snapshot(thread.id) is None  # closed
    stats = await bot2.store.player_stats(alice.id, guild_id=world["guild"].id, mode=None)
    assert stats is not None and stats.abandoned == 1  # recorded for this server
    assert len(bot_public(emulator, general)) == 1 and len(emulator.threads_of(general)) == 1
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_commands_in_the_channel_say_the_games_are_played_in_threads(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    table = await start_in_thread(emulator, world, bot)
    alice, _bob = table.users
    uno = next(c for scope in (world["guild"], None) for c in emulator.commands(scope) if c["name"] == "uno")
    for command in ("uno hand", "uno end", "uno join"):
        res = await emulator.slash(alice, general, command)
        (answer,) = res.ephemeral_messages
        assert "no game in this channel" in answer.text and "threads of their own" in answer.text, answer.text
        # the command to open one is named as the synced command (clickable, in each reader's language)
        assert f"</uno new:{uno['id']}>" in answer.text, answer.text
    res = await emulator.slash(alice, table.channel, "uno hand")  # in the thread: the hand
    assert res.ephemeral_messages and res.ephemeral_messages[0].visible_to == alice.id
    assert table.session.status == Status.PLAYING
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# An archived thread: Discord archives a thread after its auto_archive_duration without a message, and a moderator's
# "Close Thread" archives it at once. Discord's threads doc: "Users cannot edit messages, add reactions, use
# application commands, or join archived threads ... Sending a message will automatically unarchive the thread,
# unless the thread has been locked by a moderator" (an edit is answered 400, code 50083 "Thread is archived"), and
# GUILD_CREATE carries the active threads only.


async def test_a_thread_closed_mid_game_is_reopened_when_the_turn_timer_updates_the_table(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """With turn pings off the table's edit is the only thing the timer shows: it must reach the thread."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    await threads_on(bot, world)
    await pings_off(bot, world)
    table = await start_in_thread(emulator, world, bot)
    thread = table.channel
    game = await to_play(table)
    name = table.user_of(game.pending).username.title()
    emulator.archive(thread)  # a moderator closes the thread
    await emulator.sync_gateway()
    assert bot.get_channel(thread.id) is None  # discord.py dropped it from its cache

    clock.advance(table.session.turn_timer + 0.5)
    await emulator.settle()
    assert f"⏰ Time's up: {name}" in table.public_message().text  # the table shows what the timer did
    assert not thread.archived and not thread.locked
    assert [s for _, m, p, s in emulator.requests if m == "PATCH" and p == f"channels/{thread.id}"] == [200]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# A deleted thread


@pytest.mark.parametrize("deleted", ["thread", "channel"])
async def test_a_game_whose_thread_is_deleted_ends_and_nothing_more_is_sent_there(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, deleted: str
) -> None:
    """A moderator deletes the game's thread (or its channel, which takes its threads along): the game ends as a
    server manager's ``/uno end`` would end it, recorded as abandoned, instead of going on where nobody can see it
    (its turn timer playing for the players, every update refused 404 Unknown Channel)."""
    clock = ManualClock(start=1_800_000_000.0)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    table = await start_in_thread(emulator, world, bot)
    thread = table.channel
    alice, _bob = table.users
    timer = table.session.turn_timer
    emulator.delete_channel(thread if deleted == "thread" else general)
    await emulator.wait_until(lambda: bot.manager.snapshot(thread.id) is None, what="the game to end")
    await emulator.settle()
    ended = emulator.now()

    assert thread.id not in bot.manager.sessions
    stats = await bot.store.player_stats(alice.id, guild_id=world["guild"].id, mode=None)
    assert stats is not None and stats.abandoned == 1
    clock.advance(timer * 5)  # no timer plays on
    await emulator.settle()
    assert [r for r in emulator.requests if r[0] > ended] == []
    gone = f"channels/{thread.id}"
    assert [r for r in emulator.requests if r[2].startswith(gone) and r[3] == 404] == []  # nothing sent there
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_game_whose_thread_was_deleted_while_the_bot_was_away_ends_at_the_restart(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """No THREAD_DELETE reaches a bot that is down: the repaint at start-up finds the thread gone (404 Unknown
    Channel) and ends the game, rather than leaving it to its timers where nobody can see it."""
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    await threads_on(bot, world)
    table = await start_in_thread(emulator, world, bot)
    thread, alice = table.channel, table.users[0]
    await stop_bot(bot)
    emulator.delete_channel(thread)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.wait_until(lambda: bot2.manager.snapshot(thread.id) is None, what="the game to end")
    await emulator.settle()
    stats = await bot2.store.player_stats(alice.id, guild_id=world["guild"].id, mode=None)
    assert stats is not None and stats.abandoned == 1
    assert thread.id not in bot2.cogs["Uno"].publisher.gone  # type: ignore[attr-defined]  # forgotten once closed


# --------------------------------------------------------------------------------------------------------------------
# The line in the channel once the game is over


def channel_line(emulator: DiscordEmulator, res: InteractionRecord) -> Message:
    """The public line ``/uno new`` left in the channel (the deferred answer), as it stands now."""
    assert res.original is not None
    return emulator.message(res.original.id)


async def test_the_channel_line_says_the_match_is_over_and_who_won_and_play_again_leaves_it(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A newcomer reading #general after the match is not sent to a game that is over: the line names the winner
    (SPEC G9: a completed match has one). A rematch by Play again is for the players in the thread: the line,
    about the game it announced, stays as it is (no new link, no ping)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    res, thread, table = await open_in_thread(emulator, world, bot, game="flip", target=0)
    alice, bob = table.users
    assert channel_line(emulator, res).content == f"Alice opened a UNO FLIP game in <#{thread.id}> — join it there."
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    await finish_the_match(table)
    session = table.view
    assert session.result is not None and session.result.winner is not None
    winner = session.seats[session.result.winner].name
    assert winner in ("Alice", "Bob")
    line = channel_line(emulator, res)
    assert line.content == f"Alice's UNO FLIP game in <#{thread.id}> is over: {winner} won the match."
    assert line.allowed_mentions is not None and line.allowed_mentions.get("parse") == []
    assert bot_public(emulator, general) == [line]  # edited, nothing new posted in the channel

    summary = next(m for m in reversed(bot_public(emulator, thread)) if m.find_button(label="Play again"))
    await emulator.click(bob, summary, label="Play again")
    await emulator.settle()
    assert table.session.status == Status.LOBBY
    assert channel_line(emulator, res).content == line.content and bot_public(emulator, general) == [line]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_the_channel_line_says_the_game_is_over_after_uno_end_also_after_a_restart(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """The line's ids are saved with the session (its ``ui``): a bot restarted mid-game still finds the line when
    the host ends the game with ``/uno end`` in the thread."""
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    res, thread, table = await open_in_thread(emulator, world, bot, game="classic")
    alice, bob = table.users
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    await stop_bot(bot)

    bot2 = await bot_starter(make_bot(emulator, db, world["guild"]))
    await emulator.settle()
    table2 = Table(emulator, bot2, thread, table.users)
    ui = table2.view.ui
    assert (ui.link_channel, ui.link_message) == (general.id, res.original.id)  # committed
    assert "join it there" in channel_line(emulator, res).content
    ended = await emulator.slash(alice, thread, "uno end")
    await emulator.settle()
    assert ended.ephemeral_messages and bot2.manager.snapshot(thread.id) is None
    line = channel_line(emulator, res)
    assert line.content == f"Alice's Classic UNO game in <#{thread.id}> is over."
    assert bot_public(emulator, general) == [line]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_the_channel_line_says_the_game_is_over_when_its_thread_is_deleted_or_the_lobby_cancelled(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Every way a thread's game closes says so on the line: a lobby the host ends, a game whose thread a moderator
    deletes. A line a moderator deleted is left alone (the failed edit changes nothing)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    await threads_on(bot, world)
    general = world["guild"].channel("general")
    alice, bob, _ = world["users"]

    async def open_one(game: str) -> tuple[Message, Channel]:
        before = emulator.threads_of(general)
        res = await emulator.slash(alice, general, "uno new", game=game)
        (thread,) = [c for c in emulator.threads_of(general) if c not in before]
        return channel_line(emulator, res), thread

    line, thread = await open_one("classic")
    await emulator.slash(alice, thread, "uno end")  # the lobby, cancelled
    await emulator.settle()
    assert emulator.message(line.id).content == f"Alice's Classic UNO game in <#{thread.id}> is over."

    line, thread = await open_one("flip")
    table = Table(emulator, bot, thread, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING
    emulator.delete_channel(thread)
    await emulator.wait_until(lambda: bot.manager.snapshot(thread.id) is None, what="the game to end")
    await emulator.settle()
    assert emulator.message(line.id).content == f"Alice's UNO FLIP game in <#{thread.id}> is over."

    line, thread = await open_one("classic")
    emulator.message(line.id).deleted = True  # a moderator removed the line
    ended = await emulator.slash(alice, thread, "uno end")
    await emulator.settle()
    assert ended.ephemeral_messages and bot.manager.snapshot(thread.id) is None  # the game closed all the same
    assert emulator.message(line.id).content.endswith("join it there.")  # nothing was edited
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
