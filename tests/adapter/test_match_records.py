"""Match records (issue 19 point 1): a seeded simulation of matches through the adapter — humans playing random legal
moves (UNO calls and catches included), turn timers running out, players leaving and kicked, AI seats of every
level, matches ended by the host — on both stores; then every finished match is replayed by the engine from its
record alone and must reach its recorded result (scores, winner, placements, status)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.adapter.records import RecordError, decode, encode, recap, replay
from bot.adapter.session import Status
from bot.engine.actions import Draw, Play, PlayMany
from bot.engine.cards import Colour
from bot.engine.view import Phase
from bot.storage import Store, open_store
from tests.storage.conftest import drop_pg_backend, pg_backend, pg_database  # noqa: F401 (fixtures)

GUILD = 9100
PEOPLE = [(201, "Ann"), (202, "Ben"), (203, "Cleo"), (204, "Dan")]


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        s = await open_store(tmp_path / "uno.sqlite3")
        yield s
        await s.close()
        return
    backend = await pg_backend(request.getfixturevalue("pg_database"))
    s = await backend.open()
    try:
        yield s
    finally:
        await s.close()
        await drop_pg_backend(backend)


async def play_match(m: SessionManager, clock: ManualClock, rng: Random, channel: int) -> None:
    """One match in ``channel``, driven by ``rng`` to its end (or ended by its host after enough moves)."""
    humans = PEOPLE[: rng.randint(1, 4)]
    mode = rng.choice(["classic", "flip", "flex"])
    options: dict[str, Any] = {"target_score": rng.choice([0, 60, 150])}
    if rng.random() < 0.5:
        options["stacking"] = "same_kind"
    if mode == "classic" and rng.random() < 0.4:
        options["seven_zero"] = True
    for rule in ("multi_play", "stack_deflect", "number_finish"):  # issue 17 point 8: recorded like the rest
        if rng.random() < 0.3:
            options[rule] = True
    host = humans[0][0]
    session = await m.open_lobby(
        channel_id=channel, guild_id=GUILD, host_id=host, host_name=humans[0][1], mode=mode, options=options
    )
    for uid, name in humans[1:]:
        await m.join(channel, uid, name)
    for _ in range(rng.randint(1 if len(humans) < 2 else 0, 2)):
        await m.add_ai(channel, host, level=rng.choice(["easy", "normal", "hard"]))
    await m.start_game(channel, host)
    for _ in range(400):
        await m.idle()
        if session.status != Status.PLAYING:
            return
        game = session.game
        assert game is not None
        roll = rng.random()
        seat = game.pending
        human = seat is not None and not session.seats[seat].ai and not session.seats[seat].left
        try:
            if roll < 0.01 and len(session.humans()) > 1:
                await m.leave(channel, session.seats[rng.choice(session.humans())].user_id or 0)
            elif roll < 0.02:
                target = rng.randrange(len(session.seats))
                if not session.seats[target].left:
                    await m.kick(channel, host, target, is_admin=True)
            elif roll < 0.1 or not human or game.phase is Phase.ROUND_OVER:
                clock.advance(session.turn_timer + 31)  # a turn timer (or the pause between rounds) runs out
            else:
                uid = session.seats[seat].user_id  # type: ignore[index]
                assert uid is not None
                await m.act(channel, uid, lambda v: v.legal[rng.randrange(len(v.legal))])
        except AE.AdapterError:
            pass  # a move refused (the game moved on meanwhile) changes nothing
    if session.status == Status.PLAYING:
        await m.end(channel, host, is_admin=True)


async def test_every_match_of_a_seeded_simulation_replays_to_its_recorded_result(store: Store) -> None:
    clock = ManualClock()
    limits = Limits(ai_delay=0.0, ai_catch_delay=0.0, round_pause=30.0)
    m = SessionManager(store, clock=clock, limits=limits, rng=Random(19))
    rng = Random(1901)
    for i in range(14):
        await play_match(m, clock, rng, 7000 + i)
    await m.idle()

    db = store._db  # type: ignore[attr-defined]  # the summaries as stored, read directly
    matches = await db.read("SELECT id, match_key, status, winner_seat FROM matches ORDER BY id")
    assert len(matches) == 14
    statuses = {str(status) for _, _, status, _ in matches}
    assert statuses == {"completed", "abandoned"}
    kinds: set[str] = set()
    for match_id, key, status, winner in matches:
        record = await store.match_record(key)
        game = replay(record)
        seats = await db.read(
            "SELECT seat, final_score, placement FROM match_players WHERE match_id = $1 ORDER BY seat", match_id
        )
        assert game.phase is Phase.MATCH_OVER, key
        assert [s[1] for s in seats] == list(game.scores), key
        assert {s[0]: s[2] for s in seats} == {s: i + 1 for i, s in enumerate(game.placement())}, key
        assert (game.winner if status == "completed" else None) == winner, key
        assert (status == "abandoned") == (game.abandoned or game.winner is None), key
        assert [seq for seq, _ in record] == list(range(len(record))), key  # no gap, nothing twice
        # the recap tells the rounds as they were recorded (issue 19 point 2)
        told = recap(record)
        stored = await db.read("SELECT number, winner_seat, points FROM match_rounds WHERE match_id = $1", match_id)
        assert [(r.number, r.winner, r.points) for r in told.rounds] == sorted(tuple(r) for r in stored), key
        assert all(r.card is not None for r in told.rounds) and told.winner == winner, key
        assert len(told.names) == len(seats)
        kinds.update(h.kind for h in told.highlights)
    assert kinds >= {"stack", "challenge"}, kinds


def test_actions_round_trip_and_bad_records_are_refused() -> None:
    for action in (Play(2, 17, Colour.TEAL, target=1, flex=True, uno=True), Draw(0), PlayMany(1, [4, 29], uno=True)):
        assert decode(encode(action)) == action
    with pytest.raises(RecordError):
        decode({"t": "Cheat", "player": 0})
    with pytest.raises(RecordError):
        replay([(1, {"a": {"t": "Draw", "player": 0}})])  # no start: a match from before records
    start = (0, {"start": {"mode": "classic", "players": 2, "seed": 3, "options": {}, "seats": []}})
    with pytest.raises(RecordError):
        replay([start, (2, {"a": {"t": "Draw", "player": 0}})])  # a gap
    newer = (0, {"start": {"v": 99, "mode": "classic", "players": 2, "seed": 3, "options": {}, "seats": []}})
    with pytest.raises(RecordError):
        replay([newer])  # a record of a newer format is never misread
