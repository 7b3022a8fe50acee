"""One home per limit (bot/limits.py): every layer checks the same bounds — the adapter, storage, the command and
the engine's rulesets."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import limits, storage
from bot.i18n import LANGUAGES
from bot.storage import _models

ROOT = Path(__file__).parent.parent


def test_limits_is_a_leaf_module() -> None:
    tree = ast.parse((ROOT / "bot" / "limits.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "typing"}


def test_storage_and_i18n_use_the_limits_module() -> None:
    assert (
        (storage.TURN_TIMER_MIN, storage.TURN_TIMER_MAX) == (limits.TURN_TIMER_MIN, limits.TURN_TIMER_MAX) == (15, 600)
    )
    assert storage.DEFAULT_TURN_TIMER == limits.TURN_TIMER_DEFAULT
    assert storage.MODES is limits.MODES and storage.LANGUAGES is limits.LANGUAGES and LANGUAGES is limits.LANGUAGES
    assert _models.MAX_PLAYERS == limits.MAX_PLAYERS == 10


@pytest.mark.parametrize("path", ["bot/adapter", "bot/storage", "cogs", "bot/engine"])
def test_no_layer_writes_the_turn_timer_bounds_or_the_old_adapter_bounds_itself(path: str) -> None:
    for file in (ROOT / path).rglob("*.py"):
        text = file.read_text(encoding="utf-8")
        for literal in ("3600 seconds", "10 <= turn_timer", "Range[int, 15, 600]", "15 <= timer", "timer <= 600"):
            assert literal not in text, f"{file}: {literal}"


async def test_the_adapter_accepts_exactly_the_turn_timer_bounds(tmp_path: Path) -> None:
    from random import Random

    from bot.adapter import ManualClock, SessionManager
    from bot.adapter import refusals as AE

    store = await storage.open_store(tmp_path / "uno.sqlite3")
    try:
        m = SessionManager(store, clock=ManualClock(), rng=Random(1))
        for channel, timer in enumerate((limits.TURN_TIMER_MIN, limits.TURN_TIMER_MAX), start=1):
            await m.open_lobby(
                channel_id=channel, guild_id=1, host_id=5, host_name="A", mode="classic", turn_timer=timer
            )
        for timer in (limits.TURN_TIMER_MIN - 1, limits.TURN_TIMER_MAX + 1):
            with pytest.raises(AE.BadRequest):
                await m.open_lobby(channel_id=9, guild_id=1, host_id=5, host_name="A", mode="classic", turn_timer=timer)
        await m.close()
    finally:
        await store.close()
