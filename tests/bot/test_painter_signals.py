"""The image worker and the signals a service manager sends to the whole process group (issue 10, point 10).

The worker ignores SIGTERM/SIGINT once its initializer has run; these tests check the moment before that too: a
signal sent while the worker process is still starting (importing Pillow and :mod:`bot.render`, a few hundred ms)
must not kill it, or the bot logs "the image worker died" as it stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal

import pytest

from bot.engine.cards import Side, classic_faces
from cogs.uno.painter import Painter

PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks only")


def _worker_pids(painter: Painter) -> list[int]:
    pool = painter._pool
    assert pool is not None, "no worker pool"
    return [p for p in getattr(pool, "_processes", {})]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_while_the_worker_starts_does_not_kill_it(sig: signal.Signals, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    painter = Painter()
    try:
        faces = classic_faces()[:5]
        job = asyncio.ensure_future(painter.hand(faces, [0], Side.LIGHT, None))
        await asyncio.sleep(0)  # the job is submitted: the worker process exists and is starting
        pids = _worker_pids(painter)
        assert len(pids) == 1
        os.kill(pids[0], sig)  # long before its initializer has run
        png = await asyncio.wait_for(job, 60)
        assert png.startswith(PNG)
        assert painter._pool is not None, "the pool broke: images fell back to a thread"
        assert _worker_pids(painter) == pids, "the worker was replaced"
        again = await asyncio.wait_for(painter.hand(faces, [], Side.LIGHT, None), 60)  # and it still draws
        assert again.startswith(PNG)
        assert not [r for r in caplog.records if "died" in r.getMessage()]
    finally:
        painter.close()


async def test_holding_the_signals_leaves_the_bots_own_mask_as_it_was():
    painter = Painter()
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        png = await asyncio.wait_for(painter.hand(classic_faces()[:3], [], Side.LIGHT, None), 60)
        assert png.startswith(PNG)
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    finally:
        painter.close()
