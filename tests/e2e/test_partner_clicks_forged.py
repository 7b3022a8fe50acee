"""**Change partners** (SPEC T1) against forged and unwelcome clicks, end to end: every one is answered once with one
ephemeral line, and none changes the lobby (its seats and its version). The clicks reach the handler: the lobby
message is made to show the forged button first (``showing``), as a message of another release or a client's
tampered request would; a button the message does not have is answered before it (tests/e2e/test_partner_fixes.py).

The real discord.py client against the loopback emulator; four players at a one-round classic partner table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from tests.discord_emulator import DiscordEmulator

from .test_partner_fixes import STALE, partner_lobby, partners_id, seated, showing
from .uno_driver import make_bot, uno_world

pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a lobby through the emulator")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    """Four players (as tests/e2e/test_partner_fixes.py's)."""
    world = uno_world(emulator)
    world["users"].append(emulator.add_user("dave", locale="en-US", guild=world["guild"]))
    return world


async def test_t1_forged_change_partners_clicks_are_answered_and_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await partner_lobby(emulator, world, bot)
    alice, bob = world["users"][:2]
    channel = world["channel"]
    lobby = table.public_message()
    current = partners_id(table)
    fp = current.rsplit(":", 1)[1]
    seats, version = seated(table), table.session.version
    wrong_fp = "0" * 8 if fp != "0" * 8 else "1" * 8
    for forged, user, expected in (
        (f"uno:l:partners:{channel.id + 1}:{fp}", alice, t("error.adapter", "en")),  # another channel's id
        (f"uno:l:partners:{channel.id}:{wrong_fp}", alice, STALE),  # a fingerprint no lobby had
        (f"uno:l:partners:{channel.id}:{fp.upper()}", alice, t("error.unknown_component", "en")),  # not the format
        (f"uno:l:partners:{channel.id}:{fp}:x", alice, t("error.unknown_component", "en")),
        (f"uno:l:partners:{channel.id}:{fp}", bob, None),  # the current button, by a player who is not the host
    ):
        showing(emulator, lobby, partners_id(table), forged)
        res = await emulator.click(user, lobby, forged)
        texts = [m.text for m in res.ephemeral_messages]
        assert len(texts) == 1, (forged, texts)
        if expected is not None:
            assert texts == [expected], (forged, texts)
        assert all(m.visible_to == user.id for m in res.ephemeral_messages)
        assert (seated(table), table.session.version) == (seats, version), forged
        showing(emulator, lobby, forged, current)
    # the host's own click on the current button still changes the partners, once
    await emulator.click(alice, lobby, current)
    assert table.session.version == version + 1 and "**Team 1**: Alice and Dave" in table.public_message().text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
