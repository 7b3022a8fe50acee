"""Review: adapter bugs (timers, AI seats, resume, idle expiry); each test fails until the bug is fixed."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.adapter.session import Session, Status
from bot.engine.actions import Draw, Keep
from bot.engine.view import Phase
from bot.storage import LiveGame, MatchResult, Store, open_store

ALICE, BOB = 101, 102
CHANNEL, GUILD = 5000, 9000


class FlakyStore:
    """The real store, except that the next ``fail_saves`` calls of ``save_game`` fail as a full or busy disk would."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.fail_saves = 0

    async def save_game(self, game: LiveGame, **fence: Any) -> None:
        if self.fail_saves:
            self.fail_saves -= 1
            raise sqlite3.OperationalError("database or disk is full")
        await self.inner.save_game(game, **fence)

    async def delete_game(self, channel_id: int, **fence: Any) -> bool:
        return await self.inner.delete_game(channel_id, **fence)

    async def load_games(
        self, validate: Callable[[dict[str, Any]], object] | None = None, **kwargs: Any
    ) -> list[LiveGame]:
        return await self.inner.load_games(validate, **kwargs)

    def __getattr__(self, name: str) -> Any:  # the rest (the leases of issue 11) as the real store has them
        return getattr(self.inner, name)

    async def finish_match(self, result: MatchResult, *, replace_with: LiveGame | None = None, **fence: Any) -> bool:
        return await self.inner.finish_match(result, replace_with=replace_with, **fence)


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Any, clock: ManualClock, **limits: Any) -> SessionManager:
    base: dict[str, Any] = {"ai_delay": 5.0, "ai_catch_delay": 5.0}
    base.update(limits)
    return SessionManager(store, clock=clock, limits=Limits(**base), rng=Random(1))


async def two_humans(m: SessionManager, turn_timer: float = 60.0) -> Session:
    session = await m.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode="classic", turn_timer=turn_timer
    )
    await m.join(CHANNEL, BOB, "Bob")
    await m.start_game(CHANNEL, ALICE)
    return session


def user_of(session: Session, seat: int) -> int:
    uid = session.seats[seat].user_id
    assert uid is not None
    return uid


async def pass_turn(m: SessionManager, session: Session) -> None:
    """The human to move draws (and keeps what they drew)."""
    game = session.game
    assert game is not None and game.pending is not None
    uid = user_of(session, game.pending)
    await m.act(CHANNEL, uid, lambda v: Draw(v.me))
    if game.phase is Phase.PLAY_DRAWN and game.pending is not None and session.seats[game.pending].user_id == uid:
        await m.act(CHANNEL, uid, lambda v: Keep(v.me))


# --- resume after the bot was down ----------------------------------------------------------------------------------
async def test_a_game_resumed_after_downtime_is_not_closed_as_idle(store: Store) -> None:
    clock = ManualClock()
    limits = {"game_idle": 900.0, "sweep_every": 60.0}
    m = manager_for(store, clock, **limits)
    await m.start()
    session = await two_humans(m, turn_timer=600)
    await pass_turn(m, session)  # the players are active right up to the restart
    await m.close()

    clock.advance(1000)  # the bot is down for ~17 minutes (a deploy, a host reboot)
    m2 = manager_for(store, clock, **limits)
    (resumed,) = await m2.start()
    clock.advance(61)  # the first idle sweep after start-up
    await m2.idle()
    # last_activity is the pre-restart time, so the first sweep closes the game and records it as abandoned
    assert CHANNEL in m2.sessions and resumed.status == Status.PLAYING
    await m2.close()


async def test_a_turn_that_expired_during_downtime_is_not_charged_to_the_player(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await two_humans(m, turn_timer=60)
    game = session.game
    assert game is not None
    waiting = game.pending
    assert waiting is not None
    await m.close()

    clock.advance(120)  # down for two minutes: the player could not click anything meanwhile
    m2 = manager_for(store, clock)
    (resumed,) = await m2.start()
    clock.advance(1)
    await m2.idle()
    assert resumed.game is not None
    # the resumed timer fires at once: the player draws, loses the turn and gets a timeout on their record
    assert resumed.game.pending == waiting and resumed.seats[waiting].timeouts == 0
    await m2.close()


# --- AI seats and timers after a failed commit ----------------------------------------------------------------------
async def test_an_ai_turn_whose_commit_failed_is_retried(store: Store) -> None:
    clock = ManualClock()
    flaky = FlakyStore(store)
    m = manager_for(flaky, clock)
    session = await m.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode="classic", turn_timer=60
    )
    await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    game = session.game
    assert game is not None
    ai_seat = next(i for i, s in enumerate(session.seats) if s.ai)
    for _ in range(10):
        if game.pending == ai_seat:
            break
        await pass_turn(m, session)
    assert game.pending == ai_seat
    version = session.version
    flaky.fail_saves = 1  # one transient write failure (SQLITE_FULL, SQLITE_BUSY after the 5 s timeout, …)
    clock.advance(5)  # the AI moves; its commit fails; the session is restored
    await m.idle()
    assert session.version == version
    for _ in range(20):  # ten simulated minutes: the AI never moves again, and no timer is armed to make it
        clock.advance(30)
        await m.idle()
    assert session.version > version, "the AI seat never moved again: the match is stuck until the idle sweep"
    await m.close()


async def test_a_turn_timeout_whose_commit_failed_is_retried(store: Store) -> None:
    clock = ManualClock()
    flaky = FlakyStore(store)
    m = manager_for(flaky, clock)
    session = await two_humans(m, turn_timer=30)
    game = session.game
    assert game is not None
    absent = game.pending
    version = session.version
    flaky.fail_saves = 1
    clock.advance(31)  # the turn times out; the commit fails; the session is restored
    await m.idle()
    assert session.version == version
    clock.advance(300)  # ten more turn lengths: the absent player is never timed out again
    await m.idle()
    assert session.game is not None
    assert session.game.pending != absent or session.version > version


# --- idle sweep -----------------------------------------------------------------------------------------------------
async def test_the_idle_sweep_does_not_close_a_game_a_player_just_acted_in(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock, game_idle=500.0, sweep_every=60.0)  # idle sooner than the longest turn timer
    await m.start()
    session = await two_humans(m, turn_timer=600)
    game = session.game
    assert game is not None and game.pending is not None
    uid = user_of(session, game.pending)
    clock.advance(450)
    await m.idle()
    # Another change of this session is being committed (an AI move, a timeout, update_ui…): it holds the lock.
    await session.lock.acquire()
    act = asyncio.ensure_future(m.act(CHANNEL, uid, lambda v: Draw(v.me)))  # the player clicks "Draw"
    await asyncio.sleep(0)
    clock.advance(60)  # the sweep runs now: it sees 510 s of idleness and waits for the lock behind the click
    await asyncio.sleep(0)
    session.lock.release()
    await act  # the click is applied and committed: the game is active right now...
    await m.idle()
    # ...and the sweep, which never looks at last_activity again, closes it as abandoned anyway
    assert CHANNEL in m.sessions and session.status == Status.PLAYING
    await m.close()


# --- AI play ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hands",
    [
        # regular side: it holds another wild, which counts as a card of the colour in play in Flex (SPEC X7)
        ["XW+4 WAF B2", "B4 B5 B6", "G7 G8 G1"],
        # flex side: restricted and challengeable by the target by default (SPEC X7, flex_target_can_challenge)
        ["XW+4 Y1", "B4", "G7 G8 G1"],
    ],
)
def test_the_ai_never_bluffs_a_flex_wild_draw_four(hands: list[str]) -> None:
    from bot.adapter import ai
    from bot.engine.actions import Play
    from tests.engine.helpers import build

    game = build("flex", hands, "Y5")
    view = game.view(0)
    for seed in range(20):
        action = ai.choose(view, Random(seed))
        if isinstance(action, Play) and game._restricted(action.card, action.flex):
            guilty = game._holds_colour(0, game.colour_in_play(), action.card)
            assert not guilty, f"seed {seed}: the AI bluffed with {action}"


# --- finished sessions ----------------------------------------------------------------------------------------------
async def test_finished_sessions_are_forgotten_after_a_while(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock, lobby_idle=600.0, game_idle=900.0, sweep_every=60.0)
    await m.start()
    session = await m.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode="classic", turn_timer=60
    )
    await m.join(CHANNEL, BOB, "Bob")
    await m.start_game(CHANNEL, ALICE)
    await m.leave(CHANNEL, BOB)  # two players, one leaves: the match ends (abandoned) and is recorded
    assert session.status == Status.FINISHED
    for _ in range(24 * 60):  # a whole day of sweeps
        clock.advance(60)
        await m.idle()
    # the finished session is still held in memory, and its row is still loaded at every start-up
    assert CHANNEL not in m.sessions or not [g for g in await store.load_games() if g.status == Status.FINISHED]
    await m.close()
