"""The records of pending decisions that need more than a phase (SPEC G7): plain frozen values saved with the game."""

from __future__ import annotations

from dataclasses import dataclass

from .frozen import picklable


@dataclass(frozen=True, slots=True)
class PendingChallenge:
    """A wild draw waiting for challenge-or-accept (SPEC G7).

    ``player`` played ``card``; ``victim`` decides; ``guilty`` was judged when the card was played from ``hand`` (the
    player's hand just after playing, shown to a challenger); ``flex``: a flex-side Flex Wild Draw Four, after which
    play resumes with ``resume`` whatever happens (SPEC X7)."""

    player: int
    victim: int
    card: int
    guilty: bool
    hand: tuple[int, ...]
    flex: bool = False
    resume: int | None = None

    def __init__(
        self,
        player: int,
        victim: int,
        card: int,
        guilty: bool,
        hand: tuple[int, ...],
        flex: bool = False,
        resume: int | None = None,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "victim", victim)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "guilty", guilty)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "flex", flex)
        object.__setattr__(self, "resume", resume)


picklable(PendingChallenge)  # copy and pickle work on the compiled engine too (bot.engine.frozen)
