"""The async engine adapter with a real SQLite store in a temporary folder and a controllable clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, Update
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.adapter.session import Session, Status
from bot.engine import errors as E
from bot.engine.actions import Draw, Keep, Play
from bot.engine.game import Game
from bot.engine.view import Phase
from bot.storage import Store, open_store

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
CHANNEL, GUILD = 5000, 9000


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


def manager_for(store: Store, clock: ManualClock | None = None, **limits: Any) -> SessionManager:
    base = {"ai_delay": 0.0, "ai_catch_delay": 0.0}
    base.update(limits)
    return SessionManager(store, clock=clock or ManualClock(), limits=Limits(**base), rng=Random(1))


async def lobby(manager: SessionManager, mode: str = "classic", **kwargs: Any) -> Session:
    return await manager.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode=mode, **kwargs
    )


async def started(manager: SessionManager, mode: str = "classic", players: int = 3, **kwargs: Any) -> Session:
    session = await lobby(manager, mode, **kwargs)
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")][: players - 1]:
        await manager.join(CHANNEL, uid, name)
    await manager.start_game(CHANNEL, ALICE)
    return session


def user_of(session: Session, seat: int) -> int:
    uid = session.seats[seat].user_id
    assert uid is not None
    return uid


# --- lobby ----------------------------------------------------------------------------------------------------------
async def test_lobby_join_leave_host_passes_and_seat_limits(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "flex")
    with pytest.raises(AE.GameExists):
        await lobby(m)
    await m.join(CHANNEL, BOB, "Bob")
    with pytest.raises(AE.AlreadySeated):
        await m.join(CHANNEL, BOB, "Bob")
    with pytest.raises(AE.NotHost):
        await m.add_ai(CHANNEL, BOB)
    for _ in range(6):
        await m.add_ai(CHANNEL, ALICE)
    with pytest.raises(AE.LobbyFull):  # UNO Flex! seats 2–8 (SPEC G1)
        await m.join(CHANNEL, CAROL, "Carol")
    await m.leave(CHANNEL, ALICE)
    assert session.host_id == BOB and next(s.name for s in session.seats) == "Bob"
    await m.leave(CHANNEL, BOB)  # the last human leaves: the lobby closes
    assert CHANNEL not in m.sessions
    assert await store.load_games() == []


async def test_start_needs_the_host_and_a_fitting_seat_count(store: Store) -> None:
    m = manager_for(store)
    await lobby(m)
    with pytest.raises(AE.NeedPlayers):
        await m.start_game(CHANNEL, ALICE)
    await m.join(CHANNEL, BOB, "Bob")
    with pytest.raises(AE.NotHost):
        await m.start_game(CHANNEL, BOB)
    update = await m.start_game(CHANNEL, BOB, is_admin=True)  # a server manager may
    assert update.kind == "started" and update.view.status is Status.PLAYING
    with pytest.raises(AE.AlreadyStarted):
        await m.join(CHANNEL, CAROL, "Carol")


async def test_bad_mode_option_or_timer_is_refused_and_nothing_is_saved(store: Store) -> None:
    m = manager_for(store)
    for kwargs in ({"mode": "poker"}, {"options": {"target_score": -1}}, {"turn_timer": 1}):
        with pytest.raises(AE.BadRequest):
            await m.open_lobby(
                channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="A", **{"mode": "classic", **kwargs}
            )
    assert await store.load_games() == []


# --- acting ---------------------------------------------------------------------------------------------------------
async def test_an_action_is_committed_before_the_caller_gets_its_events(store: Store, tmp_path: Path) -> None:
    m = manager_for(store)
    session = await started(m)
    game = session.game
    assert game is not None
    seat = game.pending
    update = await m.act(CHANNEL, user_of(session, seat), lambda v: Draw(v.me))
    assert update.events and update.version == session.version
    other = await open_store(tmp_path / "uno.sqlite3")  # a second connection sees the commit
    try:
        (row,) = await other.load_games()
        assert row.version == session.version
        assert Game.from_dict(row.snapshot["game"]) == game
    finally:
        await other.close()


async def test_wrong_player_stale_version_and_rule_errors_change_nothing(store: Store) -> None:
    m = manager_for(store)
    session = await started(m)
    game = session.game
    assert game is not None
    before = session.to_dict()
    not_turn = next(s for s in range(3) if s != game.pending)
    with pytest.raises(E.NotYourTurn):
        await m.act(CHANNEL, user_of(session, not_turn), lambda v: Draw(v.me))
    with pytest.raises(AE.NotSeated):
        await m.act(CHANNEL, 999, lambda v: Draw(0))
    with pytest.raises(AE.Stale):
        await m.act(CHANNEL, user_of(session, game.pending), lambda v: Draw(v.me), version=session.version - 1)
    with pytest.raises(AE.Stale):
        await m.act(CHANNEL, user_of(session, game.pending), lambda v: Draw(v.me), expect=lambda v: False)
    with pytest.raises(AE.BadRequest):  # an action built for another seat
        await m.act(CHANNEL, user_of(session, game.pending), lambda v: Draw(not_turn))
    assert session.to_dict() == before
    (row,) = await store.load_games()
    assert row.snapshot == before


async def test_a_hundred_concurrent_actions_leave_a_valid_state_with_exactly_the_legal_ones_applied(
    store: Store,
) -> None:
    m = manager_for(store)
    session = await started(m, players=4)
    applied: list[Any] = []

    async def record(update: Update) -> None:
        applied.extend(update.events)

    m.subscribe(record)
    seed_game = Game.from_dict(session.to_dict()["game"])
    users = [ALICE, BOB, CAROL, DAVE]
    rnd = Random(3)
    actions_taken: list[Any] = []

    def build(v: Any) -> Any:
        action = v.legal[rnd.randrange(v.legal.moves)] if v.legal.moves else Draw(v.me)
        actions_taken.append(action)
        return action

    async def one(i: int) -> bool:
        try:
            await m.act(CHANNEL, users[i % 4], build)
        except (E.RuleError, AE.AdapterError):
            return False
        return True

    version0 = session.version
    results = await asyncio.gather(*(one(i) for i in range(100)))
    assert session.version - version0 == sum(results) > 0
    game = session.game
    assert game is not None
    game.check_consistency()
    replay = seed_game
    for ok, action in zip(results, actions_taken, strict=True):
        if ok:
            replay.apply(action)
    assert replay == game  # the applied actions, in lock order, are exactly what happened
    (row,) = await store.load_games()
    assert Game.from_dict(row.snapshot["game"]) == game


# --- timers ---------------------------------------------------------------------------------------------------------
async def test_a_timed_out_turn_draws_and_keeps_and_repeated_timeouts_remove_the_player(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock, max_timeouts=2)
    session = await started(m, players=3, turn_timer=30)
    game = session.game
    assert game is not None
    idle = game.pending
    assert idle is not None
    cards = len(game.hands[idle])
    clock.advance(29)
    await m.idle()
    assert game.pending == idle
    clock.advance(2)
    await m.idle()
    assert len(game.hands[idle]) == cards + 1 and game.pending != idle  # drew, kept, turn passed
    assert session.seats[idle].timeouts == 1
    # everyone else plays promptly (draw) until it is the idle player's turn again
    while game.pending != idle:
        seat = game.pending
        assert seat is not None
        await m.act(CHANNEL, user_of(session, seat), lambda v: Draw(v.me))
        if game.phase is Phase.PLAY_DRAWN:
            await m.act(CHANNEL, user_of(session, seat), lambda v: Keep(v.me))
    nxt = game.next_seat(idle)
    clock.advance(31)
    await m.idle()
    assert session.seats[idle].left and not game.active[idle]
    assert game.pending == nxt and game.phase is Phase.PLAY  # play goes on with the right player
    assert len(game.hands[idle]) == 0
    game.check_consistency()


async def test_a_timed_out_challenge_is_accepted(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock)
    session = await started(m, players=3, turn_timer=20)
    game = session.game
    assert game is not None
    # give the player to move a Wild Draw Four and play it
    seat = game.pending
    assert seat is not None
    wd4 = next(c for c in range(len(game.deck)) if str(game.faces[c]) == "W+4")
    holder = next(s for s in range(3) if wd4 in game.hands[s]) if any(wd4 in h for h in game.hands) else None
    if holder is not None and holder != seat:
        game.hands[holder].remove(wd4)
        game.hands[seat].append(wd4)
    elif holder is None:
        where = game.draw_pile if wd4 in game.draw_pile else game.discard
        if wd4 == game.discard[-1]:
            pytest.skip("the opening card is the Wild Draw Four")
        where.remove(wd4)
        game.hands[seat].append(wd4)
    from bot.engine.cards import Colour

    await m.act(CHANNEL, user_of(session, seat), lambda v: Play(v.me, wd4, Colour.RED))
    victim = game.pending
    assert game.phase is Phase.CHALLENGE and victim is not None
    before = len(game.hands[victim])
    clock.advance(21)
    await m.idle()
    assert len(game.hands[victim]) == before + 4 and game.pending != victim


# --- AI seats -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
async def test_ai_only_matches_reach_500(store: Store, mode: str) -> None:
    m = manager_for(store)
    session = await m.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode=mode, seat_host=False
    )
    for _ in range(3):
        await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    for _ in range(100):
        await m.idle()
        if session.status == Status.FINISHED:
            break
    assert session.status == Status.FINISHED
    assert session.result is not None and session.result.status == "completed"
    assert max(session.result.scores) >= 500
    (row,) = await store.load_games()
    assert row.status == Status.FINISHED
    assert await store.leaderboard(guild_id=GUILD, mode=None) == []  # AI seats never reach a leaderboard


# --- results, resume, subscribers -----------------------------------------------------------------------------------
async def test_match_end_writes_the_result_and_the_leaderboard_reflects_it_at_once(store: Store) -> None:
    m = manager_for(store)
    session = await started(m, players=2, options={"target_score": 0})
    game = session.game
    assert game is not None
    # seat to move gets a one-card hand that fits: it goes out and wins the single-round match
    seat = game.pending
    assert seat is not None
    top = game.discard[-1]
    fit = next(
        c for c in game.draw_pile if game.faces[c].colour is not None and game.faces[c].colour is game.colour_in_play()
    )
    game.draw_pile.extend(game.hands[seat])
    game.hands[seat] = [fit]
    game.draw_pile.remove(fit)
    update = await m.act(CHANNEL, user_of(session, seat), lambda v: Play(v.me, fit))
    assert update.kind == "finished" and session.status == Status.FINISHED
    rows = await store.leaderboard(guild_id=GUILD, mode="classic")
    assert next((r.user_id, r.wins, r.played) for r in rows) == (user_of(session, seat), 1, 1)
    assert top in game.discard


async def test_start_up_resumes_every_game_and_its_ai_turns(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock, ai_delay=5.0)
    session = await started(m, players=2)
    game = session.game
    assert game is not None
    await m.close()
    m2 = manager_for(store, clock, ai_delay=5.0)
    (resumed,) = await m2.start()
    assert resumed.to_dict() == session.to_dict()
    seat = resumed.game.pending if resumed.game else None
    assert seat is not None
    update = await m2.act(CHANNEL, user_of(resumed, seat), lambda v: Draw(v.me))
    assert update.version == session.version + 1
    await m2.close()


async def test_a_failing_subscriber_never_breaks_a_game(store: Store) -> None:
    m = manager_for(store)
    seen: list[str] = []

    async def broken(update: Update) -> None:
        raise RuntimeError("boom")

    async def fine(update: Update) -> None:
        seen.append(update.kind)

    m.subscribe(broken)
    m.subscribe(fine)
    session = await started(m)
    await m.idle()
    assert seen[-1] == "started" and session.status == Status.PLAYING


async def test_idle_lobbies_and_games_without_humans_are_closed(store: Store) -> None:
    clock = ManualClock()
    m = manager_for(store, clock, lobby_idle=600, game_idle=900, sweep_every=60)
    await m.start()
    await lobby(m)
    clock.advance(700)
    await m.idle()
    assert CHANNEL not in m.sessions and await store.load_games() == []
    session = await started(m, players=2)
    clock.advance(1000)
    await m.idle()
    assert CHANNEL not in m.sessions
    assert session.result is not None and session.result.status == "abandoned"
    stats = await store.player_stats(ALICE, guild_id=GUILD, mode=None)
    assert stats is not None and stats.abandoned == 1 and stats.wins == 0
    await m.close()


async def test_a_corrupt_saved_game_is_set_aside_and_the_others_resume(store: Store) -> None:
    m = manager_for(store)
    await started(m)
    from bot.storage import LiveGame

    await store.save_game(LiveGame(77, GUILD, "classic", "playing", 1, {"v": 1, "junk": True}, 0.0))
    await m.close()
    m2 = manager_for(store)
    sessions = await m2.start()
    assert [s.channel_id for s in sessions] == [CHANNEL]
    await m2.close()
