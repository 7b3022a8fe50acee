"""Fixtures for the storage tests: every test that takes ``store`` or ``backend`` runs against both stores.

SQLite: real files in pytest's tmp_path. PostgreSQL: a real server, ``UNO_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/test``); each test session creates its own database ``uno_test_<random>`` there
and drops it at the end, and each test gets a fresh schema in it (``?search_path=``). Without a reachable server (or
without asyncpg) the PostgreSQL tests are skipped with a one-line reason, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import secrets
import sqlite3
import urllib.parse
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SqliteStore, Store, open_store

PG_ADMIN = os.environ.get("UNO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgres")


class FakeClock:
    """Unix seconds that move only when a test says so (lease expiry)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _pg_unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required in CI (CI=true): {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


def with_database(url: str, database: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{database}", query=""))


def _admin(sql: str) -> None:
    """Run one statement on the administration database, in a thread of its own (an event loop may be running)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(PG_ADMIN, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """The address of this session's own PostgreSQL database (created now, dropped at the end)."""
    try:
        import asyncpg
    except ImportError:
        _pg_unavailable("asyncpg is not installed (pip install -e '.[dev,postgres]')")
    name = f"uno_test_{secrets.token_hex(5)}"
    try:
        _admin(f'CREATE DATABASE "{name}"')
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        _pg_unavailable(f"no PostgreSQL at {PG_ADMIN} ({type(e).__name__}: {e})")
    try:
        yield with_database(PG_ADMIN, name)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Backend:
    """One store kind for a test: where it lives, how to open it, and raw SQL on it for before/after checks.

    ``fetch``/``execute`` take SQL with ``?`` placeholders (turned into ``$n`` for PostgreSQL) and return plain tuples.
    """

    name: str
    target: str | Path
    clock: FakeClock = field(default_factory=FakeClock)
    _pg: Any = None

    @property
    def integrity_error(self) -> type[Exception] | tuple[type[Exception], ...]:
        if self.name == "sqlite":
            return sqlite3.IntegrityError
        import asyncpg

        return (asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError)

    async def open(self, **options: Any) -> Store:
        return await open_store(self.target, clock=self.clock, db_clock=self.clock, **options)

    def sql(self, sql: str) -> str:
        if self.name == "sqlite":
            return sql
        counter = iter(range(1, 1000))
        return re.sub(r"\?", lambda _: f"${next(counter)}", sql)

    async def _conn(self) -> Any:
        if self._pg is None:
            import asyncpg

            self._pg = await asyncpg.connect(str(self.target))
        return self._pg

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as db:
                return db.execute(sql, args).fetchall()
        conn = await self._conn()
        return [tuple(r) for r in await conn.fetch(self.sql(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> None:
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as db:
                db.execute(sql, args)
            return
        conn = await self._conn()
        await conn.execute(self.sql(sql), *args)

    async def executescript(self, sql: str) -> None:
        """Several statements at once (no parameters)."""
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as db:
                db.executescript(sql)
            return
        conn = await self._conn()
        await conn.execute(sql)

    async def aclose(self) -> None:
        if self._pg is not None:
            await self._pg.close()
            self._pg = None


async def pg_backend(database: str) -> Backend:
    """A fresh, empty schema in the session's database."""
    import asyncpg

    schema = f"t_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(database)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    # synchronous_commit=off: commits do not wait for the disk (tests do not crash the server; 4x faster set-up)
    return Backend("postgres", f"{database}?search_path={schema}&synchronous_commit=off")


async def drop_pg_backend(backend: Backend) -> None:
    import asyncpg

    await backend.aclose()
    url = str(backend.target)
    schema = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["search_path"][0]
    conn = await asyncpg.connect(url.split("?", 1)[0])
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "uno.sqlite3"


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", db_path)
        return
    b = await pg_backend(request.getfixturevalue("pg_database"))
    try:
        yield b
    finally:
        await drop_pg_backend(b)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    s = await backend.open()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    """For the tests of what only SQLite has (WAL, file handling)."""
    s = await SqliteStore.open(db_path)
    try:
        yield s
    finally:
        await s.close()
