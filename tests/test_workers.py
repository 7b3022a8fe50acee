"""The worker process shared by the image painter and the AI thinker (:mod:`bot.workers`)."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from bot.adapter.thinker import Thinker
from bot.workers import WorkerPool


def _pid_and_nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def _manager_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


async def test_work_runs_in_a_worker_at_a_lower_priority_and_close_joins_its_manager_thread() -> None:
    pool = WorkerPool(what="test", niceness=5)
    try:
        pid, nice = await asyncio.wait_for(pool.run(_pid_and_nice), 60)
        assert pid != os.getpid()
        assert nice >= min(os.nice(0) + 5, 19)
        assert _manager_threads(), "the executor's management thread runs while the worker is up"
    finally:
        pool.close()
    # left running, that thread races CPython's exit hook for its wake-up pipe ("OSError: Bad file descriptor")
    assert not _manager_threads()
    assert pool.executor is None


async def test_no_workers_runs_the_work_in_a_thread_of_this_process() -> None:
    pool = WorkerPool(what="test", workers=0)
    pid, _ = await pool.run(_pid_and_nice)
    assert pid == os.getpid() and pool.executor is None
    pool.close()


async def test_a_lazy_pool_starts_nothing_until_used() -> None:
    pool = WorkerPool(what="test", lazy=True)
    assert pool.executor is None
    pool.close()


@pytest.mark.parametrize("workers", [1, 0])
async def test_the_thinker_closes_its_worker_as_the_painter_does(workers: int) -> None:
    """Issue 21 pt 4: the AI worker is shut down waiting for its management thread, like the image worker (a Hard
    seat that had played left it racing the exit hook)."""
    from bot.ai import thinks
    from bot.engine.game import Game
    from bot.engine.options import Options

    options = Options(target_score=0)
    for deal in range(100):  # the first seeded deal whose first move is a search (not an only move)
        game, _ = Game.new("classic", 3, seed=deal, options=options)
        seat = game.pending
        assert seat is not None
        if thinks("hard", game.view(seat)):
            break
    else:
        pytest.fail("no seeded deal gives a Hard search")
    thinker = Thinker(workers=workers)
    try:
        action = await asyncio.wait_for(
            thinker.decide("hard", game.view(seat), options=options, memory=None, seed=1), 60
        )
        assert action is not None
        assert (thinker.pool.executor is not None) == bool(workers)
    finally:
        thinker.close()
    assert not _manager_threads()
