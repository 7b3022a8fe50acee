"""Partners in a player's history (SPEC T1, T4; issue 19 point 2) and migration 0008, on both stores.

A partner game records each seat's team (``match_players.team``, numbered from 1), so ``/uno history`` lists a
player's partner as their partner and never among their opponents. DESIGN "Saved formats and upgrades": the database
written by the release of schema version 7 (``tests/fixtures/storage/schema7.sqlite3``, made by ``make_schema7.py``
at 825df7a) is upgraded, its partner games get their teams from their match records, and its live partner game plays
on to a result that records its teams; the release of schema 4 (``schema4.sqlite3``) upgrades through 0008 too and
keeps its matches as they were shown. The copy to PostgreSQL carries the teams."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from random import Random

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.adapter.records import replay
from bot.adapter.session import Session, Status
from bot.storage import InvalidInputError, MatchPlayer, MatchResult, RoundResult, Store
from bot.storage._migrations import POSTGRES, available
from bot.storage.copy import copy_sqlite_to_postgres

from .conftest import Backend, drop_pg_backend, pg_backend
from .helpers import match
from .test_upgrade_ratings import schema4

FIXTURE7 = Path(__file__).parent.parent / "fixtures" / "storage" / "schema7.sqlite3"
ANNA, BEN, CLEO, DAN = 21, 22, 23, 24
TABLES7 = (
    "guild_settings",
    "live_games",
    "matches",
    "match_players",
    "match_rounds",
    "player_totals",  # its triggers fill the rank tables
    "match_records",
    "player_ratings",
    "rating_changes",
    "season_standings",
    "seasons",
)
#: What the fixture's matches hold (make_schema7.py): (channel, seats' names in seat order, teams after 0008).
FIXTURE_MATCHES = {
    1: (7001, ("Anna", "Ben", "Cleo", "Dan"), [1, 2, 1, 2]),
    2: (7002, ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"), [1, 2, 3, 1, 2, 3]),
    3: (7003, ("Anna", "Ben", "Cleo"), [None, None, None]),
    4: (7004, ("Anna", "Ben", "Cleo", "Dan"), [1, 2, 1, 2]),
    5: (7005, ("Anna", "Cleo", "Dan", "Ben"), [1, 2, 1, 2]),  # partners changed once in the lobby
}


def partner_game(key: str, names: Sequence[str] = ("Ann", "Ben", "Cleo", "Dan"), winner: int = 2) -> MatchResult:
    """A finished partner game of len(names) seats (SPEC T1: seat s partners seat s + n/2), ``winner``'s team first
    (SPEC T4: partners share their team's place)."""
    n = len(names)
    teams = n // 2
    order = [winner % teams] + [t for t in range(teams) if t != winner % teams]
    players = tuple(
        MatchPlayer(
            seat=s,
            user_id=11 + s,
            display_name=name,
            is_ai=False,
            final_score=100 if s == winner else 0,
            placement=order.index(s % teams) + 1,
            rounds_won=int(s == winner),
            points_scored=100 if s == winner else 0,
            team=s % teams + 1,
        )
        for s, name in enumerate(names)
    )
    return dataclasses.replace(match(key), players=players, winner_seat=winner, rounds=(RoundResult(1, winner, 100),))


# --- T1, T4: a partner is a partner, never an opponent ---------------------------------------------------------------
async def test_t4_the_history_lists_a_partner_as_a_partner_and_never_as_an_opponent(store: Store, backend: Backend):
    assert await store.finish_match(partner_game("p4"))
    assert await store.finish_match(partner_game("p6", ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"), winner=1))
    assert await store.finish_match(match("solo", seats=((11, "Ann"), (12, "Ben"), (13, "Cleo"))))
    assert await backend.fetch("SELECT seat, team FROM match_players WHERE match_id = 1 ORDER BY seat") == [
        (0, 1),
        (1, 2),
        (2, 1),
        (3, 2),
    ]
    solo, six, four = await store.match_history(11, guild_id=None)
    assert (four.partners, four.opponents) == (("Cleo",), ("Ben", "Dan"))
    assert (six.partners, six.opponents) == (("Dan",), ("Ben", "Cleo", "Eve", "Finn"))
    assert (solo.partners, solo.opponents) == ((), ("Ben", "Cleo"))  # without teams: as before
    assert four.seats == 4 and four.placement == 1 and six.placement == 2
    # partners share their team's place (T4): a place among 2 and 3 teams, not among 4 and 6 seats; without teams,
    # among the seats
    assert (four.places, six.places, solo.places) == (2, 3, 3)
    (ben,) = [r for r in await store.match_history(12, guild_id=1) if r.match_key == "p4"]
    assert (ben.partners, ben.opponents) == (("Dan",), ("Ann", "Cleo"))


@pytest.mark.parametrize(
    "teams",
    [
        [1, 2, 1, None],  # every seat or none
        [1, 1, 1, 1],  # one team is no partner game
        [0, 1, 0, 1],  # numbered from 1
        [1, 2, 1, 5],  # at most one team per seat
        [1, 2, 1, True],  # a number
    ],
)
async def test_t1_a_result_with_bad_teams_is_refused_and_nothing_is_written(store: Store, backend: Backend, teams):
    good = partner_game("bad")
    bad = dataclasses.replace(
        good, players=tuple(dataclasses.replace(p, team=t) for p, t in zip(good.players, teams, strict=True))
    )
    with pytest.raises(InvalidInputError):
        await store.finish_match(bad)
    assert await backend.fetch("SELECT count(*) FROM matches") == [(0,)]


# --- migration 0008 on the database of schema 7 ----------------------------------------------------------------------
async def schema7(backend: Backend) -> None:
    """Lay the released database of schema 7 down in ``backend``: the file itself for SQLite; for PostgreSQL its
    migrations 1–7 and the same rows."""
    if backend.name == "sqlite":
        Path(backend.target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURE7, backend.target)
        return
    from bot.storage._postgres import migrate

    conn = await backend._conn()
    assert await migrate(conn, available(POSTGRES)[:7]) == [1, 2, 3, 4, 5, 6, 7]
    with sqlite3.connect(FIXTURE7) as src:
        for table in TABLES7:
            cur = src.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cur.description]
            rows = [tuple(bool(v) if c == "is_ai" else v for c, v in zip(columns, row, strict=True)) for row in cur]
            assert rows, table
            await conn.copy_records_to_table(table, records=rows, columns=columns)
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence('matches', 'id'), coalesce(max(id), 0) + 1, false) FROM matches"
    )


async def teams_of(backend: Backend) -> dict[int, list[int | None]]:
    teams: dict[int, list[int | None]] = {}
    for match_id, team in await backend.fetch("SELECT match_id, team FROM match_players ORDER BY match_id, seat"):
        teams.setdefault(int(match_id), []).append(team)
    return teams


async def aggregates(backend: Backend) -> dict[str, list[tuple[object, ...]]]:
    return {
        t: await backend.fetch(f"SELECT * FROM {t} ORDER BY 1, 2, 3, 4")
        for t in ("player_totals", "season_standings", "rank_by_bucket")
    }


async def play_out(m: SessionManager, session: Session, seed: int) -> None:
    """Seeded random legal moves of the player to move until the match is over."""
    rng = Random(seed)
    for _ in range(3000):
        game = session.game
        if session.status is Status.FINISHED or game is None:
            return
        seat = game.pending
        if seat is None:
            seat = next(s for s in range(game.players) if game.active[s])
        legal = game.legal_actions(seat)
        choice = rng.randrange(legal.plays or len(legal))
        user = session.seats[seat].user_id
        assert user is not None
        await m.act(session.channel_id, user, lambda v, k=choice: v.legal[k])
    raise AssertionError("the match did not end")


async def test_t1_a_schema7_database_gets_its_teams_and_its_live_partner_game_plays_on(backend: Backend):
    await schema7(backend)
    store = await backend.open()
    try:
        versions = await backend.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [v for (v,) in versions] == list(range(1, 9)) == [m.version for m in available(POSTGRES)]
        assert await teams_of(backend) == {k: teams for k, (_, _, teams) in FIXTURE_MATCHES.items()}
        rows = {r.match_id: r for r in await store.match_history(ANNA, guild_id=77)}
        assert sorted(rows) == [1, 2, 3, 4, 5]
        assert (rows[1].partners, rows[1].opponents) == (("Cleo",), ("Ben", "Dan"))
        assert (rows[2].partners, rows[2].opponents) == (("Dan",), ("Ben", "Cleo", "Eve", "Finn"))
        assert (rows[3].partners, rows[3].opponents) == ((), ("Ben", "Cleo"))
        assert (rows[4].status, rows[4].partners, rows[4].opponents) == ("abandoned", ("Cleo",), ("Ben", "Dan"))
        assert (rows[5].partners, rows[5].opponents) == (("Dan",), ("Cleo", "Ben"))
        (cleo,) = [r for r in await store.match_history(CLEO, guild_id=77) if r.match_id == 2]
        assert (cleo.placement, cleo.partners) == (4, ("Finn",))  # she left (SPEC T5): still Finn's partner
        assert (rows[2].places, cleo.places) == (4, 4)  # three teams' places and hers after them (T5)

        # the leaderboards, seasons and ratings were counted from placements: 0008 changes none of them
        kept = await aggregates(backend)
        await store.rebuild_aggregates()
        assert await aggregates(backend) == kept
        assert (await store.rebuild_ratings()).ok

        # the live partner game of the old release plays on and its result records its teams
        m = SessionManager(store, clock=ManualClock(1_780_010_000.0), limits=Limits(ai_delay=0.0), rng=Random(1))
        try:
            (session,) = [s for s in await m.start() if s.channel_id == 7006]
            assert session.status is Status.PLAYING
            await play_out(m, session, 8)
            assert session.result is not None and session.result.completed
        finally:
            await m.close()
        (last, *_) = await store.match_history(ANNA, guild_id=77)
        assert last.match_id == 6 and last.recorded
        assert (last.partners, last.opponents) == (("Cleo",), ("Ben", "Dan"))
        assert (await teams_of(backend))[6] == [1, 2, 1, 2]
        game = replay(await store.match_record(last.match_key))
        assert game.winner == session.result.winner  # its record, begun by the old release, replays to its result
        assert (await store.rebuild_ratings()).ok
        kept = await aggregates(backend)
        await store.rebuild_aggregates()
        assert await aggregates(backend) == kept
    finally:
        await store.close()


async def test_a_schema4_database_upgrades_through_0008_and_records_teams_from_then_on(backend: Backend):
    """The release of schema 4 had no partner games: its matches keep no team and are shown as before."""
    await schema4(backend)
    store = await backend.open()
    try:
        assert [v for (v,) in await backend.fetch("SELECT version FROM schema_migrations ORDER BY version")] == list(
            range(1, 9)
        )
        assert await backend.fetch("SELECT count(*) FROM match_players WHERE team IS NOT NULL") == [(0,)]
        rows = await store.match_history(11, guild_id=1)
        assert rows and all(r.partners == () for r in rows)
        (biggest,) = [r for r in rows if r.seats == 4]
        assert biggest.opponents == ("Ben", "Cleo", "Dan")  # the four-player match of schema 4, as it was shown
        assert await store.finish_match(partner_game("new"))
        (new, *_) = await store.match_history(11, guild_id=1)
        assert (new.match_key, new.partners, new.opponents) == ("new", ("Cleo",), ("Ben", "Dan"))
        assert (await store.rebuild_ratings(replace=True)).ok
    finally:
        await store.close()


async def test_the_copy_to_postgres_carries_the_teams(tmp_path: Path, pg_database: str):
    """``python -m bot.storage.copy`` (issue 11) of the upgraded schema-7 database: the same teams, the same history."""
    path = tmp_path / "uno.sqlite3"
    shutil.copy(FIXTURE7, path)
    src = await Backend("sqlite", path).open()
    try:
        assert await src.finish_match(partner_game("extra"))
        before = await src.match_history(ANNA, guild_id=77)
    finally:
        await src.close()
    pg = await pg_backend(pg_database)
    try:
        report = await copy_sqlite_to_postgres(path, str(pg.target))
        assert report.matches == 6 and report.players == 4 + 6 + 3 + 4 + 4 + 4
        assert await teams_of(pg) == await teams_of(Backend("sqlite", path))
        dst = await pg.open()
        try:
            assert await dst.match_history(ANNA, guild_id=77) == before
        finally:
            await dst.close()
    finally:
        await drop_pg_backend(pg)
