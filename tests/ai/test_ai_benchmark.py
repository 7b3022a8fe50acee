"""``benchmarks/ai.py`` (issue 21 point 3): a cell's rounds split across processes (``--jobs``) win exactly what one
process wins, so a cell of 10,000 rounds can use every core and still print the reproducible figure."""

from __future__ import annotations

import pytest

from benchmarks import ai
from bot.engine.options import Options


def _won_round_by_round(options: Options, seed: int, rounds: range) -> int:
    """Rounds of ``rounds`` that one *Hard* among three *Normal* (its seat rotating by the round's number) wins in
    classic, each replayed alone with ``play_round``."""
    won = 0
    for r in rounds:
        seats = ["hard" if s == r % 4 else "normal" for s in range(4)]
        won += ai.play_round("classic", seats, seed + r, options, ai.Timer(), 8) == r % 4
    return won


def test_a_cell_split_across_processes_wins_the_same_rounds() -> None:
    options = ai.options_for("classic", house=True)
    seed, rounds = 7 * 1_000_003, 10
    alone, split = ai.Timer(), ai.Timer()
    one = ai.cell("classic", "hard", "normal", 4, rounds, options, alone, 8, seed)
    two = ai.cell("classic", "hard", "normal", 4, rounds, options, split, 8, seed, jobs=3)
    assert one == two == (_won_round_by_round(options, seed, range(rounds)), rounds)
    for level in ("hard", "normal"):  # every decision timed once, wherever it ran
        assert len(split.samples[level]) == len(alone.samples[level]) > 0


def test_a_cell_played_in_parts_wins_what_the_whole_cell_wins() -> None:
    """``--first-round``: rounds 0–5 and then rounds 6–9 are the rounds 0–9 of one run, each part on any number of
    processes (the seat of the subject still rotates by the round's number)."""
    options = ai.options_for("classic", house=False)
    seed = 11 * 1_000_003
    whole = ai.cell("classic", "hard", "normal", 4, 10, options, ai.Timer(), 8, seed)
    head = ai.cell("classic", "hard", "normal", 4, 6, options, ai.Timer(), 8, seed)
    tail = ai.cell("classic", "hard", "normal", 4, 4, options, ai.Timer(), 8, seed, jobs=2, first=6)
    assert head[1] + tail[1] == whole[1] == 10
    assert head[0] + tail[0] == whole[0]
    assert tail[0] == _won_round_by_round(options, seed, range(6, 10))


def test_a_negative_first_round_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        ai.main(["--first-round", "-1", "--games", "classic"])
    assert exit_.value.code == 2
    assert "--first-round must be 0 or more" in capsys.readouterr().err
