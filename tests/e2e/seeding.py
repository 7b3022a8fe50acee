"""One seed per end-to-end test, so every deal and every simulated player's choice can be replayed.

The seed is ``UNO_SEED`` from the environment when set, else derived from the test's id (stable from run to run).
:func:`current_seed` gives it to :func:`tests.e2e.uno_driver.make_bot` (the bot's random generator) and to
:class:`~tests.e2e.uno_driver.Table` (the players' choices); a failing test's report names it, e.g.
``UNO_SEED=123 pytest tests/e2e/test_latency.py -k text_only``.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

_seed: int | None = None


def current_seed() -> int:
    """The seed of the running test (0 outside a test)."""
    return _seed if _seed is not None else 0


def seed_for(nodeid: str) -> int:
    env = os.environ.get("UNO_SEED")
    return int(env) if env else zlib.crc32(nodeid.encode())


@pytest.fixture(autouse=True)
def uno_seed(request: pytest.FixtureRequest) -> Iterator[int]:
    """The test's seed (see the module's docstring)."""
    global _seed
    _seed = seed_for(request.node.nodeid)
    request.node.uno_seed = _seed
    try:
        yield _seed
    finally:
        _seed = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "uno_seed", None)
    if report.failed and seed is not None:
        report.sections.append(("uno seed", f"UNO_SEED={seed} reproduces this test's deals and choices"))
