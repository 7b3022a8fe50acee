"""Engine snapshot upgrades (DESIGN "Saved formats and upgrades"): every step of the chain on the committed v1
fixtures (``tests/fixtures/snapshots/v1/engine``, written by the release that saved v1), and a snapshot newer than the
code refused as "too new" so the store keeps it aside."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random

import pytest

from bot.engine import errors as E
from bot.engine import snapshot
from bot.engine.cards import Side
from bot.engine.game import Game
from bot.engine.simulate import random_step
from bot.engine.view import Phase

FIXTURES = Path(__file__).parent.parent / "fixtures" / "snapshots" / "v1" / "engine"
V1 = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))}


def test_the_committed_v1_fixtures_cover_the_positions_that_matter() -> None:
    assert {d["v"] for d in V1.values()} == {1}
    phases = {d["phase"] for d in V1.values()}
    assert {"play", "play_drawn", "declare_colour", "challenge", "round_over", "match_over"} <= phases
    assert any(d["mode"] == "flip" and d["side"] == "dark" for d in V1.values())
    assert any(d["mode"] == "flex" and d["power"] and not all(d["power"]) for d in V1.values())
    assert any(d["challenge"] and d["challenge"][5] for d in V1.values())  # a flex-side challenge


@pytest.mark.parametrize("name", V1)
def test_step_v1_to_v2_adds_an_empty_box_and_changes_nothing_else(name: str) -> None:
    v1 = V1[name]
    before = copy.deepcopy(v1)
    v2 = snapshot.STEPS[1](v1)
    assert v1 == before, "an upgrade step must not change its input"
    assert v2["v"] == 2 and v2["box"] == []
    assert {k: v for k, v in v2.items() if k not in ("v", "box")} == {k: v for k, v in v1.items() if k != "v"}


@pytest.mark.parametrize("name", V1)
def test_every_v1_fixture_loads_saves_in_the_current_format_and_the_game_goes_on(name: str) -> None:
    game = Game.from_dict(V1[name])
    saved = game.to_dict()
    assert saved["v"] == snapshot.SNAPSHOT_VERSION
    assert Game.from_dict(json.loads(json.dumps(saved))) == game
    assert game.to_dict() == Game.from_dict(snapshot.upgrade(V1[name])).to_dict()
    if game.phase is Phase.MATCH_OVER:
        assert game.winner is not None and not any(game.legal_actions(s) for s in range(game.players))
        return
    owner = game.pending if game.pending is not None else game.current
    legal = game.legal_actions(owner)
    assert legal.moves >= 1
    step = game.step
    game.apply(legal[legal.moves - 1])  # draw / keep / accept / next round…: always a legal move
    assert game.step == step + 1
    agent = Random(1)
    for _ in range(300):  # and the match can be played on from there
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent)
    game.check_consistency()


def test_the_fixtures_keep_what_they_were_saved_with() -> None:
    flip = Game.from_dict(V1["flip_dark_side"])
    assert flip.side is Side.DARK and flip.top == flip.deck.faces(Side.DARK)[V1["flip_dark_side"]["discard"][-1]]
    flex = Game.from_dict(V1["flex_power_used"])
    assert flex.power == [bool(x) for x in V1["flex_power_used"]["power"]]
    challenge = Game.from_dict(V1["flex_flex_side_challenge"])
    assert challenge.challenge is not None and challenge.challenge.flex
    lowest = Game.from_dict(V1["classic_112_lowest_play_drawn"])
    assert lowest.options.scoring == "lowest" and lowest.options.classic_deck == "112" and lowest.drawn is not None


def test_a_snapshot_newer_than_the_code_is_refused_as_too_new() -> None:
    newer = dict(Game.from_dict(V1["classic_mid_round"]).to_dict(), v=snapshot.SNAPSHOT_VERSION + 1)
    with pytest.raises(E.SnapshotTooNew):
        Game.from_dict(newer)
    with pytest.raises(E.SnapshotTooNew):
        snapshot.upgrade(newer)


@pytest.mark.parametrize("version", [None, 0, "1", 1.0, True])
def test_a_snapshot_without_a_known_version_is_refused(version: object) -> None:
    bad = dict(V1["classic_mid_round"], v=version)
    with pytest.raises(E.SnapshotError) as info:
        Game.from_dict(bad)
    assert not isinstance(info.value, E.SnapshotTooNew)


@pytest.mark.parametrize("name", V1)
def test_step_v2_to_v3_adds_no_pending_stack_and_changes_nothing_else(name: str) -> None:
    v2 = snapshot.STEPS[1](V1[name])
    before = copy.deepcopy(v2)
    v3 = snapshot.STEPS[2](v2)
    assert v2 == before, "an upgrade step must not change its input"
    assert v3["v"] == 3 and v3["stack"] is None
    assert {k: v for k, v in v3.items() if k not in ("v", "stack")} == {k: v for k, v in v2.items() if k != "v"}
    assert snapshot.upgrade(V1[name]) == snapshot.STEPS[3](v3)  # the whole chain, v1 → v2 → v3 → v4


def test_a_pending_stack_round_trips_in_the_current_format() -> None:
    from bot.engine.builder import build
    from bot.engine.options import Options

    game = build("classic", ["R+2 B1", "G+2 B2", "B3"], "R5", options=Options(stacking="same_kind"))
    game.apply(game.legal_actions(0)[0])
    assert game.phase is Phase.STACK and game.to_dict()["stack"] == 2
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


# --- v3 → v4 (issue 17 points 7 and 9) ------------------------------------------------------------------------------
# The committed v3 fixtures (``tests/fixtures/snapshots/v3/engine``) were written by the last code that saved v3,
# house rules H6–H9 included (saved under v3 without a bump: the reason v4 exists).

FIXTURES_V3 = FIXTURES.parent.parent / "v3" / "engine"
V3 = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES_V3.glob("*.json"))}


def test_the_committed_v3_fixtures_cover_the_house_rules_saved_under_v3() -> None:
    assert {d["v"] for d in V3.values()} == {3}
    saved = {name for d in V3.values() for name in d["options"]}
    assert {"stacking", "stack_deflect", "elimination", "multi_play", "number_finish"} <= saved
    assert any(d["phase"] == "stack" and d["stack"] for d in V3.values())
    assert any(d["options"].get("elimination") and not all(d["active"]) for d in V3.values())


@pytest.mark.parametrize("name", V3)
def test_step_v3_to_v4_changes_nothing_but_the_version(name: str) -> None:
    v3 = V3[name]
    before = copy.deepcopy(v3)
    v4 = snapshot.STEPS[3](v3)
    assert v3 == before, "an upgrade step must not change its input"
    assert v4 == dict(v3, v=4)
    assert snapshot.upgrade(v3) == v4


@pytest.mark.parametrize("name", V3)
def test_every_v3_fixture_loads_saves_as_v4_and_the_game_goes_on(name: str) -> None:
    game = Game.from_dict(V3[name])
    saved = game.to_dict()
    assert saved["v"] == snapshot.SNAPSHOT_VERSION == 4
    assert {k: v for k, v in saved.items() if k != "v"} == {k: v for k, v in V3[name].items() if k != "v"}
    assert Game.from_dict(json.loads(json.dumps(saved))) == game
    assert game.teams == 0
    agent = Random(3)
    for _ in range(400):  # the match can be played on from there
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent)
    game.check_consistency()


def test_a_v4_team_game_is_too_new_for_v3_code_and_round_trips_here() -> None:
    from bot.engine.options import Options

    game, _ = Game.new("classic", 4, seed=5, options=Options(teams=True))
    saved = game.to_dict()
    assert saved["v"] == 4 and saved["options"] == {"teams": True}
    assert Game.from_dict(json.loads(json.dumps(saved))) == game
    bad = dict(saved, players=5, active=[1] * 5)
    with pytest.raises(E.SnapshotError):
        Game.from_dict(bad)  # SPEC T1: a team game of 5 players is not one this code saves


# The committed v4 fixtures (``tests/fixtures/snapshots/v4/engine``): partner games saved by the code of v4, for the
# upgrade step of the next format; until then they load as they are and play on.
FIXTURES_V4 = FIXTURES.parent.parent / "v4" / "engine"
V4 = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES_V4.glob("*.json"))}


@pytest.mark.parametrize("name", V4)
def test_every_v4_team_fixture_loads_and_its_match_is_played_to_the_end_by_team(name: str) -> None:
    from bot.engine.teams import team_of, team_totals

    data = V4[name]
    assert data["v"] == 4 and data["options"]["teams"] is True
    game = Game.from_dict(data)
    assert game.teams == game.players // 2 and snapshot.upgrade(data)["v"] == snapshot.SNAPSHOT_VERSION
    agent = Random(4)
    for _ in range(30000):
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent)
    assert game.phase is Phase.MATCH_OVER and game.winner is not None
    totals = team_totals(game.scores, game.teams)
    best = min(totals) if game.options.scoring == "lowest" else max(totals)
    assert totals[team_of(game.winner, game.teams)] == best
