"""Migration 0008 (SPEC T1, T4: ``match_players.team``) on damaged or odd schema-7 data, on both stores.

DESIGN "Saved formats and upgrades" (never lose a live game): the backfill reads the match records' start entries,
which a damaged database may hold in any shape (a truncated entry, a start whose ``players`` is not a whole number, a
match without its record, rows that do not match the record). Such a match keeps no team (its history shows it as
before 0008), every other partner game gets its teams, and the upgrade itself never fails: a migration that fails
stops the bot at its start, with every live game in the database."""

from __future__ import annotations

import dataclasses
import json

import aiosqlite
import pytest

from bot.storage._migrations import POSTGRES, SQLITE, available, migrate

from .conftest import Backend
from .test_history_teams import FIXTURE_MATCHES, schema7, teams_of

#: match id -> its key in the schema-7 fixture (make_schema7.py)
KEYS = {
    1: "7001:1780000060000:4371257431375131704",
    2: "7002:1780000720000:1820801989368220983",
}


async def start_of(backend: Backend, match_id: int) -> str:
    ((entry,),) = await backend.fetch("SELECT entry FROM match_records WHERE match_key = ? AND seq = 0", KEYS[match_id])
    return str(entry)


async def set_start(backend: Backend, match_id: int, entry: str) -> None:
    await backend.execute("UPDATE match_records SET entry = ? WHERE match_key = ? AND seq = 0", entry, KEYS[match_id])


def with_players(entry: str, players: object) -> str:
    data = json.loads(entry)
    data["start"]["players"] = players
    return json.dumps(data)


DAMAGES = {
    # a start entry cut short (a damaged file, a hand edit): not JSON at all, though it names "teams"
    "truncated": lambda entry: entry[: entry.index('"seats"')],
    # a start whose player count is a number but not a whole one, or far out of range, or a string
    "fractional players": lambda entry: with_players(entry, 4.5),
    "huge players": lambda entry: with_players(entry, 10**30),
    "string players": lambda entry: with_players(entry, "4"),
    "options not an object": lambda entry: entry.replace('{"target_score":0,"teams":true}', '"teams"'),
    "not an object": lambda entry: '["teams"]',
}


@pytest.mark.parametrize("damage", DAMAGES)
async def test_t1_a_damaged_start_entry_keeps_its_match_without_teams_and_the_upgrade_goes_on(
    backend: Backend, damage: str
):
    await schema7(backend)
    await set_start(backend, 1, DAMAGES[damage](await start_of(backend, 1)))
    store = await backend.open()
    try:
        versions = await backend.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [v for (v,) in versions] == [m.version for m in available(POSTGRES)]
        expected = {k: teams for k, (_, _, teams) in FIXTURE_MATCHES.items()}
        expected[1] = [None, None, None, None]
        assert await teams_of(backend) == expected
        rows = {r.match_id: r for r in await store.match_history(21, guild_id=77)}
        assert (rows[1].partners, rows[1].opponents) == ((), ("Ben", "Cleo", "Dan"))  # as shown before 0008
        assert (rows[2].partners, rows[2].opponents) == (("Dan",), ("Ben", "Cleo", "Eve", "Finn"))
    finally:
        await store.close()


async def test_t1_a_partner_game_without_its_record_or_with_other_rows_keeps_no_team(backend: Backend):
    await schema7(backend)
    await backend.execute("DELETE FROM match_records WHERE match_key = ?", KEYS[1])
    await backend.execute("DELETE FROM match_players WHERE match_id = 2 AND seat = 5")  # 5 rows, a 6-seat record
    store = await backend.open()
    try:
        teams = await teams_of(backend)
        assert teams[1] == [None] * 4 and teams[2] == [None] * 5
        assert teams[5] == FIXTURE_MATCHES[5][2]
    finally:
        await store.close()


async def test_an_upgrade_that_stops_halfway_through_0008_leaves_schema_7_and_runs_again(backend: Backend):
    """A failure after 0008's backfill began (here, a statement that fails after it; a crash is the same to a
    transaction) rolls the whole of 0008 back on either store: no column, no team, version 7; the next start applies
    it whole (on SQLite on the very connection that failed: its temporary table went with the rollback)."""
    await schema7(backend)
    package = SQLITE if backend.name == "sqlite" else POSTGRES
    good = available(package)
    broken = [*good[:7], dataclasses.replace(good[7], sql=good[7].sql + "\nSELECT * FROM no_such_table;\n")]
    if backend.name == "sqlite":
        async with aiosqlite.connect(backend.target, isolation_level=None) as db:
            with pytest.raises(Exception, match="no_such_table"):
                await migrate(db, broken)
            columns = [r[1] for r in await db.execute_fetchall("PRAGMA table_info(match_players)")]
            assert "team" not in columns
            assert [v for (v,) in await db.execute_fetchall("SELECT version FROM schema_migrations")] == [*range(1, 8)]
            assert await migrate(db, good) == [8]
    else:
        from bot.storage._postgres import migrate as pg_migrate

        conn = await backend._conn()
        with pytest.raises(Exception, match="no_such_table"):
            await pg_migrate(conn, broken)
        columns = await conn.fetch(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'match_players'"
        )
        assert "team" not in {r[0] for r in columns}
        assert [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations ORDER BY 1")] == [*range(1, 8)]
        assert await pg_migrate(conn, good) == [8]
    assert await teams_of(backend) == {k: teams for k, (_, _, teams) in FIXTURE_MATCHES.items()}
