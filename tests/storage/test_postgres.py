"""What only the PostgreSQL store has: migrations under an advisory lock with several processes starting at once, the
clear errors of a server that cannot be used, and connections lost mid-game (``pg_terminate_backend``) surfacing as
:class:`StorageUnavailable` once, then reconnecting by themselves. The rest of tests/storage runs on both stores."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator

import pytest

from bot.storage import (
    LiveGame,
    SchemaTooNewError,
    StorageError,
    StorageUnavailable,
    open_store,
)
from bot.storage._migrations import POSTGRES, Migration, available

from .conftest import Backend, drop_pg_backend, pg_backend
from .helpers import game, match
from .test_aggregates import check_consistency

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
    "game_leases",
    "shard_locks",
    "player_ratings",
    "rating_changes",
    "match_records",
    "user_prefs",
    "season_standings",
    "seasons",
}


@pytest.fixture
async def pg(pg_database: str) -> AsyncIterator[Backend]:
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


async def tables(pg: Backend) -> set[str]:
    rows = await pg.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {r[0] for r in rows}


async def recorded(pg: Backend) -> list[tuple[int, str]]:
    return await pg.fetch("SELECT version, name FROM schema_migrations ORDER BY version")


async def test_first_open_creates_the_schema_and_records_every_migration(pg: Backend):
    store = await pg.open()
    await store.close()
    assert await tables(pg) == TABLES
    assert await recorded(pg) == [(m.version, m.name) for m in available(POSTGRES)]
    first = await pg.fetch("SELECT version, applied_at FROM schema_migrations")
    store = await pg.open()  # reopening applies nothing
    await store.close()
    assert await pg.fetch("SELECT version, applied_at FROM schema_migrations") == first


async def test_processes_starting_at_once_apply_each_migration_once(pg: Backend):
    """Issue 11: several processes may start together; the advisory lock lets one migrate while the others wait."""
    stores = await asyncio.gather(*(pg.open() for _ in range(8)))
    try:
        assert await recorded(pg) == [(m.version, m.name) for m in available(POSTGRES)]
        await stores[3].update_settings(7, turn_timer=20)
        assert all([(await s.get_settings(7)).turn_timer == 20 for s in stores])
    finally:
        for s in stores:
            await s.close()


async def test_a_failing_migration_is_rolled_back_and_not_recorded(pg: Backend):
    import asyncpg

    from bot.storage._postgres import migrate

    good = Migration(1, "one", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "two", "CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);")
    conn = await asyncpg.connect(str(pg.target))
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, [good, bad])
        assert await recorded(pg) == [(1, "one")]
        assert await tables(pg) == {"schema_migrations", "a"}
        fixed = Migration(2, "two", "CREATE TABLE b (x INTEGER);")
        assert await migrate(conn, [good, fixed]) == [2]
        assert await migrate(conn, [good, fixed]) == []
        # the session lock was given back each time
        held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        assert await conn.fetchval(held) == 0
    finally:
        await conn.close()


async def test_a_database_from_a_newer_bot_is_refused_and_left_alone(pg: Backend):
    await (await pg.open()).close()
    newest = available(POSTGRES)[-1].version
    await pg.execute("INSERT INTO schema_migrations VALUES (?, 'from_the_future', 0)", newest + 1)
    before = await recorded(pg)
    with pytest.raises(SchemaTooNewError, match=f"schema version {newest + 1}"):
        await pg.open()
    assert await recorded(pg) == before


async def test_an_unreachable_server_is_one_clear_error():
    with pytest.raises(
        StorageUnavailable, match=re.escape("cannot reach PostgreSQL at postgresql://u:***@127.0.0.1:1/")
    ) as e:
        await open_store("postgresql://u:secret@127.0.0.1:1/uno")
    assert "secret" not in str(e.value) and "\n" not in str(e.value)


async def test_a_missing_database_is_a_storage_error(pg_database: str):
    url = pg_database.rsplit("/", 1)[0] + "/uno_no_such_database"
    with pytest.raises(StorageError, match="uno_no_such_database") as e:
        await open_store(url)
    assert not isinstance(e.value, StorageUnavailable)


async def test_without_asyncpg_a_postgres_address_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # import asyncpg now fails
    monkeypatch.delitem(sys.modules, "bot.storage._postgres", raising=False)
    with pytest.raises(StorageError, match=r"asyncpg package is not installed: pip install") as e:
        await open_store("postgresql://postgres@127.0.0.1/uno")
    assert "\n" not in str(e.value)


async def terminate_others(pg: Backend) -> int:
    """pg_terminate_backend on every other connection to the test database (the store's pool)."""
    rows = await pg.fetch(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    return len(rows)


async def until_it_works(call, attempts: int = 20):  # type: ignore[no-untyped-def]
    """Call again until the store has reconnected; every failure on the way must be StorageUnavailable."""
    for _ in range(attempts):
        try:
            return await call()
        except StorageUnavailable:
            await asyncio.sleep(0.05)
    raise AssertionError("the store did not reconnect")


async def test_connections_terminated_between_calls_reconnect_by_themselves(pg: Backend):
    store = await pg.open()
    try:
        await store.save_game(LiveGame(100, 1, "classic", "playing", 1, {"v": 1}, 1.0))
        assert await terminate_others(pg) >= 1
        outcomes = await asyncio.gather(
            *(store.save_game(LiveGame(100 + i, 1, "flip", "playing", 2, {"v": 2}, 2.0)) for i in range(20)),
            return_exceptions=True,
        )
        assert all(o is None or isinstance(o, StorageUnavailable) for o in outcomes), outcomes
        games = await until_it_works(store.load_games)
        saved = {g.channel_id for g in games}
        assert {100 + i for i, o in enumerate(outcomes) if o is None} <= saved
        assert (await store.get_settings(5)).turn_timer == 60
    finally:
        await store.close()


async def test_connections_lost_mid_transaction_cost_no_acknowledged_result(pg: Backend):
    """Matches finishing while their connections are terminated: each call is either recorded (True) or fails with
    StorageUnavailable; a retry of a failed one records it exactly once (its match_key), and the totals stay exact."""
    store = await pg.open()
    try:
        results = [
            match(
                f"k{i}",
                channel=500 + i,
                seats=((11 + i % 3, "A"), (20 + i % 4, "B")),
                winner=i % 2,
                rounds=((i % 2, 500),),
            )
            for i in range(40)
        ]

        async def killer() -> None:
            for _ in range(5):
                await asyncio.sleep(0.01)
                await terminate_others(pg)

        outcomes = await asyncio.gather(*(store.finish_match(r) for r in results), killer(), return_exceptions=True)
        outcomes = outcomes[:-1]
        assert all(o is True or isinstance(o, StorageUnavailable) for o in outcomes), outcomes
        for r, o in zip(results, outcomes, strict=True):
            if o is not True:
                assert await until_it_works(lambda r=r: store.finish_match(r)) in (True, False)
        assert await pg.fetch("SELECT count(*) FROM matches") == [(40,)]
        await check_consistency(pg)
        board = await store.leaderboard(guild_id=None, mode=None, limit=100)
        assert sum(row.wins for row in board) == 40  # the board lists players with a match won (issue 18 point 5)
        played = await pg.fetch("SELECT sum(played) FROM player_totals WHERE guild_id = 0 AND mode = '*'")
        assert played == [(80,)]
    finally:
        await store.close()


async def test_issue16_pt9_a_write_answered_before_its_connection_is_lost_is_reported_done(
    pg: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16 point 9: the pool resets a connection when a call gives it back (one more round trip). A server that
    shuts down between a write's answer and that reset used to turn the committed write into StorageUnavailable, so
    the game went back to its last commit while the database had the move; the next save then failed its version
    check and the click answered "another process runs this game" (2 runs in 10 of the restart test). The write
    stands; the pool drops the connection."""
    import asyncpg

    store = await pg.open()
    pool = store.dialect.pool  # type: ignore[attr-defined]
    release = asyncpg.pool.Pool.release
    lost = {"on": False}

    async def lost_on_release(self, conn, *, timeout=None):  # type: ignore[no-untyped-def]
        if self is not pool or not lost["on"]:
            return await release(self, conn, timeout=timeout)
        conn.terminate()  # as the shutting-down server closes it
        await release(self, conn, timeout=timeout)
        raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(asyncpg.pool.Pool, "release", lost_on_release)
    try:
        assert await store.acquire_lease(100, "me", 30)
        lost["on"] = True
        await store.save_game(LiveGame(100, 1, "classic", "playing", 1, {"v": 1}, 1.0), owner="me")
        await store.save_game(LiveGame(100, 1, "classic", "playing", 2, {"v": 2}, 2.0), owner="me", expected_version=1)
        lost["on"] = False
        assert [(g.version, g.snapshot) for g in await until_it_works(store.load_games)] == [(2, {"v": 2})]
    finally:
        lost["on"] = False
        await store.close()


async def test_the_bulk_statements_of_a_rebuild_are_not_cut_by_the_command_timeout():
    """rebuild_aggregates' statements run without the 30 s command timeout (a million matches on a busy machine took
    longer, and the rebuild failed as 'PostgreSQL is not reachable'). asyncpg reads ``timeout=None`` as the command
    timeout, so the rebuild passes its own; every other statement keeps the command timeout."""
    pytest.importorskip("asyncpg")
    from bot.storage._postgres import COMMAND_TIMEOUT, SLOW_TIMEOUT, PostgresDialect, _Tx
    from bot.storage._store import rebuild_aggregates

    class Conn:
        def __init__(self) -> None:
            self.timeouts: list[tuple[str, float | None]] = []

        async def execute(self, sql: str, *args: object, timeout: float | None = None) -> str:
            self.timeouts.append((sql.split()[0], timeout))
            return "SELECT 0"

        async def fetch(self, sql: str, *args: object, timeout: float | None = None) -> list[object]:
            return []

    conn = Conn()
    await rebuild_aggregates(PostgresDialect(None), _Tx(conn))  # type: ignore[arg-type]  # no pool, no connection: a fake
    kinds = ("DELETE", "INSERT", "WITH", "UPDATE")
    bulk = [t for kind, t in conn.timeouts if kind in kinds]
    # the totals (4 + 1 + 3 + 3), then the seasons' standings (issue 19 point 4: 2 deletes, 2 inserts)
    assert len(bulk) == 4 + 1 + 3 + 3 + 2 + 2 and all(t == SLOW_TIMEOUT > COMMAND_TIMEOUT for t in bulk)
    assert [t for kind, t in conn.timeouts if kind not in kinds] == [None, None, None]


async def _lock_waiters(conn) -> int:  # type: ignore[no-untyped-def]
    """How many backends of this test's database wait for a row lock now."""
    return int(
        await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
    )


async def _until_waiting(conn, n: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(500):
        if await _lock_waiters(conn) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{n} backends never waited for a lock")


async def test_issue16_a_save_batch_and_the_lease_renewal_lock_leases_in_one_order(pg: Backend):
    """The deadlock of the 10,000-game capacity run: a batch of saves locks its games' lease rows (fenced writes) in the
    order the saves arrived, and the renewal of the same owner's leases locked them in the table's order; two such
    transactions meeting in the middle each held what the other needed (``deadlock detected``). Here a third
    connection holds the middle lease so that both are waiting at once, saves having arrived in descending channel
    order; once it lets go, both must finish. Both now lock in channel order, so the later one simply waits."""
    store = await pg.open()
    try:
        channels = list(range(1, 41))
        assert set(await store.acquire_leases(channels, "a", 30)) == set(channels)
        await asyncio.gather(*(store.save_game(game(c, version=1), owner="a") for c in channels))
        blocker = await pg._conn()
        tx = blocker.transaction()
        await tx.start()
        await blocker.execute(pg.sql("SELECT 1 FROM game_leases WHERE channel_id = ? FOR UPDATE"), 20)
        import asyncpg

        spy = await asyncpg.connect(str(pg.target))
        try:
            renew = asyncio.create_task(store.renew_leases("a", 30))
            await _until_waiting(spy, 1)
            saves = asyncio.gather(
                *(store.save_game(game(c, version=2), owner="a", expected_version=1) for c in reversed(channels))
            )
            await _until_waiting(spy, 2)
            await tx.commit()
            held = await asyncio.wait_for(renew, 30)
            await asyncio.wait_for(saves, 30)
        finally:
            await spy.close()
        assert held.channels == channels
        rows = await pg.fetch("SELECT channel_id, version FROM live_games ORDER BY channel_id")
        assert rows == [(c, 2) for c in channels]
    finally:
        await store.close()


class _RollsBackOnce:
    """A connection whose next ``fetch`` is rolled back as PostgreSQL does to break a deadlock."""

    def __init__(self, conn, times: int) -> None:  # type: ignore[no-untyped-def]
        self.conn = conn
        self.times = times

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.conn, name)

    async def fetch(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        import asyncpg

        if self.times:
            self.times -= 1
            raise asyncpg.exceptions.DeadlockDetectedError("deadlock detected")
        return await self.conn.fetch(*args, **kwargs)


async def test_issue16_a_statement_rolled_back_by_a_deadlock_is_tried_again_then_reported_unavailable(
    pg: Backend, monkeypatch: pytest.MonkeyPatch
):
    """SQLSTATE 40P01 rolls the whole statement back, so trying it again is safe: a save rolled back once is written
    by the second attempt; one rolled back at every attempt is :class:`StorageUnavailable` (the player hears "the
    database is unavailable, nothing was lost"), not an unexpected error, and nothing was written."""
    from contextlib import asynccontextmanager

    from bot.storage._postgres import ROLLBACK_ATTEMPTS, PostgresDialect

    store = await pg.open()
    try:
        real = PostgresDialect.connection
        failures = {"left": 1}

        @asynccontextmanager
        async def flaky(self):  # type: ignore[no-untyped-def]
            async with real(self) as conn:
                wrapped = _RollsBackOnce(conn, failures["left"])
                yield wrapped
                failures["left"] = wrapped.times

        monkeypatch.setattr(PostgresDialect, "connection", flaky)
        assert await store.acquire_lease(7, "a", 30)  # rolled back once, then taken
        assert failures["left"] == 0
        failures["left"] = 1
        await store.save_game(game(7, version=1), owner="a")
        assert await pg.fetch("SELECT version FROM live_games WHERE channel_id = 7") == [(1,)]
        failures["left"] = ROLLBACK_ATTEMPTS
        with pytest.raises(StorageUnavailable, match="rolled the transaction back"):
            await store.save_game(game(7, version=2), owner="a", expected_version=1)
        assert await pg.fetch("SELECT version FROM live_games WHERE channel_id = 7") == [(1,)]
    finally:
        await store.close()
