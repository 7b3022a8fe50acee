"""Many tasks and several stores at once: writes never interleave inside a transaction, reads never see half of one,
and writers finishing matches of the same players at the same moment leave exact totals and ranks."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import defaultdict

from bot.storage import LiveGame, MatchResult, Store

from .conftest import Backend
from .helpers import match
from .test_aggregates import check_consistency

CHANNELS = 5


def snapshot_game(task: int, step: int) -> LiveGame:
    """Every column is derived from (task, step), so a row mixed from two writes cannot pass for either."""
    channel = 100 + task % CHANNELS
    snap = {"task": task, "step": step, "cards": [f"R{(task + step + i) % 10}" for i in range(30)]}
    return LiveGame(
        channel, 1 + task, ("classic", "flip", "flex")[step % 3], "playing", step, snap, float(task * 1000 + step)
    )


async def test_concurrent_writers_and_readers_stay_consistent(store: Store, backend: Backend):
    rng = random.Random(5)
    tasks, steps = 20, 25
    seen_totals: list[tuple[int, int]] = []
    # every player of the finishes below has won a match already, so all of them are on the leaderboard (which lists
    # only players with a match won, issue 18) and a reader sees every total a finish changes
    users = range(11, 40)
    for u in users:
        assert await store.finish_match(match(f"w{u}", channel=2000 + u, seats=((u, f"u{u}"), (None, "AI"))))

    async def writer(task: int) -> None:
        for step in range(steps):
            await store.save_game(snapshot_game(task, step))
            if rng.random() < 0.2:
                await asyncio.sleep(0)

    async def finisher(i: int) -> None:
        # four humans per match and a human winner: every committed state has sum(played) == 4 * sum(wins)
        seated = rng.sample(users, 4)
        result = match(
            f"c{i}",
            channel=900 + i,
            seats=[(u, f"u{u}") for u in seated],
            rounds=((0, 500),),
            mode=rng.choice(["classic", "flip", "flex"]),
        )
        await store.save_game(LiveGame(900 + i, 1, "classic", "playing", 1, {"i": i}, 1.0))
        assert await store.finish_match(result)

    async def reader() -> None:
        for _ in range(60):
            board = await store.leaderboard(guild_id=None, mode=None, limit=1000)
            seen_totals.append((sum(r.wins for r in board), sum(r.played for r in board)))
            await asyncio.sleep(0)

    async def settings(i: int) -> None:
        await store.update_settings(77, turn_timer=15 + i)

    jobs = [writer(t) for t in range(tasks)] + [finisher(i) for i in range(30)] + [reader() for _ in range(3)]
    jobs += [settings(i) for i in range(20)]
    rng.shuffle(jobs)
    await asyncio.gather(*jobs)

    games = {g.channel_id: g for g in await store.load_games()}
    assert set(games) == {100 + c for c in range(CHANNELS)}  # the finished matches' games were all deleted
    for channel, g in games.items():
        task, step = g.snapshot["task"], g.snapshot["step"]
        assert task % CHANNELS == channel - 100
        assert step == steps - 1  # whoever wrote last, it was that task's last write
        assert g == snapshot_game(task, step)

    first = len(users)  # the wins and matches played before the finishes
    assert all(p - first == 4 * (w - first) for w, p in seen_totals), "a reader saw half of a finish_match"
    assert len(seen_totals) == 180
    final = await store.leaderboard(guild_id=None, mode=None, limit=1000)
    assert (sum(r.wins for r in final), sum(r.played for r in final)) == (first + 30, first + 120)
    assert 15 <= (await store.get_settings(77)).turn_timer <= 34

    assert await backend.fetch("SELECT count(*) FROM matches") == [(first + 30,)]
    if backend.name == "sqlite":
        assert await backend.fetch("PRAGMA integrity_check") == [("ok",)]


async def test_a_cancelled_call_leaves_no_transaction_open(store: Store):
    """Cancelling a caller mid-transaction rolls back; the next caller is not stuck inside it."""
    for attempt in range(20):
        task = asyncio.create_task(store.finish_match(match(f"x{attempt}", seats=((11, "A"), (12, "B")))))
        for _ in range(attempt):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.save_game(LiveGame(5, 1, "classic", "lobby", attempt, {"a": attempt}, 1.0))
        assert (await store.load_games())[0].version == attempt
    stats = await store.player_stats(11, guild_id=None, mode=None)
    recorded = 0 if stats is None else stats.played
    board = await store.leaderboard(guild_id=None, mode=None)
    assert sum(r.played for r in board) == 2 * recorded  # every match is either fully there or not at all


PLAYERS = (11, 12, 13, 14, 15, 16)  # few players, so that every writer keeps changing the same totals and rank cells
WRITERS, MATCHES_EACH = 20, 50


def writer_results(writer: int) -> list[MatchResult]:
    rng = random.Random(1000 + writer)
    results = []
    for i in range(MATCHES_EACH):
        users = rng.sample(PLAYERS, rng.randint(2, 4))
        seats = [(u, f"u{u}-{writer}") for u in users]
        if rng.random() < 0.2:
            seats.append((None, "Bot"))
        winner = rng.randrange(len(seats))
        rounds = tuple((rng.randrange(len(seats)), rng.randint(0, 300)) for _ in range(rng.randint(0, 2)))
        status = "abandoned" if rng.random() < 0.15 else "completed"
        rounds += ((winner, 500),)
        results.append(
            match(
                f"w{writer}-{i}",
                guild=rng.choice((501, 502)),
                mode=rng.choice(("classic", "flip", "flex")),
                channel=100_000 + writer * 1000 + i,
                seats=seats,
                rounds=rounds,
                winner=winner,
                status=status,
            )
        )
    return results


def expected_boards(results: list[MatchResult]) -> dict[tuple[int | None, str | None], list[tuple[int, ...]]]:
    """The leaderboards worked out in Python from the results alone: (user, wins, played, abandoned, rounds won,
    points) in rank order, per scope."""
    totals: dict[tuple[int | None, str | None], dict[int, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0] * 5)
    )
    for r in results:
        for p in r.players:
            if p.user_id is None:
                continue
            won = r.status == "completed" and p.seat == r.winner_seat
            for key in ((r.guild_id, r.mode), (r.guild_id, None), (None, r.mode), (None, None)):
                t = totals[key][p.user_id]
                t[0] += won
                t[1] += r.status == "completed"
                t[2] += r.status == "abandoned"
                t[3] += p.rounds_won
                t[4] += p.points_scored
    boards = {}
    for key, users in totals.items():
        ranked = [(u, *t) for u, t in users.items() if t[0] > 0]  # a match won (issue 18)
        ranked.sort(key=lambda x: (-x[1], -x[1] / x[2], -x[2], x[0]))
        boards[key] = ranked
    return boards


async def test_many_writers_on_several_stores_leave_exact_totals_and_ranks(backend: Backend):
    """Issue 11: processes finishing matches of the same players at the same moment; every result is also sent a
    second time through another store (a retry), which must count nothing."""
    stores = [await backend.open() for _ in range(4 if backend.name == "postgres" else 2)]
    results = {w: writer_results(w) for w in range(WRITERS)}
    recorded: list[bool] = []
    repeated: list[bool] = []

    async def writer(w: int) -> None:
        mine, other = stores[w % len(stores)], stores[(w + 1) % len(stores)]
        for i, result in enumerate(results[w]):
            await mine.save_game(LiveGame(result.channel_id, result.guild_id, result.mode, "playing", 1, {}, 1.0))
            recorded.append(await mine.finish_match(result))
            if i % 5 == 0:
                repeated.append(await other.finish_match(result))

    try:
        await asyncio.gather(*(writer(w) for w in range(WRITERS)))
        assert recorded == [True] * WRITERS * MATCHES_EACH
        assert repeated == [False] * len(repeated)
        everything = [r for w in range(WRITERS) for r in results[w]]
        store = stores[0]
        for (guild, mode), expected in expected_boards(everything).items():
            board = await store.leaderboard(guild_id=guild, mode=mode, limit=1000)
            assert [(r.user_id, r.wins, r.played, r.abandoned, r.rounds_won, r.points) for r in board] == expected
            assert await store.leaderboard_count(guild_id=guild, mode=mode) == len(expected)
            for rank, row in enumerate(expected, start=1):
                stats = await store.player_stats(row[0], guild_id=guild, mode=mode)
                assert stats is not None and stats.rank == rank and stats.ranked_players == len(expected)
        stored = await check_consistency(backend)
        assert await backend.fetch("SELECT count(*) FROM matches") == [(WRITERS * MATCHES_EACH,)]
        assert await store.load_games() == []
        await store.rebuild_aggregates()
        assert await check_consistency(backend) == stored
    finally:
        for s in stores:
            await s.close()
