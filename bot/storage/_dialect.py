"""What a database dialect gives :class:`~bot.storage._store.SqlStore`: statements run, transactions, and the few SQL
fragments that must differ (issue 17 point 5). Every store behaviour is written once, in ``_store.py``, in terms of
these; ``_sqlite.py`` and ``_postgres.py`` each implement them and nothing else.

SQL text handed to a dialect is written once, PostgreSQL-flavoured, and made the dialect's own by :meth:`Dialect.sql`:

* parameters are numbered ``$1``, ``$2`` … and may carry a PostgreSQL cast (``$8::text``), which PostgreSQL needs to
  type a parameter that appears only under ``IS NULL``; SQLite gets ``?8`` (its numbered parameter) without the cast.
  A statement is given the first N parameters, N its highest number (so the statements of one dialect attribute can
  share one argument list).
  Any other cast is written ``CAST(x AS DOUBLE PRECISION)``, which both read the same way;
* ``{now:N}`` is the database's clock in Unix seconds (issue 16 point 6), with parameter ``$N`` NULL except under a
  test's ``db_clock`` (:meth:`Dialect.shift`);
* ``{for_update}`` locks the rows a fence reads until the commit (PostgreSQL; SQLite's single writer needs nothing);
* ``{greatest}`` is the larger of two values (``greatest`` / SQLite's two-argument ``max``);
* ``{season:<period>,<expression>}`` is the key of the season of that period (``weekly``, ``monthly``,
  ``quarterly``) holding the Unix time ``<expression>``, as :func:`bot.storage._seasons.season_key` gives it;
* ``{raw_snapshot}`` is ``live_games.snapshot`` as the driver should return it for :func:`live_game_from_row`
  (SQLite: the bytes, so a row that is not UTF-8 is set aside rather than failing the load), and ``{same}`` the
  NULL-safe equality used to find that row again.

Nothing else may differ between the dialects' SQL; a statement that must (the rebuild of the leaderboard totals, the
renewal of leases in one round trip) is an attribute of the dialect, with the same parameters and result columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

Row = Sequence[Any]

_PARAM = re.compile(r"\$(\d+)(?:::[a-z0-9_]+(?:\[\])?)?")


class Now:
    """The ``{now:N}`` fragment: formatted with the parameter number ``N``."""

    def __init__(self, clock: str) -> None:
        self.clock = clock

    def __format__(self, spec: str) -> str:
        return f"coalesce(${int(spec)}::float8, {self.clock})"


def numbered_to_sqlite(sql: str) -> str:
    """``$N`` and ``$N::type`` become SQLite's ``?N``; a cast left elsewhere is a mistake in the shared SQL."""
    out = _PARAM.sub(lambda m: f"?{m[1]}", sql)
    if "::" in out:
        raise ValueError(f"a PostgreSQL cast SQLite cannot read (write CAST(x AS …)): {out}")
    return out


class SeasonKey:
    """The ``{season:<period>,<expression>}`` fragment: ``templates`` maps each period to the dialect's SQL of the
    season key, with ``{t}`` for the Unix time."""

    def __init__(self, templates: dict[str, str]) -> None:
        self.templates = templates

    def __format__(self, spec: str) -> str:
        period, _, expression = spec.partition(",")
        return self.templates[period].format(t=expression.strip())


class Tx(Protocol):
    """One open transaction: statements run in it, committed together when the block ends, rolled back on any
    exception."""

    async def fetch(self, sql: str, *args: Any, slow: bool = False) -> Sequence[Row]:
        """Run one statement; its rows (a ``RETURNING`` or a ``SELECT``). ``slow``: no statement timeout."""
        ...

    async def execute(self, sql: str, *args: Any, slow: bool = False) -> int:
        """Run one statement; how many rows it changed. ``slow``: no statement timeout (bulk rebuilds)."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...


class Dialect(Protocol):
    """A database connection (or pool) with its SQL dialect; see the module text."""

    name: str
    """``"sqlite"`` or ``"postgres"``."""
    save_chunk: int
    """Live-game rows per save statement (9 parameters each, below the dialect's parameter limit)."""
    totals_lock: str | None
    """A statement run in a transaction before it changes the leaderboard totals (PostgreSQL's advisory lock; SQLite
    has one writer)."""
    renew_statements: tuple[str, ...]
    """Statements of :meth:`SqlStore.renew_leases` (``$1`` owner, ``$2`` ttl, ``$3`` clock shift), whose rows are
    ``(channel_id, NULL, NULL)`` per game lease and ``(NULL, shard_count, shard_id)`` per shard lock. One statement is
    one round trip; several run in one transaction."""
    acquire_statements: tuple[str, ...]
    """Statements of :meth:`SqlStore.acquire_leases` (``$1`` the channels as :meth:`id_list` gives them, ``$2`` owner,
    ``$3`` ttl, ``$4`` clock shift), whose rows are ``(channel_id, owner)`` of each of those channels' leases after
    the upsert; one statement or several in one transaction, as :attr:`renew_statements`."""
    rebuild_finest: str
    """``player_totals`` of the server × mode scope from the raw match rows (:meth:`SqlStore.rebuild_aggregates`)."""
    rebuild_wider: str
    """A wider scope of ``player_totals`` from the finest, with ``{guild}``, ``{mode}`` and ``{group}`` fields."""

    def sql(self, template: str) -> str:
        """The shared SQL ``template`` in this dialect (cached)."""
        ...

    def id_list(self, ids: list[int]) -> Any:
        """``ids`` as one parameter (a PostgreSQL array; JSON text for SQLite's ``json_each``)."""
        ...

    def shift(self) -> float | None:
        """The value of a ``{now:N}`` parameter: ``None`` (the database's own clock) except under a test's
        ``db_clock``."""
        ...

    async def read(self, sql: str, *args: Any) -> Sequence[Row]:
        """One read-only statement (it sees the last committed state)."""
        ...

    async def write(self, sql: str, *args: Any) -> Sequence[Row]:
        """One writing statement in a transaction of its own (its ``RETURNING`` rows)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction for several statements."""
        ...

    def without_triggers(self, tx: Tx) -> AbstractAsyncContextManager[None]:
        """Inside ``tx``: the triggers of ``player_totals`` are off for the block (a bulk rebuild)."""
        ...

    async def close(self) -> None:
        """Close the connections once the running statements are done."""
        ...
