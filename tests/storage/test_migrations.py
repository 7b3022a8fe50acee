"""Opening an SQLite database: creation, pragmas, numbered migrations, refusal of newer or foreign files, and the
upgrade of a database of every older schema version (PostgreSQL's own: test_postgres.py)."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

import bot.storage
from bot.storage import GuildSettings, SchemaTooNewError, SqliteStore, StorageError, UserPrefs, available_migrations
from bot.storage._migrations import POSTGRES, Migration, available, migrate

from . import helpers
from .helpers import game, match

TABLES = {
    "schema_migrations",
    "guild_settings",
    "live_games",
    "quarantined_games",
    "matches",
    "match_players",
    "match_rounds",
    "player_totals",
    "rank_by_wins",
    "rank_by_played",
    "rank_by_bucket",
    "user_prefs",
    "game_leases",
    "shard_locks",
    "player_ratings",
    "rating_changes",
    "match_records",
    "season_standings",
    "seasons",
}


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def recorded(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()


def test_shipped_migrations_are_numbered_from_one_without_gaps():
    migs = available_migrations()
    assert [m.version for m in migs] == list(range(1, len(migs) + 1))
    assert migs[0].name == "initial"
    triggers = [s for s in migs[0].statements() if s.startswith("CREATE TRIGGER")]
    assert len(triggers) == 3 and all(t.rstrip().endswith("END;") for t in triggers)


def test_both_stores_have_the_same_schema_versions():
    """Version N means the same schema on SQLite and PostgreSQL (bot/storage/pg_migrations/__init__.py)."""
    assert [(m.version, m.name) for m in available(POSTGRES)] == [(m.version, m.name) for m in available_migrations()]


async def test_a_database_of_every_older_version_is_upgraded_and_keeps_its_data(tmp_path: Path):
    """DESIGN "Saved formats and upgrades": a schema change needs an upgrade step from every older version. Each older
    database is built by the released (never edited) migration files up to its version, with data in it, then opened
    by this code."""
    migs = available_migrations()
    for version in range(1, len(migs)):
        path = tmp_path / f"v{version}.sqlite3"
        async with aiosqlite.connect(path, isolation_level=None) as db:
            assert await migrate(db, migs[:version]) == list(range(1, version + 1))
            await db.execute(
                "INSERT INTO guild_settings (guild_id, default_mode, turn_timer, language, text_only) "
                "VALUES (5, 'flip', 30, 'sk', 1)"
            )
            await db.execute(
                "INSERT INTO live_games VALUES (100, 1, 'classic', 'playing', 0, ?, 1700000000.0)",
                ('{"channel":100,"version":0}',),
            )
        assert recorded(path) == [(m.version, m.name) for m in migs[:version]]

        store = await SqliteStore.open(path)
        try:
            assert recorded(path) == [(m.version, m.name) for m in migs]
            assert (await store.get_settings(5)).turn_timer == 30
            assert await store.load_games() == [game(100)]
            assert await store.finish_match(match("m1"))
            assert await store.acquire_lease(100, "host-a", 30)  # 0002
            assert await store.lease_owner(100) == "host-a"
        finally:
            await store.close()


async def test_first_open_creates_folder_file_and_schema(tmp_path: Path):
    path = tmp_path / "data" / "nested" / "uno.sqlite3"
    store = await SqliteStore.open(path)
    try:
        assert path.is_file()
        assert tables(path) >= TABLES
        assert recorded(path) == [(m.version, m.name) for m in available_migrations()]
    finally:
        await store.close()


async def test_reopening_applies_nothing_and_keeps_data(db_path: Path):
    store = await SqliteStore.open(db_path)
    await store.update_settings(5, turn_timer=30)
    await store.close()
    with sqlite3.connect(db_path) as db:
        first = db.execute("SELECT version, applied_at FROM schema_migrations").fetchall()

    store = await SqliteStore.open(db_path)
    try:
        assert (await store.get_settings(5)).turn_timer == 30
    finally:
        await store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT version, applied_at FROM schema_migrations").fetchall() == first

    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db) == []


async def test_wal_and_foreign_keys_are_on(sqlite_store: SqliteStore, db_path: Path):
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # foreign keys are a per-connection setting: a player row of a match that does not exist is refused
    with pytest.raises(sqlite3.IntegrityError):
        await sqlite_store._writer.execute(
            "INSERT INTO match_players (match_id, seat, user_id, display_name, is_ai, final_score, placement, "
            "rounds_won, points_scored) VALUES (999, 0, 11, 'Ann', 0, 0, 1, 0, 0)"
        )


async def test_a_failing_migration_is_rolled_back_and_not_recorded(tmp_path: Path):
    path = tmp_path / "m.sqlite3"
    good = Migration(1, "one", "CREATE TABLE a (x INTEGER);\n")
    bad = Migration(2, "two", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n")
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, [good, bad])
        assert not db.in_transaction
    assert recorded(path) == [(1, "one")]
    assert "a" in tables(path) and "b" not in tables(path)

    fixed = Migration(2, "two", "CREATE TABLE b (x INTEGER);\n")
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, [good, fixed]) == [2]
        assert await migrate(db, [good, fixed]) == []
    assert recorded(path) == [(1, "one"), (2, "two")]


async def test_a_database_from_a_newer_bot_is_refused_and_left_alone(db_path: Path):
    await (await SqliteStore.open(db_path)).close()
    newest = available_migrations()[-1].version
    with sqlite3.connect(db_path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (?, 'from_the_future', 0)", (newest + 1,))
        db.execute("CREATE TABLE future_only (x)")
    before = recorded(db_path)

    with pytest.raises(SchemaTooNewError, match=f"schema version {newest + 1}") as err:
        await SqliteStore.open(db_path)
    assert isinstance(err.value, StorageError)
    assert recorded(db_path) == before
    assert "future_only" in tables(db_path)


async def test_a_file_that_is_not_sqlite_gives_a_storage_error(tmp_path: Path):
    path = tmp_path / "uno.sqlite3"
    junk = b"this is not a database" * 100
    path.write_bytes(junk)
    with pytest.raises(StorageError, match="cannot use database"):
        await SqliteStore.open(path)
    assert path.read_bytes() == junk


def test_storage_imports_nothing_from_discord_engine_or_adapter():
    """DESIGN "Layers": bot/storage stores the adapter's snapshots as opaque dicts and depends on none of them."""
    root = Path(bot.storage.__file__).parent
    forbidden = ("discord", "bot.engine", "bot.adapter", "bot.render", "bot.i18n", "cogs")
    for file in root.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(forbidden), f"{file.name} imports {name}"


async def test_a_database_of_schema_1_is_upgraded_to_2_keeping_its_data(tmp_path: Path):
    """Migration 0002 (server defaults, user preferences) on a database that the previous bot made: built from the
    shipped 0001 file alone, with settings, a live game and a finished match in it."""
    path = tmp_path / "old.sqlite3"
    first = available_migrations()[:1]
    assert [m.name for m in first] == ["initial"]
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, first) == [1]
        await db.execute("INSERT INTO guild_settings VALUES (5, 'flip', 30, 'it', 1)")
        await db.execute(
            "INSERT INTO live_games VALUES (100, 5, 'classic', 'playing', 3, '{\"channel\": 100}', 1700000000.0)"
        )
    assert recorded(path) == [(1, "initial")]
    store = await SqliteStore.open(path)
    try:
        assert await store.finish_match(helpers.match("m1", guild=5, channel=200)) is True
        assert [v for v, _ in recorded(path)] == [m.version for m in available_migrations()]
        assert recorded(path)[1] == (2, "server_defaults_and_user_prefs")
        assert "user_prefs" in tables(path)
        assert await store.get_settings(5) == GuildSettings(5, "flip", 30, "it", True, 500, True, False, {})
        (live,) = await store.load_games()
        assert (live.channel_id, live.version, live.snapshot) == (100, 3, {"channel": 100})
        # the winner is listed; the loser, with no match won, is not (issue 18 point 5)
        assert [r.user_id for r in await store.leaderboard(guild_id=5, mode=None)] == [11]
        assert (await store.player_stats(12, guild_id=5, mode=None)) is not None
        assert await store.get_prefs(11) == UserPrefs(11)
        changed = await store.update_settings(5, turn_pings=False, default_options={"scoring": "lowest"})
        assert changed == GuildSettings(5, "flip", 30, "it", True, 500, False, False, {"scoring": "lowest"})
        assert await store.update_prefs(11, large_cards=True) == UserPrefs(11, False, True)
    finally:
        await store.close()
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db) == []  # nothing left to apply
