"""Issue 18 point 3 in the adapter: the host changes the lobby's rule options (presets, single options) through
:meth:`SessionManager.set_options`, committed like every change before anyone is told; anyone else, a value outside
the table or a game already started changes nothing. (No such method before: every test failed.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import Update
from bot.adapter import refusals as AE
from bot.adapter.session import Session
from bot.engine.options import Options
from bot.storage import Store, open_store

from .test_manager import ALICE, BOB, CHANNEL, lobby, manager_for


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


async def test_18_3_the_host_sets_a_preset_then_an_option_each_committed_then_published(
    store: Store, tmp_path: Path
) -> None:
    m = manager_for(store)
    seen: list[tuple[int, dict[str, Any]]] = []

    async def committed(update: Update) -> None:  # what a subscriber is told is already in the store
        (row,) = await store.load_games()
        assert row.version >= update.view.version
        seen.append((update.view.version, update.view.options.to_dict()))

    m.subscribe(committed)
    session = await lobby(m, "classic", options={"target_score": 200})
    await m.set_options(CHANNEL, ALICE, {}, preset_name="party")
    party = Options(target_score=200, stacking="any_draw", jump_in=True, seven_zero=True)
    assert session.options == party
    await m.set_options(CHANNEL, ALICE, {"jump_in": False, "scoring": "lowest"})
    expected = Options(target_score=200, stacking="any_draw", seven_zero=True, scoring="lowest")
    assert session.options == expected
    (row,) = await store.load_games()
    assert row.snapshot["options"] == expected.to_dict() and row.version == session.version
    for _ in range(500):  # the deliveries run in the background: wait for both (no time is asserted)
        if len(seen) >= 3:
            break
        await asyncio.sleep(0.01)
    assert seen == [(0, {"target_score": 200}), (1, party.to_dict()), (2, expected.to_dict())]
    restored = Session.from_dict(row.snapshot)  # no new saved format: the options were always in the snapshot
    assert restored.options == expected
    await m.set_options(CHANNEL, ALICE, {}, preset_name="official")
    assert session.options == Options(target_score=200)


async def test_18_3_anyone_but_the_host_a_bad_value_or_a_started_game_changes_nothing(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "flip")
    await m.join(CHANNEL, BOB, "Bob")
    version = session.version
    with pytest.raises(AE.NotHost):
        await m.set_options(CHANNEL, BOB, {"force_play": True})
    for bad in ({"seven_zero": True}, {"stacking": "all"}, {"false_catch_penalty": 99}, {"nope": 1}, {"jump_in": 1}):
        with pytest.raises(AE.BadRequest):
            await m.set_options(CHANNEL, ALICE, bad)
    with pytest.raises(AE.BadRequest):
        await m.set_options(CHANNEL, ALICE, {}, preset_name="everything")
    assert session.options == Options() and session.version == version
    await m.start_game(CHANNEL, ALICE)
    with pytest.raises(AE.AlreadyStarted):
        await m.set_options(CHANNEL, ALICE, {"force_play": True})
    assert session.options == Options() and session.game is not None and session.game.options == Options()


async def test_18_3_a_failed_commit_leaves_the_options_as_they_were(store: Store, monkeypatch: Any) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic")

    async def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "save_game", fail)
    with pytest.raises(OSError):
        await m.set_options(CHANNEL, ALICE, {"force_play": True})
    assert session.options == Options()
