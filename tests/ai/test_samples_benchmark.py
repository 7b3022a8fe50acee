"""``benchmarks/ai_samples.py`` (issue 21 points 1 and 3): how close *Hard*'s sampled hands are to the real ones."""

from __future__ import annotations

from benchmarks.ai_samples import distance, measure
from bot.engine.builder import build
from bot.engine.options import Options


def test_distance_counts_the_cards_of_the_wrong_colour() -> None:
    """Wilds count as a colour of their own; the numbers do not matter."""
    game = build("classic", ["R5 R7 G3 W", "R1 B2 W+4 W"], discard="Y2", options=Options(target_score=0))
    a, b = game.hands
    assert distance(game, a, a) == 0
    assert distance(game, a, b) == 2  # a red and the green where a blue and a wild are


def test_the_seat_s_memory_brings_its_sampled_hands_closer_to_the_real_ones() -> None:
    """Seeded rounds of 4 *Normal* seats in classic: worlds sampled with the seat's memory (the colours each opponent
    failed to follow) are closer to the real hands than worlds that know only the cards played."""
    turns, remembered, blank = measure("classic", 4, False, rounds=4, worlds=5, seed=1)
    assert turns > 20
    assert 0 < remembered < blank
