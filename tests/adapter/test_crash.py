"""kill -9 at any moment: every acknowledged action is still there after a restart, and the game goes on."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.engine.actions import Draw
from bot.storage import open_store

ROOT = Path(__file__).resolve().parents[2]


def digest(snapshot: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(snapshot, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_sigkill_between_actions_loses_no_acknowledged_action(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "uno.sqlite3"
    kill_after = Random(seed).randrange(5, 80)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.adapter.crash_worker", str(db), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acks: list[tuple[int, str]] = []
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            if line.startswith("ACK "):
                _, version, sha = line.split()
                acks.append((int(version), sha))
                if len(acks) >= kill_after:
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    # Acknowledgements the child printed before it died may still sit in the pipe: they count too.
    for line in proc.stdout:
        if line.startswith("ACK ") and len(line.split()) == 3 and len(line.split()[2]) == 64:
            _, version, sha = line.split()
            acks.append((int(version), sha))
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    assert len(acks) >= kill_after
    last_version, last_sha = acks[-1]

    store = await open_store(db)
    try:
        # the last acknowledged action is there, exactly as acknowledged; at most the one in flight after it was
        # committed too
        (row,) = await store.load_games()
        assert row.version in (last_version, last_version + 1)
        if row.version == last_version:
            assert digest(row.snapshot) == last_sha
        manager = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0), rng=Random(0))
        (session,) = await manager.start()
        assert session.version == row.version
        game = session.game
        assert game is not None
        game.check_consistency()
        seat = game.pending
        assert seat is not None
        uid = session.seats[seat].user_id
        assert uid is not None
        update = await manager.act(5000, uid, lambda v: Draw(v.me) if Draw(v.me) in v.legal else v.legal[0])
        assert update.version == session.version  # the game goes on
        await manager.close()
    finally:
        await store.close()
