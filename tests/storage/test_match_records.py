"""Match records in the store (issue 19 point 1), on both stores: entries appended in the transaction of the save or
the result they come with, never for a refused write, never twice, read back in order; bad entries refused before
anything is written."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import InvalidInputError, MatchSteps, Store, WriteRefused

from .conftest import Backend
from .helpers import game, match


def steps(key: str, *seqs: int) -> MatchSteps:
    return MatchSteps(key, tuple((s, {"a": {"t": "Draw", "player": s % 3}}) for s in seqs))


async def test_entries_are_saved_with_the_live_game_and_read_back_in_order(store: Store, backend: Backend):
    await store.save_game(game(100, version=1), steps=MatchSteps("k1", ((0, {"start": {"seed": 5}}),)))
    await store.save_game(game(100, version=2), steps=steps("k1", 2, 1))
    await store.save_game(game(100, version=3))  # a change without a game step (a lobby or ui change)
    assert await store.match_record("k1") == [
        (0, {"start": {"seed": 5}}),
        (1, {"a": {"t": "Draw", "player": 1}}),
        (2, {"a": {"t": "Draw", "player": 2}}),
    ]
    assert await store.match_record("unknown") == []


async def test_a_batch_of_saves_writes_each_game_s_entries_and_a_refused_one_writes_none(
    store: Store, backend: Backend
):
    assert await store.acquire_lease(200, "me", 30)
    assert await store.acquire_lease(201, "other", 30)
    results = await asyncio.gather(
        store.save_game(game(200, version=1), owner="me", steps=steps("k200", 0, 1)),
        store.save_game(game(201, version=1), owner="me", steps=steps("k201", 0, 1)),  # not its lease
        store.save_game(game(202, version=1), steps=steps("k202", 0)),
        store.save_game(game(203, version=1)),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], WriteRefused) and results[2:] == [None, None]
    assert [s for s, _ in await store.match_record("k200")] == [0, 1]
    assert await store.match_record("k201") == []
    assert [s for s, _ in await store.match_record("k202")] == [0]


async def test_the_last_entries_are_saved_with_the_result_and_a_retry_adds_nothing(store: Store, backend: Backend):
    m = match("m1")
    await store.save_game(game(100), steps=steps("m1", 0, 1))
    assert await store.finish_match(m, steps=steps("m1", 2, 3))
    assert [s for s, _ in await store.match_record("m1")] == [0, 1, 2, 3]
    assert not await store.finish_match(m, steps=steps("m1", 2, 3, 4))  # already recorded: nothing at all
    await store.save_game(game(100, version=1), steps=steps("m1", 3))  # a retried save: the entry is kept once
    assert [s for s, _ in await store.match_record("m1")] == [0, 1, 2, 3]


async def test_refused_fenced_finish_writes_no_entry(store: Store, backend: Backend):
    assert await store.acquire_lease(100, "other", 30)
    with pytest.raises(WriteRefused):
        await store.finish_match(match("m2"), owner="me", steps=steps("m2", 5))
    assert await store.match_record("m2") == []


@pytest.mark.parametrize(
    "bad",
    [
        MatchSteps("", ((0, {}),)),
        MatchSteps("k", ((-1, {}),)),
        MatchSteps("k", ((1, {}), (1, {}))),
        MatchSteps("k", ((1, {"x": float("nan")}),)),
        MatchSteps("k", [(1, {})]),  # type: ignore[arg-type]
        MatchSteps("k", ((1, "text"),)),  # type: ignore[arg-type]
    ],
)
async def test_bad_entries_are_refused_before_anything_is_written(store: Store, backend: Backend, bad: MatchSteps):
    with pytest.raises(InvalidInputError):
        await store.save_game(game(300), steps=bad)
    with pytest.raises(InvalidInputError):
        await store.finish_match(match("m3", channel=300), steps=bad)
    assert await store.load_games() == []
    assert await backend.fetch("SELECT count(*) FROM match_records") == [(0,)]


async def test_a_players_history_newest_first_with_opponents_rating_change_and_record(store: Store, backend: Backend):
    ann, ben = (11, "Ann"), (12, "Ben")
    assert await store.finish_match(match("h1", guild=1, seats=(ann, ben), ended_at=1_700_000_100.0))
    assert await store.finish_match(
        match("h2", guild=2, mode="flip", seats=(ben, ann, (None, "Bot")), rounds=((0, 90),), winner=0),
        steps=MatchSteps("h2", ((0, {"start": {}}),)),
    )
    assert await store.finish_match(
        match("h3", guild=1, seats=(ann, (None, "Bot")), rounds=((1, 20),), status="abandoned")
    )
    everywhere = await store.match_history(11, guild_id=None)
    assert [(h.match_key, h.mode, h.guild_id, h.status, h.placement, h.seats) for h in everywhere] == [
        ("h3", "classic", 1, "abandoned", 1, 2),
        ("h2", "flip", 2, "completed", 2, 3),
        ("h1", "classic", 1, "completed", 1, 2),
    ]
    h3, h2, h1 = everywhere
    assert (h3.opponents, h2.opponents, h1.opponents) == (("Bot",), ("Ben", "Bot"), ("Ben",))
    assert h3.rating_change is None  # abandoned: never rated
    assert h2.rating_change is not None and h2.rating_change < 0 < (h1.rating_change or 0)
    assert (h1.recorded, h2.recorded, h3.recorded) == (False, True, False)
    assert h1.ended_at == 1_700_000_100.0 and h2.points == 0 and h1.points == 500
    assert await store.match_history_count(11, guild_id=None) == 3

    here = await store.match_history(11, guild_id=1)
    assert [h.match_key for h in here] == ["h3", "h1"] and await store.match_history_count(11, guild_id=1) == 2
    (h1_here,) = await store.match_history(11, guild_id=1, limit=1, offset=1)
    assert h1_here.rating_change == h1.rating_change  # the first match: the same move in both scopes
    assert await store.match_history(99, guild_id=None) == []
    assert await store.match_history_count(99, guild_id=1) == 0
    with pytest.raises(InvalidInputError):
        await store.match_history(11, guild_id=None, limit=0)
