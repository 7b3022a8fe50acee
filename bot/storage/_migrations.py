"""Numbered SQL migrations shipped in :mod:`bot.storage.migrations` and the code that applies them.

A migration is a file ``NNNN_name.sql`` (``0001_initial.sql``, ``0002_…``), numbered from 1 without gaps. Applied
ones are recorded in ``schema_migrations(version, name, applied_at)``. :func:`migrate` applies the missing ones in
order, each in its own ``BEGIN IMMEDIATE`` transaction together with its record, so re-running it applies nothing and
two processes starting at once cannot both apply the same file. A database that records a version above the newest
file here was written by a newer bot: :class:`SchemaTooNewError`, and nothing is touched.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from typing import Final

import aiosqlite

from ._models import SchemaTooNewError, StorageError

log = logging.getLogger(__name__)

_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file split into complete SQL statements (``sqlite3.complete_statement`` keeps triggers whole)."""
        out: list[str] = []
        buf = ""
        for line in self.sql.splitlines(keepends=True):
            buf += line
            if sqlite3.complete_statement(buf):
                out.append(buf.strip())
                buf = ""
        if buf.strip() and not _only_comments(buf):
            raise StorageError(f"migration {self.version:04d}_{self.name}: unterminated statement at the end")
        return out


def _only_comments(sql: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in sql.splitlines())


SQLITE: Final = "bot.storage.migrations"
POSTGRES: Final = "bot.storage.pg_migrations"


def available(package: str = SQLITE) -> list[Migration]:
    """The migrations shipped with this code in ``package`` (SQLite's by default, :data:`POSTGRES`'s), in order.
    A gap or a duplicate number is a packaging bug."""
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        m = _FILE.fullmatch(entry.name)
        if m:
            found.append(Migration(int(m[1]), m[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda x: x.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations must be numbered 1..n without gaps: {[m.version for m in found]}")
    return found


async def applied_versions(db: aiosqlite.Connection) -> dict[int, str]:
    rows = await db.execute_fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    return {int(v): str(n) for v, n in rows}


def refuse_newer(applied: dict[int, str], newest: int) -> None:
    top = max(applied, default=0)
    if top > newest:
        raise SchemaTooNewError(
            f"the database has schema version {top}, newer than this bot knows ({newest}); "
            "run the newer bot or restore a backup of this version's database"
        )


async def migrate(db: aiosqlite.Connection, migrations: list[Migration] | None = None) -> list[int]:
    """Apply the missing migrations; returns the versions applied now (empty when the schema was up to date).

    ``db`` must be in autocommit mode (``isolation_level=None``) with no transaction open.
    Raises :class:`SchemaTooNewError` for a database newer than ``migrations`` (before touching anything).
    """
    migrations = available() if migrations is None else migrations
    newest = migrations[-1].version if migrations else 0
    await db.execute(_CREATE_TABLE)
    refuse_newer(await applied_versions(db), newest)
    done: list[int] = []
    for mig in migrations:
        try:
            await db.execute("BEGIN IMMEDIATE")
            applied = await applied_versions(db)  # again under the write lock: another process may have migrated
            refuse_newer(applied, newest)
            if mig.version not in applied:
                for stmt in mig.statements():
                    await db.execute(stmt)
                await db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, time.time()),
                )
                done.append(mig.version)
            await db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise
        if done and done[-1] == mig.version:
            log.info("applied database migration %04d_%s", mig.version, mig.name)
    return done
