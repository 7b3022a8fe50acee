"""Check or rebuild every skill rating from the recorded match results (issue 19 point 3)::

    python -m bot.storage.ratings                       # the database of UNO_DATABASE (default data/uno.sqlite3)
    python -m bot.storage.ratings data/uno.sqlite3      # or postgresql://…
    python -m bot.storage.ratings --rebuild data/uno.sqlite3

Recomputes each rating from the placements of the recorded matches, in the order they were recorded
(:meth:`SqlStore.rebuild_ratings <bot.storage._store.SqlStore.rebuild_ratings>`), and compares the result with the
stored ratings: exit code 0 when they are the same, 1 (with up to 20 of the differences) when not. ``--rebuild``
replaces the stored ratings and rating changes with the recomputed ones (exit 0): a repair, or the one run that rates
the matches recorded before ratings existed (an upgrade from schema version 4). It is one transaction: on SQLite every
write waits for it, on PostgreSQL every match result; on a big database stop the bot first (README, *Performance*:
the time at a million matches). Exit code 2 with a one-line ``error:`` when the database cannot be used.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence

from ._models import DEFAULT_DATABASE, RatingCheck, StorageError, redact_database
from ._open import open_store


async def run(database: str, *, rebuild: bool) -> RatingCheck:
    """Open ``database``, check (or with ``rebuild``, replace) its ratings, close it."""
    store = await open_store(database)
    try:
        return await store.rebuild_ratings(replace=rebuild)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    rebuild = "--rebuild" in args
    rest = [a for a in args if a != "--rebuild"]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        print("usage: python -m bot.storage.ratings [--rebuild] [DATABASE]", file=sys.stderr)
        return 2
    database = rest[0] if rest else os.environ.get("UNO_DATABASE") or DEFAULT_DATABASE
    try:
        check = asyncio.run(run(database, rebuild=rebuild))
    except StorageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    where = redact_database(database)
    if check.rebuilt:
        print(f"{where}: rebuilt {check.ratings:,} ratings from {check.matches:,} rated matches")
        return 0
    if check.ok:
        print(f"{where}: all {check.stored:,} stored ratings match the {check.matches:,} rated matches")
        return 0
    print(
        f"{where}: {check.differing:,} of {check.ratings:,} recomputed ratings differ from the {check.stored:,} stored "
        f"({check.matches:,} rated matches); first differences (server, game, user, stored, recomputed):"
    )
    for guild, mode, user, stored, computed in check.mismatches:
        print(f"  {guild} {mode} {user}: {stored} -> {computed}")
    print("run with --rebuild to replace the stored ratings with the recomputed ones")
    return 1


if __name__ == "__main__":
    sys.exit(main())
