"""AI levels in the adapter (issue 21 points 1, 4 and 6): a seat's level is chosen when it is added, saved with the
seat (session snapshot v4), kept across a restart, and older AI seats (v3 rows, committed fixtures in
``tests/fixtures/snapshots/v3/session`` written by the release before levels) become *Normal* and play on."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter import refusals as E
from bot.adapter.manager import Limits
from bot.adapter.session import SESSION_VERSION, STEPS, Session, Status
from bot.adapter.thinker import Thinker
from bot.ai import Level
from bot.engine.view import Phase
from bot.storage import LiveGame, Store, open_store

FIXTURES = Path(__file__).parent.parent / "fixtures" / "snapshots" / "v3" / "session"
ROWS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))}


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Store) -> SessionManager:
    return SessionManager(
        store,
        clock=ManualClock(),
        limits=Limits(ai_delay=0.0, ai_catch_delay=0.0),
        rng=Random(1),
        thinker=Thinker(workers=0),
    )


def test_the_committed_v3_rows_are_v3_with_ai_seats_and_cover_lobby_play_and_finished() -> None:
    assert {r["snapshot"]["v"] for r in ROWS.values()} == {3}
    assert {r["status"] for r in ROWS.values()} == {"lobby", "playing", "finished"}
    for r in ROWS.values():
        assert any(seat[0] is None for seat in r["snapshot"]["seats"])
        assert all(len(seat) == 4 for seat in r["snapshot"]["seats"])


@pytest.mark.parametrize("name", ROWS)
def test_step_v3_to_v4_makes_old_ai_seats_normal_and_changes_nothing_else(name: str) -> None:
    v3 = ROWS[name]["snapshot"]
    before = copy.deepcopy(v3)
    v4 = STEPS[3](v3)
    assert v3 == before, "an upgrade step must not change its input"
    assert v4["v"] == 4
    assert [seat[:4] for seat in v4["seats"]] == v3["seats"]
    assert [seat[4] for seat in v4["seats"]] == ["normal" if seat[0] is None else None for seat in v3["seats"]]
    assert {k: v for k, v in v4.items() if k not in ("v", "seats")} == {
        k: v for k, v in v3.items() if k not in ("v", "seats")
    }


async def test_a_database_of_v3_rows_resumes_with_normal_ai_seats_and_the_games_go_on(store: Store) -> None:
    for row in ROWS.values():
        await store.save_game(LiveGame(**copy.deepcopy(row)))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    assert set(sessions) == {r["channel_id"] for r in ROWS.values()}  # nothing set aside
    for session in sessions.values():
        assert all(s.level is Level.NORMAL for s in session.seats if s.ai)
        assert all(s.level is None for s in session.seats if not s.ai)
    for name in ("classic_ai_mid_round", "flip_two_ai"):
        session = sessions[ROWS[name]["channel_id"]]
        game = session.game
        assert game is not None and session.status == Status.PLAYING
        await m.idle()
        for _ in range(6):  # the humans play on (their first legal action); the AI seats answer
            await m.idle()
            if game.phase is Phase.MATCH_OVER or session.status != Status.PLAYING:
                break
            seat = game.pending if game.pending is not None else game.current
            user = session.seats[seat].user_id
            assert user is not None, "an AI seat left its turn unplayed"
            step = game.step
            await m.act(session.channel_id, user, lambda v: v.legal[v.legal.moves - 1])
            assert game.step > step
    lobby = sessions[ROWS["lobby_ai"]["channel_id"]]
    await m.add_ai(lobby.channel_id, 101, level="hard")
    assert [s.level for s in lobby.seats] == [None, Level.NORMAL, Level.HARD]
    await m.close()
    m2 = manager_for(store)  # saved in v4 now, and resumed again: the levels are kept
    again = {s.channel_id: s for s in await m2.start()}
    assert [s.level for s in again[lobby.channel_id].seats] == [None, Level.NORMAL, Level.HARD]
    assert again[lobby.channel_id].to_dict()["v"] == SESSION_VERSION
    await m2.close()


async def test_add_ai_keeps_the_chosen_level_through_the_match_and_a_restart(store: Store) -> None:
    """Issue 21 pts 1, 6: each AI seat plays its own level, saved with the seat; an unknown level changes nothing."""
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=9, host_id=101, host_name="Ann", mode="classic", turn_timer=45)
    for level in ("easy", "hard", "normal"):
        await m.add_ai(1, 101, level=level)
    with pytest.raises(E.BadRequest):
        await m.add_ai(1, 101, level="impossible")
    session = m.get(1)
    assert [s.level for s in session.seats] == [None, Level.EASY, Level.HARD, Level.NORMAL]
    await m.start_game(1, 101)
    await m.idle()
    snap = session.to_dict()
    assert [seat[4] for seat in snap["seats"]] == [None, "easy", "hard", "normal"]
    assert Session.from_dict(snap).seats[2].level is Level.HARD
    await m.close()
    m2 = manager_for(store)
    (again,) = await m2.start()
    assert [s.level for s in again.seats] == [None, Level.EASY, Level.HARD, Level.NORMAL]
    await m2.close()


async def test_a_hard_search_in_the_worker_process_gives_the_move_it_gives_in_line() -> None:
    """Issue 21 pt 4: the search runs off the event loop (a worker process) and, seeded, decides as in line."""
    from bot.ai import decide
    from bot.engine.game import Game
    from bot.engine.options import Options

    options = Options(target_score=0)
    game, _ = Game.new("classic", 3, seed=11, options=options)
    seat = game.pending
    assert seat is not None
    view = game.view(seat)
    thinker = Thinker(workers=1)
    try:
        got = [await thinker.decide("hard", view, options=options, memory=None, seed=s) for s in range(3)]
    finally:
        thinker.close()
    assert got == [decide("hard", view, options=options, memory=None, seed=s) for s in range(3)]
