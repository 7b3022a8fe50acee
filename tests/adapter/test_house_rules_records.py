"""review7 (int9): where house rules H6-H9 and match records meet in the adapter (leaving when out, replays after
restarts, placements, recaps). Its Discord-layer tests are in tests/cogs/test_house_rules_screens.py and
tests/e2e/test_house_rules_matches.py."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.options import Options


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    from bot.storage import Store

    s = await Store.open(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


async def _eliminated_ann(store: Any) -> tuple[Any, Any]:
    """Ann (seat 0) goes out of the match past the limit at the end of round 1 (SPEC H9); Bob and Cid play on."""
    from bot.adapter import ManualClock, SessionManager
    from bot.adapter.manager import Limits
    from bot.engine.actions import Play
    from bot.engine.view import Phase

    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
    session = await m.open_lobby(
        channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic", options={"elimination": 100}
    )
    await m.join(1, 102, "Bob")
    await m.join(1, 103, "Cid")
    await m.start_game(1, 101)
    options = Options(elimination=100)
    session.game = build("classic", ["B9 G9 R+2", "R5", "B1 B2"], "R3", current=1, scores=[80, 0, 50], options=options)
    card = session.game.hands[1][0]
    await m.act(1, 102, lambda v: Play(1, card))
    assert session.game.phase is Phase.ROUND_OVER and session.game.active == [False, True, True]
    return m, session


@pytest.mark.parametrize("how", ["leave", "kick"])
async def test_h9_a_player_out_of_the_match_may_leave_or_be_kicked(store: Any, how: str) -> None:
    """SPEC H9 elimination: Ann is out of the match but still sits at the table (she watches). /uno leave (or the
    host's /uno kick of her seat) must either take her seat away cleanly or be refused with the session unchanged;
    the engine's NotSeated must not escape with her seat half marked as left."""
    from bot.adapter import refusals as AE
    from bot.engine import errors as EE

    m, session = await _eliminated_ann(store)
    try:
        if how == "leave":
            await m.leave(1, 101)
        else:
            await m.kick(1, 102 if session.host_id == 102 else session.host_id or 0, 0)
    except EE.NotSeated:
        pytest.fail("the engine's NotSeated escaped: an out player could not leave")
    except AE.AdapterError:
        assert not session.seats[0].left, "refused, yet her seat was marked as left"
    else:
        assert session.seats[0].left
    assert session.game is not None and session.game.active == [False, True, True]
    await m.close()


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
async def test_a_match_with_the_new_house_rules_restarted_twice_replays_from_its_record(store: Any, mode: str) -> None:
    """Issue 19 point 1 with SPEC H7-H9: an AI-only match under elimination, multi_play and stack_deflect is stopped
    twice mid-match (the bot restarts from its saved snapshot); its record goes on and replays to the same result."""
    from bot.adapter import ManualClock, SessionManager
    from bot.adapter.manager import Limits
    from bot.adapter.records import replay
    from bot.adapter.session import Status

    opts = {"elimination": 80, "multi_play": True, "stack_deflect": True, "stacking": "any_draw"}
    limits = Limits(ai_delay=1.0, ai_catch_delay=1.0)
    clock = ManualClock()
    m = SessionManager(store, clock=clock, limits=limits, rng=Random(7))
    session = await m.open_lobby(channel_id=1, guild_id=2, host_id=5, host_name="A", mode=mode, options=opts,
                                 seat_host=False)  # fmt: skip
    for _ in range(4):
        await m.add_ai(1, 5)
    await m.start_game(1, 5)
    key = session.match_key
    restarts = 0
    for stop in (15, 40, 10_000):
        for _ in range(stop):
            clock.advance(1.5)
            await m.idle()
            if session.status == Status.FINISHED:
                break
        if session.status == Status.FINISHED:
            break
        await m.close()
        clock = ManualClock(clock.now())
        m = SessionManager(store, clock=clock, limits=limits, rng=Random(8))
        (session,) = await m.start()
        assert session.match_key == key
        restarts += 1
    assert session.status == Status.FINISHED and session.game is not None
    assert restarts == 2
    game = replay(await store.match_record(key))
    assert (game.winner, game.scores, game.placement()) == (session.game.winner, session.game.scores,
                                                            session.game.placement())  # fmt: skip
    await m.close()


def test_h9_a_player_who_left_ranks_after_those_who_played_on_until_they_were_out() -> None:
    """SPEC H9 placement (and so the ratings of issue 19 point 3): Cid leaves the match in round 1 with no points;
    Bob plays on and goes out of the match past the limit; Ann wins. Leaving must not rank Cid above Bob, or quitting
    before one's total passes the limit would always earn second place and a better rating."""
    from bot.engine.actions import Play

    options = Options(elimination=30)
    game = build(Mode.CLASSIC, ["R5", "B9 G9 R+2", "B1 B2"], "R3", options=options)
    game.remove_player(2)  # Cid leaves
    game.apply(Play(0, game.hands[0][0]))  # Ann goes out; Bob's 9 + 9 + 20 take him past 30: out
    assert game.winner == 0
    assert game.placement() == [0, 1, 2]


@pytest.mark.parametrize(
    "opts", [{"elimination": 100}, {"scoring": "lowest"}, {}], ids=["elimination", "lowest", "winner"]
)
def test_a_recap_gives_the_round_winner_the_points_they_scored(opts: dict[str, Any]) -> None:
    """Issue 19 point 2 with SPEC G9 "lowest" and H9: the player who goes out adds nothing to their own total (each
    other player adds their own hand), so "went out with … (+N)" must say what the winner scored — not the sum of
    everyone's points, which under those rules counted against the others."""
    from bot.adapter import records
    from bot.engine.events import RoundEnded
    from bot.engine.game import Game

    options = Options.from_dict(opts)
    game, _ = Game.new(Mode.CLASSIC, 3, seed=4, options=options)
    entries: list[tuple[int, dict[str, Any]]] = [
        (0, records.start_entry("classic", 3, 4, options, [(1, "A", None), (2, "B", None), (3, "C", None)]))
    ]
    ended = None
    while ended is None:
        seat = game.pending
        assert seat is not None
        action = game.legal_actions(seat)[0]
        events = game.apply(action)
        entries.append((game.step, {"a": records.encode(action)}))
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
    (first, *_) = records.recap(entries).rounds
    assert first.winner == ended.winner and first.scored == ended.points[ended.winner]
    assert first.points == sum(ended.points)  # the round's, as the match's stored rounds
