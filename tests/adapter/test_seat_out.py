"""Why a seat is out of its match (issue 18 point 5): left, removed by the host (``/uno kick``) or by the turn timer
after its timeouts in a row, saved with the seat (session snapshot v5) and kept across a restart; seats of older rows
(v4, committed fixtures in ``tests/fixtures/snapshots/v4/session`` written by the release before v5) that are out
read "left", as they did, and their games go on."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.adapter.session import SESSION_VERSION, STEPS, Out, Session, Status
from bot.adapter.thinker import Thinker
from bot.engine.view import Phase
from bot.storage import LiveGame, Store, open_store

FIXTURES = Path(__file__).parent.parent / "fixtures" / "snapshots" / "v4" / "session"
ROWS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))}


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Store, clock: ManualClock | None = None) -> SessionManager:
    return SessionManager(
        store,
        clock=clock or ManualClock(),
        limits=Limits(ai_delay=0.0, ai_catch_delay=0.0),
        rng=Random(1),
        thinker=Thinker(workers=0),
    )


def test_the_committed_v4_rows_are_v4_with_seats_out_of_the_match() -> None:
    assert {r["snapshot"]["v"] for r in ROWS.values()} == {4}
    assert {r["status"] for r in ROWS.values()} == {"lobby", "playing", "finished"}
    assert all(len(seat) == 5 for r in ROWS.values() for seat in r["snapshot"]["seats"])
    assert sum(seat[3] for r in ROWS.values() for seat in r["snapshot"]["seats"]) == 3  # left, kicked, timed out


@pytest.mark.parametrize("name", ROWS)
def test_step_v4_to_v5_says_an_old_seat_out_left_and_changes_nothing_else(name: str) -> None:
    v4 = ROWS[name]["snapshot"]
    before = copy.deepcopy(v4)
    v5 = STEPS[4](v4)
    assert v4 == before, "an upgrade step must not change its input"
    assert v5["v"] == 5
    assert [seat[:5] for seat in v5["seats"]] == v4["seats"]
    assert [seat[5] for seat in v5["seats"]] == ["left" if seat[3] else None for seat in v4["seats"]]
    assert {k: v for k, v in v5.items() if k not in ("v", "seats")} == {
        k: v for k, v in v4.items() if k not in ("v", "seats")
    }


async def test_a_database_of_v4_rows_resumes_and_its_game_goes_on(store: Store) -> None:
    for row in ROWS.values():
        await store.save_game(LiveGame(**copy.deepcopy(row)))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    assert set(sessions) == {r["channel_id"] for r in ROWS.values()}  # nothing set aside
    for session in sessions.values():
        assert all((s.out is Out.LEFT) == s.left for s in session.seats)
    playing = sessions[ROWS["classic_left_and_kicked"]["channel_id"]]
    assert playing.status == Status.PLAYING and [s.left for s in playing.seats] == [False, False, True, True]
    game = playing.game
    assert game is not None
    for _ in range(3):  # the two players still in play on
        if game.phase is Phase.MATCH_OVER:
            break
        seat = game.pending
        assert seat is not None and seat in (0, 1)
        user = playing.seats[seat].user_id
        assert user is not None
        await m.act(playing.channel_id, user, lambda v: v.legal[0])
    assert playing.to_dict()["v"] == SESSION_VERSION
    await m.close()


async def test_leaving_a_kick_and_the_turn_timer_each_say_why_the_seat_is_out_and_it_survives_a_restart(
    store: Store,
) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    await m.start()
    await m.open_lobby(channel_id=1, guild_id=9, host_id=101, host_name="Ann", mode="classic", turn_timer=45)
    for i, name in enumerate(("Ben", "Cleo", "Dan")):
        await m.join(1, 102 + i, name)
    await m.start_game(1, 101)
    await m.leave(1, 103)  # Cleo
    await m.kick(1, 101, 3)  # Dan
    session = m.sessions[1]
    assert [s.out for s in session.seats] == [None, None, Out.LEFT, Out.KICKED]
    while not session.seats[1].left and not session.seats[0].left:  # nobody plays: the timer removes someone
        clock.advance(46)
        await m.idle()
    out = next(i for i in (0, 1) if session.seats[i].left)
    assert session.seats[out].out is Out.TIMEOUTS and session.seats[out].timeouts == m.limits.max_timeouts
    expected = [s.out for s in session.seats]
    await m.close()

    again = manager_for(store)
    (loaded,) = await again.start()
    assert [s.out for s in loaded.seats] == expected and Session.from_dict(loaded.to_dict()) == loaded
    await again.close()


async def test_a_host_the_turn_timer_removes_hands_the_table_on_as_one_who_leaves_or_is_kicked_does(
    store: Store,
) -> None:
    """Issue 18 point 5: the host removed after their timeouts in a row is out of the match like a host who left or
    was kicked, so the host passes to the next player still in (it stayed with the absent host: nobody at the table
    could ``/uno kick`` or ``/uno end``, and a rematch went to whoever pressed Play again)."""
    clock = ManualClock()
    m = manager_for(store, clock)
    await m.start()
    await m.open_lobby(channel_id=1, guild_id=9, host_id=101, host_name="Ann", mode="classic", turn_timer=45)
    for i, name in enumerate(("Ben", "Cleo")):
        await m.join(1, 102 + i, name)
    await m.start_game(1, 101)
    session = m.sessions[1]
    game = session.game
    assert game is not None
    while not session.seats[0].left:  # Ann sleeps; Ben and Cleo play
        assert game.phase is not Phase.MATCH_OVER
        seat = game.pending
        assert seat is not None
        if seat == 0:
            clock.advance(46)
            await m.idle()
            continue
        user = session.seats[seat].user_id
        assert user is not None
        await m.act(1, user, lambda v: v.legal[0])
    assert session.seats[0].out is Out.TIMEOUTS and session.status == Status.PLAYING
    assert session.host_id == 102  # Ben, the next player still in
    await m.kick(1, 102, 2)  # the new host may kick
    await m.close()


async def finished_with_seats_out(m: SessionManager) -> Session:
    """Ann hosts Ben, Cleo and Dan; Ann kicks Cleo, Dan leaves, then Ann kicks Ben: the match is over (abandoned,
    one player left) with a seat out of each kind."""
    await m.open_lobby(channel_id=1, guild_id=9, host_id=101, host_name="Ann", mode="classic", turn_timer=45)
    for i, name in enumerate(("Ben", "Cleo", "Dan")):
        await m.join(1, 102 + i, name)
    await m.start_game(1, 101)
    await m.kick(1, 101, 2)
    await m.leave(1, 104)
    await m.kick(1, 101, 1)
    session = m.sessions[1]
    assert session.status == Status.FINISHED
    assert [s.out for s in session.seats] == [None, Out.KICKED, Out.KICKED, Out.LEFT]
    return session


@pytest.mark.parametrize(
    ("presser", "seated"),
    [
        (103, [101]),  # Cleo was kicked: her Play again opens the rematch without her
        (102, [101]),  # so was Ben
        (104, [101, 104]),  # Dan left on his own: pressing Play again, he asks to play again
        (999, [101]),  # a server manager who never sat opens it for the players, without a seat of his own
        (101, [101]),
    ],
)
async def test_a_rematch_never_seats_a_kicked_player_nor_someone_who_never_sat(
    store: Store, presser: int, seated: list[int]
) -> None:
    """Issue 18 (review of point 5): Play again seated whoever pressed it and was not seated at the end, a player the
    host had kicked and a server manager who never played included."""
    m = manager_for(store)
    await m.start()
    await finished_with_seats_out(m)
    rematch = await m.rematch(1, presser, f"user {presser}")
    assert rematch.status == Status.LOBBY and [s.user_id for s in rematch.seats] == seated
    assert rematch.host_id == 101 and not any(s.left for s in rematch.seats)
    await m.close()
