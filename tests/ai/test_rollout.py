"""*Hard*'s search core, compiled or not (issue 21 points 1, 4 and 5): ``bot/ai/rollout.py`` is compiled with the
engine by ``scripts/build_engine.py`` and imported from the same build (bot/engine_native.py), and both builds make
the same decisions: a digest of *Hard*'s moves over fixed seeded positions, pinned here, holds on either. CI runs this
file on the compiled build and again on the Python source (``.ci/run``), so the pin proves the two decide alike. With
the cap on a decision's work lifted (point 4, :data:`bot.ai.hard.WORK_PER_SIMULATION`) the digest is the one recorded
before the search core was compiled, so moving it changed no decision, and the cap changes only the decisions whose
rollouts it cuts short."""

from __future__ import annotations

import hashlib
import os
from random import Random

import pytest

import bot.engine
from bot import engine_native as native
from bot.ai import Level, Memory, decide, hard, normal, rollout
from bot.engine.events import visible_to
from bot.engine.game import Game
from bot.engine.options import Options

#: The positions: every game, heads-up and at 4 players (partners in classic and FLIP), house rules off and on.
SETTINGS: tuple[tuple[str, int, Options], ...] = (
    ("classic", 2, Options(target_score=0)),
    ("classic", 4, Options(target_score=0, teams=True)),
    ("classic", 4, Options(target_score=0, stacking="any_draw", draw_to_match=True, seven_zero=True, jump_in=True)),
    ("flip", 2, Options(target_score=0, stacking="any_draw", draw_to_match=True)),
    ("flip", 4, Options(target_score=0)),
    ("flex", 2, Options(target_score=0)),
    ("flex", 4, Options(target_score=0, stacking="any_draw", multi_play=True, number_finish=True)),
)
#: Searched decisions per setting, and the budget (explicit: the builds' default :data:`bot.ai.hard.ITERATIONS`
#: differ, 480 compiled and 80 on the source).
DECISIONS = 5
ITERATIONS = 40
#: :func:`hard_digest`, recorded with the work cap (``WORK_PER_SIMULATION`` 700, ``MIN_WORLDS`` 8) on both builds.
PINNED = "bb94e2d8d9a7161b1ea7c3ea06296eb23bbecb3e0ed887a54f5b66dec5feac32"
#: :func:`hard_digest` with no cap on the work, recorded on main a8d64fc (before bot/ai/rollout.py) on both builds.
PINNED_UNCAPPED = "c44455212c3ea5f57cfa692e9cc3871dec130acc0832df76d69f51cfacfe57d0"


def hard_digest() -> str:
    """Seeded rounds played by *Normal* seats, each seat's memory fed what it was shown; at each of the first
    :data:`DECISIONS` searched decisions of a round (SPEC G4: play or draw, play or keep), *Hard*'s move for that
    seat's view, memory and a seed. The digest of those moves, in order."""
    h = hashlib.sha256()
    for n, (mode, players, options) in enumerate(SETTINGS):
        game, events = Game.new(mode, players, seed=100 + n, options=options)
        memories = [Memory(s) for s in range(players)]
        for s in range(players):
            memories[s].observe(visible_to(events, s))
        rnd = Random(n)
        searched = 0
        while searched < DECISIONS and game.pending is not None:
            seat = game.pending
            view = game.view(seat)
            if hard.searched(view):
                move = decide(
                    Level.HARD,
                    view,
                    options=options,
                    memory=memories[seat],
                    seed=rnd.getrandbits(32),
                    iterations=ITERATIONS,
                )
                h.update(f"{mode}/{players}/{seat}: {move!r}\n".encode())
                searched += 1
            action = normal.choose(view, rnd) or game.default_action(seat)
            assert action is not None
            events = game.apply(action)
            for s in range(players):
                memories[s].observe(visible_to(events, s))
    return h.hexdigest()


def test_hard_decides_alike_compiled_or_not() -> None:
    """Issue 21 points 4 and 5: the same view, memory and seed give the same move on the compiled build and on the
    Python source, and the same as before the search core was compiled."""
    assert hard_digest() == PINNED


def test_the_work_cap_changes_only_the_decisions_it_cuts_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 point 4: with no cap on a decision's work, *Hard* decides as it did before the cap (and before the
    search core was compiled): the cap only stops sampling worlds, it plays them alike."""
    monkeypatch.setattr(hard, "WORK_PER_SIMULATION", 10**9)
    assert hard_digest() == PINNED_UNCAPPED


def test_the_search_core_comes_from_the_engine_s_build() -> None:
    """bot/engine_native.py imports bot/ai/rollout.py compiled exactly when it imports the engine compiled: the
    compiled core reads the engine's native classes, so the two never mix."""
    compiled = not rollout.__file__.endswith(".py")
    assert compiled == bot.engine.compiled()
    if os.environ.get("UNO_ENGINE") == "compiled":
        assert compiled and native.built()
