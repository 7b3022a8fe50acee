"""Nothing is shown before it is committed (issue 12.1; DESIGN "Adapter": the Discord layer reads a game only
through the frozen views each update carries).

A store wrapper makes the AI's save slow (50 ms) and then fail, so the AI's move is rolled back: the table must never
show it. Before the fix the publisher of the human's move read the live game while the AI's move was being saved.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import Session, SessionView, Status
from cogs.uno import screens
from tests.discord_emulator import DiscordEmulator

from .shown import Shown, as_sent, shown
from .uno_driver import Table, make_bot, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match played move by move")

SLOW_COMMIT = 0.05
SIGNATURE_FIELDS = ("Top card", "Draw pile", "Players")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def _signature(message: Shown) -> tuple[str, ...] | None:
    """What a table message says about the game (top card, draw pile, every seat's cards), None for other messages."""
    if all(name in message.fields for name in SIGNATURE_FIELDS):
        return tuple(message.fields[name] for name in SIGNATURE_FIELDS)
    return None


def _committed_signature(snapshot: dict[str, Any]) -> tuple[str, ...] | None:
    view = SessionView.of(Session.from_dict(snapshot))
    if view.public is None:
        return None
    with screens.table_screen(view, "en", []) as screen:
        return _signature(shown(as_sent(screen, v2=True)))


async def test_a_move_being_saved_is_never_shown_and_a_failed_save_never_appears(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], retry_after=3600.0))
    alice, _bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    store = bot.manager.store
    committed: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    armed = asyncio.Event()
    save_game, finish_match = store.save_game, store.finish_match

    async def slow_save(row: Any, **fence: Any) -> None:
        task = asyncio.current_task()
        if armed.is_set() and not failed and task is not None and task.get_name() == "uno-adapter-task":
            failed.append(row.snapshot)  # the AI's move: slow, then the disk fails and it is rolled back
            await asyncio.sleep(SLOW_COMMIT)
            raise OSError("disk full")
        await asyncio.sleep(SLOW_COMMIT)
        await save_game(row, **fence)
        committed.append(row.snapshot)

    async def slow_finish(result: Any, *, replace_with: Any = None, **fence: Any) -> bool:
        await asyncio.sleep(SLOW_COMMIT)
        done = await finish_match(result, replace_with=replace_with, **fence)
        if replace_with is not None:
            committed.append(replace_with.snapshot)
        return done

    store.save_game, store.finish_match = slow_save, slow_finish
    await emulator.slash(alice, channel, "uno new", game="classic")
    table = Table(emulator, bot, channel, [alice])
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    armed.set()
    hand = await table.open_hand(alice)
    for _ in range(10):  # alice moves until the turn passes to the AI, whose save then fails
        view = table.view
        if failed or view.status is not Status.PLAYING or view.public.pending != 0:
            break
        await table.take_turn(alice, hand)
        await emulator.settle()
    await emulator.settle()
    assert failed, "the AI never moved"
    store.save_game, store.finish_match = save_game, finish_match

    seen = [s for r in table.public_message().history if (s := _signature(shown(r))) is not None]
    allowed = {s for snap in committed if (s := _committed_signature(snap)) is not None}
    rolled_back = _committed_signature(failed[0])
    assert rolled_back not in allowed  # the AI's move changed what the table says
    assert rolled_back not in seen, "the table showed a move that was never committed"
    assert all(s in allowed for s in seen), [s for s in seen if s not in allowed]
    assert seen[-1] == _committed_signature(committed[-1])  # the table ends on the committed game
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
