"""The *Hard* AI level (issue 21 point 1): a search over determinisations of what the seat cannot see.

For a decision of its own turn (play a card or draw, play or keep a drawn card) it samples complete games consistent
with everything the seat may know — its :class:`~bot.engine.view.PlayerView` (own hand, every hand's count, the
pile sizes, FLIP's other faces of the opponents' hands and of the draw-pile top, Power Cards) and its
:class:`~bot.ai.memory.Memory` (the cards played since the last reshuffle are in no hand, the colours each opponent
failed to follow, a challenged hand it was shown) — and plays each candidate move on in them to the end of the round
with every seat following a fast form of the *Normal* heuristic (:func:`quick`: it challenges a wild draw and never
bluffs one, as *Normal*, so *Hard* never plays a guilty wild draw either). Each world is sampled once and every
candidate is played in a copy of it, so candidates are compared pair by pair; the move that wins most rounds more
than the *Normal* move is chosen only if its gain is above :data:`MARGIN` and :data:`CONFIDENCE` standard errors
(else the heuristic's move is kept: a few dozen rollouts cannot tell close moves apart).
Every other decision (UNO calls, catches, colours owed, challenges, stacks, jump-ins) is the *Normal* one.

The budget is a number of simulations (:data:`ITERATIONS`) and a cap on their work (:data:`WORK_PER_SIMULATION`
units of work per simulation on average, counted by :func:`~bot.ai.rollout.outcomes`: rounds with stacks and
``draw_to_match`` are long, so a position whose rollouts are long is searched in fewer worlds; one cut short below
:data:`MIN_WORLDS` worlds keeps the *Normal* move), not a time: the same view, memory and seed give the same move.
The search never sees the real game: it is given only the view, the match options (public) and the memory.
With ``flip_pairing = "random"`` (SPEC F2) the seat cannot know which faces share a card, so *Hard* plays *Normal*.

This module chooses the candidates and the move; the sampling (:class:`~bot.ai.rollout.Sampler`), the rollouts and
:func:`~bot.ai.rollout.quick` are in :mod:`bot.ai.rollout`, which ``scripts/build_engine.py`` compiles with mypyc
together with the engine (issue 21 point 5): the same decisions on either build, the compiled one at about half the
CPU time per decision. Both are re-exported here (``Sampler``, ``quick``).
"""

from __future__ import annotations

import math
from random import Random

from bot.engine import compiled
from bot.engine.actions import Action, Draw, Keep, Play, PlayMany
from bot.engine.cards import CHALLENGEABLE_KINDS, Mode
from bot.engine.options import Options
from bot.engine.view import Phase, PlayerView

from . import normal
from .memory import Memory
from .rollout import Sampler, outcomes, quick

#: Simulations per decision (the budget: deterministic, unlike a time limit). On the compiled engine (issue 21 point 5)
#: 480: each world is sampled once for all candidates, the rollout policy is lean and compiled with the engine
#: (:mod:`bot.ai.rollout`), and at 4 players they win more than 240 (README "AI levels"); on the source engine 80 keep a
#: decision within the time budget (p95 ≤ 200 ms).
ITERATIONS = 480 if compiled() else 80
#: The rollouts of a decision stop sampling new worlds once they have done ``iterations`` times this much work (in the
#: unit of :func:`bot.ai.rollout.outcomes`; its CPU cost is given at :data:`bot.ai.rollout.WORK_PER_ACTION`): 700 is a
#: rollout of about 45 actions of classic, more than the rollouts of nearly every heads-up decision with house rules
#: off take on average (the cap leaves those decisions nearly all as they were), and it holds a decision whose
#: rollouts are long (house rules on: stacks, ``draw_to_match``) within the time budget, p95 ≤ 200 ms (README "AI
#: levels").
WORK_PER_SIMULATION = 700
#: A search the work cap stopped before this many worlds keeps the *Normal* move: a handful of worlds cannot tell
#: moves apart (with one world the paired differences have no variance). Not seen at 480 simulations: with house rules
#: on (classic heads-up and at 4 players, FLIP heads-up, Flex at 4 players; 6-10 rounds each) the fewest worlds a
#: capped search played was 18.
MIN_WORLDS = 8
#: A rollout stops after this many actions (a round that long is scored by hand sizes).
ROLLOUT_STEPS = 400
#: The searched move replaces the *Normal* one only if its share of rounds won is higher by this much...
MARGIN = 0.05
#: ... and by this many standard errors of the paired differences.
CONFIDENCE = 1.0

_SEARCHED = (Phase.PLAY, Phase.PLAY_DRAWN)


def choose(
    view: PlayerView, rnd: Random, *, options: Options, memory: Memory | None = None, iterations: int = ITERATIONS
) -> Action | None:
    """The *Hard* action for ``view`` (None when it has nothing to do). ``options``: the match options (public);
    ``memory``: what the seat was shown this round (None: nothing beyond the view); ``rnd`` seeds the search."""
    base = normal.choose(view, rnd)
    me = view.me
    if base is None or me is None or view.pending != me or view.phase not in _SEARCHED or iterations <= 0:
        return base
    if isinstance(base, Play) and base.uno and _cards_left(view, base) == 0:
        return base  # going out: nothing to search
    if view.mode is Mode.FLIP and options.flip_pairing != "physical":
        return base
    candidates = _candidates(view, base)
    if len(candidates) < 2:
        return base
    seed = rnd.getrandbits(64)
    sampler = Sampler(view, options, memory or Memory(me))
    # Every candidate is played in the same sampled worlds (common random numbers): the rollouts are deterministic
    # given the world, so the candidates are compared pair by pair, without the noise of the worlds.
    planned = max(1, iterations // len(candidates))
    results = outcomes(
        sampler, candidates, me, seed=seed, worlds=planned, steps=ROLLOUT_STEPS, work=iterations * WORK_PER_SIMULATION
    )
    base_results = results[0]
    worlds = len(base_results)
    if worlds < min(planned, MIN_WORLDS):
        return base
    best, best_gain = 0, 0.0
    for i in range(1, len(candidates)):
        diffs = [x - y for x, y in zip(results[i], base_results, strict=True)]
        gain = sum(diffs) / worlds
        var = sum((d - gain) ** 2 for d in diffs) / max(worlds - 1, 1)
        if gain > max(MARGIN, CONFIDENCE * math.sqrt(var / worlds)) and gain > best_gain:
            best, best_gain = i, gain
    return candidates[best] if best else base


def searched(view: PlayerView) -> bool:
    """Whether :func:`choose` may search for ``view`` (its own turn's play-or-draw decisions)."""
    return view.phase in _SEARCHED


def _cards_left(view: PlayerView, play: Play) -> int:
    return len(view.hand) - 1


def _candidates(view: PlayerView, base: Action) -> list[Action]:
    """The moves worth searching, the *Normal* move first: every play (UNO called whenever it can be; a wild with the
    colour the hand holds most), every listed play of several cards (house rule ``multi_play``), plus drawing or
    keeping."""
    legal = list(view.legal)
    favourite = normal.favourite_colour(view)
    bluffs = {c.id for c in view.hand if c.face.kind in CHALLENGEABLE_KINDS and normal._would_bluff(view, c.id)}
    plays = [
        a for a in legal if isinstance(a, Play) and (a.colour is None or a.colour is favourite) and a.card not in bluffs
    ]
    uno_cards = {a.card for a in plays if a.uno}
    out: list[Action] = [base]
    seen = {base}
    for a in plays:
        if a.card in uno_cards and not a.uno:
            continue
        if a not in seen:
            seen.add(a)
            out.append(a)
    together = [a for a in legal if isinstance(a, PlayMany)]  # house rule multi_play (SPEC H8)
    with_uno = {a.cards for a in together if a.uno}
    for many in together:
        if (many.uno or many.cards not in with_uno) and many not in seen:
            seen.add(many)
            out.append(many)
    for other in legal:
        if isinstance(other, Draw | Keep) and other not in seen:
            seen.add(other)
            out.append(other)
    return out


__all__ = ["ITERATIONS", "MIN_WORLDS", "WORK_PER_SIMULATION", "Sampler", "choose", "quick", "searched"]
