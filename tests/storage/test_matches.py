"""finish_match: what it writes, one transaction with the live-game change, once per match key, bad input refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.storage import InvalidInputError, RoundResult, Store

from .conftest import Backend
from .helpers import game, match

RAW_TABLES = ("matches", "match_players", "match_rounds", "player_totals", "rank_by_wins", "rank_by_played")


async def dump(backend: Backend) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables finish_match writes, for before/after comparisons."""
    out = {t: await backend.fetch(f"SELECT * FROM {t} ORDER BY 1, 2, 3") for t in RAW_TABLES}
    out["live_games"] = await backend.fetch("SELECT * FROM live_games ORDER BY 1")
    return out


async def test_a_result_is_written_with_players_rounds_and_totals(store: Store, backend: Backend):
    await store.save_game(game(100))
    result = match(
        "m1",
        guild=3,
        mode="flex",
        seats=((11, "Ann"), (None, "Robot"), (12, "Ben")),
        rounds=((0, 120), (2, 90), (0, 400)),
    )
    assert await store.finish_match(result) is True

    assert await backend.fetch(
        "SELECT match_key, mode, guild_id, channel_id, status, target_score, rounds_played, winner_seat,"
        " started_at, ended_at FROM matches"
    ) == [("m1", "flex", 3, 100, "completed", 500, 3, 0, 1_700_000_000.0, 1_700_000_900.0)]
    assert await backend.fetch("SELECT * FROM match_players ORDER BY seat") == [
        (1, 0, 11, "Ann", 0, 520, 1, 2, 520, None),  # is_ai: 0/1 in SQLite, False/True in PostgreSQL
        (1, 1, None, "Robot", 1, 0, 3, 0, 0, None),  # team: NULL without teams (migration 0008, SPEC T)
        (1, 2, 12, "Ben", 0, 90, 2, 1, 90, None),
    ]
    assert await backend.fetch("SELECT * FROM match_rounds ORDER BY number") == [
        (1, 1, 0, 120),
        (1, 2, 2, 90),
        (1, 3, 0, 400),
    ]
    # two humans x four scopes; the AI seat has none
    assert await backend.fetch("SELECT count(*), count(DISTINCT user_id) FROM player_totals") == [(8, 2)]
    assert await store.load_games() == []  # the live game was deleted in the same transaction


async def test_replace_with_keeps_a_new_snapshot_for_the_channel(store: Store):
    await store.save_game(game(100, version=7))
    final = replace(game(100, version=8, over=True), status="finished")
    assert await store.finish_match(match("m1"), replace_with=final) is True
    assert await store.load_games() == [final]


async def test_a_match_key_is_recorded_once(store: Store, backend: Backend):
    await store.save_game(game(100, version=1))
    assert await store.finish_match(match("m1")) is True
    await store.save_game(game(100, version=2))  # a new game in the same channel
    before = await dump(backend)

    # a retry, even with different content, changes nothing: not the totals, not the new live game
    assert await store.finish_match(match("m1", rounds=((1, 500),), winner=1)) is False
    assert await store.finish_match(match("m1"), replace_with=game(100, version=9)) is False
    assert await dump(backend) == before
    stats = await store.player_stats(11, guild_id=None, mode=None)
    assert stats is not None and (stats.wins, stats.played) == (1, 1)


async def test_a_failure_inside_the_transaction_writes_nothing(store: Store, backend: Backend, monkeypatch):
    """An invalid player row that gets past validation fails at its INSERT, after the match row: all is rolled back."""
    await store.finish_match(match("m0", seats=((11, "Ann"), (13, "Cy"))))  # totals exist, so updates are undone too
    await store.save_game(game(100))
    before = await dump(backend)

    monkeypatch.setattr("bot.storage._store.check_match_result", lambda result: result)  # one store, both dialects
    result = match("m1")
    bad_seat = replace(result.players[1], final_score=-40)  # the table's CHECK refuses it
    with pytest.raises(backend.integrity_error):
        await store.finish_match(replace(result, players=(result.players[0], bad_seat)))
    assert await dump(backend) == before

    # the store is still usable and the same key can be recorded once it is right
    monkeypatch.undo()
    assert await store.finish_match(result) is True
    assert await store.load_games() == []


async def test_a_failure_at_the_very_end_undoes_the_result_and_keeps_the_live_game(store: Store, backend: Backend):
    """The live-game change is the last step; when it fails, the match, players, rounds and totals are undone."""
    await store.save_game(game(100))
    if backend.name == "sqlite":
        await backend.execute(
            "CREATE TRIGGER no_delete BEFORE DELETE ON live_games BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    else:
        await backend.executescript(
            "CREATE FUNCTION no_delete() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$; "
            "CREATE TRIGGER no_delete BEFORE DELETE ON live_games FOR EACH ROW EXECUTE FUNCTION no_delete();"
        )
    before = await dump(backend)
    with pytest.raises(backend.integrity_error, match="disk on fire"):
        await store.finish_match(match("m1"))
    assert await dump(backend) == before
    with pytest.raises(backend.integrity_error, match="disk on fire"):
        await store.finish_match(match("m1"))  # nothing half-written blocks a retry either
    assert await store.player_stats(11, guild_id=None, mode=None) is None


OK = match("m1", seats=((11, "Ann"), (12, "Ben"), (None, "Bot")), rounds=((0, 300), (1, 50), (0, 200)))
P0, P1, P2 = OK.players


@pytest.mark.parametrize(
    "changes",
    [
        {"match_key": ""},
        {"match_key": "k" * 201},
        {"mode": "poker"},
        {"guild_id": 0},
        {"channel_id": None},
        {"status": "won"},
        {"target_score": -1},
        {"started_at": OK.ended_at + 1},
        {"ended_at": float("nan")},
        {"winner_seat": None},  # completed without a winner
        {"winner_seat": 7},  # not a seat
        {"winner_seat": 1},  # placement 2 cannot be the winner
        {"status": "abandoned"},  # abandoned but with a winner
        {"players": (P0,)},  # one seat
        {"players": [P0, P1, P2]},  # not a tuple
        {"players": (P0, replace(P1, seat=0), P2)},  # seat twice
        {"players": (P0, replace(P1, user_id=11), P2)},  # user twice
        {"players": (P0, P1, replace(P2, user_id=99))},  # an AI with a user id
        {"players": (P0, replace(P1, user_id=None), P2)},  # a human without one
        {"players": (P0, replace(P1, display_name="  "), P2)},
        {"players": (P0, replace(P1, placement=4), P2)},
        {"players": (P0, replace(P1, rounds_won=2), P2)},  # does not match the rounds
        {"players": (P0, replace(P1, points_scored=-1), P2)},
        {"players": (P0, replace(P1, is_ai=1), P2)},
        {"rounds": (RoundResult(1, 0, 300), RoundResult(3, 1, 50), RoundResult(2, 0, 200))},  # numbering
        {"rounds": (RoundResult(1, 0, 300), RoundResult(2, 5, 50), RoundResult(3, 0, 200))},  # unknown seat
        {"rounds": (RoundResult(1, 0, 300), RoundResult(2, 1, -50), RoundResult(3, 0, 200))},
    ],
)
async def test_a_bad_result_is_refused_and_nothing_is_written(store: Store, backend: Backend, changes):
    await store.save_game(game(100))
    before = await dump(backend)
    with pytest.raises(InvalidInputError) as err:
        await store.finish_match(replace(OK, **changes))
    assert isinstance(err.value, ValueError) and len(str(err.value)) < 120
    assert await dump(backend) == before


async def test_replace_with_must_be_the_same_channel(store: Store, backend: Backend):
    await store.save_game(game(100))
    before = await dump(backend)
    with pytest.raises(InvalidInputError, match="channel"):
        await store.finish_match(OK, replace_with=game(200))
    with pytest.raises(InvalidInputError):
        await store.finish_match(OK, replace_with=replace(game(100), mode="poker"))
    assert await dump(backend) == before


async def test_an_abandoned_match_without_rounds_is_fine(store: Store):
    assert await store.finish_match(match("a1", status="abandoned", rounds=()))
    stats = await store.player_stats(12, guild_id=1, mode="classic")
    assert stats is not None
    assert (stats.rank, stats.wins, stats.played, stats.abandoned, stats.rounds_won) == (None, 0, 0, 1, 0)
