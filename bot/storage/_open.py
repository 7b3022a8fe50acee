"""``open_store``: the one way callers open the database named by ``UNO_DATABASE``."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from ._models import DEFAULT_DATABASE, OptionsValidator, StorageError, is_postgres_url
from ._protocol import Store
from ._sqlite import SqliteStore


async def open_store(
    target: str | os.PathLike[str] | None = None,
    *,
    validate_options: OptionsValidator | None = None,
    clock: Callable[[], float] = time.time,
    db_clock: Callable[[], float] | None = None,
) -> Store:
    """Open the store at ``target`` and bring its schema up to date (migrations applied).

    ``postgresql://user@host:port/db`` (or ``postgres://…``; query parameters such as ``?search_path=uno`` are passed
    to the server) opens a :class:`~bot.storage._postgres.PostgresStore`, which needs the optional ``asyncpg`` package;
    anything else is a file path for a :class:`SqliteStore` (``None``: :data:`DEFAULT_DATABASE`).
    ``validate_options`` checks a server's ``default_options`` when saved and read (the bot passes
    ``bot.engine.options.Options.from_dict``); ``clock`` (Unix seconds) is this process's clock. The database's clock
    decides leases (issue 16 point 6): PostgreSQL's own; SQLite's is ``clock``, the clock of the process it runs in.
    ``db_clock`` (tests only) makes the database's clock read as that clock.

    Raises :class:`StorageError` (one line) when the database cannot be used: asyncpg missing, a server that cannot be
    reached (:class:`StorageUnavailable`), a schema newer than this code (:class:`SchemaTooNewError`), not a database.
    """
    if is_postgres_url(target):
        assert isinstance(target, str)
        try:
            from ._postgres import PostgresStore
        except ImportError as e:
            raise StorageError(
                "UNO_DATABASE names a PostgreSQL server but the asyncpg package is not installed: "
                "pip install 'uno-discord-bot[postgres]' (or pip install asyncpg)"
            ) from e
        return await PostgresStore.open(target, validate_options=validate_options, clock=clock, db_clock=db_clock)
    path = DEFAULT_DATABASE if target is None else target
    return await SqliteStore.open(path, validate_options=validate_options, clock=clock, db_clock=db_clock)
