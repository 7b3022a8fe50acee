"""Partner games (SPEC T) through the adapter: the seat count at the start, the result crediting both partners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter import errors as AE
from bot.adapter.session import Status
from bot.storage import Store, open_store

from .test_manager import ALICE, CHANNEL, lobby, manager_for


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


# --- T1 Teams and seats ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["classic", "flip"])
async def test_t1_a_partner_game_starts_with_4_6_or_8_players_only(store: Store, mode: str) -> None:
    m = manager_for(store)
    session = await lobby(m, mode, options={"teams": True})
    for _ in range(4):
        await m.add_ai(CHANNEL, ALICE)
    with pytest.raises(AE.TeamPlayers):  # 5 players: refused, nothing changes
        await m.start_game(CHANNEL, ALICE)
    assert session.status is Status.LOBBY and session.game is None
    await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    assert session.game is not None and session.game.teams == 3


async def test_t1_without_teams_five_players_start(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic")
    for _ in range(4):
        await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    assert session.game is not None and session.game.teams == 0
