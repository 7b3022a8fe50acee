"""The engine compiled by mypyc and its Python source are one engine (issue 21 point 5): the same games for the same
seeds, the build chosen only when it matches the sources, and CI gets the build it asks for (bot/engine_native.py)."""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engine
from bot import engine_native as native
from bot.engine.game import Game
from bot.engine.simulate import random_step

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_in_use_is_the_one_asked_for():
    """CI runs the suite with UNO_ENGINE=compiled and the engine's tests again with UNO_ENGINE=pure (.ci/run)."""
    wanted = os.environ.get("UNO_ENGINE")
    if wanted == "compiled":
        assert bot.engine.compiled()
    elif wanted == "pure":
        assert not bot.engine.compiled()
    else:
        assert bot.engine.compiled() == native.built()


def _engine_in(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import bot.engine; print(bot.engine.compiled())"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)


def test_pure_is_the_source_and_compiled_without_a_build_refuses_to_import():
    env = {k: v for k, v in os.environ.items() if k != "UNO_ENGINE"}
    pure = _engine_in({**env, "UNO_ENGINE": "pure"})
    assert pure.returncode == 0 and pure.stdout.strip() == "False", pure.stderr
    wrong = _engine_in({**env, "UNO_ENGINE": "fast"})
    assert wrong.returncode != 0 and "UNO_ENGINE must be one of" in wrong.stderr
    if not native.built():
        refused = _engine_in({**env, "UNO_ENGINE": "compiled"})
        assert refused.returncode != 0 and "compiled engine is missing or stale" in refused.stderr


def test_a_stale_or_missing_stamp_is_not_a_build(tmp_path, monkeypatch):
    """An engine source edited after the build changes the digest: the stale modules are not used. So does a module
    compiled beside the engine (bot/ai/rollout.py, ``native.BESIDE``), and the build needs its compiled module too."""
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "game.py").write_text("X = 1\n")
    beside = tmp_path / "ai" / "rollout.py"
    beside.parent.mkdir()
    beside.write_text("Y = 1\n")
    monkeypatch.setattr(native, "ENGINE", engine)
    monkeypatch.setattr(native, "STAMP", engine / "_native.stamp")
    monkeypatch.setattr(native, "BESIDE", {"bot.ai.rollout": beside})
    (engine / f"game{native._SO}").write_bytes(b"")
    native.compiled_path(beside).write_bytes(b"")
    assert not native.built()  # no stamp
    native.STAMP.write_text(native.sources_digest() + "\n")
    assert native.built()
    (engine / "game.py").write_text("X = 2\n")
    assert not native.built()  # edited since
    native.STAMP.write_text(native.sources_digest() + "\n")
    assert native.built()
    beside.write_text("Y = 2\n")
    assert not native.built()  # the module beside edited since
    native.STAMP.write_text(native.sources_digest() + "\n")
    native.compiled_path(beside).unlink()
    assert not native.built()  # its compiled module gone
    native.compiled_path(beside).write_bytes(b"")
    (engine / f"game{native._SO}").unlink()
    assert not native.built()  # compiled modules gone


@pytest.mark.skipif(not native.built(), reason="the engine is not compiled here (no C compiler?)")
def test_compiled_and_source_engines_give_identical_determinism_digests(tmp_path):
    """benchmarks/determinism.py over every mode, option set (house rules included) and draw rate: recorded with
    the source, compared with the build."""
    env = {k: v for k, v in os.environ.items() if k != "UNO_ENGINE"}
    record = tmp_path / "pure.json"
    script = [sys.executable, "benchmarks/determinism.py", "--matches", "8"]
    pure = subprocess.run(
        [*script, "--record", str(record)], capture_output=True, text=True, cwd=ROOT, env={**env, "UNO_ENGINE": "pure"}
    )
    assert pure.returncode == 0, pure.stderr
    same = subprocess.run(
        [*script, "--compare", str(record)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "UNO_ENGINE": "compiled"},
    )
    assert same.returncode == 0 and "digests identical" in same.stdout, same.stdout + same.stderr


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
def test_views_actions_and_events_survive_copy_and_pickle(mode):
    """The AI's worker process gets views (with their legal actions) and memories by pickle and returns an action; the
    Hard search copies games (bot/ai/hard.py). The compiled engine's native classes must allow it as the source does."""
    game, events = Game.new(mode, 4, seed=11)
    agent = random.Random(11)
    for _ in range(40):
        events += random_step(game, agent)
    for seat in (0, 1, None):
        view = game.view(seat)
        for again in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view), copy.copy(view)):
            assert again == view and list(again.legal) == list(view.legal)
    assert pickle.loads(pickle.dumps(events)) == events and copy.deepcopy(events) == events
    actions = list(game.legal_actions(game.current))
    assert pickle.loads(pickle.dumps(actions)) == actions
    twin = copy.copy(game)
    assert twin == game and twin.to_dict() == game.to_dict()
