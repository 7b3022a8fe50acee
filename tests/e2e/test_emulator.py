"""The loopback Discord emulator driven by the real discord.py client (the sample bot in ``demo_bot``)."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_emulator import DiscordEmulator, Guild, User, running_bot, shard_of
from tests.discord_emulator.model import Channel
from tests.discord_emulator.ratelimits import EDIT_MESSAGE, classify

from .demo_bot import PNG, DemoBot, ShardedDemoBot

Starter = Callable[[Any], Awaitable[Any]]


@dataclass
class World:
    guild: Guild
    general: Channel
    alice: User  # Italian, administrator
    bob: User  # Spanish, no extra permissions
    carol: User  # English, Manage Server


@pytest.fixture
def world(emulator: DiscordEmulator) -> World:
    guild = emulator.add_guild("Test Guild", locale="en-US", channels=("general", "games"))
    return World(
        guild=guild,
        general=guild.channel("general"),
        alice=emulator.add_user("alice", locale="it", guild=guild, administrator=True),
        bob=emulator.add_user("bob", locale="es-ES", guild=guild),
        carol=emulator.add_user("carol", locale="en-GB", guild=guild, manage_guild=True),
    )


@pytest.fixture
async def bot(world: World, bot_starter: Starter) -> DemoBot:
    started: DemoBot = await bot_starter(DemoBot(dev_guild_id=world.guild.id))
    return started


async def test_login_sync_and_ready(emulator: DiscordEmulator, world: World, bot_starter: Starter) -> None:
    started = time.perf_counter()
    bot = await bot_starter(DemoBot(dev_guild_id=world.guild.id))
    assert time.perf_counter() - started < 1.0
    assert bot.user is not None and bot.user.id == emulator.bot_user.id
    assert bot.application_id == emulator.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games"}
    assert guild.me is not None and guild.me.guild_permissions.send_messages
    assert emulator.commands() == []
    demo, config = emulator.commands(world.guild)
    assert demo["name"] == "demo" and demo["guild_id"] == str(world.guild.id)
    assert config["default_member_permissions"] == str(discord.Permissions(manage_guild=True).value)
    subcommands = {o["name"] for o in demo["options"]}
    assert {"panel", "counter", "picture", "echo", "settings"} <= subcommands
    assert emulator.gateway.identifies == 1


async def test_guild_channel_and_thread_added_while_connected(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    thread = emulator.add_channel(world.guild, "uno-game", thread_of=world.general)
    later = emulator.add_guild("Later Guild", locale="it", channels=("tavolo",))
    dave = emulator.add_user("dave", guild=later)
    await emulator.sync_gateway()
    assert isinstance(bot.get_channel(thread.id), discord.Thread)
    joined = bot.get_guild(later.id)
    assert joined is not None and [c.name for c in joined.text_channels] == ["tavolo"]
    assert joined.preferred_locale is discord.Locale.italian
    await emulator.slash(world.bob, thread, "demo panel")
    assert bot.seen.interactions[-1]["channel_name"] == "uno-game"
    with pytest.raises(AssertionError, match="not registered"):  # /demo was synced to the first guild only
        await emulator.slash(dave, later.channel("tavolo"), "demo panel")


async def test_threads_are_started_followed_archived_and_deleted_as_discord_does_with_its_permissions(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    """``POST /channels/{id}/threads`` answers a thread object discord.py reads and sends THREAD_CREATE; members,
    archiving and deleting follow Discord's permission rules, and a channel overwrite changes what the bot may do
    there (also its ``app_permissions`` in an interaction)."""
    general = bot.get_channel(world.general.id)
    assert isinstance(general, discord.TextChannel)
    thread = await general.create_thread(
        name="UNO · Bob", type=discord.ChannelType.public_thread, auto_archive_duration=1440
    )
    assert (thread.parent_id, thread.owner_id, thread.name) == (general.id, bot.user.id, "UNO · Bob")
    assert thread.type is discord.ChannelType.public_thread and thread.auto_archive_duration == 1440
    assert not thread.archived and thread.member_count == 1 and thread.message_count == 0
    await emulator.sync_gateway()
    assert isinstance(bot.get_channel(thread.id), discord.Thread)  # THREAD_CREATE
    made = emulator.channels[thread.id]
    await thread.add_user(discord.Object(world.bob.id))
    assert made.member_ids == [bot.user.id, world.bob.id]
    with pytest.raises(discord.NotFound):  # not a member of the guild
        await thread.add_user(discord.Object(12345))
    await thread.send("in the thread")
    assert [m.content for m in emulator.messages(made)] == ["in the thread"]
    with pytest.raises(discord.HTTPException) as nested:  # a thread has no threads
        await bot.http.start_thread_without_message(thread.id, name="x", auto_archive_duration=60, type=11)
    assert nested.value.code == 50024

    no_threads = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
    emulator.set_permissions(world.general, emulator.bot_user, deny=no_threads)
    await emulator.sync_gateway()
    with pytest.raises(discord.Forbidden) as refused:
        await general.create_thread(name="no", type=discord.ChannelType.public_thread)
    assert refused.value.code == 50013
    with pytest.raises(discord.Forbidden):  # the thread follows its parent's overwrites
        await thread.send("refused")
    await emulator.slash(world.bob, world.general, "demo panel")
    seen = bot.seen.interactions[-1]["app_permissions"]
    assert not seen.create_public_threads and not seen.send_messages_in_threads and seen.send_messages
    emulator.set_permissions(world.general, emulator.bot_user)  # the overwrite removed

    emulator.set_permissions(world.general, world.guild.role("Bot"), deny=discord.Permissions(manage_threads=True))
    with pytest.raises(discord.Forbidden):  # deleting a thread takes Manage Threads…
        await thread.delete()
    archived = await thread.edit(archived=True)  # …archiving it only being its owner
    assert archived.archived and made.archived
    emulator.set_permissions(world.general, world.guild.role("Bot"))
    await thread.delete()
    assert thread.id not in emulator.channels and emulator.deleted_channels[thread.id] is made
    await emulator.sync_gateway()
    assert bot.get_channel(thread.id) is None  # THREAD_DELETE
    emulator.assert_no_unknown_routes()


async def test_an_archived_thread_refuses_edits_until_a_message_or_its_member_unarchives_it(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    """Discord's threads topic: "Users cannot edit messages, add reactions, use application commands, or join
    archived threads ... Sending a message will automatically unarchive the thread, unless the thread has been locked
    by a moderator"; "Editing a thread to set archived to false only requires the current user has already been
    added to the thread"; GUILD_CREATE holds the active threads only. A member's client unarchives a thread before
    an interaction in it."""
    general = bot.get_channel(world.general.id)
    assert isinstance(general, discord.TextChannel)
    thread = await general.create_thread(name="UNO · Bob", type=discord.ChannelType.public_thread)
    made = emulator.channels[thread.id]
    message = await thread.send("the table")
    emulator.archive(made)
    await emulator.sync_gateway()
    assert bot.get_channel(thread.id) is None  # THREAD_UPDATE: discord.py drops archived threads
    assert thread.id not in [
        int(t["id"]) for t in world.guild.payload(all_members=False, bot_id=emulator.bot_user.id)["threads"]
    ]  # nor does a GUILD_CREATE
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="edited")
    assert refused.value.status == 400 and refused.value.code == 50083
    assert (await bot.fetch_channel(thread.id)).archived  # type: ignore[union-attr]
    await thread.send("a new message")  # unarchives it
    await emulator.sync_gateway()
    assert not made.archived and isinstance(bot.get_channel(thread.id), discord.Thread)
    await message.edit(content="edited")
    assert emulator.message(message.id).content == "edited"

    emulator.archive(made)
    emulator.set_permissions(world.general, world.guild.role("Bot"), deny=discord.Permissions(manage_threads=True))
    theirs = emulator.add_channel(world.guild, "Bob's thread", thread_of=world.general)  # the bot did not start it
    theirs.member_ids.append(emulator.bot_user.id)  # …but posted in it
    emulator.archive(theirs)
    await emulator.sync_gateway()
    for archived in (made, theirs):  # a member may unarchive it, without Manage Threads
        await bot.http.edit_channel(archived.id, archived=False)
        assert not archived.archived
    emulator.archive(theirs, locked=True)  # a moderator's "Lock Thread": Manage Threads only
    with pytest.raises(discord.Forbidden):
        await bot.http.edit_channel(theirs.id, archived=False)
    emulator.archive(made)
    await emulator.slash(world.bob, made, "demo panel")  # Bob's client unarchives it first
    assert not made.archived
    emulator.assert_no_unknown_routes()


async def test_slash_command_options_user_locale_and_permissions(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    res = await emulator.slash(
        world.alice, world.general, "demo echo", text="ciao", times=2, target=world.bob, mood="sad"
    )
    seen = bot.seen.interactions[-1]
    assert seen["user_id"] == world.alice.id and seen["is_member"]
    assert seen["locale"] is discord.Locale.italian and seen["guild_locale"] is discord.Locale.american_english
    assert (seen["guild_id"], seen["guild_name"]) == (world.guild.id, "Test Guild")
    assert (seen["channel_id"], seen["channel_name"]) == (world.general.id, "general")
    assert seen["permissions"].administrator and seen["permissions"].manage_guild
    assert seen["app_permissions"].send_messages and not seen["app_permissions"].administrator
    assert seen["command"] == "demo echo"
    assert (seen["text"], seen["times"], seen["loud"], seen["mood"]) == ("ciao", 2, False, "sad")
    assert isinstance(seen["target"], discord.Member) and seen["target"].id == world.bob.id

    assert res.original is not None and res.original.content == "ciao" and not res.original.ephemeral
    assert res.original.type == 20 and res.original.interaction_id == res.id
    assert [m.content for m in res.followups] == ["ciao", f"Psst <@{world.bob.id}>"]
    assert [m.content for m in res.ephemeral_messages] == [f"Psst <@{world.bob.id}>"]
    assert res.ephemeral_messages[0].visible_to == world.alice.id
    assert [m.content for m in emulator.public_messages(world.general)] == ["ciao", "ciao"]

    await emulator.slash(world.bob, world.general, "demo echo", text="hola", loud=True)
    seen = bot.seen.interactions[-1]
    assert seen["locale"] is discord.Locale.spain_spanish
    assert not seen["permissions"].manage_guild and seen["permissions"].send_messages
    assert seen["target"] is None and seen["times"] == 1
    assert emulator.last_message(world.general).content == "HOLA"

    res = await emulator.slash(world.carol, world.general, "demo settings")
    assert bot.seen.interactions[-1]["permissions"].manage_guild
    assert res.ephemeral_messages[0].content == "Settings"
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
    emulator.assert_no_error_responses()


async def test_slash_is_checked_against_the_registered_commands(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    with pytest.raises(AssertionError, match="not registered"):
        await emulator.slash(world.alice, world.general, "uno new")
    with pytest.raises(AssertionError, match="not a subcommand"):
        await emulator.slash(world.alice, world.general, "demo nope")
    with pytest.raises(AssertionError, match="needs a subcommand"):
        await emulator.slash(world.alice, world.general, "demo")
    with pytest.raises(AssertionError, match="no option 'colour'"):
        await emulator.slash(world.alice, world.general, "demo echo", text="x", colour="red")
    with pytest.raises(AssertionError, match="missing required options"):
        await emulator.slash(world.alice, world.general, "demo echo")
    with pytest.raises(AssertionError, match="not of option type 4"):
        await emulator.slash(world.alice, world.general, "demo echo", text="x", times="2")
    with pytest.raises(AssertionError, match=r"outside 1\.\.3"):
        await emulator.slash(world.alice, world.general, "demo echo", text="x", times=9)
    with pytest.raises(AssertionError, match="not one of the choices"):
        await emulator.slash(world.alice, world.general, "demo echo", text="x", mood="angry")
    with pytest.raises(AssertionError, match="hidden from bob"):
        await emulator.slash(world.bob, world.general, "config")
    assert emulator.interactions == {}
    res = await emulator.slash(world.carol, world.general, "config")
    assert res.ephemeral_messages[0].content == "Config"
    # default_member_permissions only exist on top-level commands: a subcommand relies on its check
    res = await emulator.slash(world.bob, world.general, "demo settings")
    assert res.ephemeral_messages[0].content == "Error: MissingPermissions"


async def test_ephemeral_panel_button_and_select(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    res = await emulator.slash(world.alice, world.general, "demo panel")
    (panel,) = res.ephemeral_messages
    assert res.original is panel and res.public_messages == []
    assert panel.is_visible_to(world.alice.id) and not panel.is_visible_to(world.bob.id)
    assert panel in emulator.visible_to(world.alice) and panel not in emulator.visible_to(world.bob)
    assert panel not in emulator.public_messages(world.general)
    ping = panel.find_button(label="Ping")
    assert (ping.custom_id, ping.style, ping.emoji, ping.disabled) == ("panel:ping", 3, "🏓", False)
    assert [o.value for o in panel.select_options("panel:colour")] == ["red", "green", "blue", "yellow"]
    assert panel.select().placeholder == "Pick colours" and panel.select().max_values == 2

    pong = await emulator.click(world.alice, panel, "panel:ping")
    assert [m.content for m in pong.ephemeral_messages] == ["Pong!"]
    assert pong.ephemeral_messages[0].visible_to == world.alice.id

    picked = await emulator.select(world.alice, panel, "panel:colour", ["red", "blue"])
    assert bot.seen.clicks[-1] == ("panel:colour", world.alice.id, ["red", "blue"])
    assert picked.response_type == 7 and picked.original is panel and picked.messages == [panel]
    assert panel.content == "Picked red, blue" and [r.content for r in panel.history] == [
        "Your panel",
        "Picked red, blue",
    ]
    assert panel.ephemeral and panel.select_options()  # still ephemeral, view kept

    refreshed = await emulator.click(world.alice, panel, label="Refresh")
    assert refreshed.response_type == 6 and refreshed.original is panel and panel.content == "Refreshed"
    assert refreshed.messages == [panel] and panel.find_button(label="Ping")

    with pytest.raises(AssertionError, match="bob cannot see"):
        await emulator.click(world.bob, panel, "panel:ping")
    with pytest.raises(AssertionError, match="cannot choose"):
        await emulator.select(world.alice, panel, "panel:colour", ["purple"])
    emulator.assert_all_interactions_answered_once()


async def test_dynamic_item_button_survives_a_restart(emulator: DiscordEmulator, world: World) -> None:
    async with running_bot(emulator, DemoBot(dev_guild_id=world.guild.id)):
        res = await emulator.slash(world.bob, world.general, "demo counter")
        counter = res.original
        assert counter is not None and counter.content == "Counter: 0"
        await emulator.click(world.alice, counter, label="Count: 0")
        assert counter.content == "Counter: 1"
        panel = (await emulator.slash(world.bob, world.general, "demo panel")).original
        assert panel is not None

    async with running_bot(emulator, DemoBot(dev_guild_id=world.guild.id)) as second:
        button = counter.find_button(custom_id_startswith="demo:count:")
        clicked = await emulator.click(world.bob, counter, button.custom_id)
        assert clicked.response_type == 7
        assert second.seen.clicks == [("demo:count:1", world.bob.id, [])]
        # a view that is not persistent is gone with the first bot: discord.py drops the click silently
        dropped = await emulator.click(world.bob, panel, "panel:ping", expect_ack=False)
        assert not dropped.acknowledged and dropped.messages == []
    assert counter.content == "Counter: 2" and counter.find_button(label="Count: 2")
    assert [r.content for r in counter.history] == ["Counter: 0", "Counter: 1", "Counter: 2"]
    assert counter.edited_at is not None and emulator.gateway.identifies == 2
    with pytest.raises(AssertionError, match="never acknowledged"):
        emulator.assert_all_interactions_answered_once()
    emulator.assert_all_interactions_answered_once(exclude=[dropped])


async def test_deferred_response_filled_with_an_attachment(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    res = await emulator.slash(world.alice, world.general, "demo picture")
    assert res.response_type == 5
    picture = res.original
    assert picture is not None and not picture.loading and not picture.ephemeral
    assert picture.content == "Here it is" and picture.embeds[0]["title"] == "Your card"
    assert "Your card" in picture.text
    (attachment,) = picture.attachments
    assert (attachment.filename, attachment.data, attachment.content_type) == ("card.png", PNG, "image/png")
    assert attachment.description == "a card"
    assert picture.history[0].flags & 128 and picture.history[0].content == ""  # the "thinking..." state
    assert picture.edited_at is None  # filling a deferred response is not an edit
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == PNG


async def test_attachments_kept_by_id_and_replaced(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    channel = bot.get_partial_messageable(world.general.id)
    sent = await channel.send("a file", file=discord.File(io.BytesIO(b"a"), "a.txt"))
    stored = emulator.message(sent.id)
    assert [a.filename for a in stored.attachments] == ["a.txt"]
    edited = await sent.edit(attachments=[*sent.attachments, discord.File(io.BytesIO(b"b"), "b.txt")])
    assert [a.filename for a in stored.attachments] == ["a.txt", "b.txt"] and len(edited.attachments) == 2
    assert stored.attachments[0].id == sent.attachments[0].id and stored.attachments[1].data == b"b"
    await edited.edit(attachments=[edited.attachments[1]])
    assert [a.filename for a in stored.attachments] == ["b.txt"]
    await edited.delete()
    assert stored.deleted and stored not in emulator.messages(world.general)


async def test_followups_and_original_response_routes(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    await emulator.slash(world.alice, world.general, "demo later")
    kept = bot.seen.kept
    assert kept is not None
    original = await kept.original_response()
    assert original.content == "soon" and original.flags.ephemeral
    followup = await kept.followup.send("and more", ephemeral=True, wait=True)
    await followup.edit(content="and even more")
    rec = next(iter(emulator.interactions.values()))
    assert [m.content for m in rec.followups] == ["and even more"] and rec.followups[0].visible_to == world.alice.id
    await kept.delete_original_response()
    assert rec.original is not None and rec.original.deleted and rec.messages == rec.followups


async def test_double_acknowledgement_is_refused_and_recorded(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    res = await emulator.slash(world.alice, world.general, "demo double")
    assert [a.status for a in res.attempts] == [200, 400]
    assert [e.code for e in res.errors] == [40060]
    (error,) = bot.seen.errors
    assert isinstance(error, discord.HTTPException) and error.code == 40060
    with pytest.raises(AssertionError, match="2 callback attempts"):
        emulator.assert_all_interactions_answered_once()
    emulator.assert_all_interactions_answered_once(exclude=[res])


async def test_unknown_route_is_answered_404_and_recorded(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert emulator.unknown_routes == [("GET", "voice/regions")]
    with pytest.raises(AssertionError, match="voice/regions"):
        emulator.assert_no_unknown_routes()
    emulator.unknown_routes.clear()  # or the fixture fails the test at teardown


async def test_interaction_tokens_expire_after_15_minutes(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    await emulator.slash(world.alice, world.general, "demo later")
    kept = bot.seen.kept
    assert kept is not None
    await kept.edit_original_response(content="in time")
    emulator.advance_clock(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as excinfo:
        await kept.edit_original_response(content="too late")
    assert (excinfo.value.status, excinfo.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException):
        await kept.followup.send("too late")
    rec = next(iter(emulator.interactions.values()))
    assert [e.code for e in rec.errors] == [50027, 50027]
    assert rec.original is not None and rec.original.content == "in time"


async def test_a_late_acknowledgement_is_unknown_interaction(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    res = await emulator.slash(world.alice, world.general, "demo slow", expect_ack=False, settle=False)
    emulator.advance_clock(3.5)  # the handler is still waiting: now it is too late to answer
    bot.gate.set()
    await emulator.wait_until(lambda: bool(bot.seen.errors), what="for the bot's error")
    await emulator.settle()
    assert not res.acknowledged and {e.code for e in res.errors} == {10062}
    error = bot.seen.errors[0]
    assert isinstance(error, discord.app_commands.CommandInvokeError) and isinstance(error.original, discord.NotFound)
    with pytest.raises(AssertionError, match="never acknowledged"):
        emulator.assert_all_interactions_answered_once()


async def test_faults_403_and_429(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    forbidden = emulator.fail_next("POST /channels/*/messages", 403)
    res = await emulator.slash(world.alice, world.general, "demo post")
    assert forbidden.fired == 1 and isinstance(bot.seen.errors[-1], discord.Forbidden)
    assert [m.content for m in res.ephemeral_messages] == ["I cannot post here"]
    assert emulator.public_messages(world.general) == []

    limited = emulator.fail_next("POST /channels/*/messages", 429, retry_after=0.01)
    res = await emulator.slash(world.alice, world.general, "demo post")
    assert limited.fired == 1 and [m.content for m in emulator.public_messages(world.general)] == ["posted"]
    assert [m.content for m in res.ephemeral_messages] == ["done"]
    emulator.assert_all_interactions_answered_once()


async def test_autocomplete_and_modal(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    res = await emulator.autocomplete(world.bob, world.general, "demo find", focused="colour", colour="g")
    assert res.response_type == 8 and res.choices == [{"name": "Green", "value": "green"}]
    opened = await emulator.slash(world.bob, world.general, "demo feedback")
    assert opened.response_type == 9 and opened.modal is not None and opened.modal["title"] == "Feedback"
    submitted = await emulator.submit_modal(world.bob, opened, {"feedback:text": "great"})
    assert [m.content for m in submitted.ephemeral_messages] == ["Thanks: great"]
    emulator.assert_all_interactions_answered_once()


async def test_gateway_resume_after_a_dropped_connection(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    await emulator.drop_gateway()
    res = await emulator.slash(world.alice, world.general, "demo counter")
    assert res.acknowledged and emulator.gateway.resumes == 1 and emulator.gateway.identifies == 1


async def test_global_commands_have_no_guild_id(emulator: DiscordEmulator, world: World, bot_starter: Starter) -> None:
    await bot_starter(DemoBot())
    demo, _ = emulator.commands()
    assert "guild_id" not in demo and emulator.commands(world.guild) == []
    res = await emulator.slash(world.alice, world.general, "demo counter")
    assert "guild_id" not in res.payload["data"] and res.original is not None


class LongItalianDescriptions(discord.app_commands.Translator):
    async def translate(
        self,
        string: discord.app_commands.locale_str,
        locale: discord.Locale,
        context: discord.app_commands.TranslationContextTypes,
    ) -> str | None:
        return "x" * 101 if locale is discord.Locale.italian and "description" in context.location.name else None


async def test_discord_limits_are_enforced(emulator: DiscordEmulator, world: World, bot: DemoBot) -> None:
    channel = bot.get_partial_messageable(world.general.id)
    with pytest.raises(discord.HTTPException) as excinfo:
        await channel.send("x" * 2001)
    assert excinfo.value.code == 50035 and "content" in excinfo.value.text
    view = discord.ui.View()
    view.add_item(discord.ui.Select(custom_id="big", options=[discord.SelectOption(label=str(i)) for i in range(25)]))
    await channel.send("25 options are fine", view=view)
    await bot.tree.set_translator(LongItalianDescriptions())
    with pytest.raises(discord.HTTPException, match=r"description_localizations\.it"):
        await bot.tree.sync(guild=world.guild)
    assert [e.code for e in emulator.error_responses] == [50035, 50035]
    emulator.error_responses.clear()


async def test_multipart_bodies_are_read_as_aiohttp_writes_them() -> None:
    """The emulator's own multipart reader gives what aiohttp's form parser gives, for the bodies discord.py sends."""
    from unittest import mock

    from aiohttp import web
    from aiohttp.streams import StreamReader
    from aiohttp.test_utils import make_mocked_request

    from tests.discord_emulator.rest import multipart_parts, read_body

    png = PNG + b"\r\n--not-a-boundary\r\n\r\n" + bytes(range(256))
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds it
    form.add_field("payload_json", '{"content": "hi", "attachments": [{"id": 0}]}', content_type="application/json")
    form.add_field("files[0]", png, filename='hand "1".png', content_type="image/png")
    form.add_field("files[1]", b"", filename="empty.png", content_type="image/png")
    writer = form()
    buffer = io.BytesIO()

    class Sink:
        async def write(self, data: bytes) -> None:
            buffer.write(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    body = buffer.getvalue()

    def request() -> web.Request:
        stream = StreamReader(mock.Mock(_reading_paused=False), 2**16, loop=asyncio.get_running_loop())
        stream.feed_data(body)
        stream.feed_eof()
        return make_mocked_request(
            "POST", "/", headers={"Content-Type": writer.content_type}, payload=stream, client_max_size=2**24
        )

    expected = await request().post()
    payload, files = await read_body(request())
    assert payload == {"content": "hi", "attachments": [{"id": 0}]}
    assert {n: (u.filename, u.data, u.content_type) for n, u in files.items()} == {
        0: (expected["files[0]"].filename, png, "image/png"),  # type: ignore[union-attr]
        1: ("empty.png", b"", "image/png"),
    }
    assert files[0].filename == 'hand "1".png'
    boundary = writer.content_type.split("boundary=")[1].strip('"')
    assert [p[0] for p in multipart_parts(body, boundary)] == ["payload_json", "files[0]", "files[1]"]


# ------------------------------------------------------------------ shards


def ws_of(bot: discord.AutoShardedClient, shard_id: int) -> discord.gateway.DiscordWebSocket:
    shard = bot.get_shard(shard_id)
    assert shard is not None
    return shard._parent.ws


async def test_an_auto_sharded_bot_runs_the_recommended_shards_each_with_its_own_guilds(
    emulator: DiscordEmulator, bot_starter: Starter
) -> None:
    emulator.recommended_shards = 2
    guilds = [emulator.add_guild(f"G{i}", shard=(i % 2, 2)) for i in range(4)]
    alice = emulator.add_user("alice")
    for guild in guilds:
        emulator.add_member(guild, alice)
    bot = await bot_starter(ShardedDemoBot(identify_delay=0))
    assert ("GET", "gateway/bot") in {(m, p) for _, m, p, _ in emulator.requests}
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    assert sorted(emulator.gateway.shards()) == [(0, 2), (1, 2)]
    for shard_id in (0, 1):
        owned = {g.id for g in guilds if shard_of(g.id, 2) == shard_id}
        assert set(emulator.gateway.guilds_of(emulator.gateway.session(shard_id))) == owned
        assert {g.id for g in bot.guilds if g.shard_id == shard_id} == owned
    assert {g.id for g in bot.guilds} == {g.id for g in guilds}

    before = ws_of(bot, 0).sequence
    res = await emulator.slash(alice, guilds[1].channel("general"), "demo panel")
    assert res.acknowledged and res.shards == [1]
    assert ws_of(bot, 1).sequence == emulator.gateway.session(1).seq  # it came on shard 1's connection
    assert ws_of(bot, 0).sequence == before == emulator.gateway.session(0).seq
    res = await emulator.slash(alice, guilds[2].channel("general"), "demo panel")
    assert res.shards == [0] and ws_of(bot, 0).sequence == before + 1
    assert [i["guild_id"] for i in bot.seen.interactions] == [guilds[1].id, guilds[2].id]

    late = emulator.add_guild("Late", shard=(1, 2))  # announced to shard 1 only
    await emulator.sync_gateway()
    assert bot.get_guild(late.id) is not None and ws_of(bot, 0).sequence == before + 1
    emulator.assert_all_interactions_answered_once()


async def test_processes_with_their_own_shard_ids_each_get_only_their_guilds_and_interactions(
    emulator: DiscordEmulator, bot_starter: Starter
) -> None:
    g0, g1 = emulator.add_guild("Zero", shard=(0, 2)), emulator.add_guild("One", shard=(1, 2))
    alice = emulator.add_user("alice", guild=g0)
    emulator.add_member(g1, alice)
    one = await bot_starter(DemoBot(shard_id=1, shard_count=2))
    assert [g.id for g in one.guilds] == [g1.id]
    with pytest.raises(AssertionError, match=r"no bot is connected.*shard"):
        await emulator.slash(alice, g0.channel("general"), "demo panel", timeout=0.05)
    emulator.interactions.clear()
    zero = await bot_starter(DemoBot(shard_id=0, shard_count=2))
    assert [g.id for g in zero.guilds] == [g0.id]
    assert ("GET", "gateway/bot") not in {(m, p) for _, m, p, _ in emulator.requests}  # plain clients never ask
    first = await emulator.slash(alice, g1.channel("general"), "demo panel")
    second = await emulator.slash(alice, g0.channel("general"), "demo panel")
    assert (first.shards, second.shards) == ([1], [0])
    assert [i["guild_id"] for i in one.seen.interactions] == [g1.id]
    assert [i["guild_id"] for i in zero.seen.interactions] == [g0.id]
    emulator.assert_all_interactions_answered_once()


async def test_a_bad_shard_or_too_many_guilds_on_one_shard_is_refused_like_discord(
    emulator: DiscordEmulator, bot_starter: Starter
) -> None:
    emulator.add_guild("A")
    emulator.add_guild("B")
    with pytest.raises(discord.ConnectionClosed) as bad:
        await bot_starter(DemoBot(shard_id=2, shard_count=2))
    assert bad.value.code == 4010
    emulator.max_guilds_per_shard = 1
    with pytest.raises(discord.ConnectionClosed) as crowded:
        await bot_starter(DemoBot())
    assert crowded.value.code == 4011
    assert [e.detail["code"] for e in emulator.gateway_events("refused")] == [4010, 4011]


def test_guild_ids_can_be_made_to_fall_on_any_shard() -> None:
    emu = DiscordEmulator()
    for count in (1, 2, 3, 16):
        ids = [emu.ids.on_shard(shard, count) for shard in range(count) for _ in range(3)]
        assert [shard_of(i, count) for i in ids] == [s for s in range(count) for _ in range(3)]
        assert ids == sorted(set(ids))
    assert emu.ids() > ids[-1]
    with pytest.raises(ValueError, match="shard 2"):
        emu.ids.on_shard(2, 2)


# ------------------------------------------------------------------ Discord-side faults


async def test_a_429_on_edits_is_retried_after_retry_after_and_the_edits_land(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    limited = emulator.fail_edits(429, times=2, retry_after=0.2)
    res = await emulator.slash(world.alice, world.general, "demo edit")
    assert limited.fired == 2
    assert [m.content for m in emulator.public_messages(world.general)] == ["final"]
    assert [m.content for m in res.ephemeral_messages] == ["edited"]
    edits = [(at, path, status) for at, method, path, status in emulator.requests if method == "PATCH"]
    assert [status for _, _, status in edits] == [429, 429, 200, 200]  # the channel edit twice refused, then both
    assert edits[2][0] - edits[0][0] >= 2 * 0.2  # discord.py waited retry_after each time
    assert all(p.startswith("channels/") for _, p, _ in edits[:3]) and "@original" in edits[3][1]
    emulator.assert_all_interactions_answered_once()


async def test_a_429_carries_discords_rate_limit_headers_and_body() -> None:
    emu = DiscordEmulator()
    await emu.start()
    try:
        emu.fail_edits(429, retry_after=0.25)
        async with aiohttp.ClientSession() as http:
            url = f"{emu.api_base}/channels/1/messages/2"
            async with http.patch(url, json={"content": "x"}, headers={"Authorization": "Bot t"}) as response:
                body, headers = await response.json(), response.headers
        assert response.status == 429 and body["retry_after"] == 0.25 and body["global"] is False
        assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Reset-After"] == "0.25"
        assert headers["Via"] and headers["Content-Type"] == "application/json"
    finally:
        await emu.stop()


@pytest.mark.parametrize("status", [500, 502])
async def test_a_server_error_on_an_edit_is_retried_and_the_edit_lands(
    emulator: DiscordEmulator, world: World, bot: DemoBot, status: int
) -> None:
    failed = emulator.fail_edits(status)
    res = await emulator.slash(world.alice, world.general, "demo edit")
    assert failed.fired == 1 and failed.fired_at[0][1].startswith("PATCH /channels/")
    assert [m.content for m in emulator.public_messages(world.general)] == ["final"]
    assert [m.content for m in res.ephemeral_messages] == ["edited"]
    emulator.assert_all_interactions_answered_once()


async def test_resume_replays_the_missed_events_with_their_sequence_numbers(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    session = emulator.gateway.session(0)
    async with emulator.gateway_outage() as dropped:
        assert dropped == [session] and not session.connected
        missed = [emulator.add_channel(world.guild, f"late-{i}") for i in range(3)]
        await emulator.settle()
        seq_at_drop = bot.ws.sequence
    (resume,) = emulator.gateway_events("resume")
    assert resume.detail["client_seq"] == seq_at_drop
    assert resume.detail["replayed"] == list(range(seq_at_drop + 1, seq_at_drop + 4))  # the 3 CHANNEL_CREATEs
    assert resume.detail["resumed_seq"] == seq_at_drop + 4 == session.seq  # then RESUMED
    await emulator.sync_gateway()
    assert all(bot.get_channel(c.id) is not None for c in missed) and bot.ws.sequence == session.seq
    res = await emulator.slash(world.alice, missed[0], "demo counter")
    assert res.acknowledged and emulator.gateway.identifies == 1 and emulator.gateway.resumes == 1
    assert [e.kind for e in emulator.gateway_events()] == ["identify", "disconnect", "resume"]


async def test_an_outage_of_one_shard_does_not_pause_the_other(emulator: DiscordEmulator, bot_starter: Starter) -> None:
    g0, g1 = emulator.add_guild("Zero", shard=(0, 2)), emulator.add_guild("One", shard=(1, 2))
    alice = emulator.add_user("alice", guild=g0)
    emulator.add_member(g1, alice)
    bot = await bot_starter(ShardedDemoBot(identify_delay=0, shard_count=2))
    async with emulator.gateway_outage(shard_id=1):
        res = await emulator.slash(alice, g0.channel("general"), "demo panel")
        assert res.acknowledged and res.shards == [0]
        late = emulator.add_channel(g1, "late")
    await emulator.sync_gateway()
    assert bot.get_channel(late.id) is not None
    assert [(e.kind, e.shard) for e in emulator.gateway_events()[2:]] == [("disconnect", (1, 2)), ("resume", (1, 2))]
    res = await emulator.slash(alice, late, "demo panel")
    assert res.shards == [1] and emulator.gateway.identifies == 2
    emulator.assert_all_interactions_answered_once()


async def test_an_invalid_session_makes_the_client_identify_again_and_carry_on(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    old = emulator.gateway.session(0)
    await emulator.invalidate_session()
    added = emulator.add_channel(world.guild, "meanwhile")  # no session: lost, but in the next GUILD_CREATE
    res = await emulator.slash(world.alice, world.general, "demo counter", timeout=15)
    assert res.acknowledged
    new = emulator.gateway.session(0)
    assert new.id != old.id and emulator.gateway.identifies == 2 and emulator.gateway.resumes == 0
    assert emulator.gateway.undelivered[-1] == ("CHANNEL_CREATE", world.guild.id)
    invalid, identify = emulator.gateway_events("invalid_session")[0], emulator.gateway_events("identify")[1]
    assert invalid.detail == {"resumable": False} and identify.at - invalid.at >= 1.0  # discord.py waited
    assert bot.identified == [(None, True), (None, False)]
    await emulator.sync_gateway()
    assert bot.get_channel(added.id) is not None and bot.get_guild(world.guild.id) is not None
    emulator.assert_all_interactions_answered_once()


async def test_two_clients_claiming_one_shard_both_get_its_interactions_and_the_second_answer_is_refused(
    emulator: DiscordEmulator, world: World, bot_starter: Starter
) -> None:
    first = await bot_starter(DemoBot(dev_guild_id=world.guild.id))
    second = await bot_starter(DemoBot(dev_guild_id=world.guild.id))
    res = await emulator.slash(world.alice, world.general, "demo panel")
    assert res.shards == [0, 0] and len(first.seen.interactions) == len(second.seen.interactions) == 1
    statuses = [a.status for a in res.attempts]  # the loser's error handler tries once more
    assert statuses[0] == 200 and set(statuses[1:]) == {400} and {e.code for e in res.errors} == {40060}
    with pytest.raises(AssertionError, match="callback attempts"):
        emulator.assert_all_interactions_answered_once()


# ------------------------------------------------------------------ Discord's rate limits (issue 20, point 6)


async def _raw(
    emu: DiscordEmulator, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[int, dict[str, Any], Any]:
    """One request to the emulator outside discord.py (which would wait on the headers instead of exceeding them)."""
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with http.request(method, f"{emu.api_base}/{path}", json=body, headers=headers) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, dict(response.headers), data


def freeze_clock(emu: DiscordEmulator) -> None:
    """Stop the emulator's clock (``advance_clock`` still moves it): a loaded machine cannot stretch a window."""
    frozen = emu.clock()
    emu.clock = lambda: frozen


async def test_issue_20_6_messages_sent_per_channel_are_limited_to_5_per_5_seconds_with_discords_headers(
    emulator: DiscordEmulator, world: World
) -> None:
    freeze_clock(emulator)
    games = world.guild.channel("games")
    path = f"channels/{world.general.id}/messages"
    answers = [await _raw(emulator, "POST", path, {"content": str(i)}) for i in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers] == ["4", "3", "2", "1", "0", "0"]
    assert {h["X-RateLimit-Limit"] for _, h, _ in answers} == {"5"}
    assert {h["X-RateLimit-Bucket"] for _, h, _ in answers} == {"channel-message-create"}
    assert all(0 < float(h["X-RateLimit-Reset-After"]) <= 5.0 for _, h, _ in answers)
    _, headers, body = answers[-1]
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0 and body["message"]
    assert headers["Via"] and headers["X-RateLimit-Scope"] == "user" and int(headers["Retry-After"]) >= 1
    assert [m.content for m in emulator.public_messages(world.general)] == ["0", "1", "2", "3", "4"]
    # another channel has its own bucket; edits and deletes have theirs
    status, _, sent = await _raw(emulator, "POST", f"channels/{games.id}/messages", {"content": "x"})
    assert status == 200
    edit = f"channels/{games.id}/messages/{sent['id']}"
    edit = f"channels/{games.id}/messages/{sent['id']}"
    status, headers, _ = await _raw(emulator, "PATCH", edit, {"content": "y"})
    assert (status, headers["X-RateLimit-Bucket"], headers["X-RateLimit-Remaining"]) == (200, EDIT_MESSAGE, "4")
    # the window is fixed: once it has passed (the emulator's clock moved on), the channel may send again
    emulator.advance_clock(5.0)
    assert (await _raw(emulator, "POST", path, {"content": "again"}))[0] == 200
    assert [(r.bucket, r.global_) for r in emulator.rate_limited] == [("channel-message-create", False)]
    assert emulator.invalid_request_count() == 1


async def test_issue_20_6_interaction_webhooks_are_limited_per_token_and_callbacks_are_not(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    # callbacks are answered without a bucket: ten in a row, none limited
    for _ in range(10):
        assert (await emulator.slash(world.alice, world.general, "demo counter")).acknowledged
    assert classify("POST", "interactions/1/token/callback") is None
    await emulator.slash(world.alice, world.general, "demo later")
    freeze_clock(emulator)
    token = list(emulator.interactions.values())[-1].token
    hook = f"webhooks/{emulator.application_id}/{token}"
    answers = [await _raw(emulator, "POST", f"{hook}?wait=1", {"content": str(i), "flags": 64}) for i in range(5)]
    answers.append(await _raw(emulator, "PATCH", f"{hook}/messages/@original", {"content": "edited"}))
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert {h["X-RateLimit-Bucket"] for _, h, _ in answers} == {"interaction-webhook"}
    assert 0 < answers[-1][2]["retry_after"] <= 2.0
    # another interaction's token has its own bucket
    other = next(iter(emulator.interactions.values())).token
    assert (await _raw(emulator, "GET", f"webhooks/{emulator.application_id}/{other}/messages/@original"))[0] == 200
    emulator.advance_clock(2.0)
    assert (await _raw(emulator, "PATCH", f"{hook}/messages/@original", {"content": "edited"}))[0] == 200
    assert len(emulator.rate_limited) == 1


async def test_issue_20_6_the_global_limit_is_50_requests_a_second_without_interaction_endpoints(
    emulator: DiscordEmulator, world: World
) -> None:
    channels = [emulator.add_channel(world.guild, f"c{i}") for i in range(51)]
    freeze_clock(emulator)
    for channel in channels[:50]:
        assert (await _raw(emulator, "GET", f"channels/{channel.id}"))[0] == 200
    status, headers, body = await _raw(emulator, "GET", f"channels/{channels[50].id}")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global" and headers["Via"]
    assert [r.bucket for r in emulator.rate_limited] == ["global"]
    emulator.advance_clock(1.0)
    assert (await _raw(emulator, "GET", f"channels/{channels[50].id}"))[0] == 200


async def test_issue_20_6_discord_py_waits_on_the_headers_and_never_meets_a_429(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    # shrunk windows (5 per 0.25 s): the same buckets, so that 12 sends, 12 edits and 12 deletes take ~2 s, not 36 s
    emulator.rate_limits.scale = 0.05
    channel = bot.get_partial_messageable(world.general.id)
    sent = await asyncio.gather(*(channel.send(f"m{i}") for i in range(12)))
    await asyncio.gather(*(m.edit(content=f"e{i}") for i, m in enumerate(sent)))
    await asyncio.gather(*(m.delete() for m in sent))
    await emulator.settle()
    assert emulator.rate_limited == [] and emulator.invalid_requests == []
    assert emulator.rate_limits.taken["channel-message-create"] == 12
    assert emulator.rate_limits.taken["channel-message-edit"] == 12
    assert emulator.public_messages(world.general) == []


async def test_issue_20_6_invalid_requests_are_counted_and_expired_tokens_listed(
    emulator: DiscordEmulator, world: World, bot: DemoBot
) -> None:
    emulator.fail_next("POST /channels/*/messages", 403)
    await emulator.slash(world.alice, world.general, "demo post")
    await emulator.slash(world.alice, world.general, "demo later")
    kept = bot.seen.kept
    assert kept is not None
    emulator.advance_clock(15 * 60 + 1)
    with pytest.raises(discord.HTTPException):
        await kept.edit_original_response(content="too late")
    assert [status for *_, status in emulator.invalid_requests] == [403, 401]
    # Discord counts them over 10 minutes: the 403 came 15 minutes before the 401
    assert emulator.invalid_request_count() == 1 and emulator.invalid_request_count(within=3600) == 2
    assert [(e.status, e.code) for e in emulator.expired_token_requests()] == [(401, 50027)]


async def test_issue_20_6_only_a_benchmark_switches_the_limits_off() -> None:
    emu = DiscordEmulator(benchmark_without_rate_limits=True)
    guild = emu.add_guild()
    await emu.start()
    try:
        answers = [await _raw(emu, "POST", f"channels/{guild.channel('general').id}/messages") for _ in range(8)]
        assert [status for status, _, _ in answers] == [400] * 8  # empty messages: refused, but never 429
        assert "X-RateLimit-Limit" not in answers[0][1] and emu.rate_limited == []
    finally:
        await emu.stop()
