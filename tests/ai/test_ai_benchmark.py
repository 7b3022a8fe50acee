"""``benchmarks/ai.py`` (issue 21 point 3): a cell's rounds split across processes (``--jobs``) win exactly what one
process wins, so a cell of 10,000 rounds can use every core and still print the reproducible figure."""

from __future__ import annotations

from benchmarks import ai


def test_a_cell_split_across_processes_wins_the_same_rounds() -> None:
    options = ai.options_for("classic", house=True)
    seed, rounds = 7 * 1_000_003, 10
    alone, split = ai.Timer(), ai.Timer()
    one = ai.cell("classic", "hard", "normal", 4, rounds, options, alone, 8, seed)
    two = ai.cell("classic", "hard", "normal", 4, rounds, options, split, 8, seed, jobs=3)
    seats = [["hard" if s == r % 4 else "normal" for s in range(4)] for r in range(rounds)]
    by_round = sum(ai.play_round("classic", seats[r], seed + r, options, ai.Timer(), 8) == r % 4 for r in range(rounds))
    assert one == two == (by_round, rounds)
    for level in ("hard", "normal"):  # every decision timed once, wherever it ran
        assert len(split.samples[level]) == len(alone.samples[level]) > 0
