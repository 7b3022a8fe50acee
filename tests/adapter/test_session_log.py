"""Session snapshot v3: the last-moves log is kept with the session (issue 12, point 2), written before each commit
so that it is saved with the move it tells of and survives a restart. Fixtures: ``tests/fixtures/snapshots/v2/session``,
whole ``live_games`` rows written by the release that saved format v2 (main at 351784c, with
``tests.fixtures.snapshots.make_v1._sessions``), and the v1 rows before them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, Update
from bot.adapter.manager import Limits
from bot.adapter.session import LOG_LINES, SESSION_VERSION, STEPS, Session, upgrade
from bot.storage import LiveGame, Store

SNAPSHOTS = Path(__file__).parent.parent / "fixtures" / "snapshots"
V1 = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((SNAPSHOTS / "v1" / "session").glob("*.json"))}
V2 = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((SNAPSHOTS / "v2" / "session").glob("*.json"))}


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await Store.open(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def writer(update: Update) -> list[str]:
    """A log writer as the Discord layer's: one line per event, naming the change."""
    return [f"{update.kind}:{update.actor}:{type(e).__name__}" for e in update.events]


def manager_for(store: Store, *, log: bool = True) -> SessionManager:
    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
    if log:
        m.set_log_writer(writer)
    return m


def test_the_committed_v2_rows_are_v2_and_cover_every_status() -> None:
    assert SESSION_VERSION >= 3  # v4 (issue 21) added the seats' AI levels
    assert set(V2) == set(V1)
    assert {r["snapshot"]["v"] for r in V2.values()} == {2}
    assert {r["status"] for r in V2.values()} == {"lobby", "playing", "finished"}
    assert all("log" not in r["snapshot"] for r in V2.values())


@pytest.mark.parametrize("name", V2)
def test_step_v2_to_v3_gives_an_empty_log_and_changes_nothing_else(name: str) -> None:
    v2 = V2[name]["snapshot"]
    before = copy.deepcopy(v2)
    v3 = STEPS[2](v2)
    assert v2 == before, "an upgrade step must not change its input"
    assert v3 == dict(v2, v=3, log=[])


@pytest.mark.parametrize("name", V1)
def test_a_v1_row_is_upgraded_through_every_step(name: str) -> None:
    current = upgrade(V1[name]["snapshot"])
    assert current["v"] == SESSION_VERSION and current["log"] == []
    session = Session.from_dict(V1[name]["snapshot"])
    assert session.log == [] and session.to_dict()["v"] == SESSION_VERSION


async def test_a_database_of_v2_rows_resumes_and_its_log_is_written_saved_and_kept_across_a_restart(
    store: Store,
) -> None:
    for row in V2.values():
        await store.save_game(LiveGame(**copy.deepcopy(row)))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    assert set(sessions) == {r["channel_id"] for r in V2.values()}  # nothing set aside
    channel = V2["classic_mid_round"]["channel_id"]
    session = sessions[channel]
    assert session.log == []
    game = session.game
    assert game is not None and game.pending is not None
    user = session.seats[game.pending].user_id
    assert user is not None
    update = await m.act(channel, user, lambda v: v.legal[v.legal.moves - 1])
    assert session.log == writer(update)[-LOG_LINES:] and session.log
    (saved,) = [g for g in await store.load_games() if g.channel_id == channel]
    assert saved.snapshot["v"] == SESSION_VERSION and saved.snapshot["log"] == session.log  # saved with the move itself
    logged = list(session.log)
    await m.close()
    m2 = manager_for(store)
    again = {s.channel_id: s for s in await m2.start()}
    assert again[channel].log == logged
    await m2.close()


async def test_the_log_keeps_the_last_lines_and_a_new_match_starts_it_afresh(store: Store) -> None:
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    update = await m.start_game(1, 101)
    session = m.sessions[1]
    assert session.log == writer(update)[-LOG_LINES:]
    for _ in range(6):
        game = session.game
        assert game is not None
        if game.pending is None:
            break
        user = session.seats[game.pending].user_id
        assert user is not None
        await m.act(1, user, lambda v: v.legal[v.legal.moves - 1])
    assert 0 < len(session.log) <= LOG_LINES
    await m.close()


async def test_a_failed_commit_leaves_the_log_as_it_was(store: Store) -> None:
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    session = m.sessions[1]
    before = list(session.log)
    save_game = store.save_game

    async def failing(row: LiveGame, **fence: object) -> None:
        raise OSError("disk full")

    store.save_game = failing  # type: ignore[method-assign]
    game = session.game
    assert game is not None and game.pending is not None
    user = session.seats[game.pending].user_id
    assert user is not None
    with pytest.raises(OSError):
        await m.act(1, user, lambda v: v.legal[v.legal.moves - 1])
    assert session.log == before
    store.save_game = save_game  # type: ignore[method-assign]
    await m.close()


async def test_without_a_log_writer_nothing_is_logged(store: Store) -> None:
    m = manager_for(store, log=False)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    assert m.sessions[1].log == [] and m.sessions[1].to_dict()["log"] == []
    await m.close()


async def test_the_writer_is_given_the_update_its_subscribers_receive_once_it_is_committed(store: Store) -> None:
    """Issue 17 point 3: the writer's one argument is the change as it is about to be committed — the same view,
    kind, events and actor as the :class:`Update` delivered after the commit."""
    written: list[Update] = []
    delivered: list[Update] = []
    m = manager_for(store, log=False)
    m.set_log_writer(lambda update: written.append(update) or writer(update))

    async def deliver(update: Update) -> None:
        delivered.append(update)

    m.subscribe(deliver)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    await m.idle()
    started = next(u for u in delivered if u.kind == "started")
    (told,) = [u for u in written if u.kind == "started"]
    assert told.view.version == started.view.version and told.view.log == ()  # before its own lines were added
    assert (told.events, told.actor) == (started.events, started.actor) and started.view.log == tuple(writer(told))
    m.set_log_writer(None)
    session = m.sessions[1]
    game = session.game
    assert game is not None and game.pending is not None
    user = session.seats[game.pending].user_id
    assert user is not None
    before = list(session.log)
    await m.act(1, user, lambda v: v.legal[0])
    assert session.log == before and len(written) == 1  # no writer: nothing more is written
    await m.close()
