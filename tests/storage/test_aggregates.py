"""The leaderboard totals kept in the match transaction equal a straight GROUP BY over the raw match tables, the rank
tables equal a count of the totals, and every rank equals the position in a plain sort — after a seeded random mix of
results, after rebuild_aggregates(), and after a rebuild from damaged totals."""

from __future__ import annotations

import random
from typing import Any

from bot.storage import MatchPlayer, MatchResult, RoundResult, Store

from .conftest import Backend

GUILDS = (501, 502, 503)
MODES = ("classic", "flip", "flex")
# User ids in a few 2**52 buckets, several sharing one, so every level of the rank tables is exercised.
USERS = [(b << 52) + k for b in (0, 1, 300) for k in (7, 8, 9000)] + [(300 << 52) + 2**51 + k for k in range(4)]

# The totals from the raw rows: 4 scopes via UNION ALL; the display name is the one of the player's latest match.
# (SQL that SQLite and PostgreSQL read alike.)
RAW_TOTALS = """
WITH seat AS (
    SELECT m.id, m.guild_id, m.mode, p.user_id, p.display_name,
           CASE WHEN m.status = 'completed' AND m.winner_seat = p.seat THEN 1 ELSE 0 END AS won,
           CASE WHEN m.status = 'completed' THEN 1 ELSE 0 END AS played,
           CASE WHEN m.status = 'abandoned' THEN 1 ELSE 0 END AS abandoned, p.rounds_won, p.points_scored
    FROM matches AS m JOIN match_players AS p ON p.match_id = m.id
    WHERE NOT p.is_ai
),
scoped AS (
    SELECT guild_id AS g, mode AS md, * FROM seat
    UNION ALL SELECT guild_id, '*', * FROM seat
    UNION ALL SELECT 0, mode, * FROM seat
    UNION ALL SELECT 0, '*', * FROM seat
),
named AS (
    SELECT *, row_number() OVER (PARTITION BY g, md, user_id ORDER BY id DESC) AS newest FROM scoped
)
SELECT g, md, user_id,
       max(CASE WHEN newest = 1 THEN display_name END), max(id),
       sum(won), sum(played), sum(abandoned), sum(rounds_won), sum(points_scored)
FROM named GROUP BY g, md, user_id ORDER BY 1, 2, 3
"""
STORED_TOTALS = """
SELECT guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points
FROM player_totals ORDER BY 1, 2, 3
"""
RANK_TABLES = {
    "rank_by_wins": "guild_id, mode, wins",
    "rank_by_played": "guild_id, mode, wins, played",
    "rank_by_bucket": "guild_id, mode, wins, played, bucket",
}


def random_result(rng: random.Random, key: str, ended_at: float) -> MatchResult:
    n = rng.randint(2, 6)
    users: list[int | None] = list(rng.sample(USERS, n))
    for i in range(n):
        if rng.random() < 0.15:
            users[i] = None  # AI seat
    status = "abandoned" if rng.random() < 0.2 else "completed"
    rounds = tuple(RoundResult(i, rng.randrange(n), rng.randint(0, 300)) for i in range(1, rng.randint(0, 5) + 1))
    if status == "completed" and not rounds:
        rounds = (RoundResult(1, rng.randrange(n), 500),)
    won = [sum(r.winner_seat == s for r in rounds) for s in range(n)]
    pts = [sum(r.points for r in rounds if r.winner_seat == s) for s in range(n)]
    winner = rng.choice([s for s in range(n) if won[s]]) if status == "completed" else None
    order = sorted(range(n), key=lambda s: (s != winner, -pts[s], s))
    place = {s: i + 1 for i, s in enumerate(order)}
    players = tuple(
        MatchPlayer(
            s, u, f"{'bot' if u is None else u}-{rng.randint(0, 3)}", u is None, pts[s], place[s], won[s], pts[s]
        )
        for s, u in enumerate(users)
    )
    return MatchResult(
        key, rng.choice(MODES), rng.choice(GUILDS), 9, status, 500, ended_at - 60, ended_at, winner, players, rounds
    )


async def check_consistency(backend: Backend) -> list[tuple[Any, ...]]:
    """Asserts the three invariants; returns the stored totals."""
    stored = await backend.fetch(STORED_TOTALS)
    assert stored == await backend.fetch(RAW_TOTALS)
    assert await backend.fetch(
        "SELECT count(*) FROM player_totals WHERE win_rate IS DISTINCT FROM "
        "(CASE WHEN played > 0 THEN CAST(wins AS DOUBLE PRECISION) / played ELSE 0.0 END)"
    ) == [(0,)]
    for table, keys in RANK_TABLES.items():
        counted = keys.replace("bucket", "user_id >> 52")
        expected = await backend.fetch(
            f"SELECT {counted}, count(*) FROM player_totals WHERE played > 0 GROUP BY {counted} ORDER BY {counted}"
        )
        assert await backend.fetch(f"SELECT {keys}, players FROM {table} ORDER BY {keys}") == expected, table
    return stored


async def check_ranks(store: Store, stored: list[tuple[Any, ...]]) -> None:
    """Every player's rank from player_stats equals their position in a plain Python sort by the documented order."""
    scopes: dict[tuple[int, str], list[tuple[Any, ...]]] = {}
    for row in stored:
        scopes.setdefault((row[0], row[1]), []).append(row)
    for (g, md), members in scopes.items():
        guild = None if g == 0 else g
        mode = None if md == "*" else md
        # (guild, mode, user, name, last match, wins, played, ...): wins, win rate, played descending; user ascending
        ranked = sorted((r for r in members if r[5] > 0), key=lambda r: (-r[5], -r[5] / r[6], -r[6], r[2]))
        board = await store.leaderboard(guild_id=guild, mode=mode, limit=1000)
        assert [r.user_id for r in board] == [r[2] for r in ranked]
        for position, r in enumerate(ranked, start=1):
            stats = await store.player_stats(r[2], guild_id=guild, mode=mode)
            assert stats is not None and stats.rank == position and stats.ranked_players == len(ranked)


async def test_totals_equal_a_group_by_over_the_raw_rows(store: Store, backend: Backend):
    rng = random.Random(20240611)
    keys = []
    for i in range(400):
        key = f"r{i}"
        # ended_at is not in recording order: the display name follows the recording order, as documented
        assert await store.finish_match(random_result(rng, key, 1_700_000_000.0 + rng.randint(0, 10**6)))
        keys.append(key)
        if rng.random() < 0.1:  # a retried write of an earlier result counts nothing
            assert not await store.finish_match(random_result(rng, rng.choice(keys), 1_700_000_000.0))
    stored = await check_consistency(backend)
    assert len(stored) > 100
    assert await backend.fetch("SELECT count(*) FROM matches") == [(400,)]
    await check_ranks(store, stored)

    await store.rebuild_aggregates()
    assert await check_consistency(backend) == stored
    await check_ranks(store, stored)


async def test_rebuild_repairs_damaged_totals(store: Store, backend: Backend):
    rng = random.Random(7)
    for i in range(60):
        await store.finish_match(random_result(rng, f"x{i}", 1_700_000_000.0 + i))
    good = await check_consistency(backend)
    await backend.execute("UPDATE player_totals SET wins = wins + 3, display_name = 'hacked' WHERE user_id % 2 = 0")
    await backend.execute("DELETE FROM player_totals WHERE user_id % 3 = 0")
    await backend.execute("INSERT INTO rank_by_wins VALUES (42, 'flip', 99, 5)")
    await store.rebuild_aggregates()
    assert await check_consistency(backend) == good
    if backend.name == "sqlite":
        triggers = await backend.fetch("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'")
        assert triggers == [(3,)]  # put back after the bulk work
    else:
        triggers = await backend.fetch(
            "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'player_totals'::regclass AND NOT tgisinternal "
            "AND tgenabled = 'O'"
        )
        assert triggers == [(2,)]  # enabled again after the bulk work

    # and the kept totals go on from there
    await store.finish_match(random_result(rng, "after", 1_800_000_000.0))
    await check_consistency(backend)
