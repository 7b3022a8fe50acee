"""Issue 21 point 4: a *Hard* table's searches never hold up the rest of the bot.

The searches run in the thinker's own worker process (:mod:`bot.adapter.thinker`), at a lower CPU priority than the
bot's event loop (so the operating system runs the loop first when both want a core), and apart from the image
worker (:mod:`cogs.uno.output.painter`), so an image is never queued behind a search. Timing is measured by
``benchmarks/ai_clicks.py``, never asserted here: these tests check the arrangement, deterministically (a search is
stood in for by a job that waits until the test lets it finish).
"""

from __future__ import annotations

import asyncio
import importlib
import os
import time
from pathlib import Path

from bot.adapter import thinker as thinker_module
from bot.adapter.thinker import Thinker
from bot.engine.cards import Colour, Face, Kind, Side
from cogs.uno.output.painter import Painter


def _nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def _wait_for(path: str) -> str:
    """A stand-in for a long search: runs until ``path`` exists (at most 120 s)."""
    deadline = time.monotonic() + 120
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return "searched"


async def test_the_searches_run_at_a_lower_cpu_priority_than_the_event_loop() -> None:
    thinker = Thinker(workers=1)
    try:
        pid, nice = await asyncio.wait_for(thinker.pool.run(_nice), 60)
    finally:
        thinker.close()
    assert pid != os.getpid()
    assert thinker_module.WORKER_NICENESS > 0
    assert nice >= min(os.nice(0) + thinker_module.WORKER_NICENESS, 19)


async def test_an_image_is_not_queued_behind_a_search(tmp_path: Path) -> None:
    release = tmp_path / "release"
    thinker = Thinker(workers=1)
    # the Painter of the cogs.uno.output.painter now in sys.modules: an e2e test earlier in this process re-imports the
    # cog's modules, and the worker pickles the drawing functions by name (as in tests/bot/test_painter_signals.py)
    painter: Painter = importlib.import_module("cogs.uno.output.painter").Painter(workers=1)
    try:
        assert thinker.pool.executor is not painter.pool.executor
        faces = [Face(Kind.NUMBER, Colour.RED, 7), Face(Kind.SKIP, Colour.BLUE)]
        search = asyncio.ensure_future(thinker.pool.run(_wait_for, str(release)))
        # the image is drawn while the search still holds the AI worker
        png = await asyncio.wait_for(painter.hand(faces, [0], Side.LIGHT, None), 60)
        assert png.startswith(b"\x89PNG")
        assert not search.done()
        release.touch()
        assert await asyncio.wait_for(search, 60) == "searched"
    finally:
        release.touch()
        thinker.close()
        painter.close()
