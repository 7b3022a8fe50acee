"""House rules (SPEC H) through the adapter: AI-only matches with every rule on end normally; the AI stacks, swaps
with the player holding the fewest cards and jumps in; a timed-out stack is taken; rules a game lacks are refused."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, ai
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.adapter.session import Status
from bot.adapter.timers import default_action
from bot.engine.actions import Accept, Play
from bot.engine.builder import build
from bot.engine.events import PenaltyAccepted
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.storage import Store

ALL_ON = {
    "stacking": "any_draw",
    "draw_to_match": True,
    "force_play": True,
    "jump_in": True,
    "number_finish": True,
    "stack_deflect": True,
    "multi_play": True,
}


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await Store.open(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
async def test_h_ai_only_matches_with_every_house_rule_on_reach_the_target(store: Store, mode: str) -> None:
    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(3))
    options = dict(ALL_ON, target_score=200, seven_zero=mode == "classic")
    session = await m.open_lobby(
        channel_id=1, guild_id=2, host_id=5, host_name="A", mode=mode, options=options, seat_host=False
    )
    for _ in range(4):
        await m.add_ai(1, 5)
    await m.start_game(1, 5)
    for _ in range(200):
        await m.idle()
        if session.status == Status.FINISHED:
            break
    assert session.status == Status.FINISHED and session.result is not None
    assert session.result.status == "completed" and max(session.result.scores) >= 200
    await m.close()


async def test_h_seven_zero_is_refused_for_a_game_without_it(store: Store) -> None:
    m = SessionManager(store, clock=ManualClock(), rng=Random(1))
    with pytest.raises(AE.BadRequest):
        await m.open_lobby(
            channel_id=1, guild_id=2, host_id=5, host_name="A", mode="flex", options={"seven_zero": True}
        )
    await m.close()


def test_h_the_ai_stacks_when_it_can_and_takes_the_stack_when_it_cannot() -> None:
    game = build("classic", ["R+2 B1 B7", "G+2 G5 B2", "B3 B8"], "R5", options=Options(stacking="same_kind"))
    game.apply(game.legal_actions(0)[0])
    action = ai.choose(game.view(1), Random(0))
    assert isinstance(action, Play) and game.faces[action.card].kind.value == "draw_two"
    game.apply(action)
    assert ai.choose(game.view(2), Random(0)) == Accept(2)


def test_h_the_ai_swaps_hands_with_the_player_holding_the_fewest_cards() -> None:
    game = build("classic", ["R7 G1 G2 G3 G4", "B1 B2 B3", "Y1", "B4 B5 B6 B7"], "R5", options=Options(seven_zero=True))
    action = ai.choose(game.view(0), Random(0))
    assert isinstance(action, Play) and action.target == 2


def test_h_the_ai_jumps_in_with_an_identical_card() -> None:
    game = build("classic", ["B1 B2", "B3", "R5 G1"], "R5", options=Options(jump_in=True))
    action = ai.choose(game.view(2), Random(0))
    assert isinstance(action, Play) and action.player == 2 and action.card in game.jump_ins(2)


def test_h_a_timed_out_stack_is_taken_and_force_play_plays_instead_of_drawing() -> None:
    game = build("classic", ["R+2 B1 B7", "G4 B2", "B3"], "R5", options=Options(stacking="same_kind"))
    game.apply(game.legal_actions(0)[0])
    events = default_action(game, 1)
    assert PenaltyAccepted(1) in events and game.phase is Phase.PLAY and game.current == 2
    forced = build("classic", ["W G1", "B3"], "R5", options=Options(force_play=True))
    default_action(forced, 0)
    assert len(forced.hands[0]) == 1 and forced.current == 1  # played the wild (declaring its colour held most)


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
async def test_h9_an_ai_only_elimination_match_ends_with_the_last_one_in_and_records_the_order_out(
    store: Store, mode: str
) -> None:
    """SPEC H9: players go out past the limit; the last one in wins; the record ranks the others by when they went
    out (the engine's placement), the winner first."""
    from bot.engine.scoring import elimination_rounds

    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(5))
    session = await m.open_lobby(
        channel_id=1, guild_id=2, host_id=5, host_name="A", mode=mode, options={"elimination": 60}, seat_host=False
    )
    for _ in range(4):
        await m.add_ai(1, 5)
    await m.start_game(1, 5)
    for _ in range(400):
        await m.idle()
        if session.status == Status.FINISHED:
            break
    assert session.status == Status.FINISHED and session.result is not None and session.game is not None
    game = session.game
    assert session.result.status == "completed" and game.winner is not None
    assert [s for s in range(4) if game.active[s]] == [game.winner] and game.scores[game.winner] <= 60
    out = elimination_rounds(game.history, 4, 60)
    order = list(session.result.placement)
    assert order[0] == game.winner
    assert [out[s] for s in order[1:]] == sorted((out[s] for s in order[1:]), key=lambda r: -(r or 0))
    await m.close()


async def test_h9_the_next_round_is_dealt_when_the_first_seat_is_out(store: Store) -> None:
    """SPEC H9: seat 0 goes out of the match at the end of a round; the round-over timer still deals the next round
    (it asks a seat still in, not merely one that never left)."""
    from bot.adapter.manager import Limits as _Limits

    clock = ManualClock()
    m = SessionManager(store, clock=clock, limits=_Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
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
    game = session.game
    assert game.phase is Phase.ROUND_OVER and game.active == [False, True, True]
    assert session.deadline is not None
    clock.advance(session.deadline - clock.now() + 0.5)
    await m.idle()
    assert game.round == 2 and game.phase is not Phase.ROUND_OVER and game.hands[0] == []
    await m.close()


async def test_h9_ai_only_the_next_round_is_dealt_by_an_ai_still_in(store: Store) -> None:
    """SPEC H9: with AI seats only and seat 0 out, an AI still in deals the next round at once."""
    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
    session = await m.open_lobby(
        channel_id=1, guild_id=2, host_id=5, host_name="A", mode="classic", options={"elimination": 100},
        seat_host=False,
    )  # fmt: skip
    for _ in range(3):
        await m.add_ai(1, 5)
    await m.start_game(1, 5)
    options = Options(elimination=100)
    session.game = build("classic", ["B9 G9 R+2", "R5", "B1 B2"], "R3", current=1, scores=[80, 0, 50], options=options)
    m._timers.arm(session)  # the laid-out position replaced the dealt game: arm its AI seat again
    await m.idle()
    game = session.game
    assert game.active[0] is False and game.round >= 2
    await m.close()
