"""Issue 11 through Discord: PostgreSQL goes away in the middle of a match. The click that could not be saved is
answered with the localized "database unavailable" message and changes nothing anyone sees; once the server is back
the same click goes through and the match goes on, the bot having reconnected by itself.

The bot runs in this process against the emulator, on the real PostgreSQL server of tests/storage (skipped with a
one-line reason without one), through the loopback relay of tests/adapter/test_postgres_outage.py."""

from __future__ import annotations

import urllib.parse
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.i18n import t
from tests.adapter.test_postgres_outage import Relay, through
from tests.discord_emulator import DiscordEmulator
from tests.storage.conftest import Backend, drop_pg_backend, pg_backend, pg_database  # noqa: F401 (a fixture)

from .shown import shown
from .uno_driver import make_bot, start_two_player_game, uno_world


@pytest.fixture
async def backend(pg_database: str) -> AsyncIterator[Backend]:  # noqa: F811 (pg_database is the fixture)
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


async def test_a_click_while_postgresql_is_away_is_refused_with_a_clear_message_and_works_once_it_is_back(
    emulator: DiscordEmulator, backend: Backend, bot_starter: Any
) -> None:
    target = urllib.parse.urlsplit(str(backend.target))
    relay = Relay(target.hostname or "127.0.0.1", target.port or 5432)
    await relay.restore()
    world = uno_world(emulator)
    bot = make_bot(emulator, through(str(backend.target), relay.port, "uno_e2e_outage"), world["guild"])
    await bot_starter(bot)
    try:
        table = await start_two_player_game(emulator, world, bot)
        session = table.session
        seat = session.game.pending
        user = table.user_of(seat)
        assert user is not None
        hand = await table.open_hand(user)
        draw = next(b for b in hand.buttons() if b.custom_id and b.custom_id.startswith("uno:h:draw"))
        version, before = session.version, shown(table.public_message()).text

        await relay.cut()
        refused = await emulator.click(user, hand, draw.custom_id)
        # the hand is shown again with the message above it (the hand's text, in every language's catalogue)
        texts = [f"{s.content} {s.description}" for s in map(shown, refused.messages)]
        assert refused.acknowledged and any(t("error.storage_unavailable", "en") in text for text in texts), texts
        assert "Nothing was lost — try again shortly" in t("error.storage_unavailable", "en")
        assert (
            session.version == version and shown(table.public_message()).text == before
        )  # nothing shown, nothing kept

        await relay.restore()
        hand = await table.open_hand(user)
        draw = next(b for b in hand.buttons() if b.custom_id and b.custom_id.startswith("uno:h:draw"))
        accepted = await emulator.click(user, hand, draw.custom_id)
        assert accepted.acknowledged and session.version > version  # the match goes on
        (row,) = await backend.fetch("SELECT version FROM live_games WHERE channel_id = ?", table.channel.id)
        assert row[0] == session.version
    finally:
        await bot.close()
        if relay.port and relay._server is not None:
            await relay.cut()
