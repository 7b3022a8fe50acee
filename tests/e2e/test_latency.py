"""Review of the latency commits (early acknowledgement, drawing semaphore, disposed screens, multipart reader)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.discord_emulator import DiscordEmulator
from tests.e2e.uno_driver import make_bot, start_two_player_game, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="games played move by move")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def test_a_table_reposted_after_its_message_vanished_carries_its_whole_image(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """``edit_public`` sends the same screen twice when the edit answers 404 (the table message was deleted): the
    second request reuses the ``discord.File`` the first one already read, so the new table's image is empty."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    old = table.public_message()
    player = table.user_of(table.session.game.pending)
    hand = await table.open_hand(player)
    draw = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:draw"))
    fault = emulator.fail_next("PATCH /channels/*/messages/*", 404, times=1)
    await emulator.click(player, hand, draw.custom_id)  # the publisher redraws the table
    await emulator.settle()
    assert fault.fired == 1
    new = table.public_message()
    assert new.id != old.id  # posted anew
    (image,) = [a for a in new.attachments if a.filename == "table.png"]
    assert image.size > 0 and image.data.startswith(PNG_MAGIC), f"table.png has {image.size} bytes"


async def _multipart_body(filename: str) -> tuple[bytes, str]:
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds it
    form.add_field("payload_json", "{}", content_type="application/json")
    form.add_field("files[0]", io.BytesIO(b"DATA"), filename=filename, content_type="application/octet-stream")
    writer = form()
    buffer = io.BytesIO()

    class Sink:
        async def write(self, data: bytes) -> None:
            buffer.write(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    return buffer.getvalue(), writer.content_type.split("boundary=")[1].strip('"')


@pytest.mark.parametrize("filename", ["a\\b.png", 'a\\"b.png', "ñandú 🃏.png", 'x; name="y".png'])
async def test_multipart_filenames_are_read_as_aiohttp_reads_them(filename: str) -> None:
    """aiohttp escapes ``\\`` as ``\\\\`` in a quoted filename; the emulator's reader kept the escape (``a\\\\b``)."""
    from tests.discord_emulator.rest import multipart_parts

    body, boundary = await _multipart_body(filename)
    parts = multipart_parts(body, boundary)
    assert [(p[0], p[1], p[3]) for p in parts] == [("payload_json", None, b"{}"), ("files[0]", filename, b"DATA")]


async def test_a_forged_hand_button_on_the_table_never_turns_the_table_into_a_hand(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """A hand custom_id clicked on the public table message (stale or forged): the answer edits "the message the
    component is on", i.e. the public table becomes the clicker's hand, card image included."""
    from tests.e2e.test_uno_bot import forge

    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    channel_id = world["channel"].id
    player = table.user_of(table.session.game.pending)
    message = table.public_message()
    forge(message, f"uno:h:refresh:{channel_id}:00000000:0")
    await emulator.click(player, message, f"uno:h:refresh:{channel_id}:00000000:0")
    await emulator.settle()
    shown = emulator.message(message.id)
    assert "Your hand" not in shown.text and all(a.filename != "hand.png" for a in shown.attachments)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_text_only_server_answers_hand_clicks_with_one_message_update(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """``/uno settings card_images:False``: every click on a hand is answered by editing it at once (type 7), never
    deferred; the table carries no image; nothing is left unanswered. Play goes on over rounds until more than 20
    hand clicks were made (a round can end sooner: with one round only, 2 seeds of 25 made too few clicks)."""
    from bot.adapter import Status

    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _bob, carol = world["users"]
    await emulator.slash(carol, world["channel"], "uno settings", card_images=False)
    table = await start_two_player_game(emulator, world, bot)
    hands: dict[int, Any] = {}

    def hand_clicks() -> list[Any]:
        return [r for r in emulator.interactions.values() if r.name.startswith(("uno:h:", "uno:hs:"))]

    for _ in range(300):
        view = table.view
        if view is None or view.status is not Status.PLAYING or len(hand_clicks()) > 20:
            break
        if view.public.pending is None:  # the round is over
            await emulator.click(alice, table.public_message(), label="Next round")
            await emulator.settle()
            continue
        user = table.user_of(view.public.pending)
        if user.id not in hands:
            hands[user.id] = await table.open_hand(user)
        await table.take_turn(user, hands[user.id])
        await emulator.settle()
    on_hands = hand_clicks()
    assert len(on_hands) > 20
    assert {r.response_type for r in on_hands} == {7}, [(r.name, r.response_type) for r in on_hands]
    assert all(a.filename != "table.png" for a in table.public_message().attachments)
    assert all(not h.attachments for h in hands.values())
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_painter_failure_after_the_early_ack_is_reported_and_frees_its_drawing_slot(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await start_two_player_game(emulator, world, bot)
    cog = bot.get_cog("Uno")
    player = table.user_of(table.session.game.pending)
    hand = await table.open_hand(player)
    real = cog.images.painter.hand
    failures = 0

    async def broken(*args: Any, **kwargs: Any) -> bytes:
        nonlocal failures
        failures += 1
        raise RuntimeError("painter died")

    cog.images.painter.hand = broken
    draw = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:draw"))
    res = await emulator.click(player, hand, draw.custom_id)
    await emulator.settle()
    cog.images.painter.hand = real
    assert failures >= 1 and res.response_type == 6
    (note,) = [m for m in res.followups if m.ephemeral]
    assert "went wrong" in note.text.lower() or note.text
    assert cog.images.slots._value == 2  # every slot given back
    refresh = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:refresh"))
    await emulator.click(player, hand, refresh.custom_id)
    await emulator.settle()
    assert "hand.png" in {a.filename for a in hand.attachments}
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_text_only_turn_hand_refresh_does_not_wait_for_drawing_slots(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """``refresh_turn_hand`` calls ``hand_images`` even in a text-only server, and ``hand_images`` takes a
    ``drawing`` slot before it finds out there is nothing to draw: when other servers' images fill both slots, the
    next player's hand in a text-only server (and every later update of that game) waits for them."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    carol = world["users"][2]
    await emulator.slash(carol, world["channel"], "uno settings", card_images=False)
    table = await start_two_player_game(emulator, world, bot)
    cog = bot.get_cog("Uno")
    seat = table.session.game.pending
    player, other = table.user_of(seat), table.user_of(1 - seat)
    other_hand = await table.open_hand(other)
    hand = await table.open_hand(player)
    revisions = len(other_hand.history)
    for _ in range(2):  # other servers' images are being drawn
        await cog.images.slots.acquire()
    try:
        draw = next(b for b in hand.buttons() if b.custom_id.startswith("uno:h:draw"))
        await emulator.click(player, hand, draw.custom_id, settle=False)
        keep = [b for b in hand.buttons() if b.custom_id.startswith("uno:h:keep")]
        if keep:
            await emulator.click(player, hand, keep[0].custom_id, settle=False)
        # the turn passed to the other player: their open hand is brought up to date (no image to wait for)
        await emulator.wait_until(lambda: len(other_hand.history) > revisions, timeout=2.0, what="other hand")
    finally:
        for _ in range(2):
            cog.images.slots.release()
    await emulator.settle()
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
