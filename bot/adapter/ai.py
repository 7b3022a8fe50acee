"""The *Normal* AI heuristic, kept under its old name for callers: it lives in :mod:`bot.ai.normal` (the AI levels
of issue 21 are in :mod:`bot.ai`, importable without the adapter or asyncio so they can run in a worker process)."""

from bot.ai.normal import choose, favourite_colour

__all__ = ["choose", "favourite_colour"]
