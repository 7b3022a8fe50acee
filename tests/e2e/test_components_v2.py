"""The table and the hand as Components V2 messages (issue 18 point 2), end to end with ``UNO_COMPONENTS_V2`` on.

The emulator validates every V2 message as Discord does (no content or embeds beside the flag, which an edit cannot
remove; only V2 types; 40 components and 4,000 characters of text displays at most; a media gallery shows only the
message's own attachments): a message past a limit is refused with 50035, so each test also asserts none was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.card_emojis import CARD_EMOJIS
from bot.engine.cards import Kind
from bot.limits import V2_COMPONENTS_MAX, V2_TEXT_MAX
from bot.render import colour_rgb
from bot.render.emoji import all_face_emojis
from cogs.uno.screens.layout import counts, unmark
from tests.discord_emulator import DiscordEmulator, Message
from tests.discord_emulator.model import COMPONENTS_V2, LOADING
from tests.discord_emulator.validation import check_v2

from .test_commands import find, give, play_select, playing
from .uno_driver import Table, make_bot, uno_world


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


@pytest.fixture(autouse=True)
def _no_emojis_left() -> Any:
    CARD_EMOJIS.clear()
    yield
    CARD_EMOJIS.clear()


def container(message: Message) -> dict[str, Any]:
    """The message's one container (V2 type 17)."""
    (box,) = [c for c in message.components if c.get("type") == 17]
    return box


def texts(message: Message) -> list[str]:
    return [c["content"] for c in container(message)["components"] if c.get("type") == 10]


def assert_v2(message: Message) -> None:
    assert message.flags & COMPONENTS_V2 and not message.content and not message.embeds
    n, chars = counts(message.components)
    assert n <= V2_COMPONENTS_MAX and chars <= V2_TEXT_MAX, (n, chars)


def no_refusals(emulator: DiscordEmulator) -> None:
    refused = [e for e in emulator.error_responses if e.code == 50035]
    assert not refused, refused


# --------------------------------------------------------------------------------------------------------------------
# The emulator's validation


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"content": "hi", "components": [{"type": 10, "content": "x"}]}, "cannot have content"),
        ({"embeds": [{"title": "t"}], "components": [{"type": 10, "content": "x"}]}, "cannot have embeds"),
        ({"components": [{"type": 17, "components": [{"type": 17, "components": []}]}]}, "not allowed here"),
        ({"components": [{"type": 10, "content": "x" * 4001}]}, "between 1 and 4000"),
        ({"components": [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]}, "4000 char"),
        ({"components": [{"type": 14}] * 41}, "at most 40 components"),
        ({"components": [{"type": 17, "accent_color": 0x1000000, "components": []}]}, "16777215"),
        ({"components": [{"type": 12, "items": []}]}, "between 1 and 10"),
    ],
)
def test_the_emulator_refuses_what_discord_refuses_in_a_v2_message(body: dict[str, Any], problem: str) -> None:
    problems = check_v2(body | {"flags": 1 << 15})
    assert any(problem in text for _, text in problems), problems


async def test_a_deferred_answer_becomes_v2_by_its_edit_and_never_goes_back(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any
) -> None:
    """Discord's rule for a deferred Components V2 answer (discord-api-docs PR #7560, issues #7515 and #7910): the
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE ack carries only EPHEMERAL (the emulator refuses IS_COMPONENTS_V2 there),
    the edit of @original that fills it sets the flag (discord.py does when the view is a LayoutView), and a message
    with the flag never loses it: an edit with content, with an embed or without the flag is refused."""
    import discord

    from .demo_bot import DemoBot

    demo: DemoBot = await bot_starter(DemoBot(dev_guild_id=world["guild"].id))
    alice = world["users"][0]
    res = await emulator.slash(alice, world["channel"], "demo v2", expect_ack=False)  # its first ack is refused
    refused, acked = res.attempts
    assert (refused.type, refused.status, refused.code) == (5, 400, 50035)  # the flag on the ack
    assert (acked.type, acked.status) == (5, 200) and res.response_type == 5
    hand = res.original
    assert hand is not None and hand.ephemeral and hand.visible_to == alice.id and not hand.loading
    assert hand.history[0].flags & 128 and not hand.history[0].flags & COMPONENTS_V2  # deferred: EPHEMERAL only
    assert hand.flags & COMPONENTS_V2 and texts(hand) == ["### Your hand\n5 cards"]  # the edit made it V2
    assert len(hand.history) == 2  # the three downgrades changed nothing
    codes = [e.code for e in demo.seen.errors if isinstance(e, discord.HTTPException)]
    assert codes == [50035, 50035, 50035, 50035], demo.seen.errors
    problems = [str(e) for e in demo.seen.errors]
    assert "only EPHEMERAL" in problems[0] and "cannot have content" in problems[1]
    assert "cannot have embeds" in problems[2] and "cannot be removed" in problems[3]


# --------------------------------------------------------------------------------------------------------------------
# The table and the hand


async def test_the_table_and_the_hand_are_one_container_tinted_with_the_colour_in_play(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """The lobby, the table and the hand are V2 messages; the table's image is in a media gallery, its seats and log
    are text displays and Show my hand sits under the players; the hand's Play a card menu sits under its cards; the
    container is tinted with the colour in play; the turn ping is a separate short message."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=True))
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    lobby = table.public_message()
    assert_v2(lobby)
    await emulator.click(bob, lobby, label="Join")
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    game = await playing(table)
    public = table.public_message()
    assert_v2(public)
    box = container(public)
    kinds = [c["type"] for c in box["components"]]
    assert kinds[:2] == [10, 12] and 1 in kinds  # heading and status, the image, ..., the buttons
    (gallery,) = [c for c in box["components"] if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == "attachment://table.png"
    assert [a.filename for a in public.attachments] == ["table.png"]
    r, g, b = colour_rgb(game.colour_in_play())
    assert box["accent_color"] == (r << 16) | (g << 8) | b
    players = next(i for i, c in enumerate(box["components"]) if c["type"] == 10 and "Players" in c["content"])
    buttons = next(i for i, c in enumerate(box["components"]) if c["type"] == 1)
    assert buttons == players + 1  # Show my hand under the players it deals to
    assert public.find_button(label="Show my hand") is not None
    turn = table.user_of(game.pending)
    ping = [m for m in emulator.messages(channel) if m.author.bot and not m.flags & COMPONENTS_V2 and m.content]
    assert ping and ping[-1].content.startswith(f"<@{turn.id}>") and not ping[-1].components  # its own short message

    seat = game.pending
    player = table.user_of(seat)
    colour = game.colour_in_play()
    give(game, seat, [find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)])
    table.republish()
    hand = await table.open_hand(player)
    assert_v2(hand)
    assert hand.interaction_id is not None and emulator.interactions[hand.interaction_id].response_type == 5
    assert hand.history[0].flags & LOADING and not hand.history[0].flags & COMPONENTS_V2  # deferred: EPHEMERAL only
    assert hand.ephemeral and hand.flags & COMPONENTS_V2  # the hand that filled it set the flag
    parts = container(hand)["components"]
    assert parts[0]["type"] == 10 and parts[0]["content"].startswith("### ")  # the hand's heading, its cards
    first_row = next(i for i, c in enumerate(parts) if c["type"] == 1)
    assert parts[first_row]["components"][0]["type"] == 3  # the Play a card menu first, under the cards
    assert all(c["type"] != 1 for c in parts[:first_row] if c["type"] not in (10, 12))
    select = play_select(hand)
    await emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await emulator.settle()
    assert table.session.status == Status.FINISHED
    summaries = [m for m in emulator.public_messages(channel) if any(b.label == "Play again" for b in m.buttons())]
    assert summaries and all(m.flags & COMPONENTS_V2 for m in summaries)
    for message in emulator.public_messages(channel):
        if message.flags & COMPONENTS_V2:
            assert_v2(message)
    no_refusals(emulator)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("images", [True, False], ids=["images", "text-only"])
async def test_the_worst_case_fits_ten_players_thirty_cards_a_long_log_and_card_emojis(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, images: bool
) -> None:
    """UNO FLIP with ten players of 32-character names (the hand lists every opponent's other faces), 30 cards in
    hand, a log of long lines, every card shown by its emoji, with card images or text only: the table (repainted
    with that log), the hand, and the round and match summaries that list everyone's cards stay within 40 components
    and 4,000 characters, and the emulator accepts every message."""
    bot = await bot_starter(
        make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=True, card_emojis=True)
    )
    await bot.emoji_sync
    names = [f"BartłomiejŚlązakLongername{i:06d}" for i in range(10)]
    assert all(len(name) == 32 for name in names)  # Discord's longest username
    users = [emulator.add_user(name, guild=world["guild"], manage_guild=True) for name in names]
    channel = world["channel"]
    if not images:
        await emulator.slash(users[0], channel, "uno settings", card_images=False)
    await emulator.slash(users[0], channel, "uno new", game="flip", target=0)
    table = Table(emulator, bot, channel, users)
    for user in users[1:]:
        await emulator.click(user, table.public_message(), label="Join")
    await emulator.click(users[0], table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    player = table.user_of(seat)
    assert player is not None
    pool = list(game.draw_pile)  # 112 cards - 70 dealt - the discard pile's
    for s in range(10):
        if s != seat:
            give(game, s, [*game.hands[s], *pool[:2]])  # 9 cards each: their other faces fill the hand message
            pool = pool[2:]
    give(game, seat, [*game.hands[seat], *pool[: 30 - len(game.hands[seat])]])
    assert len(game.hands[seat]) == 30
    emoji = f"<:{all_face_emojis()[0].name}:123456789012345678>"
    table.session.log[:] = [f"**{u.username}** plays {emoji} Red Draw Two and calls UNO! " * 2 for u in users]
    table.republish()
    await bot.get_cog("Uno").publisher.repaint(table.view)  # the table as it stands now: ten seats, that log
    hand = await table.open_hand(player)
    await emulator.settle()
    public = table.public_message()
    for message in (hand, public):
        assert_v2(message)
        n, chars = counts(message.components)
        assert n <= V2_COMPONENTS_MAX and chars <= V2_TEXT_MAX, (n, chars)
    assert all(f"**{name.lower()}**" in public.text.lower() for name in names)  # every seat, its name whole
    assert f"**{names[-1]}** plays" in public.text  # the long log is there
    assert "`30`" in hand.text and play_select(hand).options  # every card listed, the menu there
    assert bool(hand.attachments) == images and bool(public.attachments) == images

    colour = game.colour_in_play()
    give(game, seat, [find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)])
    table.republish()
    last = await table.open_hand(player)
    select = play_select(last)
    await emulator.select(player, last, select.custom_id, [select.options[0].value])
    await emulator.settle()
    assert table.session.status == Status.FINISHED
    summaries = [m for m in emulator.public_messages(channel) if m.id > public.id or "goes out" in m.text]
    assert summaries, "no summary was posted"
    for message in emulator.public_messages(channel):
        if message.flags & COMPONENTS_V2:
            assert_v2(message)
    no_refusals(emulator)


def test_unmark_gives_each_card_emoji_back_its_unicode_marks() -> None:
    emojis = all_face_emojis()
    red5 = next(e for e in emojis if e.code == "R5")
    wild = next(e for e in emojis if e.code == "dW")
    text = f"Bob plays <:{red5.name}:1> Red 5, then <:{wild.name}:2> Wild"
    assert unmark(text) == "Bob plays 🟥▲▲▲▲ Red 5, then 🌈 Wild"


def test_a_screen_past_4000_characters_gives_up_the_emojis_then_whole_lines() -> None:
    """The layout's own guard: 120 cards named by their emojis (about 7,000 characters) become their Unicode marks,
    then lines are dropped from the longest text at a line's end; never half an emoji's markup."""
    import re

    import discord

    from cogs.uno.screens import Screen

    emojis = all_face_emojis()
    lines = [f"`{i:>3}` <:{emojis[i % len(emojis)].name}:{10**17 + i}> Card {i}" for i in range(120)]
    embed = discord.Embed(title="Your hand: 120 cards", description="\n".join(lines), colour=0x123456)
    embed.add_field(name="Top card", value=lines[0])
    layout = Screen(embed=embed, accent=0xFF0000, controls_after=0).layout()
    payload = layout.to_components()
    n, chars = counts(payload)
    assert n <= V2_COMPONENTS_MAX and chars <= V2_TEXT_MAX
    shown = "\n".join(c["content"] for c in payload[0]["components"] if c["type"] == 10)
    assert "<:uno_" not in shown and not re.search(r"<:[^>]*$", shown, re.MULTILINE)
    assert payload[0]["accent_color"] == 0xFF0000 and "Your hand" in shown and "Top card" in shown


async def test_text_only_tables_and_hands_are_v2_without_a_gallery(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A server with card images off: the table and the hand are the same container, with their text and controls
    and no media gallery (text-only mode kept, issue 18 point 2)."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=True))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    hand = await table.open_hand(table.user_of(game.pending))
    for message in (table.public_message(), hand):
        assert_v2(message)
        assert not message.attachments and all(c["type"] != 12 for c in container(message)["components"])
        assert any(c["type"] == 1 for c in container(message)["components"])
    assert "`" in texts(hand)[0]  # the hand's cards, listed as text
    no_refusals(emulator)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize("game", ["classic", "flip", "flex"])
async def test_a_whole_match_is_played_through_v2_messages(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, game: str
) -> None:
    """Every screen of a one-round match (lobby, table, hands, pickers, the summaries) is a V2 message Discord would
    accept, with the card emojis on: nothing refused, every click answered once."""
    bot = await bot_starter(
        make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=True, card_emojis=True)
    )
    await bot.emoji_sync
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game=game, target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    hands: dict[int, Any] = {}
    for _step in range(20000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        pending = session.game.pending
        if pending is None:
            await emulator.click(alice, table.public_message(), label="Next round")
            continue
        user = table.user_of(pending)
        assert user is not None
        if user.id not in hands:
            hands[user.id] = await table.open_hand(user)
        await table.take_turn(user, hands[user.id])
        await emulator.settle()
    assert table.session.status == Status.FINISHED
    for message in [*emulator.public_messages(channel), *hands.values()]:
        if not message.deleted and message.author.bot and (message.components or message.flags & COMPONENTS_V2):
            assert_v2(message)
    no_refusals(emulator)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_v2_lobby_whose_id_was_not_saved_is_found_again_after_a_restart(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """The lobby's buttons sit inside the container: the search for a lobby posted before its id was saved looks
    there too (it looked only at top-level rows and posted a second lobby)."""
    from tests.discord_emulator import stop_bot

    db = tmp_path / "uno.sqlite3"
    alice, bob, _ = world["users"]
    channel = world["channel"]
    bot = await bot_starter(make_bot(emulator, db, world["guild"], components_v2=True))

    async def killed_before_saving(channel_id: int, *args: Any, **values: Any) -> None:
        return None

    bot.manager.update_ui = killed_before_saving
    res = await emulator.slash(alice, channel, "uno new", game="classic")
    lobby = res.original
    assert lobby is not None and lobby.flags & COMPONENTS_V2
    await stop_bot(bot)
    again = await bot_starter(make_bot(emulator, db, world["guild"], components_v2=True))
    await emulator.settle()
    table = Table(emulator, again, channel, [alice, bob])
    assert table.session.ui.message == lobby.id  # found again, not posted twice
    assert len([m for m in emulator.public_messages(channel) if m.author.bot and not m.deleted]) == 1
    no_refusals(emulator)


def test_the_tests_read_an_embed_and_its_v2_container_alike() -> None:
    """:func:`tests.e2e.shown.shown` reads a screen sent as an embed and the same screen sent as a V2 container into
    the same title, description, fields, footer and image: the end-to-end tests run in either mode."""
    import discord

    from cogs.uno.screens import Screen

    from .shown import as_sent, shown

    def screen() -> Screen:
        embed = discord.Embed(title="UNO FLIP · Round 2", description="It's **Bob**'s turn.", colour=0x8E24AA)
        embed.add_field(name="Top card", value="🟥▲▲▲▲ Red 5", inline=True)
        embed.add_field(name="Draw pile", value="41 cards\nIts top shows 🩷● Pink 1", inline=True)
        embed.add_field(name="Players", value="▶️ **Alice** · 7 cards\n▫️ **Bob** · 1 card", inline=False)
        embed.add_field(name="Last moves", value="**Alice** plays 🟥▲▲▲▲ Red 5\nBob draws 1", inline=False)
        embed.set_footer(text="Target score: 500").set_image(url="attachment://table.png")
        return Screen(content="<@1> press Show my hand", embed=embed, controls_after=3)

    old, new = shown(as_sent(screen(), v2=False)), shown(as_sent(screen(), v2=True))
    assert not old.v2 and new.v2
    for seen in (old, new):
        assert seen.content == "<@1> press Show my hand" and seen.title == "UNO FLIP · Round 2"
        assert seen.description == "It's **Bob**'s turn." and seen.footer == "Target score: 500"
        assert seen.images == ["attachment://table.png"] and seen.accent == 0x8E24AA
    assert old.fields == new.fields and list(new.fields) == ["Top card", "Draw pile", "Players", "Last moves"]
    assert new.field("Last moves").split("\n") == ["**Alice** plays 🟥▲▲▲▲ Red 5", "Bob draws 1"]
