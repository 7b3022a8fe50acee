"""Storage benchmark: leaderboard reads at a million finished matches, and snapshot / result write latency.

Run by hand (never from the tests)::

    python benchmarks/storage.py                      # 1,000,000 matches in a temp file, deleted afterwards
    python benchmarks/storage.py --matches 100000     # a smaller database
    python benchmarks/storage.py --path /tmp/uno-bench.sqlite3 --keep   # keep the file; a later run reuses it
    python benchmarks/storage.py --database postgresql://postgres@127.0.0.1:5432/test   # PostgreSQL

Build: the schema comes from ``open_store`` (the real migrations); matches, players and rounds are bulk-inserted
(SQLite: the synchronous ``sqlite3`` module, big transactions, ``synchronous=OFF``; PostgreSQL: asyncpg's COPY), then
``rebuild_aggregates()`` computes the leaderboard totals, so the build also times a full rebuild. PostgreSQL: the
benchmark works in a schema of its own in that database, ``uno_bench_<pid>``, dropped at the end (``uno_bench`` and
kept with ``--keep``), so it never touches the bot's tables. The data: 200 servers of Zipf-like sizes, each
with its own players (skewed activity: a few play a lot, many a little) plus 10% of seats from cross-server regulars;
about one distinct player per five matches; Discord-like ids (creation times spread over 2016–2025); 2–6 seats per
match (mean ≈ 4), an AI seat in 10% of matches; classic 60%, FLIP 25%, Flex 15%; 10% abandoned; up to 7 rounds.

Measured through the public async API on the built file: top-10 leaderboards (all servers × all modes, all servers ×
each mode, the biggest server, a median server), ``leaderboard_count``, ``player_stats`` (with rank) of players picked
across the whole ranking, ``save_game`` of a ~3 KB snapshot and ``finish_match`` of a 4-player match; p50/p99 in ms.

Issue 19: the build also rates every match (``rebuild_ratings(replace=True)``: every completed match with two or more
human seats, in id order, with openskill), then measures the by-rating top 10 (all servers and the biggest server,
classic), ``player_ratings`` (rating, rank, trend), ``match_history`` (a page of 10 of the busiest player and of a
median one; everywhere and in the biggest server) and ``finish_match`` with its rating update (the one above: four
human seats, so both scopes are rated). The size of the match records is measured on real records: ``--records``
matches (default 2,000) played by random legal moves through the engine (4 seats, 500 points, each mode in turn),
their entries appended to ``match_records`` as the bot appends them, and the table's size divided by their number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.adapter.records import encode, start_entry
from bot.engine.actions import CallUno, NextRound
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.storage import (
    LeaderboardRow,
    LiveGame,
    MatchPlayer,
    MatchResult,
    MatchSteps,
    RoundResult,
    is_postgres_url,
    open_store,
    redact_database,
)

GUILDS = 200
DISCORD_EPOCH_MS = 1_420_070_400_000
MODES = ("classic",) * 12 + ("flip",) * 5 + ("flex",) * 3
SEAT_COUNTS = (2, 3, 3, 4, 4, 4, 4, 5, 5, 6)
NOW = 1_750_000_000.0
Row = tuple[object, ...]
PLAYER_COLUMNS = "match_id, seat, user_id, display_name, is_ai, final_score, placement, rounds_won, points_scored"
"""The match_players columns the bulk build writes (``team``, migration 0008, stays NULL: no partner games)."""


def snowflake(rng: random.Random, first_year: float, last_year: float) -> int:
    """A Discord-like id made at a random moment between two years (ids carry their creation time in the top bits)."""
    year_ms = 365.25 * 86400 * 1000
    ms = int((first_year - 1970) * year_ms + rng.random() * (last_year - first_year) * year_ms)
    return ((ms - DISCORD_EPOCH_MS) << 22) | rng.getrandbits(22)


class World:
    """Servers and their players: server g owns players [start[g], start[g] + size[g]); the first ones are regulars."""

    def __init__(self, matches: int, rng: random.Random) -> None:
        self.rng = rng
        self.guild_weights = [1 / (g + 1) ** 1.1 for g in range(GUILDS)]
        total = sum(self.guild_weights)
        self.guild_ids = [snowflake(rng, 2017, 2025) for _ in range(GUILDS)]
        self.channel_ids = [[snowflake(rng, 2017, 2025) for _ in range(5)] for _ in range(GUILDS)]
        population = max(1000, matches // 5)
        self.regulars = max(50, population // 50)
        self.start: list[int] = []
        self.size: list[int] = []
        nxt = self.regulars
        for w in self.guild_weights:
            size = max(20, int(population * w / total))
            self.start.append(nxt)
            self.size.append(size)
            nxt += size
        self.user_ids = [snowflake(rng, 2016, 2025.5) for _ in range(nxt)]

    def pick_guild(self) -> int:
        return self.rng.choices(range(GUILDS), self.guild_weights)[0]

    def pick_user(self, g: int) -> int:
        r = self.rng.random
        if r() < 0.1:
            return int(self.regulars * r() ** 2)
        return self.start[g] + int(self.size[g] * r() ** 2)  # squared: low indices play much more


def generate(world: World, n: int) -> Iterator[tuple[Row, list[Row], list[Row]]]:
    """Yields (match row, player rows, round rows) for match ids 1..n, consistent with the store's validation rules."""
    rng = world.rng
    rand, randint, choice = rng.random, rng.randint, rng.choice
    for mid in range(1, n + 1):
        g = world.pick_guild()
        seats = choice(SEAT_COUNTS)
        users: list[int | None] = []
        seen: set[int] = set()
        while len(users) < seats:
            u = world.pick_user(g)
            if u not in seen:
                seen.add(u)
                users.append(world.user_ids[u])
        if rand() < 0.1:
            users[-1] = None  # an AI seat
        abandoned = rand() < 0.1
        n_rounds = randint(0 if abandoned else 1, 7)
        won = [0] * seats
        pts = [0] * seats
        rounds: list[Row] = []
        for number in range(1, n_rounds + 1):
            w = randint(0, seats - 1)
            p = randint(20, 200)
            won[w] += 1
            pts[w] += p
            rounds.append((mid, number, w, p))
        order = sorted(range(seats), key=lambda s: (-pts[s], s))
        placement = {s: i + 1 for i, s in enumerate(order)}
        started = NOW - rand() * 2 * 365 * 86400
        match: Row = (
            mid,
            f"bench:{mid}",
            choice(MODES),
            world.guild_ids[g],
            choice(world.channel_ids[g]),
            "abandoned" if abandoned else "completed",
            500,
            n_rounds,
            None if abandoned else order[0],
            started,
            started + 300 + rand() * 2400,
        )
        players: list[Row] = []
        for s in range(seats):
            uid = users[s]
            name = "Bot" if uid is None else f"player{uid % 1_000_003}"
            players.append((mid, s, uid, name, int(uid is None), pts[s], placement[s], won[s], pts[s]))
        yield match, players, rounds


def build(path: Path, world: World, n: int) -> None:
    """Bulk-load ``n`` matches into the (freshly migrated) database at ``path``."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")  # 256 MB
    matches: list[Row] = []
    players: list[Row] = []
    rounds: list[Row] = []

    def flush() -> None:
        db.execute("BEGIN")
        db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", matches)
        db.executemany(f"INSERT INTO match_players ({PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", players)
        db.executemany("INSERT INTO match_rounds VALUES (?, ?, ?, ?)", rounds)
        db.execute("COMMIT")
        matches.clear()
        players.clear()
        rounds.clear()

    for i, (m, ps, rs) in enumerate(generate(world, n), start=1):
        matches.append(m)
        players.extend(ps)
        rounds.extend(rs)
        if len(matches) == 20_000:
            flush()
            if i % 200_000 == 0:
                print(f"  … {i:,} matches", flush=True)
    if matches:
        flush()
    db.close()


def snapshot(channel: int, version: int) -> dict[str, object]:
    """A snapshot shaped like the adapter's (hands, piles, players, recent events), about 3 KB of JSON."""
    cards = ["R5", "Y9", "GS", "B+2", "W", "W+4", "R0", "YR", "G7", "B3", "RX+2", "Y1"]
    return {
        "schema": 1,
        "channel": channel,
        "version": version,
        "mode": "classic",
        "phase": "await_play",
        "turn": version % 4,
        "direction": 1,
        "declared_colour": None,
        "players": [
            {"user": 300_000_000_000_000_000 + i, "name": f"player{i}", "hand": cards, "uno": False, "score": 120 * i}
            for i in range(4)
        ],
        "draw_pile": list(range(108 - 48 - 20)),
        "discard_pile": list(range(20)),
        "options": {"target_score": 500, "stacking": "off", "jump_in": False, "seven_zero": False},
        "log": [{"event": "played", "seat": i % 4, "card": cards[i % len(cards)], "at": NOW + i} for i in range(40)],
    }


def pct(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {q[49]:7.3f} ms   p99 {q[98]:7.3f} ms   (n={len(samples)})"


async def timed(reps: int, fn: Callable[[int], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(reps):
        t0 = time.perf_counter()
        await fn(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


_SERVERS = (
    "SELECT guild_id FROM rank_by_wins WHERE guild_id != 0 AND mode = '*' GROUP BY guild_id ORDER BY sum(players) DESC"
)
_COUNTS = (
    "SELECT (SELECT count(*) FROM match_players), (SELECT count(*) FROM match_rounds), "
    "(SELECT count(*) FROM player_totals)"
)


async def pg_build(url: str, world: World, n: int) -> None:
    """Bulk-load ``n`` matches into the (freshly migrated) PostgreSQL schema at ``url`` with COPY."""
    import asyncpg

    conn = await asyncpg.connect(url)
    matches: list[Row] = []
    players: list[Row] = []
    rounds: list[Row] = []

    async def flush() -> None:
        async with conn.transaction():
            await conn.copy_records_to_table("matches", records=matches)
            await conn.copy_records_to_table("match_players", records=players, columns=PLAYER_COLUMNS.split(", "))
            await conn.copy_records_to_table("match_rounds", records=rounds)
        matches.clear()
        players.clear()
        rounds.clear()

    try:
        for i, (m, ps, rs) in enumerate(generate(world, n), start=1):
            matches.append(m)
            players.extend((*p[:4], bool(p[4]), *p[5:]) for p in ps)
            rounds.extend(rs)
            if len(matches) == 20_000:
                await flush()
                if i % 200_000 == 0:
                    print(f"  … {i:,} matches", flush=True)
        if matches:
            await flush()
        await conn.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), (SELECT max(id) FROM matches))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def query(target: str | Path, sql: str) -> list[tuple[object, ...]]:
    if isinstance(target, Path):
        with sqlite3.connect(target) as db:
            return db.execute(sql).fetchall()
    import asyncpg

    conn = await asyncpg.connect(target)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def pick_servers(target: str | Path) -> tuple[int, int]:
    """The server with the most ranked players, and a median one."""
    rows = await query(target, _SERVERS)
    return int(str(rows[0][0])), int(str(rows[len(rows) // 2][0]))


def recorded_match(mode: str, seed: int) -> list[tuple[int, dict[str, object]]]:
    """A whole 500-point match of 4 seats played by random legal moves, as its record (entry 0 and one per move)."""
    rng = random.Random(seed)
    game, _ = Game.new(mode, 4, seed=seed)
    seats = [(300_000_000_000_000_000 + k, f"player{k}", None) for k in range(4)]
    entries: list[tuple[int, dict[str, object]]] = [(0, start_entry(mode, 4, seed, Options(), seats))]
    while game.phase is not Phase.MATCH_OVER and game.step < 20_000:
        owner = game.current
        if game.phase is Phase.ROUND_OVER:
            action: object = NextRound(owner)
        elif len(game.hands[owner]) == 1 and not game.uno[owner] and rng.random() < 0.7:
            action = CallUno(owner)
        else:
            legal = game.legal_actions(owner)
            pick = legal.plays if legal.plays and rng.random() > 0.05 else legal.moves
            action = legal[rng.randrange(pick)]
        game.apply(action)  # type: ignore[arg-type]
        entries.append((game.step, {"a": encode(action)}))  # type: ignore[arg-type]
    return entries


async def measure_records(store: object, target: str | Path, count: int) -> None:
    """Append the records of ``count`` random matches and report the size of ``match_records`` per match."""
    before = await table_size(target, "match_records")
    entries = 0
    t0 = time.perf_counter()
    for i in range(count):
        record = recorded_match(("classic", "flip", "flex")[i % 3], 10_000 + i)
        entries += len(record)
        # a key shaped as the bot's (Session.match_key: channel snowflake, start in ms, 62-bit seed)
        key = f"{1_180_000_000_000_000_000 + i}:{int(NOW * 1000) + i}:{(2**61 + i * 7_919) % 2**62}"
        for k in range(0, len(record), 50):  # in commits of 50 entries, as a busy game's saves would be
            await store.save_game(  # type: ignore[attr-defined]
                LiveGame(9_000_000 + i, 1, "classic", "playing", k, {"v": k}, NOW),
                steps=MatchSteps(key, tuple(record[k : k + 50])),
            )
    elapsed = time.perf_counter() - t0
    size = await table_size(target, "match_records") - before
    print(
        f"match records: {count:,} matches played to 500 (4 seats), {entries / count:,.0f} entries a match, "
        f"{size / count / 1024:,.1f} KiB a match in match_records ({size / entries:,.0f} bytes an entry; "
        f"10^6 matches: {size / count * 1e6 / 2**30:,.1f} GiB); written in {elapsed:.1f} s"
    )


async def table_size(target: str | Path, table: str) -> int:
    """Bytes of ``table`` with its indexes (SQLite: its pages, dbstat; PostgreSQL: pg_total_relation_size)."""
    if isinstance(target, Path):
        sql = f"SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = '{table}' OR tbl_name = '{table}'"
        try:
            return int(str((await query(target, sql))[0][0]))
        except sqlite3.OperationalError:  # SQLite built without dbstat: the pages the file grew by
            return int(str((await query(target, "PRAGMA page_count"))[0][0])) * 4096
    return int(str((await query(target, f"SELECT pg_total_relation_size('{table}')"))[0][0]))


async def measure_ratings(store: object, target: str | Path, biggest: int, reps: int) -> None:
    """The issue 19 reads: the by-rating top 10, a player's rating with rank and trend, a page of history."""
    s = store
    print("by-rating top 10 (at least 5 rated matches)")
    for label, guild in (("all servers, classic", None), ("biggest server, classic", biggest)):

        async def top(_: int, guild: int | None = guild) -> object:
            rows = await s.rating_leaderboard(guild_id=guild, mode="classic", limit=10)  # type: ignore[attr-defined]
            assert rows
            return rows

        await timed(20, top)
        print(f"  {label:28s} {pct(await timed(reps, top))}")
    board = await s.rating_leaderboard(guild_id=None, mode="classic", limit=1000)  # type: ignore[attr-defined]
    players = [r.user_id for r in board]

    async def rating(i: int) -> object:
        got = await s.player_ratings(players[i % len(players)], guild_id=None, mode="classic")  # type: ignore[attr-defined]
        assert got
        return got

    print("player_ratings with rank and trend (players of the top 1,000)")
    print(f"  {'all servers, classic':28s} {pct(await timed(reps, rating))}")
    counts = await query(
        target, "SELECT user_id, count(*) AS n FROM match_players WHERE user_id IS NOT NULL GROUP BY user_id ORDER BY n"
    )
    median_player = int(str(counts[len(counts) // 2][0]))
    busy = int(str(counts[-1][0]))
    most, middle = counts[-1][1], counts[len(counts) // 2][1]
    print(f"match_history, a page of 10 (the busiest player: {most:,} matches; a median one: {middle:,})")
    for label, user, guild in (
        ("busiest, everywhere", busy, None),
        ("busiest, biggest server", busy, biggest),
        ("median, everywhere", median_player, None),
    ):

        async def history(i: int, user: int = user, guild: int | None = guild) -> object:
            page = await s.match_history(user, guild_id=guild, limit=10, offset=(i % 5) * 10)  # type: ignore[attr-defined]
            return page

        await timed(20, history)
        print(f"  {label:28s} {pct(await timed(reps, history))}")


async def measure(path: str | Path, reps: int, records: int = 2000) -> None:
    biggest, median = await pick_servers(path)
    store = await open_store(path)
    try:
        for label, g in (("all servers", None), ("biggest server", biggest), ("median server", median)):
            print(f"ranked players, {label}, all modes: {await store.leaderboard_count(guild_id=g, mode=None):,}")
        print()
        print("top-10 leaderboard")
        cases: list[tuple[str, int | None, str | None]] = [
            ("all servers, all modes", None, None),
            ("all servers, classic", None, "classic"),
            ("all servers, flip", None, "flip"),
            ("all servers, flex", None, "flex"),
            ("biggest server, all modes", biggest, None),
            ("biggest server, flex", biggest, "flex"),
            ("median server, all modes", median, None),
        ]
        for label, guild, mode in cases:

            async def top10(_: int, guild: int | None = guild, mode: str | None = mode) -> object:
                rows = await store.leaderboard(guild_id=guild, mode=mode, limit=10)
                assert rows
                return rows

            await timed(20, top10)  # warm the page cache
            print(f"  {label:28s} {pct(await timed(reps, top10))}")

        print("leaderboard_count")
        for label, guild, mode in (cases[0], cases[4]):

            async def count(_: int, guild: int | None = guild, mode: str | None = mode) -> object:
                return await store.leaderboard_count(guild_id=guild, mode=mode)

            print(f"  {label:28s} {pct(await timed(reps, count))}")

        rng = random.Random(7)
        print("player_stats with rank (players picked across the whole ranking)")
        for label, guild in (("all servers, all modes", None), ("biggest server, all modes", biggest)):
            total = await store.leaderboard_count(guild_id=guild, mode=None)
            sample = []
            for _ in range(100):
                page = await store.leaderboard(guild_id=guild, mode=None, limit=1, offset=rng.randrange(total))
                sample.append(page[0])

            async def stats(i: int, guild: int | None = guild, sample: list[LeaderboardRow] = sample) -> object:
                expected = sample[i % len(sample)]
                res = await store.player_stats(expected.user_id, guild_id=guild, mode=None)
                assert res is not None and res.rank == expected.rank
                return res

            print(f"  {label:28s} {pct(await timed(reps, stats))}")

        size = len(json.dumps(snapshot(1, 1), separators=(",", ":")))
        print(f"save_game, {size:,}-byte snapshot, one commit each")
        guild = biggest

        async def save(i: int) -> object:
            ch = 1_000 + i % 50
            return await store.save_game(LiveGame(ch, guild, "classic", "playing", i, snapshot(ch, i), NOW + i))

        await timed(20, save)
        print(f"  {'50 channels in turn':28s} {pct(await timed(max(reps, 1000), save))}")

        print("finish_match, 4 seats, 5 rounds, deleting the live game, one commit each")
        run = time.time_ns()

        async def finish(i: int) -> object:
            seats = [300_000_000_000_000_000 + (i * 4 + k) % 5000 for k in range(4)]
            players = tuple(
                MatchPlayer(k, uid, f"p{k}", False, 500 if k == 0 else 40 * k, k + 1, 5 * (k == 0), 500 * (k == 0))
                for k, uid in enumerate(seats)
            )
            rounds = tuple(RoundResult(r, 0, 100) for r in range(1, 6))
            result = MatchResult(
                f"bench:{run}:{i}", "flip", guild, 1_000 + i % 50, "completed", 500, NOW, NOW + 900, 0, players, rounds
            )
            ok = await store.finish_match(result)
            assert ok
            return ok

        print(f"  {'with its rating update':28s} {pct(await timed(max(reps // 2, 200), finish))}")
        print()
        await measure_ratings(store, path, biggest, reps)
        if records:
            await measure_records(store, path, records)
    finally:
        await store.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=1_000_000, help="finished matches to build (default 1,000,000)")
    ap.add_argument("--path", type=Path, help="SQLite database file (default: a temp file, deleted afterwards)")
    ap.add_argument("--database", help="a postgresql://… address (the benchmark uses a schema of its own there)")
    ap.add_argument("--keep", action="store_true", help="keep the file / schema; if it exists, reuse it as it is")
    ap.add_argument("--reps", type=int, default=1000, help="repetitions per measured call (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--records", type=int, default=2000, help="random matches whose records are measured (0: none)")
    args = ap.parse_args()
    if args.database is not None and not is_postgres_url(args.database):
        args.path, args.database = Path(args.database), None
    if args.database is not None:
        await run_postgres(args)
    else:
        await run_sqlite(args)


async def run_postgres(args: argparse.Namespace) -> None:
    import asyncpg

    schema = "uno_bench" if args.keep else f"uno_bench_{os.getpid()}"
    base = args.database.split("?", 1)[0]
    url = f"{base}?search_path={schema}"
    admin = await asyncpg.connect(base)
    try:
        exists = await admin.fetchval("SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema)
        reuse = bool(args.keep and exists)
        if not reuse:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    try:
        if reuse:
            print(f"reusing schema {schema} of {redact_database(base)}")
        else:
            print(f"building {args.matches:,} finished matches in schema {schema} of {redact_database(base)}")
            await (await open_store(url)).close()
            t0 = time.perf_counter()
            await pg_build(url, World(args.matches, random.Random(args.seed)), args.matches)
            t1 = time.perf_counter()
            store = await open_store(url)
            await store.rebuild_aggregates()
            t2 = time.perf_counter()
            rated = await store.rebuild_ratings(replace=True)
            await store.close()
            await query(url, "ANALYZE")
            t3 = time.perf_counter()
            seats, rounds, totals = (await query(url, _COUNTS))[0]
            size = (
                await query(
                    url,
                    f"SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                    f"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '{schema}' "
                    "AND c.relkind = 'r'",
                )
            )[0][0]
            print(f"build: bulk COPY {t1 - t0:.1f} s + rebuild_aggregates {t2 - t1:.1f} s = {t2 - t0:.1f} s")
            print(f"rebuild_ratings: {rated.matches:,} rated matches, {rated.ratings:,} ratings in {t3 - t2:.1f} s")
            print(f"rows: {args.matches:,} matches, {seats:,} seats, {rounds:,} rounds, {totals:,} player totals")
            print(f"size: {int(str(size)) / 2**20:,.0f} MB (tables and indexes)")
        print()
        await measure(url, args.reps, args.records)
    finally:
        if not args.keep:
            admin = await asyncpg.connect(base)
            try:
                await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            finally:
                await admin.close()


async def run_sqlite(args: argparse.Namespace) -> None:
    tmpdir = None
    if args.path is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="uno-bench-")
        path = Path(tmpdir.name) / "uno.sqlite3"
    else:
        path = args.path
    try:
        if args.keep and path.exists():
            print(f"reusing {path}")
        else:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            print(f"building {args.matches:,} finished matches in {path}")
            await (await open_store(path)).close()
            t0 = time.perf_counter()
            build(path, World(args.matches, random.Random(args.seed)), args.matches)
            t1 = time.perf_counter()
            store = await open_store(path)
            await store.rebuild_aggregates()
            t2 = time.perf_counter()
            rated = await store.rebuild_ratings(replace=True)
            await store.close()
            t3 = time.perf_counter()
            seats, rounds, totals = (await query(path, _COUNTS))[0]
            print(f"build: bulk insert {t1 - t0:.1f} s + rebuild_aggregates {t2 - t1:.1f} s = {t2 - t0:.1f} s")
            print(f"rebuild_ratings: {rated.matches:,} rated matches, {rated.ratings:,} ratings in {t3 - t2:.1f} s")
            print(f"rows: {args.matches:,} matches, {seats:,} seats, {rounds:,} rounds, {totals:,} player totals")
            print(f"file: {os.path.getsize(path) / 2**20:,.0f} MB")
        print()
        await measure(path, args.reps, args.records)
    finally:
        if tmpdir is not None:
            tmpdir.cleanup()
        elif not args.keep:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)


if __name__ == "__main__":
    asyncio.run(main())
