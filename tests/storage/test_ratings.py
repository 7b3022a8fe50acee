"""Skill ratings (issue 19 point 3) on both stores: openskill's Plackett–Luce model per player, game and scope, updated
in the transaction that records a match; AI seats and abandoned matches never rated; the by-rating leaderboard with
its minimum of matches; a player's rating, rank and trend; and a rebuild from the recorded results that finds exactly
the stored ratings (and repairs them)."""

from __future__ import annotations

import asyncio
import random

import pytest
from openskill.models import PlackettLuce

from bot.limits import RATING_MIN_MATCHES
from bot.storage import ALL_GUILDS, InvalidInputError, RatingRow, Store

from .conftest import Backend
from .helpers import match

G1, G2 = 1001, 1002
ANN, BEN, CLEO, DAN = 11, 12, 13, 14
MODEL = PlackettLuce()


def shown(mu: float, sigma: float) -> int:
    return round(1000 + 40 * (mu - 3 * sigma))


async def ratings(backend: Backend, guild: int, mode: str = "classic") -> dict[int, tuple[float, float, int]]:
    rows = await backend.fetch(
        "SELECT user_id, mu, sigma, matches FROM player_ratings WHERE guild_id = ? AND mode = ?", guild, mode
    )
    return {u: (mu, sigma, n) for u, mu, sigma, n in rows}


async def test_a_completed_match_rates_its_humans_with_plackett_luce_in_both_scopes(store: Store, backend: Backend):
    # Ann wins, then Cleo, then Ben (placements follow points in helpers.match)
    assert await store.finish_match(
        match("m1", guild=G1, seats=((ANN, "Ann"), (BEN, "Ben"), (CLEO, "Cleo")), rounds=((0, 500), (2, 40)))
    )
    a, c, b = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]], ranks=[1, 2, 3])
    expected = {ANN: (a[0].mu, a[0].sigma, 1), CLEO: (c[0].mu, c[0].sigma, 1), BEN: (b[0].mu, b[0].sigma, 1)}
    assert await ratings(backend, G1) == expected
    assert await ratings(backend, ALL_GUILDS) == expected
    assert await ratings(backend, G1, "flip") == {}
    changes = await backend.fetch("SELECT count(*) FROM rating_changes")
    assert changes == [(6,)]  # 3 players x 2 scopes


async def test_ai_seats_abandoned_matches_and_lone_humans_are_never_rated(store: Store, backend: Backend):
    # one human among AI seats: nobody to be rated against
    assert await store.finish_match(match("solo", seats=((ANN, "Ann"), (None, "Bot"), (None, "Bot 2"))))
    # abandoned: never moves a rating
    assert await store.finish_match(
        match("gone", seats=((ANN, "Ann"), (BEN, "Ben")), rounds=((0, 80),), status="abandoned")
    )
    assert await ratings(backend, 1) == {}
    # two humans and an AI that won: the humans are rated among themselves (Ben placed above Ann)
    assert await store.finish_match(
        match("ai-won", seats=((None, "Bot"), (ANN, "Ann"), (BEN, "Ben")), rounds=((0, 500), (2, 30)), winner=0)
    )
    b, a = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert await ratings(backend, 1) == {BEN: (b[0].mu, b[0].sigma, 1), ANN: (a[0].mu, a[0].sigma, 1)}
    assert await backend.fetch("SELECT count(*) FROM player_ratings WHERE user_id IS NULL") == [(0,)]


async def test_a_match_recorded_twice_is_rated_once(store: Store, backend: Backend):
    m = match("m1", seats=((ANN, "Ann"), (BEN, "Ben")))
    assert await store.finish_match(m)
    first = await ratings(backend, 1)
    assert not await store.finish_match(m)
    assert await ratings(backend, 1) == first
    assert [n for _, _, n in first.values()] == [1, 1]


async def test_by_rating_leaderboard_lists_players_with_the_minimum_of_matches_best_first(store: Store):
    # Ann beats Ben five times in G1; Cleo beats Dan five times in G2; Ann and Cleo once more in G2
    for i in range(RATING_MIN_MATCHES):
        assert await store.finish_match(match(f"a{i}", guild=G1, seats=((ANN, "Ann"), (BEN, "Ben"))))
        assert await store.finish_match(match(f"c{i}", guild=G2, seats=((CLEO, "Cleo"), (DAN, "Dan"))))
    board = await store.rating_leaderboard(guild_id=G1, mode="classic")
    assert [(r.rank, r.user_id, r.display_name, r.matches, r.wins, r.played) for r in board] == [
        (1, ANN, "Ann", 5, 5, 5),
        (2, BEN, "Ben", 5, 0, 5),
    ]
    assert board[0].rating == shown(board[0].mu, board[0].sigma) and board[0].rating > 1000 > board[1].rating
    assert await store.rating_leaderboard_count(guild_id=G1, mode="classic") == 2
    assert await store.rating_leaderboard(guild_id=G1, mode="flip") == []

    everywhere = await store.rating_leaderboard(guild_id=None, mode="classic")
    assert [r.user_id for r in everywhere[:2]] in ([ANN, CLEO], [CLEO, ANN])  # same record, the same rating
    assert everywhere[0].rating == everywhere[1].rating and everywhere[0].user_id < everywhere[1].user_id
    assert len(everywhere) == 4

    assert await store.finish_match(match("x", guild=G2, seats=((ANN, "Ann"), (CLEO, "Cleo"))))
    # In G2 Ann has one rated match: below the minimum, not listed (but counted with min_matches=1)
    assert [r.user_id for r in await store.rating_leaderboard(guild_id=G2, mode="classic")] == [CLEO, DAN]
    (best, *_) = await store.rating_leaderboard(guild_id=G2, mode="classic", min_matches=1)
    assert best.user_id in (CLEO, ANN)
    assert await store.rating_leaderboard_count(guild_id=G2, mode="classic", min_matches=1) == 3
    page = await store.rating_leaderboard(guild_id=None, mode="classic", limit=2, offset=2)
    assert [r.rank for r in page] == [3, 4] and all(isinstance(r, RatingRow) for r in page)


async def test_player_rating_rank_and_trend(store: Store):
    assert await store.player_ratings(ANN, guild_id=G1, mode=None) == []
    for i in range(12):  # Ann wins the first 4, then loses 8 to Ben
        winner = 0 if i < 4 else 1
        assert await store.finish_match(match(f"m{i}", guild=G1, seats=((ANN, "Ann"), (BEN, "Ben")), winner=winner))
    assert await store.finish_match(match("f", guild=G1, mode="flip", seats=((ANN, "Ann"), (BEN, "Ben"))))

    (classic, flip) = await store.player_ratings(ANN, guild_id=G1, mode=None)
    assert (classic.mode, flip.mode) == ("classic", "flip")
    assert classic.matches == 12 and classic.rank == 2 and classic.ranked_players == 2
    assert flip.matches == 1 and flip.rank is None and flip.ranked_players == 0  # below the minimum
    assert classic.rating == shown(classic.mu, classic.sigma)

    rows = await store.rating_leaderboard(guild_id=G1, mode="classic")
    assert rows[1].user_id == ANN and rows[1].rating == classic.rating

    # the trend spans the last 10 rated matches: from before match 3 (index 2) to now; the last change is match 12's
    history = []
    prior = {ANN: (25.0, 25 / 3), BEN: (25.0, 25 / 3)}
    for i in range(12):
        order = [ANN, BEN] if i < 4 else [BEN, ANN]
        history.append(shown(*prior[ANN]))
        out = MODEL.rate([[MODEL.rating(*prior[u])] for u in order], ranks=[1.0, 2.0])
        for u, team in zip(order, out, strict=True):
            prior[u] = (team[0].mu, team[0].sigma)
    assert classic.trend == classic.rating - history[2] < 0
    assert classic.last_change == classic.rating - history[11] < 0
    (ben,) = await store.player_ratings(BEN, guild_id=None, mode="classic")
    assert ben.rank == 1 and ben.trend > 0 and ben.guild_id is None


async def test_bad_arguments_are_refused(store: Store):
    with pytest.raises(InvalidInputError):
        await store.rating_leaderboard(guild_id=G1, mode="uno")
    with pytest.raises(InvalidInputError):
        await store.rating_leaderboard(guild_id=G1, mode="classic", limit=0)
    with pytest.raises(InvalidInputError):
        await store.rating_leaderboard_count(guild_id=G1, mode="classic", min_matches=-1)
    with pytest.raises(InvalidInputError):
        await store.player_ratings(0, guild_id=G1, mode=None)


def simulated(seed: int, n: int) -> list:  # type: ignore[type-arg]
    """``n`` seeded results: 2–5 seats from 12 people and AI seats, three games, two servers, some abandoned."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        people: list[int | None] = [*rng.sample(range(21, 33), rng.randint(1, 4))]
        people += [None] * rng.randint(0, 2)
        if len(people) < 2:
            people.append(None)
        rng.shuffle(people)
        seats = tuple((u, f"P{u}" if u else "Bot") for u in people)
        rounds = tuple((rng.randrange(len(seats)), rng.randint(1, 300)) for _ in range(rng.randint(1, 4)))
        status = "abandoned" if rng.random() < 0.15 else "completed"
        winner = rounds[-1][0] if status == "completed" else None
        out.append(
            match(
                f"s{seed}-{i}",
                guild=rng.choice((G1, G2)),
                mode=rng.choice(("classic", "flip", "flex")),
                seats=seats,
                rounds=rounds,
                winner=winner,
                status=status,
            )
        )
    return out


async def test_rebuild_recomputes_exactly_the_stored_ratings_and_repairs_them(store: Store, backend: Backend):
    for m in simulated(7, 120):
        assert await store.finish_match(m)
    check = await store.rebuild_ratings()
    assert check.ok and not check.rebuilt and check.mismatches == ()
    assert check.matches > 60 and check.ratings == check.stored > 40

    # a damaged rating and a lost one are found, and a rebuild puts them back as they were
    before = await backend.fetch("SELECT * FROM player_ratings ORDER BY guild_id, mode, user_id")
    changes = await backend.fetch("SELECT * FROM rating_changes ORDER BY guild_id, mode, user_id, match_id")
    ((bumped,),) = await backend.fetch("SELECT count(*) FROM player_ratings WHERE user_id = 21 AND guild_id = ?", G1)
    await backend.execute("UPDATE player_ratings SET mu = mu + 1 WHERE user_id = 21 AND guild_id = ?", G1)
    await backend.execute("DELETE FROM player_ratings WHERE user_id = 22 AND guild_id = 0 AND mode = 'classic'")
    check = await store.rebuild_ratings()
    assert not check.ok and bumped >= 1 and check.differing == bumped + 1 and check.stored == check.ratings - 1
    damaged = {(g, m, u): (old, new) for g, m, u, old, new in check.mismatches}
    assert damaged[(0, "classic", 22)][0] is None and damaged[(0, "classic", 22)][1] is not None
    assert all(g == G1 for g, _, u in damaged if u == 21)

    fixed = await store.rebuild_ratings(replace=True)
    assert fixed.rebuilt and fixed.ok
    assert await backend.fetch("SELECT * FROM player_ratings ORDER BY guild_id, mode, user_id") == before
    assert await backend.fetch("SELECT * FROM rating_changes ORDER BY guild_id, mode, user_id, match_id") == changes
    assert (await store.rebuild_ratings()).ok


async def test_concurrent_finishes_stay_rebuildable(store: Store):
    """Many matches recorded at once (PostgreSQL: several connections): each rating is updated after the matches
    with smaller ids, so the rebuild in id order finds the same ratings."""
    results = simulated(11, 60)
    await asyncio.gather(*(store.finish_match(m) for m in results))
    check = await store.rebuild_ratings()
    assert check.ok, check.mismatches


def test_t4_partners_sharing_a_place_are_rated_as_one_team() -> None:
    """SPEC T4: seats of one placement are the partners of a team — openskill rates them as a team (both move by the
    same amount, the team's); a match whose humans all share one place (two partners against AI seats) is not rated."""
    from bot.storage._ratings import INITIAL, rate

    prior = {ANN: (30.0, 5.0), CLEO: (20.0, 7.0)}
    rows = rate([(ANN, 1), (CLEO, 1), (BEN, 2), (DAN, 2)], prior)
    teams = MODEL.rate(
        [[MODEL.rating(mu=30.0, sigma=5.0), MODEL.rating(mu=20.0, sigma=7.0)], [MODEL.rating(), MODEL.rating()]],
        ranks=[1.0, 2.0],
    )
    expected = [teams[0][0], teams[0][1], teams[1][0], teams[1][1]]
    assert [(u, round(a, 9), round(b, 9)) for u, _, _, a, b in rows] == [
        (u, round(r.mu, 9), round(r.sigma, 9)) for u, r in zip((ANN, CLEO, BEN, DAN), expected, strict=True)
    ]
    assert rows[2][1:3] == INITIAL
    solo = rate([(ANN, 1), (BEN, 2), (CLEO, 3)], {})  # without teams: every seat its own team, as before
    alone = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1.0, 2.0, 3.0])
    assert [round(r[3], 9) for r in solo] == [round(t[0].mu, 9) for t in alone]


def test_t4_a_match_of_two_partners_and_ai_seats_is_not_rated() -> None:
    from bot.storage import MatchPlayer, MatchResult
    from bot.storage._ratings import rated_seats

    players = (
        MatchPlayer(0, ANN, "Ann", False, 100, 1, 1, 100),
        MatchPlayer(1, None, "AI 1", True, 0, 2, 0, 0),
        MatchPlayer(2, CLEO, "Cleo", False, 0, 1, 0, 0),
        MatchPlayer(3, None, "AI 2", True, 0, 2, 0, 0),
    )
    result = MatchResult("k", "classic", G1, 1, "completed", 0, 1.0, 2.0, 0, players, ())
    assert rated_seats(result) == []
