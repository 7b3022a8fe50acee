"""The shrinking turn timer (issue 10, point 4): a seat whose timer ran out k times in a row gets the turn timer
halved k times (never below ``TURN_TIMER_MIN``) for each decision it owes next, and the full timer again once the
player acts themselves. One rule, :func:`bot.limits.turn_clock`; the deadline is ``session.deadline`` (Unix s), on
the controllable clock. Seeded deals and laid-out positions only."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter.manager import Limits
from bot.adapter.session import Session
from bot.engine.actions import Draw, Keep
from bot.engine.builder import build
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.limits import TURN_TIMER_MAX, TURN_TIMER_MIN, turn_clock
from bot.storage import Store, open_store

ALICE, BOB, CAROL = 101, 102, 103
CHANNEL, GUILD = 5000, 9000


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Store, clock: ManualClock, **limits: Any) -> SessionManager:
    base: dict[str, Any] = {"ai_delay": 0.0, "ai_catch_delay": 0.0}
    base.update(limits)
    return SessionManager(store, clock=clock, limits=Limits(**base), rng=Random(1))


async def started(m: SessionManager, *, mode: str = "classic", turn_timer: int = 60, **kwargs: Any) -> Session:
    session = await m.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode=mode, turn_timer=turn_timer, **kwargs
    )
    await m.join(CHANNEL, BOB, "Bob")
    await m.join(CHANNEL, CAROL, "Carol")
    await m.start_game(CHANNEL, ALICE)
    return session


def clock_left(session: Session, clock: ManualClock) -> float:
    """Seconds until the pending decision times out."""
    assert session.deadline is not None
    return session.deadline - clock.now()


async def time_out(m: SessionManager, clock: ManualClock, session: Session) -> int:
    """Let the pending decision's timer run out; returns the seat that timed out."""
    assert session.game is not None and session.game.pending is not None
    seat = session.game.pending
    clock.advance(clock_left(session, clock) + 0.5)
    await m.idle()
    return seat


async def act_until(m: SessionManager, session: Session, seat: int) -> None:
    """The other players act at once (draw, keep) until ``seat`` owes the decision."""
    game = session.game
    assert game is not None
    for _ in range(20):
        if game.pending == seat:
            return
        other = game.pending
        assert other is not None
        user = session.seats[other].user_id
        assert user is not None
        action = Keep(other) if game.phase is Phase.PLAY_DRAWN else Draw(other)
        await m.act(CHANNEL, user, lambda v, a=action: a)
    raise AssertionError("the seat never came round")


# --- the rule ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("timer", "timeouts", "clock"),
    [
        (60, 0, 60),
        (60, 1, 30),
        (60, 2, 15),
        (60, 3, 15),
        (100, 2, 25),
        (45, 1, 22),
        (40, 2, 15),
        (15, 1, 15),
        (15, 2, 15),
        (TURN_TIMER_MAX, 1, 300),
        (TURN_TIMER_MAX, 100, TURN_TIMER_MIN),
    ],
)
def test_issue_10_4_turn_clock_halves_the_timer_per_consecutive_timeout_never_below_the_minimum(
    timer: int, timeouts: int, clock: int
) -> None:
    assert turn_clock(float(timer), timeouts) == clock


# --- through the adapter ----------------------------------------------------------------------------------------------
async def test_issue_10_4_after_one_timeout_the_seats_next_clock_is_half_and_other_seats_keep_the_full_timer(
    store: Store,
) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m)
    game = session.game
    assert game is not None
    assert clock_left(session, clock) == 60
    idle = await time_out(m, clock, session)
    assert session.seats[idle].timeouts == 1 and game.pending != idle
    assert clock_left(session, clock) == 60  # the next seat's clock is not touched
    await act_until(m, session, idle)
    assert clock_left(session, clock) == 30
    await m.close()


@pytest.mark.parametrize(("timer", "expected"), [(100, [50, 25]), (60, [30, 15]), (40, [20, 15])])
async def test_issue_10_4_after_two_timeouts_a_quarter_but_never_below_the_minimum(
    store: Store, timer: int, expected: list[int]
) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m, turn_timer=timer)
    game = session.game
    assert game is not None
    idle = game.pending
    assert idle is not None
    seen = []
    for _ in range(2):
        assert await time_out(m, clock, session) == idle
        await act_until(m, session, idle)
        seen.append(clock_left(session, clock))
    assert seen == expected
    assert not session.seats[idle].left  # removed only at the third timeout in a row (Limits.max_timeouts)
    await m.close()


async def test_issue_10_4_a_table_at_the_minimum_does_not_shrink(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m, turn_timer=TURN_TIMER_MIN)
    idle = await time_out(m, clock, session)
    await act_until(m, session, idle)
    assert session.seats[idle].timeouts == 1 and clock_left(session, clock) == TURN_TIMER_MIN
    await m.close()


async def test_issue_10_4_the_full_timer_is_back_as_soon_as_the_player_acts(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m)
    game = session.game
    assert game is not None
    idle = await time_out(m, clock, session)
    await act_until(m, session, idle)
    assert clock_left(session, clock) == 30
    user = session.seats[idle].user_id
    assert user is not None
    await m.act(CHANNEL, user, lambda v: Draw(v.me))
    assert session.seats[idle].timeouts == 0
    if game.pending == idle:  # the drawn card may be played: that decision already has the full clock
        assert game.phase is Phase.PLAY_DRAWN and clock_left(session, clock) == 60
        await m.act(CHANNEL, user, lambda v: Keep(v.me))
    await act_until(m, session, idle)
    assert clock_left(session, clock) == 60
    await m.close()


async def test_issue_10_4_a_resumed_session_keeps_the_shrunk_clock(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m)
    idle = await time_out(m, clock, session)
    await act_until(m, session, idle)
    assert clock_left(session, clock) == 30
    await m.close()
    clock.advance(500)  # the bot was away: the clock starts afresh, at the seat's shrunk length
    m2 = manager_for(store, clock)
    (resumed,) = await m2.start()
    assert resumed.seats[idle].timeouts == 1
    assert resumed.game is not None and resumed.game.pending == idle
    assert clock_left(resumed, clock) == 30
    assert await time_out(m2, clock, resumed) == idle  # and it runs out after those 30 s
    assert resumed.seats[idle].timeouts == 2
    await m2.close()


# --- every decision the seat owes ------------------------------------------------------------------------------------
LAYOUTS = {
    # name: (mode, options, hands, discard, the card seat 0 plays, the phase seat 1 then owes)
    "challenge": ("classic", Options(), ["W+4 B1 B2", "G7 G8", "Y1 Y2"], "R5", "W+4", Phase.CHALLENGE),
    "stack": ("classic", Options(stacking="same_kind"), ["R+2 B1 B2", "G+2 G8", "Y1 Y2"], "R5", "R+2", Phase.STACK),
    "colour": ("flip", Options(), ["BF|U6 B3 B4", "G7 G8", "Y1 Y2"], "BR|W", "BF", Phase.DECLARE_COLOUR),
}


async def laid_out(m: SessionManager, name: str) -> Session:
    """A started 3-player table in the position ``LAYOUTS[name]``, Bob (seat 1) having timed out once; Alice (seat
    0) has just played the card that hands Bob the decision."""
    mode, options, hands, discard, card, _ = LAYOUTS[name]
    session = await started(m, mode=mode, options=options.to_dict())
    session.game = build(mode, hands, discard, options=options)
    session.seats[1].timeouts = 1
    game = session.game
    played = next(a for a in game.legal_actions(0) if str(game.faces[getattr(a, "card", -1)]) == card)
    await m.act(CHANNEL, ALICE, lambda v: played)
    return session


@pytest.mark.parametrize("name", LAYOUTS)
async def test_issue_10_4_the_shrunk_clock_is_the_seats_for_every_decision_it_owes(store: Store, name: str) -> None:
    """SPEC G7 (challenge), SPEC H (stack), SPEC F8 (the colour of an exposed wild): the seat that timed out has the
    shorter clock for that decision too; the player to act next after it keeps the full timer."""
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await laid_out(m, name)
    game = session.game
    assert game is not None
    assert game.phase is LAYOUTS[name][5] and game.pending == 1
    assert clock_left(session, clock) == 30
    assert await time_out(m, clock, session) == 1
    assert session.seats[1].timeouts == 2
    if name == "colour":  # SPEC F8: Bob declared the exposed wild's colour and now plays, on a quarter of the timer
        assert game.pending == 1 and game.phase is Phase.PLAY and clock_left(session, clock) == 15
    else:  # Bob took the cards and lost his turn: Carol's clock is the full timer
        assert game.pending == 2 and clock_left(session, clock) == 60
    await m.close()
