"""Issue 20, point 7: database outages told once each way (:class:`bot.storage.OutageLog`), on the real SQLite store.

A full disk (SQLite's own "database or disk is full" on every write) still answers reads: a read proves nothing about
writes, so only a write that reached the file ends such an outage (the store's ``writes`` count), and the listeners
hear of its end at once."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import StorageUnavailable, open_store, watch_outages


class Full:
    """Every statement on the store's writer fails with "database or disk is full" while :attr:`on`."""

    def __init__(self, writer: Any) -> None:
        self.on = False
        for name in ("execute", "execute_fetchall", "executemany"):
            setattr(writer, name, self._failing(getattr(writer, name)))

    def _failing(self, real: Any) -> Any:
        def call(sql: str, *args: Any, **kwargs: Any) -> Any:
            if self.on and sql.strip().upper() != "ROLLBACK":
                raise sqlite3.OperationalError("database or disk is full")
            return real(sql, *args, **kwargs)

        return call


async def test_a_full_disk_is_over_when_a_write_reaches_the_file_not_when_a_read_answers(tmp_path: Path) -> None:
    store = watch_outages(await open_store(tmp_path / "uno.sqlite3"))
    outages = store.outages  # type: ignore[attr-defined]
    back: list[bool] = []
    outages.listeners.append(lambda: back.append(True))
    disk = Full(store.wrapped._writer)  # type: ignore[attr-defined]
    try:
        disk.on = True
        with pytest.raises(StorageUnavailable):
            await store.update_prefs(7, text_only=True)
        assert outages.down and outages.writes_only
        disk.on = False
        await store.get_prefs(7)  # a read: the disk may still be full
        assert outages.down and not back
        await store.renew_leases("me", 30.0)  # a write, but it changed no row: nothing reached the file
        assert outages.down and not back
        await store.acquire_lease(42, "me", 30.0)  # a write that reached the file (another method than the failed)
        assert not outages.down and back == [True]
    finally:
        await store.close()


async def test_an_unreachable_database_is_over_at_the_first_answer(tmp_path: Path) -> None:
    store = watch_outages(await open_store(tmp_path / "uno.sqlite3"))
    outages = store.outages  # type: ignore[attr-defined]
    back: list[bool] = []
    outages.listeners.append(lambda: back.append(True))
    try:
        outages.failed("load_games", StorageUnavailable("connection refused"))
        assert outages.down and not outages.writes_only
        await store.get_prefs(7)
        assert not outages.down and back == [True]
    finally:
        await store.close()
