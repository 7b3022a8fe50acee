"""The read-only session API (issue 12.1): ``manager.snapshot(channel)`` and each ``Update.view`` are the session as
committed, frozen; a failed commit leaves them as they were (DESIGN "Adapter": nothing is shown before it is saved)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.adapter import SessionView, Status, UpdateKind
from bot.adapter import refusals as AE
from bot.engine.actions import Draw
from bot.storage import Store

from .test_manager import ALICE, BOB, CHANNEL, manager_for, started, store, user_of

__all__ = ["store"]


async def test_the_snapshot_is_the_committed_session_and_never_changes(store: Store) -> None:
    m = manager_for(store)
    updates: list[Any] = []

    async def seen(update: Any) -> None:
        updates.append(update)

    m.subscribe(seen)
    session = await started(m, players=2)
    await m.idle()
    first = m.snapshot(CHANNEL)
    assert isinstance(first, SessionView) and first.status is Status.PLAYING and first.version == session.version
    assert updates[-1].view is first and updates[-1].kind is UpdateKind.STARTED
    assert first.public is not None and first.seat_views is not None and len(first.seat_views) == 2
    assert first.view_for(BOB) is first.seat_views[1] and first.view_for(None) is first.public
    assert first.view_for(999) is first.public  # a spectator sees the table
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.version = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.ui.message = 1  # type: ignore[misc]
    game = session.game
    assert game is not None and game.pending is not None
    mover = user_of(session, game.pending)
    before = first.public
    update = await m.act(CHANNEL, mover, lambda v: Draw(v.me or 0))
    now = m.snapshot(CHANNEL)
    assert update.view is now and now is not first and now.version == first.version + 1
    assert first.public is before and first.public.draw_pile_size > now.public.draw_pile_size  # type: ignore[union-attr]


async def test_a_failed_commit_leaves_the_snapshot_as_committed(store: Store) -> None:
    m = manager_for(store)
    session = await started(m, players=2)
    committed = m.snapshot(CHANNEL)
    assert committed is not None and committed.public is not None

    async def broken(row: Any, **fence: Any) -> None:
        raise OSError("disk full")

    store.save_game = broken  # type: ignore[method-assign]
    game = session.game
    assert game is not None and game.pending is not None
    with pytest.raises(OSError):
        await m.act(CHANNEL, user_of(session, game.pending), lambda v: Draw(v.me or 0))
    assert m.snapshot(CHANNEL) is committed
    assert m.view(CHANNEL, None) is committed.public


async def test_view_raises_in_the_lobby_and_without_a_game(store: Store) -> None:
    m = manager_for(store)
    with pytest.raises(AE.NoGame):
        m.view(CHANNEL, ALICE)
    assert m.snapshot(CHANNEL) is None
    await m.open_lobby(channel_id=CHANNEL, guild_id=1, host_id=ALICE, host_name="Alice", mode="classic")
    await m.add_ai(CHANNEL, ALICE)
    lobby = m.snapshot(CHANNEL)
    assert lobby is not None and lobby.status is Status.LOBBY and lobby.public is None
    assert [(s.name, s.ai_number) for s in lobby.seats] == [("Alice", None), ("AI 1", 1)]
    with pytest.raises(AE.NotStarted):
        m.view(CHANNEL, ALICE)
