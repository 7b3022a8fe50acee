"""The image worker and the signals a service manager sends to the whole process group (issue 10, point 10).

The worker ignores SIGTERM/SIGINT once its initializer has run; these tests check the moment before that too: a
signal sent while the worker process is still starting (importing Pillow and :mod:`bot.render`, a few hundred ms)
must not kill it, or the bot logs "the image worker died" as it stops.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.engine.cards import Side, classic_faces
from cogs.uno.output.painter import Painter

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks only")


def _painter() -> Painter:
    """A painter of the :mod:`cogs.uno.output.painter` that is in ``sys.modules`` now. discord.py imports a cog's
    modules anew with each bot it loads (an e2e test earlier in this process), and the worker pickles the drawing
    functions by their module's name: a painter of an older copy of the module would hand the worker functions that are
    no longer the ones that name finds (``PicklingError``)."""
    painter: Painter = importlib.import_module("cogs.uno.output.painter").Painter()
    return painter


def _worker_pids(painter: Painter) -> list[int]:
    pool = painter.pool.executor
    assert pool is not None, "no worker pool"
    return [p for p in getattr(pool, "_processes", {})]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_while_the_worker_starts_does_not_kill_it(sig: signal.Signals, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    painter = _painter()
    try:
        faces = classic_faces()[:5]
        job = asyncio.ensure_future(painter.hand(faces, [0], Side.LIGHT, None))
        await asyncio.sleep(0)  # the job is submitted: the worker process exists and is starting
        pids = _worker_pids(painter)
        assert len(pids) == 1
        os.kill(pids[0], sig)  # long before its initializer has run
        png = await asyncio.wait_for(job, 60)
        assert png.startswith(PNG)
        assert painter.pool.executor is not None, "the pool broke: images fell back to a thread"
        assert _worker_pids(painter) == pids, "the worker was replaced"
        again = await asyncio.wait_for(painter.hand(faces, [], Side.LIGHT, None), 60)  # and it still draws
        assert again.startswith(PNG)
        assert not [r for r in caplog.records if "died" in r.getMessage()]
    finally:
        painter.close()


async def test_holding_the_signals_leaves_the_bots_own_mask_as_it_was():
    painter = _painter()
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        png = await asyncio.wait_for(painter.hand(classic_faces()[:3], [], Side.LIGHT, None), 60)
        assert png.startswith(PNG)
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    finally:
        painter.close()


#: Run in a child process: start a painter, draw one image, print the worker's pid, then die as a crash or
#: ``kill -9`` would (no clean-up runs).
_DIES_WITH_A_WORKER = """
import asyncio, os
from bot.engine.cards import Side, classic_faces
from cogs.uno.output.painter import Painter

async def main():
    painter = Painter()
    await painter.hand(classic_faces()[:3], [], Side.LIGHT, None)
    print(next(iter(painter.pool.executor._processes)), flush=True)
    os._exit(9)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is gone for good, only not reaped yet
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
async def test_the_worker_ends_when_the_bot_dies_without_closing_it(tmp_path: Path):
    """A bot killed outright (``kill -9``, the OOM killer, a crash) cannot close its image worker, which ignores
    SIGTERM: the worker must notice and end, not live on as an orphan holding memory."""
    out = tmp_path / "worker.pid"
    with out.open("w") as f:  # a file, not a pipe: the orphaned worker would hold a pipe open
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", _DIES_WITH_A_WORKER, stdout=f, cwd=ROOT)
        assert await asyncio.wait_for(proc.wait(), 60) == 9
    worker = int(out.read_text().strip())
    for _ in range(200):  # a hang guard of 20 s, not a timing: the worker is expected to end at once
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    else:
        os.kill(worker, signal.SIGKILL)
        pytest.fail("the image worker outlived the bot")
