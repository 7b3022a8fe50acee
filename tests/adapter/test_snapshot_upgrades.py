"""Session snapshot upgrades (DESIGN "Saved formats and upgrades"): a database written by the release that saved
format v1 resumes every live game through the adapter, and the games go on; a snapshot newer than the code is set
aside by the store (kept in ``quarantined_games``, never deleted). Fixtures: ``tests/fixtures/snapshots/v1/session``,
whole ``live_games`` rows written by that release."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.adapter.session import SESSION_VERSION, STEPS, Session, Status, upgrade
from bot.engine import snapshot
from bot.engine.builder import build
from bot.engine.errors import SnapshotError, SnapshotTooNew
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.storage import LiveGame, Store, open_store
from cogs.uno import screens

FIXTURES = Path(__file__).parent.parent / "fixtures" / "snapshots" / "v1" / "session"
ROWS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))}


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Store) -> SessionManager:
    return SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))


def row(name: str, **snapshot_changes: Any) -> LiveGame:
    data = copy.deepcopy(ROWS[name])
    data["snapshot"].update(snapshot_changes)
    return LiveGame(**data)


def test_the_committed_v1_rows_cover_lobby_play_flip_dark_side_challenge_round_over_and_finished() -> None:
    assert {r["snapshot"]["v"] for r in ROWS.values()} == {1}
    assert {r["status"] for r in ROWS.values()} == {"lobby", "playing", "finished"}
    games = [r["snapshot"]["game"] for r in ROWS.values() if r["snapshot"]["game"]]
    assert {g["v"] for g in games} == {1}
    assert {"play", "challenge", "round_over", "match_over"} <= {g["phase"] for g in games}
    assert any(g["side"] == "dark" for g in games)


@pytest.mark.parametrize("name", ROWS)
def test_step_v1_to_v2_gives_a_finished_result_its_placement_and_changes_nothing_else(name: str) -> None:
    v1 = ROWS[name]["snapshot"]
    before = copy.deepcopy(v1)
    v2 = STEPS[1](v1)
    assert v1 == before, "an upgrade step must not change its input"
    assert v2["v"] == 2
    if v1["result"] is None:
        assert v2 == dict(v1, v=2)
    else:
        assert v2["result"] == dict(v1["result"], placement=[1, 0])  # the winner (seat 1) first
        assert {k: v for k, v in v2.items() if k not in ("v", "result")} == {
            k: v for k, v in v1.items() if k not in ("v", "result")
        }


def test_step_v1_to_v2_ranks_a_lowest_scoring_match_lowest_first() -> None:
    v1 = copy.deepcopy(ROWS["finished"]["snapshot"])
    v1["seats"].append([103, "Cat", 0, 0])
    v1["options"] = {"scoring": "lowest", "target_score": 50}
    v1["result"] = {"status": "completed", "winner": 0, "scores": [10, 50, 30], "ended": 1.0}
    assert STEPS[1](v1)["result"]["placement"] == [0, 2, 1]  # SPEC G9: Ann 10, Cat 30, Ben 50


async def test_a_database_of_v1_rows_resumes_every_game_through_the_adapter_and_each_goes_on(store: Store) -> None:
    for name in ROWS:
        await store.save_game(row(name))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    by_name = {name: sessions[r["channel_id"]] for name, r in ROWS.items()}
    assert set(sessions) == {r["channel_id"] for r in ROWS.values()}  # nothing set aside
    for session in by_name.values():
        assert session.to_dict()["v"] == SESSION_VERSION
        assert session.seats[0].name == "Ann" and session.turn_timer == 45
        if session.game is not None:
            assert session.game.to_dict()["v"] == snapshot.SNAPSHOT_VERSION
    assert by_name["finished"].result is not None and by_name["finished"].result.placement == (1, 0)
    assert by_name["flip_dark_side"].game is not None and by_name["flip_dark_side"].game.side.value == "dark"
    for name in ("classic_mid_round", "flip_dark_side", "flex_challenge", "classic_round_over"):
        session = by_name[name]
        game = session.game
        assert game is not None and session.status == Status.PLAYING
        seat = game.pending if game.pending is not None else game.current
        user = session.seats[seat].user_id
        assert user is not None
        version, step = session.version, game.step
        update = await m.act(session.channel_id, user, lambda v: v.legal[v.legal.moves - 1])
        assert update.version == version + 1 and game.step == step + 1
    lobby = by_name["lobby"]
    await m.join(lobby.channel_id, 104, "Dan")
    assert [s.name for s in lobby.seats][-1] == "Dan"
    await m.close()
    m2 = manager_for(store)  # saved again, now in the current format, and resumed again
    again = {s.channel_id: s for s in await m2.start()}
    assert set(again) == set(sessions)
    await m2.close()


async def test_a_session_or_game_newer_than_the_code_is_kept_aside_never_deleted(store: Store, tmp_path: Path) -> None:
    await store.save_game(row("classic_mid_round"))
    newer_session = row("flip_dark_side", v=SESSION_VERSION + 1)
    newer_game_row = copy.deepcopy(ROWS["flex_challenge"])
    newer_game_row["snapshot"]["game"]["v"] = snapshot.SNAPSHOT_VERSION + 1
    await store.save_game(newer_session)
    await store.save_game(LiveGame(**newer_game_row))
    m = manager_for(store)
    sessions = await m.start()
    assert [s.channel_id for s in sessions] == [ROWS["classic_mid_round"]["channel_id"]]
    await m.close()
    with sqlite3.connect(tmp_path / "uno.sqlite3") as db:
        kept = db.execute("SELECT channel_id, snapshot, reason FROM quarantined_games ORDER BY channel_id").fetchall()
    assert [k[0] for k in kept] == [newer_session.channel_id, newer_game_row["channel_id"]]
    assert json.loads(kept[0][1]) == newer_session.snapshot and json.loads(kept[1][1]) == newer_game_row["snapshot"]
    assert all("SnapshotTooNew" in k[2] for k in kept)
    with pytest.raises(SnapshotTooNew):
        upgrade(newer_session.snapshot)
    with pytest.raises(SnapshotTooNew):
        Session.from_dict(newer_game_row["snapshot"])
    with pytest.raises(SnapshotError):
        upgrade({"v": "2"})


async def test_the_match_summary_ranks_a_lowest_scoring_match_as_the_engine_does(store: Store) -> None:
    """SPEC G9 (scoring = "lowest"): final totals 10 / 50 / 30 rank Ann, Cat, Ben — the summary used to print Ann,
    Ben, Cat (it sorted highest first)."""
    m = manager_for(store)
    options = {"scoring": "lowest", "target_score": 50}
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic", options=options)
    await m.join(1, 102, "Ben")
    await m.join(1, 103, "Cat")
    await m.start_game(1, 101)
    session = m.sessions[1]
    session.game = build(
        "classic", ["R5", "G5", "B0"], "R1", scores=[10, 45, 30], options=Options(scoring="lowest", target_score=50)
    )
    await m.act(1, 101, lambda v: v.legal[0])  # Ann goes out; Ben's 5 takes him to 50: the match ends
    game = session.game
    assert game.phase is Phase.MATCH_OVER and game.scores == [10, 50, 30] and game.winner == 0
    assert game.placement() == [0, 2, 1]
    assert session.result is not None and session.result.placement == (0, 2, 1)
    (field,) = screens.match_summary(m.snapshot(1), "en").embed.fields
    assert [line.split(" — ")[0] for line in str(field.value).splitlines()] == ["1. Ann", "2. Cat", "3. Ben"]
    await m.close()
