"""Random legal play, for property tests, the seeded simulation and benchmarks (not used by the bot).

The random agent is a seeded :class:`random.Random` of its own; the game's randomness stays in the game's generator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Final

from .actions import CallUno, Catch, NextRound
from .cards import Mode
from .events import Event
from .game import Game
from .options import Options
from .rng import below
from .view import Phase


@dataclass(frozen=True, slots=True)
class SimResult:
    """A finished random match: its final game, the number of actions applied and of rounds played."""

    game: Game
    steps: int
    rounds: int


_ROUND_OVER: Final = Phase.ROUND_OVER  # bound once: an Enum member read is slow in Python 3.11 (a C static compiled)


def random_step(
    game: Game,
    agent: Random,
    *,
    uno_rate: float = 0.5,
    catch_rate: float = 0.5,
    draw_rate: float | None = 0.05,
    jump_rate: float = 0.5,
) -> list[Event]:
    """Apply one random legal action and return its events.

    The owner of the pending decision picks uniformly among their legal actions (UNO calls and catches aside), except
    that while they can play, they draw instead only with probability ``draw_rate`` (``None``: drawing is just one of
    the legal actions, chosen uniformly like the others). UNO calls happen with probability ``uno_rate`` (a one-card
    player calls before anything else) and catches with ``catch_rate``. With house rule ``jump_in`` a player who can
    jump in does so with probability ``jump_rate`` (checked only when the rule is on: without it the random stream is
    the same as before the rule existed). A finished round is dealt on by its winner. ``agent`` is drawn from as by
    ``agent.randrange`` and ``agent.choice`` (:func:`~bot.engine.rng.below`: the same draws, faster).
    """
    if game.phase is _ROUND_OVER:
        return game.apply(NextRound(game.current))
    if game.catchable is not None and agent.random() < catch_rate:
        catchers = [s for s in range(game.players) if game.active[s] and s != game.catchable]
        return game.apply(Catch(catchers[below(agent, len(catchers))], game.catchable))  # agent.choice(catchers)
    if game._jump_in:  # game.options.jump_in, read natively
        jumpers = [s for s in range(game.players) if game.jump_ins(s)]
        if jumpers and agent.random() < jump_rate:
            seat = jumpers[below(agent, len(jumpers))]  # agent.choice(jumpers)
            legal = game.legal_actions(seat)
            return game.apply(legal[below(agent, legal.plays)])
    owner = game.current
    if len(game.hands[owner]) == 1 and not game.uno[owner] and agent.random() < uno_rate:
        return game.apply(CallUno(owner))
    actions = game.legal_actions(owner)
    plays = actions.plays
    if draw_rate is not None and plays and plays < actions.moves and agent.random() >= draw_rate:
        return game.apply(actions[below(agent, plays)])
    return game.apply(actions[below(agent, actions.moves)])


def play_random_match(
    mode: Mode | str,
    players: int,
    seed: int,
    options: Options | None = None,
    *,
    max_steps: int = 1_000_000,
    draw_rate: float | None = 0.05,
    on_step: Callable[[Game, list[Event]], None] | None = None,
) -> SimResult:
    """Play a whole match with random legal actions: game seed ``seed``, agent seed ``seed`` too.

    ``on_step(game, events)`` runs after every action. Raises ``RuntimeError`` if the match is not over after
    ``max_steps`` actions."""
    game, events = Game.new(mode, players, seed=seed, options=options)
    if on_step is not None:
        on_step(game, events)
    agent = Random(seed)
    steps = 0
    while game.phase is not Phase.MATCH_OVER:
        if steps >= max_steps:
            raise RuntimeError(f"match not over after {max_steps} steps (seed {seed})")
        events = random_step(game, agent, draw_rate=draw_rate)
        steps += 1
        if on_step is not None:
            on_step(game, events)
    return SimResult(game, steps, game.round)
