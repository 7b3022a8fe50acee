"""Issue 20, point 7, through Discord: a database outage is explained, not hidden.

While the database is away every command and click is answered with the one localised line "the database is
unavailable, nothing was lost, try again shortly" (``error.storage_unavailable``), or does what it can from what the
bot has cached (a hand is shown, with that line above it); the log gets one warning when the outage starts and one line
when it ends, and no traceback. Once the database is back the match goes on.

Two outages: PostgreSQL stopped and started again (the loopback relay of tests/adapter/test_postgres_outage.py in
front of the session's own test database: cut = the server is gone, restored = it is back; the shared server is never
touched), and an SQLite disk that is full (the writer connection fails every write with SQLite's own
``database or disk is full``, classified by the real store)."""

from __future__ import annotations

import logging
import sqlite3
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import UnoBot
from bot.i18n import LANGUAGES, t
from tests.adapter.test_postgres_outage import Relay, through
from tests.discord_emulator import DiscordEmulator, InteractionRecord, Message
from tests.storage.conftest import Backend, drop_pg_backend, pg_backend, pg_database  # noqa: F401 (a fixture)

from .uno_driver import Table, make_bot, start_two_player_game, uno_world

DOWN = t("error.storage_unavailable", "en")


def test_the_outage_line_says_nothing_was_lost_and_to_try_again_shortly_in_every_language() -> None:
    """Issue 20.7: one message for every command and click, in every catalogue language."""
    assert DOWN == "The database is unavailable right now. Nothing was lost — try again shortly."
    texts = {lang: t("error.storage_unavailable", lang) for lang in LANGUAGES}
    assert len(set(texts.values())) == len(LANGUAGES), texts  # each language its own translation


@pytest.fixture
async def backend(pg_database: str) -> AsyncIterator[Backend]:  # noqa: F811 (pg_database is the fixture)
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


def said(rec: InteractionRecord) -> str:
    """Everything the interaction's answer shows: its messages and, for a click, the message it updated."""
    shown: list[Message] = list(rec.messages)
    if rec.message is not None:
        shown.append(rec.message)
    return "\n".join(m.text for m in shown)


def draw_button(hand: Message) -> str:
    return next(b.custom_id for b in hand.buttons() if b.custom_id and b.custom_id.startswith("uno:h:draw"))


def outage_records(caplog: pytest.LogCaptureFixture) -> tuple[list[logging.LogRecord], list[logging.LogRecord]]:
    """(the warnings and errors the bot logged, the records that carry a traceback)."""
    ours = [r for r in caplog.records if r.name.startswith(("bot", "cogs"))]
    return [r for r in ours if r.levelno >= logging.WARNING], [r for r in ours if r.exc_info]


async def every_command_and_click(
    emulator: DiscordEmulator, world: dict[str, Any], table: Table, *, reads: bool
) -> None:
    """While the database is away: each way in answers with the outage line (or the hand, with the line on it);
    nothing changes. ``reads``: the database still answers reads (a full disk), so what only reads works."""
    alice, bob, carol = world["users"]
    session = table.session
    version = session.version
    mover = table.user_of(session.game.pending)
    other = bob if mover is alice else alice
    assert mover is not None
    hand = await table.open_hand(mover)  # opened before the outage

    # a move: refused, the hand shown again with the line
    refused = await emulator.click(mover, hand, draw_button(hand))
    assert refused.acknowledged and DOWN in said(refused), said(refused)

    # reads fall back to what is cached: the hand is in memory, the preferences are not (the cache was emptied)
    shown = await emulator.click(other, table.public_message(), label="Show my hand")
    (theirs,) = shown.ephemeral_messages
    assert DOWN in theirs.text and theirs.buttons(), theirs.text  # the hand, its buttons, and why a move may fail
    again = await emulator.slash(mover, world["channel"], "uno hand")
    (mine,) = again.ephemeral_messages
    assert DOWN in mine.text and mine.buttons()

    # commands that need the database (a read, where reads still work, is answered as always; the server's settings
    # are cached since the game opened: shown from there)
    for user, command, options, needs_write, cached in (
        (alice, "uno stats", {}, False, False),
        (alice, "uno leaderboard", {}, False, False),
        (carol, "uno settings", {}, False, True),
        (bob, "uno prefs", {}, False, False),
        (bob, "uno prefs", {"text_only": True}, True, False),
        (carol, "uno settings", {"turn_timer": 90}, True, True),
    ):
        rec = await emulator.slash(user, world["channel"], command, **options)
        assert (DOWN in said(rec)) is (needs_write or not (reads or cached)), (command, said(rec))
    general = world["guild"].channel("general")
    opened = await emulator.slash(carol, general, "uno new")
    assert DOWN in said(opened), said(opened)
    assert table.bot.manager.snapshot(general.id) is None

    assert session.version == version  # nothing was changed


async def play_on(emulator: DiscordEmulator, table: Table) -> None:
    """The database is back: the same move goes through, and hands no longer carry the outage line. (A database
    that could not be reached is seen back by the first read; a full disk only by a write that succeeds: here the
    move.)"""
    session = table.session
    version = session.version
    mover = table.user_of(session.game.pending)
    assert mover is not None
    hand = await table.open_hand(mover)
    accepted = await emulator.click(mover, hand, draw_button(hand))
    assert accepted.acknowledged and session.version > version
    assert DOWN not in said(accepted)
    for user in table.users:
        assert DOWN not in (await table.open_hand(user)).text


def assert_logged_once_each_way(caplog: pytest.LogCaptureFixture) -> None:
    """One warning when the outage began, one line when it ended; nothing else of the bot's above INFO, no
    traceback."""
    loud, tracebacks = outage_records(caplog)
    assert not tracebacks, [r.getMessage() for r in tracebacks]
    assert len(loud) == 1 and loud[0].getMessage().startswith("the database is unavailable ("), [
        r.getMessage() for r in loud
    ]
    back = [r for r in caplog.records if r.getMessage().startswith("the database is back")]
    assert len(back) == 1, [r.getMessage() for r in caplog.records]


async def outage_test(
    emulator: DiscordEmulator,
    bot: UnoBot,
    world: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    cut: Callable[[], Awaitable[None]],
    restore: Callable[[], Awaitable[None]],
    *,
    reads: bool,
) -> None:
    table = await start_two_player_game(emulator, world, bot)
    bot._prefs_cache.clear()  # nothing cached for the players: their preferences must come from the database
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await cut()
        await every_command_and_click(emulator, world, table, reads=reads)
        await restore()
        await play_on(emulator, table)
        await emulator.settle()
    assert_logged_once_each_way(caplog)


async def test_postgresql_stopped_then_started_again_every_command_says_so_and_the_log_says_it_once(
    emulator: DiscordEmulator, backend: Backend, bot_starter: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 20.7: PostgreSQL stopped mid-game and started again."""
    target = urllib.parse.urlsplit(str(backend.target))
    relay = Relay(target.hostname or "127.0.0.1", target.port or 5432)
    await relay.restore()
    world = uno_world(emulator)
    bot = make_bot(emulator, through(str(backend.target), relay.port, "uno_e2e_outage_msgs"), world["guild"])
    await bot_starter(bot)
    try:
        await outage_test(emulator, bot, world, caplog, relay.cut, relay.restore, reads=False)
    finally:
        await bot.close()
        if relay._server is not None:
            await relay.cut()


class FullDisk:
    """The SQLite store's writer connection fails every statement with SQLite's own "database or disk is full" while
    :attr:`full` (what a full disk or ``PRAGMA max_page_count`` does to a write that needs a page); reads go on."""

    def __init__(self, bot: UnoBot) -> None:
        self.full = False
        writer = bot.store.wrapped._writer  # type: ignore[attr-defined]  # the watched store's own SQLite store
        # every way the store sends a statement to the writer (a fenced save is one ``execute_fetchall`` with
        # RETURNING, the aggregates ``executemany``): a full disk fails them all
        for name in ("execute", "execute_fetchall", "executemany"):
            setattr(writer, name, self._failing(getattr(writer, name)))

    def _failing(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(sql: str, *args: Any, **kwargs: Any) -> Any:
            if self.full and sql.strip().upper() not in ("ROLLBACK",):
                raise sqlite3.OperationalError("database or disk is full")
            return real(sql, *args, **kwargs)

        return call

    async def fill(self) -> None:
        self.full = True

    async def free(self) -> None:
        self.full = False


async def test_sqlite_disk_full_every_command_says_so_and_the_log_says_it_once(
    emulator: DiscordEmulator, tmp_path: Path, bot_starter: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 20.7: the SQLite file's disk is full mid-game, then space is freed."""
    world = uno_world(emulator)
    bot = make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"])
    await bot_starter(bot)
    disk = FullDisk(bot)
    await outage_test(emulator, bot, world, caplog, disk.fill, disk.free, reads=True)


async def test_sqlite_disk_freed_the_outage_line_leaves_the_hands_without_waiting_for_a_move(
    emulator: DiscordEmulator, tmp_path: Path, bot_starter: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 20.7, a full disk freed: reads worked all along, so only a write shows the database back. The bot does
    not wait for a move to make one: the lease renewal (every third of a lease, or at once when a player opens their
    hand during the outage) is a write; once it goes through the hands that showed the outage line are shown again
    without it, and a hand opened says nothing of an outage. Twice: freed and seen by the periodic renewal, then
    freed and seen by a player's Show my hand."""
    world = uno_world(emulator)
    bot = make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"])
    await bot_starter(bot)
    disk = FullDisk(bot)
    table = await start_two_player_game(emulator, world, bot)
    alice, bob, _ = world["users"]
    mover = table.user_of(table.session.game.pending)
    assert mover is not None
    other = bob if mover is alice else alice
    hand = await table.open_hand(mover)
    version = table.session.version
    caplog.clear()
    with caplog.at_level(logging.INFO):
        for seen_by in ("renewal", "show my hand"):
            await disk.fill()
            refused = await emulator.click(mover, hand, draw_button(hand))
            assert DOWN in said(refused)
            shown = await emulator.click(other, table.public_message(), label="Show my hand")
            (theirs,) = shown.ephemeral_messages
            assert DOWN in theirs.text  # reads work: only a write can tell the outage is over
            await disk.free()
            if seen_by == "renewal":
                await bot.manager.renew_now()  # what the lease timer does every UNO_LEASE_SECONDS / 3
            else:
                again = await emulator.click(other, table.public_message(), label="Show my hand")
                (fresh,) = again.ephemeral_messages
                assert DOWN not in fresh.text, seen_by
            await emulator.settle()
            assert not bot.database_down, seen_by
            assert DOWN not in emulator.message(hand.id).text, seen_by  # the refused hand: the line is gone
            if seen_by == "renewal":
                assert DOWN not in emulator.message(theirs.id).text, seen_by
    assert table.session.version == version  # no move was needed for any of it
    back = [r for r in caplog.records if r.getMessage().startswith("the database is back")]
    assert len(back) == 2, [r.getMessage() for r in caplog.records]
    loud, tracebacks = outage_records(caplog)
    assert not tracebacks and len(loud) == 2, [r.getMessage() for r in loud]
