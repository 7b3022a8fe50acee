"""End to end (the real discord.py client against the emulator): what issue 10 points 5–7, its server defaults and
player preferences, and issue 12 point 3 ask of the commands and clicks.

Each test fails on the code before these changes: ``/uno end`` after the match re-posted the summary and Play again
opened Classic / 500; the challenger saw only the challenged hand, and the log told the penalty before the
challenge; Flex menus had near-identical lines, the Power Card line named nobody, UNO! was always enabled; no
``/uno settings`` for targets, pings and rules, no ``/uno prefs``; out-of-range options opened lobbies, a
forged select was played, foreign components went unanswered.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.engine.cards import Kind
from bot.engine.game import Game
from bot.engine.view import Phase
from bot.storage import GuildSettings
from tests.discord_emulator import DiscordEmulator, Message
from tests.discord_emulator.model import COMPONENTS_V2

from .server_defaults import set_default_rules
from .shown import shown
from .uno_driver import Table, make_bot, start_two_player_game, uno_world


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def give(game: Game, seat: int, cards: list[int]) -> None:
    """Make ``cards`` the whole hand of ``seat`` (from wherever they are; the seat's old cards go under the draw
    pile), as a test that builds a position: the cards stay conserved."""
    old = [c for c in game.hands[seat] if c not in cards]
    for pile in (game.draw_pile, *game.hands):
        for c in cards:
            if c in pile:
                pile.remove(c)
    game.hands[seat][:] = list(cards)
    game.draw_pile[:0] = old


def find(game: Game, test: Any, *, besides: tuple[int, ...] = ()) -> int:
    """A card of the draw pile or another player's hand whose face passes ``test``."""
    pending = game.pending
    places = [game.draw_pile, *(h for s, h in enumerate(game.hands) if s != pending)]
    return next(c for pile in places for c in pile if c not in besides and test(game.faces[c]))


async def playing(table: Table) -> Game:
    """The table's game once a card is to be played: an opening wild's colour is declared first (SPEC C2, F4), by
    its player through the table's colour buttons. The deal is random, so tests build their positions from here."""
    game = table.session.game
    while game.phase is Phase.DECLARE_COLOUR:
        user = table.user_of(game.pending)
        button = next(b for b in table.public_message().buttons() if b.custom_id.startswith("uno:d:colour"))
        await table.emulator.click(user, table.public_message(), button.custom_id)
    assert game.phase is Phase.PLAY and game.colour_in_play() is not None
    return game


def play_select(hand: Message) -> Any:
    return next(s for s in hand.selects() if s.custom_id.startswith("uno:hs:play"))


def log_lines(message: Message) -> list[str]:
    return shown(message).field("Last moves").split("\n")


# --------------------------------------------------------------------------------------------------------------------
# Issue 10.5: ending a finished match changes nothing; Play again is a rematch


async def test_end_after_the_match_changes_nothing_and_play_again_keeps_game_options_and_seats(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="flip", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    last = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    give(game, seat, [last])  # the player to move holds one playable card: playing it ends the round and the match
    player = table.user_of(seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    await emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await emulator.settle()
    session = table.session
    assert session.status == Status.FINISHED and session.result.status == "completed"
    seats_before = [(s.user_id, s.name) for s in session.seats]
    public_before = [(m.id, len(m.history)) for m in emulator.public_messages(channel)]

    res = await emulator.slash(alice, channel, "uno end")  # the host ends the match that is over
    (answer,) = res.ephemeral_messages
    assert "match is over" in answer.text.lower() and answer.visible_to == alice.id
    assert [(m.id, len(m.history)) for m in emulator.public_messages(channel)] == public_before  # nothing re-posted
    assert bot.manager.sessions[channel.id] is session and session.status == Status.FINISHED

    summary = next(m for m in reversed(emulator.public_messages(channel)) if m.find_button(label="Play again"))
    res = await emulator.click(bob, summary, label="Play again")
    rematch = table.session
    assert rematch is not session and rematch.status == Status.LOBBY
    assert rematch.mode.value == "flip" and rematch.options == session.options and rematch.options.target_score == 0
    assert rematch.turn_timer == session.turn_timer
    assert [(s.user_id, s.name) for s in rematch.seats] == seats_before  # everyone who played, AI seat included
    assert rematch.host_id == alice.id  # the match's host stays the host (issue 18 point 5)
    lobby = table.public_message()
    assert "UNO FLIP" in lobby.text and "A single round decides the match" in lobby.text
    await emulator.click(alice, lobby, label="Leave")  # a rematch seat may be left
    assert [s.user_id for s in table.session.seats] == [s for s, _ in seats_before if s != alice.id]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_stale_play_again_points_to_the_new_game_already_open(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Once a rematch lobby is open, an old summary's Play again says a new game is open here, with a link to its
    lobby, and changes nothing; once that game is being played, that a game is running."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
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
    assert table.session.status == Status.FINISHED
    summary = next(m for m in reversed(emulator.public_messages(channel)) if m.find_button(label="Play again"))
    await emulator.click(bob, summary, label="Play again")
    rematch = table.session
    assert rematch.status == Status.LOBBY
    lobby = table.public_message()
    seats = [(s.user_id, s.name) for s in rematch.seats]
    public_before = [(m.id, len(m.history)) for m in emulator.public_messages(channel)]

    res = await emulator.click(alice, summary, label="Play again")
    (answer,) = res.ephemeral_messages
    link = f"https://discord.com/channels/{world['guild'].id}/{channel.id}/{lobby.id}"
    assert answer.text == f"A new game is already open in this channel: {link}" and answer.visible_to == alice.id
    assert table.session is rematch and [(s.user_id, s.name) for s in rematch.seats] == seats
    assert [(m.id, len(m.history)) for m in emulator.public_messages(channel)] == public_before

    await emulator.click(alice, lobby, label="Start")  # alice hosted the match, so she hosts the rematch
    await emulator.settle()
    res = await emulator.click(alice, summary, label="Play again")
    (answer,) = res.ephemeral_messages
    assert answer.text == "A game is already running in this channel."
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Issue 10.6: the challenger sees the verdict and the colour that was in play; the log tells it in order


@pytest.mark.parametrize("v2", [True, False], ids=["v2", "embeds"])  # both modes (UNO_COMPONENTS_V2)
async def test_the_challenger_sees_the_verdict_and_the_colour_in_play_and_the_log_is_in_order(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, v2: bool
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=v2))
    table = await start_two_player_game(emulator, world, bot)
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    wd4 = find(game, lambda f: f.kind is Kind.WILD_DRAW_FOUR)
    same = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    other = find(game, lambda f: f.kind is Kind.NUMBER and f.colour not in (colour, None), besides=(same,))
    give(game, seat, [wd4, same, other])  # a card of the colour in play: the Wild Draw Four is a bluff (SPEC G7)
    player, victim = table.user_of(seat), table.user_of(1 - seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    option = next(o for o in select.options if "Wild Draw Four" in o.label)
    await emulator.select(player, hand, select.custom_id, [option.value])
    declared = next(
        b for b in hand.buttons() if b.custom_id.startswith("uno:h:colour") and b.label.lower() != colour.value
    )
    await emulator.click(player, hand, declared.custom_id)
    assert game.phase is Phase.CHALLENGE

    res = await emulator.click(victim, table.public_message(), label="Challenge")
    (revealed,) = res.ephemeral_messages
    text = revealed.text
    assert revealed.visible_to == victim.id and "hand was" in text
    name = table.session.seats[seat].name
    assert "Challenge won" in text and f"{name} had a card matching the colour in play" in text
    assert "Colour in play when the card was played: " in text
    assert colour.value.title() in text.split("Colour in play when the card was played: ")[1].split("\n")[0]
    lines = log_lines(table.public_message())
    verdict = next(line for line in lines if "challenged" in line)
    assert verdict.endswith(f"{name} draws 4"), lines  # the challenge and the penalty it cost, in that order
    assert not any("drew 4 cards" in line for line in lines), lines  # told once (issue 18 point 5)
    assert bool(table.public_message().flags & COMPONENTS_V2) == v2 and bool(revealed.flags & COMPONENTS_V2) == v2

    # Issue 17 point 3: the verdict is saved with the session (from the engine's events), so a restart keeps it
    from tests.discord_emulator import stop_bot

    await stop_bot(bot)
    await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=v2))
    await emulator.settle()
    res = await emulator.slash(victim, table.channel, "uno hand")
    (again,) = res.ephemeral_messages
    assert "hand was" in again.text and "Challenge won" in again.text, again.text
    assert colour.value.title() in again.text.split("Colour in play when the card was played: ")[1].split("\n")[0]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Issue 10.7 (the Discord part): Flex menus, the Power Card line, the UNO! button


async def test_flex_menus_list_each_play_once_and_the_power_card_line_names_every_seat(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot, game="flex")
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    flex_number = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour and f.flex_colour is not None)
    wd4s = [c for c in range(len(game.faces)) if game.faces[c].kind is Kind.FLEX_WILD_DRAW_FOUR][:2]
    give(game, seat, [flex_number, *wd4s])
    player = table.user_of(seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    labels = [o.label for o in play_select(hand).options]
    assert len(labels) == len(set(labels)), labels  # two Flex Wild Draw Fours are one play, not two lines
    face = game.faces[flex_number]
    number = f"{face.colour.value.title()} {face.number}"
    regular = [label for label in labels if number in label and "flex" not in label]
    flexed = [label for label in labels if number in label and "flex side" in label]
    assert len(regular) == 1 and len(flexed) == 1, labels  # the card once, its flex side once, never alike
    assert face.flex_colour.value.title() in flexed[0] and face.flex_colour.value.title() not in regular[0]
    assert sum("Flex Wild Draw Four" in label for label in labels) == 2  # its regular side and its flex side
    assert any("flex side: a player you choose draws 4" in label for label in labels)

    option = next(o for o in play_select(hand).options if o.label == flexed[0])
    await emulator.select(player, hand, play_select(hand).custom_id, [option.value])
    await emulator.settle()
    names = {s: table.session.seats[s].name for s in range(2)}
    power = next(line for line in log_lines(table.public_message()) if line.startswith("Power Cards:"))
    assert f"{names[seat]} 🔴" in power and f"{names[1 - seat]} 🟢" in power, power
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_the_tables_uno_button_is_enabled_only_while_someone_can_call(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)

    def uno_disabled() -> bool:
        return table.public_message().find_button(label="UNO!").disabled

    assert uno_disabled()  # seven cards each: nobody can call
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    first = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    second = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour, besides=(first,))
    give(game, seat, [first, second])
    player = table.user_of(seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    option = next(o for o in select.options if "UNO" not in o.label)  # forgets to call
    await emulator.select(player, hand, select.custom_id, [option.value])
    await emulator.settle()
    assert len(game.hands[seat]) == 1 and not uno_disabled()  # they may still call (others may catch)
    await emulator.click(player, table.public_message(), label="UNO!")
    await emulator.settle()
    assert game.uno[seat] and uno_disabled()
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_the_forgetter_pressing_catch_is_told_to_press_uno_and_nothing_changes(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """SPEC G8: nobody can catch themselves; the one-card player who forgot to call and presses Catch! is told to
    press UNO! instead (they still may), not that nobody can be caught."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    first = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    second = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour, besides=(first,))
    give(game, seat, [first, second])
    player = table.user_of(seat)
    table.republish()  # the position laid out above is what the bot shows as committed
    hand = await table.open_hand(player)
    select = play_select(hand)
    option = next(o for o in select.options if "UNO" not in o.label)  # forgets to call
    await emulator.select(player, hand, select.custom_id, [option.value])
    await emulator.settle()
    assert len(game.hands[seat]) == 1 and not game.uno[seat]
    version = table.session.version
    res = await emulator.click(player, table.public_message(), label="Catch!")
    (answer,) = res.ephemeral_messages
    assert answer.text == "You cannot catch yourself. Press UNO! before someone catches you."
    assert answer.visible_to == player.id
    assert table.session.version == version and len(game.hands[seat]) == 1  # nothing changed
    await emulator.click(player, table.public_message(), label="UNO!")  # and they still may call
    await emulator.settle()
    assert game.uno[seat]
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Issue 10, "Also": server defaults (/uno settings) and each player's preferences (/uno prefs)


async def test_server_defaults_open_a_table_with_two_clicks(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel, guild = world["channel"], world["guild"]
    res = await emulator.slash(alice, channel, "uno settings", default_target=150)  # not a server manager
    assert "Manage Server" in res.ephemeral_messages[0].text
    assert await bot.store.get_settings(guild.id) == GuildSettings(guild.id)

    await emulator.slash(carol, channel, "uno settings", default_game="flip", default_target=150, turn_pings=False)
    # the default rules: in the panel of /uno settings' Default rules button
    await set_default_rules(emulator, carol, channel, scoring="lowest", false_catch_penalty=2)
    res = await emulator.slash(carol, channel, "uno settings")
    (saved,) = res.ephemeral_messages
    for line in (
        "Default target score: 150",
        "Turn pings: off",
        "Scoring: each player keeps their own points; the lowest total wins",
        "Penalty cards for a false UNO catch: 2",
    ):
        assert line in saved.text, saved.text
    settings = await bot.store.get_settings(guild.id)
    assert (settings.default_mode, settings.default_target_score, settings.turn_pings, settings.game_threads) == (
        "flip",
        150,
        False,
        False,
    )
    assert "Thread per game: off" in saved.text  # not given: a thread per game stays off (tests/e2e/test_threads.py)
    assert settings.default_options == {"scoring": "lowest", "false_catch_penalty": 2}

    await emulator.slash(alice, channel, "uno new")  # click one
    table = Table(emulator, bot, channel, [alice, bob])
    lobby = table.public_message()
    assert "UNO FLIP" in lobby.text and "Target score: 150" in lobby.text and "lowest total wins" in lobby.text
    await emulator.click(bob, lobby, label="Join")
    await emulator.click(alice, lobby, label="Start")  # click two
    options = table.session.game.options
    assert (options.target_score, options.scoring, options.false_catch_penalty) == (150, "lowest", 2)
    await emulator.slash(alice, channel, "uno end")

    res = await emulator.slash(carol, channel, "uno new", target=50, scoring="winner")  # given options win
    assert table.session.options.target_score == 50 and table.session.options.scoring == "winner"
    assert table.session.options.false_catch_penalty == 2
    res = await emulator.slash(carol, channel, "uno settings", reset_rules=True, default_target=0)
    assert "Default rules: the standard rules" in res.ephemeral_messages[0].text
    assert "Default target score: 0 (a single round)" in res.ephemeral_messages[0].text
    assert (await bot.store.get_settings(guild.id)).default_options == {}
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


def _png_size(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def test_each_players_preferences_are_kept_and_honoured_in_their_hand(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    db = tmp_path / "uno.sqlite3"
    bot = await bot_starter(make_bot(emulator, db, world["guild"]))
    alice, bob, _ = world["users"]
    channel = world["channel"]
    res = await emulator.slash(alice, channel, "uno prefs", text_only=True)
    (answer,) = res.ephemeral_messages
    assert answer.visible_to == alice.id and "Your hand as text only: on" in answer.text
    table = await start_two_player_game(emulator, world, bot)
    hand = await table.open_hand(alice)
    assert hand.attachments == [] and hand.visible_to == alice.id  # text only, for her alone
    bob_hand = await table.open_hand(bob)
    assert [a.filename for a in bob_hand.attachments] == ["hand.png"]  # the server shows images to the others

    res = await emulator.slash(alice, channel, "uno prefs", text_only=False, large_cards=True)
    assert "Large cards: on" in res.ephemeral_messages[0].text
    hand = await table.open_hand(alice)
    (image,) = hand.attachments
    (normal,) = bob_hand.attachments
    assert all(len(h) <= 13 for h in table.session.game.hands)  # one row of cards either way (bot.render.hand)
    assert _png_size(image.data)[1] > _png_size(normal.data)[1]  # larger cards: more rows, each card bigger
    res = await emulator.slash(alice, channel, "uno prefs")  # shows them, kept by the bot
    assert "Your hand as text only: off" in res.ephemeral_messages[0].text
    assert "Large cards: on" in res.ephemeral_messages[0].text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


# --------------------------------------------------------------------------------------------------------------------
# Issue 12.3: every input is checked where it enters, answered, and changes nothing


@pytest.mark.parametrize(
    ("options", "answer"),
    [
        ({"timer": 14}, "turn timer must be from 15 to 600 seconds"),
        ({"timer": 601}, "turn timer must be from 15 to 600 seconds"),
        ({"timer": 0}, "turn timer must be from 15 to 600 seconds"),
        ({"target": -1}, "target score must be from 0 to 100000"),
        ({"target": 100001}, "target score must be from 0 to 100000"),
        ({"false_catch_penalty": 11}, "false catch costs from 0 to 10 cards"),
        ({"game": "poker"}, "not one of the choices"),
        ({"scoring": "highest"}, "not one of the choices"),
        ({"block_illegal_wild_draw": "maybe"}, "not one of the choices"),
    ],
)
async def test_out_of_range_or_forged_options_of_uno_new_open_nothing(
    emulator: DiscordEmulator,
    world: dict[str, Any],
    bot_starter: Any,
    tmp_path: Path,
    options: dict[str, Any],
    answer: str,
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    channel = world["channel"]
    res = await emulator.forged_slash(alice, channel, "uno new", **options)
    (reply,) = res.ephemeral_messages
    assert answer in reply.text and reply.visible_to == alice.id
    assert channel.id not in bot.manager.sessions and emulator.public_messages(channel) == []
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_forged_settings_and_prefs_are_refused_and_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _bob, carol = world["users"]
    channel, guild = world["channel"], world["guild"]
    await emulator.slash(carol, channel, "uno settings", card_images=True, turn_timer=45)
    before = await bot.store.get_settings(guild.id)
    for options in (
        {"card_images": "maybe"},
        {"turn_pings": "yes"},
        {"turn_timer": 14},
        {"turn_timer": 0},
        {"default_target": -5},
        {"language": "nl"},
        {"default_game": "poker"},
        {"season_period": "yearly"},
        {"ai_level": "expert"},
        {"card_images": False, "season_period": "daily"},  # one bad value spoils the whole change
    ):
        res = await emulator.forged_slash(carol, channel, "uno settings", **options)
        (reply,) = res.ephemeral_messages
        assert "Settings saved" not in reply.text, options
        assert await bot.store.get_settings(guild.id) == before, options
    res = await emulator.forged_slash(alice, channel, "uno prefs", large_cards="maybe")
    assert "not one of the choices" in res.ephemeral_messages[0].text
    assert (await bot.store.get_prefs(alice.id)).large_cards is False
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_forged_hand_select_and_foreign_components_are_answered_and_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    session = table.session
    player = table.user_of(session.game.pending)
    hand = await table.open_hand(player)
    select = play_select(hand)
    before = session.to_dict()
    values = [o.value for o in select.options]
    for forged in ([values[0], values[-1]], ["\u0660"], ["\u00b2"], [], ["-0"], [" 0"]):
        data = {"custom_id": select.custom_id, "component_type": 3, "values": forged}
        res = await emulator.forged_component(player, hand, data)
        assert res.response_type is not None, forged
        assert "not valid" in emulator.message(hand.id).text, forged
        assert session.to_dict() == before, forged  # nothing was played
    for user, custom_id in (
        (player, "someone-else:button:1"),
        (player, "uno:zz:1"),
        (table.users[1 - session.game.pending], "uno:t:fly:1"),
    ):
        res = await emulator.forged_component(
            user, table.public_message(), {"custom_id": custom_id, "component_type": 2}
        )
        (reply,) = res.ephemeral_messages
        assert "not the UNO bot's" in reply.text and reply.visible_to == user.id, custom_id
        assert session.to_dict() == before
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_forged_seat_number_of_uno_kick_removes_nobody(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    alice = world["users"][0]
    before = table.session.to_dict()
    for player in ("\u0661", "\u0662", "0", "-1", "2.0", "99"):  # Arabic-Indic 1 and 2 would be int() seats 1 and 2
        res = await emulator.forged_slash(alice, world["channel"], "uno kick", player=player)
        (reply,) = res.ephemeral_messages
        assert "removed" not in reply.text.lower(), player
        assert table.session.to_dict() == before, player
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
