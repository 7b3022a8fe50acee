"""The AI seats' decisions, by level (issue 21 point 1): :func:`decide`.

Pure and synchronous (no asyncio, no storage, no Discord), so that a worker process can run it
(:mod:`bot.adapter.thinker`). A level decides only from the seat's own :class:`~bot.engine.view.PlayerView`, the
match options (public), what the seat was shown this round (:class:`~bot.ai.memory.Memory`) and a seed: the same
inputs give the same move, whatever the hidden cards are.

- :attr:`Level.EASY` (:mod:`bot.ai.easy`): legal moves with human-looking mistakes.
- :attr:`Level.NORMAL` (:mod:`bot.ai.normal`): the heuristic.
- :attr:`Level.HARD` (:mod:`bot.ai.hard`): a search over sampled hidden cards, the heuristic elsewhere.
"""

from __future__ import annotations

from enum import StrEnum
from random import Random

from bot.engine.actions import Action
from bot.engine.options import Options
from bot.engine.view import PlayerView
from bot.limits import AI_LEVEL_DEFAULT

from . import easy, hard, normal
from .memory import Memory


class Level(StrEnum):
    """An AI seat's level (saved with the seat: the value is what snapshots and settings hold). The values are
    :data:`bot.limits.AI_LEVELS`, the one list that storage (which may not import this package) checks settings
    against; the members are named here so that code and mypy can say ``Level.HARD`` (a test keeps the two equal)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


#: The level of an AI seat nobody chose one for (and of AI seats saved before levels existed):
#: :data:`bot.limits.AI_LEVEL_DEFAULT`.
DEFAULT_LEVEL = Level(AI_LEVEL_DEFAULT)


def decide(
    level: Level | str,
    view: PlayerView,
    *,
    options: Options,
    memory: Memory | None = None,
    seed: int,
    iterations: int | None = None,
) -> Action | None:
    """The move of an AI seat of ``level`` for ``view`` (one of ``view.legal``; None when it has nothing to do).
    ``seed`` (any int) makes it reproducible; ``iterations`` overrides *Hard*'s search budget
    (:data:`bot.ai.hard.ITERATIONS`). Raises ``ValueError`` for an unknown level."""
    level = Level(level)
    rnd = Random(seed)
    if level is Level.EASY:
        return easy.choose(view, rnd)
    if level is Level.HARD:
        budget = hard.ITERATIONS if iterations is None else iterations
        return hard.choose(view, rnd, options=options, memory=memory, iterations=budget)
    return normal.choose(view, rnd)


def thinks(level: Level | str, view: PlayerView) -> bool:
    """Whether ``level``'s move for ``view`` is a search worth running off the event loop (*Hard*, on its own
    turn)."""
    return Level(level) is Level.HARD and view.me is not None and view.pending == view.me and hard.searched(view)


__all__ = ["DEFAULT_LEVEL", "Level", "Memory", "decide", "thinks"]
