"""The engine's only source of randomness: a seeded generator whose whole state is two integers.

Every shuffle draws a fresh :class:`random.Random` seeded from ``(seed, counter)`` and then advances the counter, so the
generator serialises as ``[seed, counter]`` and the same seed with the same actions always gives the same game
(DESIGN "Engine contract"). No global random, no clock.
"""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    """What a game needs of its generator (:class:`Rng`, or any object a caller injects: a test's scripted shuffles):
    ``shuffle(items)`` in place, ``randrange(n)`` in ``[0, n)``, and ``to_list()``, its whole state as a list of
    integers for saving (loaded back as an :class:`Rng`). No engine class needs to be subclassed for it."""

    def shuffle(self, items: list[int], /) -> None: ...

    def randrange(self, n: int, /) -> int: ...

    def to_list(self) -> list[int]: ...


class Rng:
    """A deterministic generator. ``Rng(seed)``; ``shuffle(items)`` in place; ``randrange(n)`` in ``[0, n)``.

    A game takes any :class:`RandomSource` (these three methods) instead.
    """

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        if not isinstance(seed, int) or not isinstance(counter, int) or counter < 0:
            raise ValueError("Rng needs an integer seed and a counter >= 0")
        self.seed = seed
        self.counter = counter

    def _next(self) -> random.Random:
        r = random.Random(f"{self.seed}/{self.counter}")
        self.counter += 1
        return r

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (a uniform permutation): :func:`shuffle_with` of a fresh generator."""
        shuffle_with(self._next(), items)

    def randrange(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``ValueError`` if ``n < 1``."""
        return self._next().randrange(n)

    def to_list(self) -> list[int]:
        """``[seed, counter]``: the whole state, for saving."""
        return [self.seed, self.counter]

    @classmethod
    def from_list(cls, data: list[int]) -> Rng:
        seed, counter = data
        return cls(seed, counter)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.counter) == (other.seed, other.counter)

    def __hash__(self) -> int:
        return hash((self.seed, self.counter))

    def __repr__(self) -> str:
        return f"Rng({self.seed}, {self.counter})"


def below(rnd: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``rnd``, for ``n >= 1``: the very draws of ``rnd.randrange(n)`` (CPython's
    ``_randbelow_with_getrandbits``: the fewest bits that hold ``n``, drawn again while too big), without its two Python
    frames: the compiled engine runs this as C."""
    k = n.bit_length()
    r: int = rnd.getrandbits(k)
    while r >= n:
        r = rnd.getrandbits(k)
    return r


def shuffle_with(rnd: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place with ``rnd``: the Fisher–Yates of CPython's ``random.shuffle`` (3.11), draw for draw,
    so that games keep their deals, written out here so that the compiled engine runs it as C (4× faster) and every
    Python gives the same deals."""
    getrandbits = rnd.getrandbits  # looked up once
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class NoShuffle(Rng):
    """A generator that never reorders anything: for tests that lay out piles card by card."""

    def shuffle(self, items: list[T]) -> None:
        self.counter += 1

    def randrange(self, n: int) -> int:
        if n < 1:
            raise ValueError("empty range")
        self.counter += 1
        return 0
