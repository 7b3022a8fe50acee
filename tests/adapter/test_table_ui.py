"""The Discord layer's data kept with a session is one typed, frozen record (issue 17 point 3: ``Session.ui`` was a
free dict read as ``str(session.ui.get("lang", "en"))``), saved with the session snapshot since v6. Rows of v5
(committed fixtures in ``tests/fixtures/snapshots/v5/session``, written by the release before v6) and of every older
version are upgraded to it, and their games go on (DESIGN "Saved formats and upgrades")."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, TableUi
from bot.adapter.manager import Limits
from bot.adapter.refusals import NoGame
from bot.adapter.session import SESSION_VERSION, STEPS, Session, Status, upgrade
from bot.adapter.thinker import Thinker
from bot.engine.view import Phase
from bot.storage import LiveGame, Store, open_store

SNAPSHOTS = Path(__file__).parent.parent / "fixtures" / "snapshots"
ROWS = {
    p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((SNAPSHOTS / "v5" / "session").glob("*.json"))
}
OLDER = {
    f"{p.parent.parent.name}/{p.stem}": json.loads(p.read_text(encoding="utf-8"))
    for p in sorted(SNAPSHOTS.glob("v*/session/*.json"))
}


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


def test_the_committed_v5_rows_are_v5_with_the_keys_the_discord_layer_wrote() -> None:
    assert {r["snapshot"]["v"] for r in ROWS.values()} == {5}
    assert {r["status"] for r in ROWS.values()} == {"lobby", "playing", "finished"}
    keys = set().union(*(r["snapshot"]["ui"] for r in ROWS.values()))
    assert keys == {f.name for f in dataclasses.fields(TableUi)} | {"table"}  # every field, and one no release wrote
    assert any(r["snapshot"]["game"] and r["snapshot"]["game"]["phase"] == "challenge" for r in ROWS.values())


EXPECTED_V6_UI = {
    "lobby_in_thread": TableUi(
        lang="it", message=661031, link_channel=30, link_message=662031, link_host="Ann"
    ).to_dict(),
    "classic_mid_round": TableUi(lang="en", message=664032, ping=663032).to_dict(),
    "classic_challenge": TableUi(lang="de", message=661033).to_dict(),
    "finished": TableUi(lang="en", message=661034, summary="match:0", round_summary=665034).to_dict(),
}


@pytest.mark.parametrize("name", ROWS)
def test_step_v5_to_v6_types_the_ui_and_changes_nothing_else(name: str) -> None:
    v5 = ROWS[name]["snapshot"]
    before = copy.deepcopy(v5)
    v6 = STEPS[5](v5)
    assert v5 == before, "an upgrade step must not change its input"
    assert v6["v"] == 6
    assert v6["ui"] == EXPECTED_V6_UI[name]  # ``table``, which no release wrote, is not kept
    assert {k: v for k, v in v6.items() if k not in ("v", "ui")} == {
        k: v for k, v in v5.items() if k not in ("v", "ui")
    }


def test_step_v5_to_v6_reads_a_ui_without_a_language_as_english_as_its_readers_did() -> None:
    v5 = dict(ROWS["classic_mid_round"]["snapshot"], ui={"message": "77", "summary": "round:2"})
    assert STEPS[5](v5)["ui"] == TableUi(message=77, summary="round:2").to_dict()
    assert STEPS[5](dict(v5, ui={}))["ui"] == TableUi().to_dict()


@pytest.mark.parametrize("name", OLDER)
def test_every_older_session_version_reads_into_a_typed_ui(name: str) -> None:
    data = OLDER[name]["snapshot"]
    old_ui = dict(data["ui"])
    session = Session.from_dict(copy.deepcopy(data))
    assert isinstance(session.ui, TableUi)
    assert session.ui.lang == old_ui.get("lang", "en") and session.ui.message == old_ui.get("message")
    assert upgrade(copy.deepcopy(data))["v"] == SESSION_VERSION
    assert Session.from_dict(session.to_dict()) == session


async def test_a_database_of_v5_rows_resumes_with_its_ui_and_the_challenge_is_answered(store: Store) -> None:
    for row in ROWS.values():
        await store.save_game(LiveGame(**copy.deepcopy(row)))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    assert set(sessions) == {r["channel_id"] for r in ROWS.values()}  # nothing set aside
    for name, row in ROWS.items():
        view = m.snapshot(row["channel_id"])
        assert view is not None and view.ui == TableUi.from_dict(EXPECTED_V6_UI[name])
    challenge = sessions[ROWS["classic_challenge"]["channel_id"]]
    game = challenge.game
    assert game is not None and game.phase is Phase.CHALLENGE and game.pending is not None
    user = challenge.seats[game.pending].user_id
    assert user is not None
    update = await m.act(challenge.channel_id, user, lambda v: v.legal[0])
    assert update.view.ui.lang == "de" and update.view.status is Status.PLAYING
    saved = {r.channel_id: r.snapshot for r in await store.load_games()}[challenge.channel_id]
    assert saved["v"] == SESSION_VERSION and saved["ui"] == EXPECTED_V6_UI["classic_challenge"]
    await m.close()


async def test_update_ui_changes_named_fields_under_the_lock_and_keeps_them_across_a_restart(store: Store) -> None:
    m = manager_for(store)
    await m.start()
    await m.open_lobby(channel_id=1, guild_id=9, host_id=101, host_name="Ann", mode="classic", ui=TableUi(lang="fr"))
    await m.update_ui(1, lambda ui: dataclasses.replace(ui, message=500))
    await m.update_ui(1, lambda ui: dataclasses.replace(ui, ping=600), commit=False)  # saved with the next change
    first = m.snapshot(1)
    assert first is not None and first.ui == TableUi(lang="fr", message=500)  # a view is what was committed
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.ui.lang = "en"  # type: ignore[misc]
    await m.join(1, 102, "Ben")
    view = m.snapshot(1)
    assert view is not None and view.ui == TableUi(lang="fr", message=500, ping=600)
    with pytest.raises(NoGame):
        await m.update_ui(2, lambda ui: dataclasses.replace(ui, message=1))
    await m.close()

    again = manager_for(store)
    (loaded,) = await again.start()
    assert loaded.ui == TableUi(lang="fr", message=500, ping=600)
    await again.close()


async def test_a_rematch_keeps_the_language_and_nothing_else_of_the_ui(store: Store) -> None:
    m = manager_for(store)
    await m.start()
    await m.open_lobby(
        channel_id=1,
        guild_id=9,
        host_id=101,
        host_name="Ann",
        mode="classic",
        options={"target_score": 0},
        ui=TableUi(lang="pl", message=5),
    )
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    session = m.sessions[1]
    while session.status is not Status.FINISHED:
        game = session.game
        assert game is not None
        seat = game.pending if game.pending is not None else game.current
        user = session.seats[seat].user_id
        assert user is not None
        await m.act(1, user, lambda v: v.legal[0])
    again = await m.rematch(1, 101, "Ann")
    assert again.ui == TableUi(lang="pl")
    await m.close()
