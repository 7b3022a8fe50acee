"""SPEC T1 through the adapter: **Change partners** made from a lobby's version changes the partners once; a request
from an older version (a stale message, the second of a double click) is refused as Stale and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import refusals as AE
from bot.storage import Store, open_store

from .test_manager import ALICE, BOB, CAROL, CHANNEL, DAVE, lobby, manager_for


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


async def test_t1_change_partners_from_an_older_version_is_stale_and_changes_nothing(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic", options={"teams": True})
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]:
        await m.join(CHANNEL, uid, name)
    shown = session.version
    names = [s.name for s in session.seats]
    # a double click: both requests made from the lobby at version `shown`, arriving together
    done = await asyncio.gather(
        m.change_partners(CHANNEL, ALICE, version=shown),
        m.change_partners(CHANNEL, ALICE, version=shown),
        return_exceptions=True,
    )
    assert sum(isinstance(r, AE.Stale) for r in done) == 1 and session.version == shown + 1
    assert [s.name for s in session.seats] == [names[0], names[2], names[3], names[1]]  # rotated once
    committed = (await store.load_games())[0].snapshot
    with pytest.raises(AE.Stale):  # a message of before
        await m.change_partners(CHANNEL, ALICE, version=shown)
    assert (await store.load_games())[0].snapshot == committed and session.version == shown + 1
    await m.change_partners(CHANNEL, ALICE, version=session.version)  # the current one
    assert [s.name for s in session.seats] == [names[0], names[3], names[1], names[2]]
