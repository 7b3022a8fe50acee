"""*Hard*'s search (issue 21 point 1): its rollouts model the *Normal* seats it plays against (they challenge a wild
draw as Normal does and never bluff one), it never plays a guilty wild draw (SPEC G7), a sampled world gives the
same game each time it is played from, and its work per decision is capped (point 4)."""

from __future__ import annotations

from random import Random

import pytest

from bot.ai import Level, Memory, decide, hard, normal, rollout
from bot.ai.hard import Sampler, quick
from bot.ai.rollout import WORK_PER_GAME, outcomes
from bot.engine.actions import Accept, Challenge, Play
from bot.engine.builder import build
from bot.engine.cards import Kind
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase

OPTIONS = Options(target_score=0)


def _wild_draw(game: Game, seat: int) -> int:
    return next(c for c in game.hands[seat] if game.faces[c].kind is Kind.WILD_DRAW_FOUR)


def test_g7_rollout_seats_challenge_a_wild_draw_as_normal_does() -> None:
    """SPEC G7: facing a Wild Draw Four, a rollout seat (:func:`quick`) challenges exactly when Normal does (Normal
    challenges a seat left with several cards: it likely holds the colour; not one left with one card)."""
    for hand0, expected in (("W+4 R5 G3 B1", Challenge), ("W+4 R5", Accept)):
        game = build("classic", [hand0, "Y9 B9 G7", "Y1 Y2"], discard="R2", options=OPTIONS)
        wd = _wild_draw(game, 0)
        play = max((a for a in game.legal_actions(0) if isinstance(a, Play) and a.card == wd), key=lambda a: a.uno)
        game.apply(play)
        assert game.phase is Phase.CHALLENGE and game.pending == 1
        assert isinstance(normal.choose(game.view(1), Random(0)), expected)
        assert isinstance(quick(game, 1), expected)


def test_g7_hard_never_plays_a_guilty_wild_draw() -> None:
    """SPEC G7: holding red with red in play, Hard plays no Wild Draw Four, whatever its rollouts would give
    (its Normal opponents challenge nearly always)."""
    game = build("classic", ["W+4 R5 G3 B7", "Y9 B9 G7", "Y1 Y2 B3", "G5 G6"], discard="R2", options=OPTIONS)
    wd = _wild_draw(game, 0)
    for seed in range(3):
        move = decide(Level.HARD, game.view(0), options=OPTIONS, memory=Memory(0), seed=seed, iterations=60)
        assert isinstance(move, Play) and move.card != wd


def test_a_sampled_world_gives_the_same_game_each_time() -> None:
    """Issue 21 pt 1: Hard samples each world once and plays every candidate in a copy: a copy played to the end
    leaves the world as it was, and equals the game :meth:`Sampler.sample` gives for that seed."""
    game = build("classic", ["R5 G3 W+4", "Y9 B9 G7 R8 Y1", "G1 B2 Y3 Y4"], discard="B1 R2", options=OPTIONS)
    sampler = Sampler(game.view(0), OPTIONS, Memory(0))
    for seed in range(10):
        world = sampler.world(seed)
        first = sampler.game(world)
        assert first == sampler.sample(seed)
        for _ in range(50):
            seat = first.pending
            if seat is None:
                break
            action = quick(first, seat)
            assert action is not None
            first.apply(action)
        assert sampler.game(world) == sampler.sample(seed)


def test_the_work_cap_stops_sampling_worlds_and_keeps_the_first_ones() -> None:
    """Issue 21 point 4: a decision's rollouts stop sampling new worlds once their work reaches the cap
    (:data:`bot.ai.hard.WORK_PER_SIMULATION` per simulation): every candidate is played in every world begun, and a
    smaller cap gives the first worlds of a larger one, with the same results (a long round is searched in fewer
    worlds, never in other ones)."""
    options = Options(target_score=0, stacking="any_draw", draw_to_match=True)
    game = build("classic", ["R5 G3 W+4 R+2", "Y9 B9 G7 R8 Y1", "G1 B2 Y3 Y4"], discard="B1 R2", options=options)
    view = game.view(0)
    candidates = [a for a in view.legal if isinstance(a, Play)][:3]
    assert len(candidates) == 3
    sampler = Sampler(view, options, Memory(0))
    full = outcomes(sampler, candidates, 0, seed=7, worlds=40, steps=400, work=10**9)
    assert [len(r) for r in full] == [40, 40, 40]
    one_world = outcomes(sampler, candidates, 0, seed=7, worlds=40, steps=400, work=1)
    assert [len(r) for r in one_world] == [1, 1, 1]
    # The work of each world, counted as outcomes() counts it: the search stops after the first world at which the
    # running total reaches the cap.
    costs = [sum(rollout._play_out(sampler.sample(7 + w), a, 0, 400)[1] for a in candidates) for w in range(40)]
    assert all(c > 3 * (WORK_PER_GAME + len(candidates)) for c in costs)  # every action counts its legal actions
    cap = sum(costs[:5]) - 1
    cut = outcomes(sampler, candidates, 0, seed=7, worlds=40, steps=400, work=cap)
    assert [len(r) for r in cut] == [5, 5, 5]
    assert cut == [r[:5] for r in full]
    exact = outcomes(sampler, candidates, 0, seed=7, worlds=40, steps=400, work=cap + 1)
    assert [len(r) for r in exact] == [5, 5, 5]
    assert len(outcomes(sampler, candidates, 0, seed=7, worlds=40, steps=400, work=cap + 2)[0]) == 6


def test_a_search_the_cap_cuts_short_keeps_the_normal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 point 4: a search the work cap stops before :data:`bot.ai.hard.MIN_WORLDS` worlds keeps the *Normal*
    move (one world tells moves apart by luck); uncapped, the same positions give *Hard* moves that differ."""
    options = Options(target_score=0)
    views = []
    for seed in range(12):
        game, _ = Game.new("classic", 4, seed=seed, options=options)
        for _ in range(6):
            view = game.view(game.pending)
            views.append((view, seed))
            game.apply(normal.choose(view, Random(seed)) or game.default_action(game.pending))
    uncapped = [decide(Level.HARD, v, options=options, memory=Memory(v.me), seed=s, iterations=240) for v, s in views]
    normals = [normal.choose(v, Random(s)) for v, s in views]
    assert uncapped != normals
    monkeypatch.setattr(hard, "WORK_PER_SIMULATION", 1)
    capped = [decide(Level.HARD, v, options=options, memory=Memory(v.me), seed=s, iterations=240) for v, s in views]
    assert capped == normals
