"""The image's build context (issue 21 point 5, the Dockerfile's build stage): the compiled engine in the image is the
one the build stage compiles from the image's own sources, never one built on the developer's machine.

``./scripts/test`` leaves the host's compiled engine (``bot/engine/*.so``, and the *Hard* AI's search core compiled with
it, ``bot/ai/*.so``) and its stamp (``bot/engine/_native.stamp``) beside the sources, and mypyc's C and objects under
``build/``; sent to Docker they would be copied into both stages (``COPY bot``): a host's modules for another platform
or Python beside the sources, and a stamp that only the build stage's copy happens to overwrite."""

from __future__ import annotations

import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` (relative to the root) out of the context (its patterns, no ``!``)."""
    patterns = [
        line.strip().rstrip("/")
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert not [p for p in patterns if p.startswith("!")], "exceptions are not read by this test"
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(
        fnmatch.fnmatchcase(prefix, pattern) or fnmatch.fnmatchcase(prefix, pattern.removeprefix("**/"))
        for pattern in patterns
        for prefix in prefixes
    )


def test_the_host_build_of_the_engine_stays_out_of_the_image():
    for path in (
        "bot/engine/game.cpython-311-x86_64-linux-gnu.so",
        "bot/engine/_native__mypyc.cpython-312-darwin.so",
        "bot/engine/_native.stamp",
        "bot/ai/rollout.cpython-311-x86_64-linux-gnu.so",
        "build/engine/temp/x.o",
    ):
        assert ignored(path), path
    for path in (
        "bot/engine/game.py",
        "bot/ai/rollout.py",
        "cogs/uno/cog.py",
        "pyproject.toml",
        "scripts/build_engine.py",
    ):
        assert not ignored(path), path
