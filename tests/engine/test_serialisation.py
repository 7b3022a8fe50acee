"""Saving and loading games: lossless, versioned, and refusing corrupt snapshots (DESIGN "Engine contract")."""

import copy
import json

import pytest

from bot.engine.actions import Challenge
from bot.engine.errors import SnapshotError
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.simulate import play_random_match

from .helpers import build, play


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
def test_snapshots_round_trip_through_json_at_every_step_of_a_match(mode):
    def check(game, _events):
        data = json.loads(json.dumps(game.to_dict()))
        assert Game.from_dict(data) == game

    play_random_match(mode, 4, seed=11, options=Options(target_score=150), on_step=check)


def test_a_pending_challenge_and_a_revealed_hand_survive_a_reload():
    game = build("classic", ["W+4 R3 Y1", "B4", "G7"], "R5")
    play(game, 0, "W+4", "green")
    loaded = Game.from_dict(game.to_dict())
    assert loaded == game and loaded.challenge == game.challenge
    loaded.apply(Challenge(1))
    game.apply(Challenge(1))
    assert Game.from_dict(game.to_dict()).view(1).revealed == loaded.view(1).revealed is not None


def test_a_ten_player_flip_snapshot_is_at_most_4_kb():
    game, _ = Game.new("flip", 10, seed=5, options=Options(flip_pairing="random"))
    assert len(json.dumps(game.to_dict(), separators=(",", ":"))) <= 4096


def test_an_unknown_version_is_refused():
    data = Game.new("classic", 3, seed=1)[0].to_dict()
    data["v"] = 99
    with pytest.raises(SnapshotError, match="version"):
        Game.from_dict(data)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d["hands"][0].append(d["draw"][0]),  # a duplicated card
        lambda d: d["draw"].pop(),  # a lost card
        lambda d: d.pop("discard"),
        lambda d: d.update(current=17),
        lambda d: d.update(phase="napping"),
        lambda d: d.update(mode="poker"),
        lambda d: d.update(options={"target_score": -5}),
        lambda d: d.update(hands="not a list"),
        lambda d: d.update(side="dark"),  # classic has no dark side
        lambda d: d.update(power=[1, 1, 1]),  # classic has no Power Cards
    ],
)
def test_corrupt_snapshots_are_refused_with_a_snapshot_error(corrupt):
    data = Game.new("classic", 3, seed=1)[0].to_dict()
    bad = copy.deepcopy(data)
    corrupt(bad)
    with pytest.raises(SnapshotError):
        Game.from_dict(bad)
