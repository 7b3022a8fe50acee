"""Pure rules engine for classic UNO, UNO FLIP and UNO Flex! (SPEC G, C, F, X). Standard library only.

It runs as Python source, or compiled by mypyc where a C compiler was found (issue 21 point 5): the same behaviour,
faster. :mod:`bot.engine_native` chooses which, as this package is imported; :func:`compiled` says which runs.
"""

from bot import engine_native

engine_native.choose(__name__)


def compiled() -> bool:
    """Whether the engine in use is the one compiled by mypyc (else its Python source)."""
    from .game import Game

    return "__mypyc_attrs__" in Game.__dict__
