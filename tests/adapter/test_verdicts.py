"""A challenge's verdict is kept with the session from the engine's events (issue 17 point 3: the Discord layer
rebuilt it in a module singleton that followed the updates, and lost it at a restart). Session snapshot v7 saves it;
rows of v6 (committed fixtures in ``tests/fixtures/snapshots/v6/session``, written by the code before v7) and of every
older version load without one and play on (DESIGN "Saved formats and upgrades")."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, TableUi
from bot.adapter.manager import Limits
from bot.adapter.session import SESSION_VERSION, STEPS, Session, Status
from bot.adapter.thinker import Thinker
from bot.adapter.verdicts import Challenges, Verdict
from bot.engine.actions import Accept, Challenge, Play
from bot.engine.builder import build
from bot.engine.cards import Colour
from bot.engine.errors import SnapshotError
from bot.engine.events import CardPlayed, ChallengeResolved, TurnSkipped
from bot.engine.view import Phase
from bot.storage import LiveGame, Store, open_store
from cogs.uno import screens

SNAPSHOTS = Path(__file__).parent.parent / "fixtures" / "snapshots"
ROWS = {
    p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((SNAPSHOTS / "v6" / "session").glob("*.json"))
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


def manager_for(store: Store) -> SessionManager:
    return SessionManager(
        store,
        clock=ManualClock(),
        limits=Limits(ai_delay=0.0, ai_catch_delay=0.0),
        rng=Random(1),
        thinker=Thinker(workers=0),
    )


def test_the_facts_follow_the_events_the_colour_judged_then_the_verdict() -> None:
    face = build("classic", ["W+4"], "R5").faces[0]
    facts = Challenges().after([CardPlayed(0, face, colour=Colour.BLUE, judged=Colour.RED)])
    assert facts == Challenges(judged=Colour.RED)
    assert facts.after([TurnSkipped(1)]) is facts  # nothing to keep: the same facts
    resolved = facts.after([ChallengeResolved(1, 0, True, 0, 4)])
    assert resolved == Challenges(None, Verdict(1, 0, True, 0, 4, Colour.RED))
    again = resolved.after([CardPlayed(2, face, judged=Colour.BLUE)])  # the next wild draw: the verdict stays
    assert again == Challenges(Colour.BLUE, resolved.verdict)
    assert Challenges.from_dict(json.loads(json.dumps(again.to_dict()))) == again
    assert again.after([CardPlayed(3, face)]) == Challenges(None, resolved.verdict)  # stacked on: nothing to judge
    assert Challenges().after([ChallengeResolved(1, 0, False, 1, 6)]).verdict == Verdict(1, 0, False, 1, 6, None)


def test_the_committed_v6_rows_are_v6_with_a_pending_and_a_resolved_challenge() -> None:
    assert {r["snapshot"]["v"] for r in ROWS.values()} == {6}
    games = {name: r["snapshot"]["game"] for name, r in ROWS.items()}
    assert games["classic_challenge"]["phase"] == "challenge"
    assert games["classic_challenged"]["revealed"] is not None  # the challenger sees the challenged hand
    assert all("challenges" not in r["snapshot"] for r in ROWS.values())


@pytest.mark.parametrize("name", ROWS)
def test_step_v6_to_v7_adds_empty_challenge_facts_and_changes_nothing_else(name: str) -> None:
    v6 = ROWS[name]["snapshot"]
    before = copy.deepcopy(v6)
    v7 = STEPS[6](v6)
    assert v6 == before, "an upgrade step must not change its input"
    assert v7 == dict(v6, v=7, challenges={"judged": None, "verdict": None})


@pytest.mark.parametrize("name", OLDER)
def test_every_older_session_version_loads_without_a_verdict(name: str) -> None:
    session = Session.from_dict(copy.deepcopy(OLDER[name]["snapshot"]))
    assert session.challenges == Challenges() and session.to_dict()["v"] == SESSION_VERSION


async def test_a_database_of_v6_rows_resumes_and_its_challenges_are_answered(store: Store) -> None:
    for row in ROWS.values():
        await store.save_game(LiveGame(**copy.deepcopy(row)))
    m = manager_for(store)
    sessions = {s.channel_id: s for s in await m.start()}
    assert set(sessions) == {r["channel_id"] for r in ROWS.values()}  # nothing set aside
    # resolved before the upgrade: the challenger still sees the challenged hand, with no verdict (as after a restart)
    challenged = m.snapshot(ROWS["classic_challenged"]["channel_id"])
    assert challenged is not None and challenged.verdict is None
    (seer,) = [v for v in challenged.seat_views or () if v.revealed is not None]
    assert challenged.verdict_for(seer) is None and "Challenge" not in screens.revealed_text(challenged, seer, "en")
    # pending at the upgrade: its verdict is kept, without the colour the card was judged on (not saved by v6)
    pending = sessions[ROWS["classic_challenge"]["channel_id"]]
    game = pending.game
    assert game is not None and game.phase is Phase.CHALLENGE and game.pending is not None
    challenger = game.pending
    user = pending.seats[challenger].user_id
    assert user is not None
    update = await m.act(pending.channel_id, user, lambda v: Challenge(challenger))
    resolved = next(e for e in update.events if isinstance(e, ChallengeResolved))
    verdict = update.view.verdict
    assert verdict == Verdict(
        challenger, resolved.player, resolved.guilty, resolved.penalised, resolved.count, colour=None
    )
    mine = update.view.view_for(user)
    assert mine is not None and update.view.verdict_for(mine) == verdict
    assert update.view.status is Status.PLAYING
    await m.close()


async def test_the_verdict_is_committed_with_the_challenge_and_shown_to_the_challenger_after_a_restart(
    store: Store,
) -> None:
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.join(1, 103, "Cat")
    await m.start_game(1, 101)
    m.sessions[1].game = build("classic", ["W+4 G3 Y1", "B4", "G7"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    await m.act(1, 101, lambda v: next(a for a in v.legal if isinstance(a, Play) and a.colour is Colour.YELLOW))
    await m.act(1, 102, lambda v: Challenge(1))  # Ann held no red: innocent, Ben draws 6
    expected = Verdict(challenger=1, player=0, guilty=False, penalised=1, count=6, colour=Colour.RED)
    assert m.snapshot(1) is not None and m.snapshot(1).verdict == expected  # type: ignore[union-attr]
    await m.close()

    again = manager_for(store)
    await again.start()
    view = again.snapshot(1)
    assert view is not None and view.verdict == expected  # kept across the restart
    ben, cat = view.view_for(102), view.view_for(103)
    assert ben is not None and cat is not None
    assert view.verdict_for(ben) == expected and view.verdict_for(cat) is None  # the challenger's alone
    text = screens.revealed_text(view, ben, "en")
    assert "Colour in play when the card was played: " in text and "Red" in text and "Challenge lost" in text
    await again.close()


async def test_an_accepted_wild_draw_has_no_verdict_and_nothing_left_to_judge(store: Store) -> None:
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    m.sessions[1].game = build("classic", ["W+4 G3 Y1", "B4 R9"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    await m.act(1, 101, lambda v: next(a for a in v.legal if isinstance(a, Play) and a.colour is Colour.YELLOW))
    assert m.sessions[1].challenges == Challenges(judged=Colour.RED)
    await m.act(1, 102, lambda v: Accept(1))
    view = m.snapshot(1)
    assert view is not None and view.verdict is None and m.sessions[1].challenges == Challenges()
    await m.close()


@pytest.mark.parametrize(
    "change",
    [
        {"ui": {"lang": "en"}},  # fields missing
        {"ui": dict(TableUi().to_dict(), message="not an id")},
        {"challenges": {"judged": "mauve", "verdict": None}},
        {"challenges": {"judged": None, "verdict": {"challenger": 1}}},
    ],
)
def test_a_malformed_ui_or_challenge_record_is_refused_as_a_bad_snapshot(change: dict[str, Any]) -> None:
    current = Session.from_dict(copy.deepcopy(ROWS["classic_challenged"]["snapshot"])).to_dict()
    Session.from_dict(copy.deepcopy(current))  # as written: fine
    with pytest.raises(SnapshotError):
        Session.from_dict(dict(current, **change))


async def test_a_restart_between_the_wild_draw_and_its_challenge_keeps_the_colour_it_is_judged_on(
    store: Store,
) -> None:
    m = manager_for(store)
    await m.open_lobby(channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic")
    await m.join(1, 102, "Ben")
    await m.start_game(1, 101)
    m.sessions[1].game = build("classic", ["W+4 R3 Y1", "B4 G9"], "R5", draw="Y2 Y3 Y4 Y5 Y6 Y7")
    await m.act(1, 101, lambda v: next(a for a in v.legal if isinstance(a, Play) and a.colour is Colour.GREEN))
    await m.close()

    again = manager_for(store)
    (session,) = await again.start()
    assert session.challenges == Challenges(judged=Colour.RED)  # saved with the play
    update = await again.act(1, 102, lambda v: Challenge(1))  # Ann held R3: guilty, she draws 4
    assert update.view.verdict == Verdict(1, 0, True, 0, 4, Colour.RED)
    await again.close()
