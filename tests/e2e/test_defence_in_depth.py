"""Issue 20, point 8, through Discord: defence in depth.

- The bot's messages ping nobody unless they name their users (the client-wide ``allowed_mentions`` default; the turn
  ping names its one player).
- Names are escaped for mentions as well as markdown wherever they are shown: a nickname ``<@id>`` never shows as an
  @-chip of another user (lobby, table, stats).
- A click on another user's ephemeral message (Discord's ``message.interaction_metadata.user``) is refused and
  changes nothing.
- **Play again** may be pressed only by a player of the finished match or a server manager.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.engine.cards import Kind
from bot.i18n import t
from cogs.uno.screens.text import shown_name
from tests.discord_emulator import DiscordEmulator, Message

from .test_commands import find, give, play_select, playing
from .uno_driver import Table, make_bot, start_two_player_game, uno_world


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def pinged(message: Message) -> list[int]:
    """The users ``message`` may notify, from the allowed_mentions the bot sent with it (nobody by parsing)."""
    allowed = message.allowed_mentions
    assert allowed is not None, (message.id, message.content)  # never left to Discord's default (parse everything)
    assert allowed.get("parse") == [] and not allowed.get("roles") and not allowed.get("replied_user"), allowed
    return [int(u) for u in allowed.get("users", [])]


def test_shown_name_escapes_mentions_markdown_and_other_markup() -> None:
    """Issue 20.8: the one helper every name goes through."""
    chip = "<@123456789012345678>"
    assert "<@1" not in shown_name(chip) and shown_name(chip).replace("\u200b", "") == chip
    assert "@everyone" not in shown_name("@everyone") and "@here" not in shown_name("@here")
    assert "<#" not in shown_name("<#123456789012345678>") and "<t:" not in shown_name("<t:0:R>")
    assert shown_name("**bold**") == "\\*\\*bold\\*\\*"
    assert shown_name("Alice") == "Alice"


async def test_a_nickname_that_is_a_mention_shows_as_typed_and_no_message_pings_anyone_unnamed(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 20.8: bob's nickname is carol's mention, @everyone and markdown; the lobby, the table and /uno stats show
    it as typed, and every message of the bot pings nobody but the player whose turn it is."""
    alice, bob, carol = world["users"]
    chip = f"<@{carol.id}>"
    world["guild"].members[bob.id].nick = f"{chip} @everyone **boss**"
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    lobby = table.public_message().text
    assert chip not in lobby and "@everyone" not in lobby and "**boss**" not in lobby, lobby
    assert shown_name(f"{chip} @everyone **boss**") in lobby
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    shown = table.public_message().text
    assert chip not in shown and "@everyone" not in shown, shown
    stats = await emulator.slash(alice, channel, "uno stats", player=bob)
    assert all(chip not in m.text for m in stats.messages)

    for message in emulator.messages(channel, include_deleted=True):
        if message.author.id != emulator.bot_user.id:
            continue
        users = pinged(message)
        if message.content.startswith("<@") and not message.embeds:  # a turn ping: its one player
            assert users == [int(message.content[2:].split(">")[0])], message.content
        else:
            assert users == [], (message.id, message.text)


async def test_a_click_on_another_players_hand_is_refused_and_changes_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 20.8: bob sends a click on alice's ephemeral hand (a forged request naming its message): he is told it
    is not his, and her hand and the game stay as they were (the bot used to turn her hand into his)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _ = world["users"]
    table = await start_two_player_game(emulator, world, bot)
    hand = await table.open_hand(alice)
    assert hand.visible_to == alice.id
    await table.open_hand(bob)
    before = (hand.text, [b.custom_id for b in hand.buttons()], len(hand.history))
    version = table.session.version
    for button in hand.buttons():
        assert button.custom_id is not None
        res = await emulator.forged_component(
            bob, hand, {"custom_id": button.custom_id, "component_type": 2}, unseen=True
        )
        (answer,) = res.ephemeral_messages
        assert answer.visible_to == bob.id and answer.text == t("error.not_yours", "en"), answer.text
        assert (hand.text, [b.custom_id for b in hand.buttons()], len(hand.history)) == before
        assert table.session.version == version
    emulator.assert_all_interactions_answered_once()


async def finished_match(emulator: DiscordEmulator, world: dict[str, Any], bot: Any) -> tuple[Table, Message]:
    """alice and bob play a one-round match to its end; returns the table and the summary with Play again."""
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    give(game, seat, [find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)])
    player = table.user_of(seat)
    assert player is not None
    table.republish()
    hand = await table.open_hand(player)
    select = play_select(hand)
    await emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await emulator.settle()
    assert table.session.status == Status.FINISHED
    summary = next(m for m in reversed(emulator.public_messages(channel)) if m.find_button(label="Play again"))
    return table, summary


async def test_play_again_is_for_the_players_of_the_match_or_a_server_manager(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 20.8: dave never sat down: his Play again is refused and opens nothing (it used to open a lobby seating
    alice and bob without their action); carol manages the server: hers opens the rematch."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    dave = emulator.add_user("dave", guild=world["guild"])
    table, summary = await finished_match(emulator, world, bot)
    finished = table.session

    res = await emulator.click(dave, summary, label="Play again")
    (answer,) = res.ephemeral_messages
    assert answer.visible_to == dave.id and answer.text.startswith("Only a player of this match"), answer.text
    assert table.session is finished and table.session.status == Status.FINISHED

    carol = world["users"][2]
    await emulator.click(carol, summary, label="Play again")
    rematch = table.session
    assert rematch is not finished and rematch.status == Status.LOBBY
    assert rematch.host_id == finished.host_id  # the match's host hosts the rematch (issue 18 point 5)
    emulator.assert_all_interactions_answered_once()
