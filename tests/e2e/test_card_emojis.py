"""Card faces as application emojis (issue 18 point 1), end to end against the emulator's application-emoji routes.

The emulator holds Discord's limits (its "Emoji Resource": names of 2-32 letters, digits or _, unique per
application; images of at most 256 KiB; 2,000 emojis per application; a component may name only an emoji the
application owns). The bot draws every face, syncs them at start-up (nothing uploaded when nothing changed; changed
art replaces only its faces; emojis not its own untouched; an upload that fails or the limit leaves those faces with
their Unicode marks) and shows them in the Play a card menu, the log, the text-only hand and the summaries.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.card_emojis import CARD_EMOJIS, SyncReport
from bot.engine.cards import Kind, parse_face
from bot.render.emoji import EMOJI_PREFIX, all_face_emojis, face_code, face_emoji
from cogs.uno.screens.text import card_name, cards_line, within
from tests.discord_emulator import DiscordEmulator
from tests.discord_emulator.model import APP_EMOJI_LIMIT, AppEmoji

from .shown import shown
from .test_commands import find, give, log_lines, play_select, playing
from .uno_driver import Table, make_bot, uno_world

FACES = len(all_face_emojis())


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


@pytest.fixture(autouse=True)
def _no_emojis_left() -> Iterator[None]:
    """The card emojis are this process's: every test starts and ends without them."""
    CARD_EMOJIS.clear()
    yield
    CARD_EMOJIS.clear()


def png(size: int = 8) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (size, size), (200, 0, 0, 255)).save(buffer, "PNG")
    return buffer.getvalue()


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


async def synced(bot: Any) -> SyncReport:
    assert bot.emoji_sync is not None
    report: SyncReport = await bot.emoji_sync
    return report


# --------------------------------------------------------------------------------------------------------------------
# The emulator's routes and Discord's limits


async def test_the_emulator_keeps_discords_limits_on_application_emojis(emulator: DiscordEmulator) -> None:
    """Names 2-32 characters of [A-Za-z0-9_] and unique, images ≤ 256 KiB, 2,000 per application; the image cannot
    change (PATCH renames only); an unknown emoji is 10014."""
    bot = discord.Client(intents=discord.Intents.none())
    await bot.login(emulator.token)
    try:
        made = await bot.create_application_emoji(name="uno_ok", image=png())
        assert (made.name, [e.name for e in await bot.fetch_application_emojis()]) == ("uno_ok", ["uno_ok"])
        for name in ("a", "x" * 33, "no-dash", "naïve"):
            with pytest.raises(discord.HTTPException) as bad:
                await bot.create_application_emoji(name=name, image=png())
            assert bad.value.code == 50035 and "name" in str(bad.value), name
        with pytest.raises(discord.HTTPException) as taken:
            await bot.create_application_emoji(name="uno_ok", image=png())
        assert "ALREADY_TAKEN" in str(taken.value)
        big = png() + b"\0" * (256 * 1024)  # a PNG with trailing bytes: over 256 KiB
        with pytest.raises(discord.HTTPException) as heavy:
            await bot.create_application_emoji(name="heavy", image=big)
        assert heavy.value.code == 50035 and "256" in str(heavy.value)
        edited = await made.edit(name="uno_renamed")
        assert edited.name == "uno_renamed"
        for i in range(APP_EMOJI_LIMIT - 1):
            emulator.app_emojis[-1 - i] = AppEmoji(-1 - i, f"other_{i}", "image/png", png())
        with pytest.raises(discord.HTTPException) as full:
            await bot.create_application_emoji(name="one_more", image=png())
        assert full.value.code == 30008
        await edited.delete()
        with pytest.raises(discord.NotFound) as gone:
            await bot.fetch_application_emoji(edited.id)
        assert gone.value.code == 10014
        assert [e.name for e in emulator.deleted_app_emojis] == ["uno_renamed"]
    finally:
        await bot.close()


async def test_a_component_may_name_only_an_emoji_of_the_application(
    emulator: DiscordEmulator, world: dict[str, Any]
) -> None:
    """Discord refuses a button or select option whose custom emoji the application does not own ("Invalid emoji");
    Unicode emoji and the application's own pass."""
    bot = discord.Client(intents=discord.Intents.none())
    await bot.login(emulator.token)
    try:
        own = await bot.create_application_emoji(name="uno_R5", image=png())
        channel = await bot.fetch_channel(world["channel"].id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="ok", custom_id="a", emoji=own))
        view.add_item(discord.ui.Button(label="unicode", custom_id="b", emoji="🟥"))
        await channel.send("fine", view=view)
        stranger = discord.ui.View()
        strange = discord.PartialEmoji(name="uno_X", id=12345)
        select = discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="x", emoji=strange)])
        stranger.add_item(select)
        with pytest.raises(discord.HTTPException) as bad:
            await channel.send("no", view=stranger)
        assert bad.value.code == 50035 and "Invalid emoji" in str(bad.value)
    finally:
        await bot.close()


# --------------------------------------------------------------------------------------------------------------------
# The sync at start-up


def test_every_face_has_its_own_emoji_within_discords_limits() -> None:
    """182 distinct faces of the three games (the plain Wild on both FLIP sides: 183 emojis); names unique, valid,
    carrying a content hash; PNGs of 128 × 128 px, well under 256 KiB."""
    emojis = all_face_emojis()
    assert len(emojis) == len({e.name for e in emojis}) == len({e.code for e in emojis}) == 183
    for e in emojis:
        assert e.name.startswith(EMOJI_PREFIX) and 2 <= len(e.name) <= 32 and e.name.replace("_", "").isalnum()
        assert len(e.png) < 32 * 1024
        with Image.open(io.BytesIO(e.png)) as img:
            assert img.size == (128, 128)
    assert {face_code(parse_face(c), e.side) for c in ("R+2", "W+4", "R3/B") for e in emojis[:1]} == {
        "Rp2",
        "Wp4",
        "R3_B",
    }


async def test_the_first_start_uploads_every_face_and_the_next_uploads_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    db = tmp_path / "uno.sqlite3"
    other = emulator.app_emojis[7] = AppEmoji(7, "party_parrot", "image/png", png())
    bot = await bot_starter(make_bot(emulator, db, world["guild"], card_emojis=True))
    assert await synced(bot) == SyncReport(kept=0, uploaded=FACES, deleted=0, missing=0)
    assert len(emulator.app_emojis) == FACES + 1 and emulator.app_emojis[7] is other
    first = dict(emulator.app_emojis)
    await bot.close()
    posts = sum(1 for _, m, p, _ in emulator.requests if m == "POST" and p.endswith("/emojis"))

    CARD_EMOJIS.clear()
    again = await bot_starter(make_bot(emulator, db, world["guild"], card_emojis=True))
    assert await synced(again) == SyncReport(kept=FACES, uploaded=0, deleted=0, missing=0)
    assert emulator.app_emojis == first and not emulator.deleted_app_emojis
    assert sum(1 for _, m, p, _ in emulator.requests if m == "POST" and p.endswith("/emojis")) == posts
    assert (
        CARD_EMOJIS.mention(parse_face("R5"))
        == f"<:{face_emoji(parse_face('R5')).name}:"
        + str(next(e.id for e in emulator.app_emojis.values() if e.name == face_emoji(parse_face("R5")).name))
        + ">"
    )


async def test_changed_art_replaces_only_its_faces_and_failures_keep_the_unicode_marks(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Two faces were uploaded with older art (another hash in their names) and one face no longer exists: those
    three are deleted and the two faces uploaded again; the rest are kept. An upload Discord refuses leaves its face
    with the Unicode marks, and the game plays on."""
    current = all_face_emojis()
    for n, e in enumerate(current):
        name = e.name if n >= 2 else f"{EMOJI_PREFIX}{e.code}_00000000"
        emulator.app_emojis[1000 + n] = AppEmoji(1000 + n, name, "image/png", e.png)
    emulator.app_emojis[5000] = AppEmoji(5000, f"{EMOJI_PREFIX}Q9_12345678", "image/png", png())
    emulator.fail_next("POST /applications/*/emojis", 400, code=50035, message="Invalid Form Body")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], card_emojis=True))
    report = await synced(bot)
    assert report == SyncReport(kept=FACES - 2, uploaded=1, deleted=3, missing=1)
    replaced = [f"{EMOJI_PREFIX}{e.code}_00000000" for e in current[:2]]
    assert sorted(e.name for e in emulator.deleted_app_emojis) == sorted([*replaced, f"{EMOJI_PREFIX}Q9_12345678"])
    refused = current[0].face  # the first upload was refused: that face shows its Unicode marks
    assert CARD_EMOJIS.mention(refused) is None
    assert card_name(refused, "en").startswith("🟥▲")
    assert CARD_EMOJIS.mention(current[1].face) is not None


async def test_past_the_applications_limit_the_faces_left_keep_their_unicode_marks(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    for i in range(APP_EMOJI_LIMIT - 100):
        emulator.app_emojis[-1 - i] = AppEmoji(-1 - i, f"other_{i}", "image/png", png())
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], card_emojis=True))
    assert await synced(bot) == SyncReport(kept=0, uploaded=100, deleted=0, missing=FACES - 100)
    assert len(emulator.app_emojis) == APP_EMOJI_LIMIT
    assert all(e.code != 30008 for e in emulator.error_responses)  # the bot never tried past the limit


async def test_no_list_of_emojis_no_emojis(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    emulator.fail_next("GET /applications/*/emojis", 403, code=50001, message="Missing Access")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], card_emojis=True))
    assert await synced(bot) == SyncReport(0, 0, 0, FACES)
    assert not emulator.app_emojis and CARD_EMOJIS.mention(parse_face("R5")) is None


# --------------------------------------------------------------------------------------------------------------------
# Where a card is named


async def test_cards_are_shown_by_their_emojis_in_the_menu_the_log_and_the_text_only_hand(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], card_emojis=True))
    await synced(bot)
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    colour = game.colour_in_play()
    card = find(game, lambda f: f.kind is Kind.NUMBER and f.colour == colour)
    give(game, seat, [card, find(game, lambda f: f.kind is Kind.WILD, besides=(card,))])
    player = table.user_of(seat)
    table.republish()
    hand = await table.open_hand(player)
    select = play_select(hand)
    ours = {f"<:{e.name}:{e.id}>" for e in emulator.app_emojis.values()}
    assert select.options and all(o.emoji in ours for o in select.options)  # every line beside its card's face
    assert not any("▲" in o.label or "🟥" in o.label for o in select.options)  # not twice
    described = shown(hand).description
    assert sum(line.count("<:uno_") for line in described.split("\n")) == 2  # the text-only list of the hand
    await emulator.select(player, hand, select.custom_id, [select.options[0].value])
    await emulator.settle()
    log = log_lines(table.public_message())
    assert any("<:uno_" in line for line in log), log
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


def test_a_long_list_of_cards_falls_back_to_the_marks_rather_than_being_cut() -> None:
    """A summary or a challenged hand that would not fit with the emojis' markup is given with the Unicode marks,
    whole; one that fits keeps the emojis."""
    faces = [face for face, _ in [(e.face, e.side) for e in all_face_emojis()][:40]]
    CARD_EMOJIS.use({e.code: discord.PartialEmoji(name=e.name, id=10_000 + n) for n, e in enumerate(all_face_emojis())})
    short = within(1024, lambda custom: cards_line(faces[:5], "en", custom=custom))
    assert short.count("<:uno_") == 5
    long = within(1024, lambda custom: cards_line(faces, "en", custom=custom))
    assert "<:uno_" not in long and long == cards_line(faces, "en", custom=False)[:1024]


async def test_a_face_another_process_uploaded_meanwhile_is_used_not_left_without_its_emoji(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """Two shard processes start at once: one's upload of a face is refused because the other's took the name
    first; the list read again at the end gives it the other's emoji."""
    first = all_face_emojis()[0]

    original = emulator.rest.create_app_emoji
    raced = False

    async def racing(req: Any) -> Any:
        nonlocal raced
        if not raced and (req.body or {}).get("name") == first.name:
            raced = True  # the other process's upload lands just before this one
            emulator.app_emojis[9] = AppEmoji(9, first.name, "image/png", first.png)
        return await original(req)

    emulator.rest.create_app_emoji = racing  # type: ignore[method-assign]
    for i, route in enumerate(emulator.rest.routes):
        if route[2] == original:
            emulator.rest.routes[i] = (route[0], route[1], racing, route[3])
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], card_emojis=True))
    report = await synced(bot)
    assert raced and report.missing == 0 and report.uploaded == FACES - 1
    assert CARD_EMOJIS.mention(first.face) == f"<:{first.name}:9>"
