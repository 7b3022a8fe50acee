"""End to end (the real discord.py client against the emulator, Discord's rate limits on): what six whole matches
played as users still found (issue 18 point 5), one test per finding.

Each test fails on the code before its fix: Play again after ``/uno end`` opened a default Classic lobby to 500 with
only the clicker and made the presser the host; ...
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.clock import ManualClock
from bot.adapter.session import Status
from bot.engine.cards import Colour, Kind, hand_sort_key
from cogs.uno.output.publisher import TABLE_REPOST_AFTER
from cogs.uno.screens.text import cards_line
from tests.discord_emulator import DiscordEmulator, Message

from .shown import shown
from .test_commands import find, give, log_lines, play_select, playing
from .uno_driver import Table, make_bot, uno_world


def again(message: Message) -> bool:
    return any(b.label == "Play again" for b in message.buttons())


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def win_the_round(emulator: DiscordEmulator, table: Table) -> None:
    """The player to move holds one playable number card and plays it: the round (and a one-round match) ends."""
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    give(game, seat, [find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)])
    player = table.user_of(seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    await emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await emulator.settle()


# --------------------------------------------------------------------------------------------------------------------
# Play again: the match as it was, its host kept; never a default lobby with only the clicker


async def test_play_again_is_not_offered_after_uno_end_and_a_rematch_keeps_the_game_its_seats_and_its_host(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: a FLIP match to 200 with random pairing and a 120 s timer ended by ``/uno end`` leaves no
    Play again (the channel does not keep it, so none could bring it back as it was); a match played to its end
    comes back as it was with its players seated, and whoever presses Play again, its host stays the host (and may
    ``/uno end`` the rematch). Play again under a match the channel no longer keeps opens nothing and says why."""
    clock = ManualClock()
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="flip", target=200, timer=120, flip_pairing="random")
    table = Table(emulator, bot, channel, [alice, bob, carol])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(carol, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    ended = table.session
    res = await emulator.slash(alice, channel, "uno end")
    assert "ended" in res.ephemeral_messages[0].text.lower()
    await emulator.settle()
    assert table.session is None
    assert not any(again(m) for m in emulator.public_messages(channel))

    # a match played to its end: bob (not the host) presses Play again
    await emulator.slash(alice, channel, "uno new", game="flip", target=0, timer=120, flip_pairing="random")
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(carol, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    await win_the_round(emulator, table)
    finished = table.session
    assert finished.status == Status.FINISHED and ended.options.flip_pairing == "random"
    summary = next(m for m in reversed(emulator.public_messages(channel)) if again(m))
    await emulator.click(bob, summary, label="Play again")
    rematch = table.session
    assert rematch.status == Status.LOBBY and rematch.mode.value == "flip" and rematch.turn_timer == 120
    assert rematch.options == finished.options and rematch.options.flip_pairing == "random"
    assert [s.user_id for s in rematch.seats] == [alice.id, bob.id, carol.id]
    assert rematch.host_id == alice.id  # pressing Play again does not take the table from its host
    res = await emulator.slash(bob, channel, "uno end")
    assert "only the host" in res.ephemeral_messages[0].text.lower() and table.session is rematch
    res = await emulator.slash(alice, channel, "uno end")  # the host still may
    await emulator.settle()
    assert table.session is None

    # a finished match the channel no longer keeps: Play again under it opens nothing
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    await win_the_round(emulator, table)
    summary = next(m for m in reversed(emulator.public_messages(channel)) if again(m))
    clock.advance(bot.manager.limits.finished_kept + bot.manager.limits.sweep_every + 1)
    await emulator.settle()
    assert table.session is None
    res = await emulator.click(bob, summary, label="Play again")
    (answer,) = res.ephemeral_messages
    assert "no longer kept" in answer.text and "/uno new" in answer.text
    assert table.session is None
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# /uno kick: the search ignores accents; a refusal says what was wrong


async def test_uno_kick_finds_names_without_their_accents_and_each_refusal_says_what_was_wrong(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: "lub" finds "Ľubomír" in ``/uno kick``'s search (and typed without picking, names him); a
    seat number nobody sits in, a name nobody has or several have, and a player who is not the host each get their
    own answer instead of "That request is not valid.", and nobody is removed."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    lubo = emulator.add_user("Ľubomír", locale="sk", guild=world["guild"])
    zoe = emulator.add_user("Zoë", guild=world["guild"])
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob, lubo, zoe])
    for user in (bob, lubo, zoe):
        await emulator.click(user, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    res = await emulator.autocomplete(alice, channel, "uno kick", focused="player", player="lub")
    assert [(c["name"], c["value"]) for c in res.choices] == [("3. Ľubomír", "3")]
    res = await emulator.autocomplete(alice, channel, "uno kick", focused="player", player="ZOE")
    assert [c["value"] for c in res.choices] == ["4"]
    before = table.session.to_dict()

    for user, player, answer in (
        (alice, "7", "Nobody sits in seat 7 at this table."),
        (alice, "Mia", "No player at this table is called “Mia”. Pick a player from the list."),
        (alice, "o", "Several players at this table match “o”. Pick one from the list."),
        (bob, "3", "Only the host or a server manager can do that."),
        (bob, "Mia", "Only the host or a server manager can do that."),  # who may kick first, then whom
        (bob, "o", "Only the host or a server manager can do that."),
    ):
        res = await emulator.slash(user, channel, "uno kick", player=player)
        (reply,) = res.ephemeral_messages
        assert reply.text == answer, player
        assert table.session.to_dict() == before, player

    res = await emulator.slash(alice, channel, "uno kick", player="lubo")  # typed, not picked: one seat matches
    await emulator.settle()
    assert [s.user_id for s in table.session.seats if s.left] == [lubo.id]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# A player out of the match: their hand says why and loses its controls; nobody "left the game" who did not


async def test_a_kicked_or_timed_out_players_hand_says_why_without_controls_and_the_table_says_what_happened(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: carol is removed by the host and, later, a player by the turn timer after 3 timeouts in a
    row: each one's open hand turns into a line saying why, with no button or menu left (it used to say "waiting for
    …" or "your turn" with live buttons); the players list and the log say "removed", not "left the game"."""
    clock = ManualClock()
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", timer=30)
    table = Table(emulator, bot, channel, [alice, bob, carol])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(carol, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    hands = {user.id: await table.open_hand(user) for user in (alice, bob, carol)}

    res = await emulator.slash(alice, channel, "uno kick", player="3")
    await emulator.settle()
    assert res.ephemeral_messages[0].text == "The player was removed."
    hand = emulator.message(hands[carol.id].id)
    assert hand.text == "You are no longer in this game: the host or a server manager removed you."
    assert not hand.buttons() and not hand.selects() and not hand.attachments
    res = await emulator.click(carol, table.public_message(), label="Show my hand")  # asked again: the same reason
    assert res.ephemeral_messages[0].text == "You are no longer in this game: the host or a server manager removed you."
    table_text = table.public_message().text
    assert "~~Carol~~ · removed from the game" in table_text and "Carol was removed from the game" in table_text
    assert "left the game" not in table_text

    session = table.session
    while not any(s.left for s in session.seats[:2]):  # nobody plays: the turn timer removes alice or bob
        clock.advance(31)
        await emulator.settle()
    out = next(i for i in (0, 1) if session.seats[i].left)
    hand = emulator.message(hands[session.seats[out].user_id].id)
    assert hand.text == "You were removed from this game after 3 timeouts in a row."
    assert not hand.buttons() and not hand.selects()
    table_text = emulator.message(session.ui.message).text  # the match is over: one player is left
    assert "was removed from the game after 3 timeouts in a row" in table_text
    assert "left the game" not in table_text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Whose turn it is, said once


async def test_the_table_says_whose_turn_it_is_once_and_the_ping_below_it_pings(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: the table's status line names the player to move and the turn ping below it pings them;
    the table message no longer carries "<@x>, it's your move." as its text right above that ping."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    await playing(table)
    await emulator.settle()
    user = table.user_of(table.session.game.pending)
    message = table.public_message()
    assert message.content == "" and message.text.count(user.mention) == 1
    assert f"It's {user.mention}'s turn." in message.text
    (ping,) = [m for m in emulator.public_messages(channel) if m.id > message.id and user.mention in m.content]
    assert ping.content == f"{user.mention}, it's your move."
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# A challenge: the revealed hand sorted, the penalty told once


async def test_a_challenge_shows_the_hand_sorted_and_the_log_tells_the_penalty_once(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: the hand a challenge reveals is in the order of every hand (colour, then value), not as
    it was dealt; the log says "… challenged …: innocent. Alice draws 6" and no second "Alice drew 6 cards"."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    wd4 = find(game, lambda f: f.kind is Kind.WILD_DRAW_FOUR)
    kept: list[int] = []
    for wanted in ((Colour.YELLOW, 9), (Colour.RED, 1), (Colour.BLUE, 7), (Colour.RED, 8)):  # not in order
        if wanted[0] is not colour:  # none of the colour in play: the Wild Draw Four is legal (SPEC G7)
            card = find(
                game, lambda f, w=wanted: f.kind is Kind.NUMBER and (f.colour, f.number) == w, besides=tuple(kept)
            )
            kept.append(card)
    give(game, seat, [*kept, wd4])
    player, victim = table.user_of(seat), table.user_of(1 - seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    option = next(o for o in select.options if "Wild Draw Four" in o.label)
    await emulator.select(player, hand, select.custom_id, [option.value])
    declared = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:colour"))
    await emulator.click(player, hand, declared.custom_id)
    res = await emulator.click(victim, table.public_message(), label="Challenge")
    (revealed,) = res.ephemeral_messages
    faces = sorted((game.faces[c] for c in kept), key=hand_sort_key)
    name = table.session.seats[seat].name
    assert f"{name}'s hand was: {cards_line(faces, 'en')}" in revealed.text
    await emulator.settle()
    lines = log_lines(table.public_message())
    verdict = next(line for line in lines if "challenged" in line)
    penalised = table.session.seats[1 - seat].name
    assert verdict.endswith(f"innocent. {penalised} draws 6"), lines
    assert not any("drew 6 cards" in line for line in lines), lines
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# No rank without a match won


async def test_a_player_who_lost_their_only_match_to_an_ai_is_not_ranked_first(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: alice loses her one match to an AI seat; ``/uno stats`` says she is not ranked yet (it
    said "Rank 1 of 1" beside 0 wins: the AI is on no leaderboard)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice])
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    assert game.pending == 0  # the AI moved at once if it was first
    colour = game.colour_in_play()
    top = game.top
    last = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    give(game, 1, [last])  # the AI's last card, playable
    stuck = find(
        game,
        lambda f: f.kind is Kind.NUMBER and f.colour not in (colour, None) and f.number != top.number,
        besides=(last,),
    )
    give(game, 0, [stuck])  # alice cannot play: she draws, and keeps what she drew
    table.republish()
    hand = await table.open_hand(alice)
    await emulator.click(alice, hand, hand.find_button(label="Draw").custom_id)
    if any(b.label == "Keep" for b in hand.buttons()):
        await emulator.click(alice, hand, hand.find_button(label="Keep").custom_id)
    await emulator.settle()
    session = table.session
    assert session.status == Status.FINISHED and session.result.winner == 1
    res = await emulator.slash(alice, channel, "uno stats")
    (answer,) = res.public_messages or res.ephemeral_messages
    assert "Not ranked yet" in answer.text and "Rank 1 of 1" not in answer.text
    assert "Matches won: **0** of 1" in answer.text
    res = await emulator.slash(alice, channel, "uno leaderboard")
    (board,) = res.public_messages
    assert "No match has been won yet." in board.text  # the board ranks players with a match won only
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# The public table's language when the server chose none


async def test_a_table_on_a_server_left_at_discords_default_locale_speaks_its_hosts_language(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: on a server whose locale is Discord's default (en-US) and which set no language, an Italian
    host's table is in Italian (it was English while every hand was Italian); a server that chose its locale (German)
    keeps it; ``/uno settings`` says how the tables' language is chosen and how to set one; once set, it wins."""
    guild = emulator.add_guild("Club", locale="en-US", channels=("uno",))
    gianni = emulator.add_user("Gianni", locale="it", guild=guild)
    admin = emulator.add_user("Admin", locale="en-US", guild=guild, manage_guild=True)
    channel = guild.channel("uno")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", guild))
    await emulator.slash(gianni, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [gianni])
    lobby = table.public_message()
    assert ": nuova partita" in lobby.text
    assert lobby.find_button(label="Entra") and table.session.ui.lang == "it"
    await emulator.slash(gianni, channel, "uno end")

    res = await emulator.slash(admin, channel, "uno settings")
    text = res.ephemeral_messages[0].text
    assert "the host's Discord language while the server keeps Discord's default (English, US)" in text
    assert "set `language` in `/uno settings`" in text
    await emulator.slash(admin, channel, "uno settings", language="en")
    await emulator.slash(gianni, channel, "uno new", game="classic")
    assert table.public_message().find_button(label="Join") and table.session.ui.lang == "en"
    res = await emulator.slash(admin, channel, "uno settings")
    assert "Discord's default" not in res.ephemeral_messages[0].text  # a language is set: nothing to explain
    await emulator.slash(gianni, channel, "uno end")

    german = emulator.add_guild("Stammtisch", locale="de", channels=("uno",))  # its commands are not synced here
    assert await bot.public_language(german.id, "de", "it") == "de"  # a server that chose its locale keeps it
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# A clean channel: one round summary per match, no "the table moved" stubs


async def test_a_match_leaves_one_round_summary_and_no_stubs_of_moved_tables(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 18 point 5: each round's summary is posted below the table (a new message: it is seen) and the one of
    the round before is deleted, so a match leaves its last round's summary only (a 500-point match left 25); a table
    posted anew below the chat deletes the old one instead of leaving a "the table moved" stub."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=500)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    first_table = table.public_message()
    for _ in range(TABLE_REPOST_AFTER):  # the chat goes on below the table: it is posted anew at the next change
        await emulator.post(carol, channel, "gg")
    for number in (1, 2, 3):
        await win_the_round(emulator, table)
        summaries = [m for m in emulator.public_messages(channel) if "goes out!" in shown(m).title]
        assert [shown(m).title.split(":")[0] for m in summaries] == [f"Round {number}"]
        if number < 3:
            await emulator.click(alice, table.public_message(), label="Next round")
            await emulator.settle()
    texts = [m.text for m in emulator.public_messages(channel)]
    assert not any("moved" in text.lower() for text in texts), texts
    assert first_table.deleted and table.public_message() is not first_table
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
