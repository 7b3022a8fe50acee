"""The engine compiled by mypyc and its Python source are one engine (issue 21 point 5): the same games for the same
seeds, the build chosen only when it matches the sources, and CI gets the build it asks for (bot/engine_native.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engine
from bot import engine_native as native

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
    """An engine source edited after the build changes the digest: the stale modules are not used."""
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "game.py").write_text("X = 1\n")
    monkeypatch.setattr(native, "ENGINE", engine)
    monkeypatch.setattr(native, "STAMP", engine / "_native.stamp")
    (engine / f"game{native._SO}").write_bytes(b"")
    assert not native.built()  # no stamp
    native.STAMP.write_text(native.sources_digest() + "\n")
    assert native.built()
    (engine / "game.py").write_text("X = 2\n")
    assert not native.built()  # edited since
    native.STAMP.write_text(native.sources_digest() + "\n")
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
