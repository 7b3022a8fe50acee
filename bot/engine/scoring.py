"""Scoring a round and a match (SPEC G9): round points, the match winner, and the placement order of a match.

Pure functions over plain numbers, so every layer (the engine, the adapter's result, the Discord summary) uses the
same ranking instead of sorting scores its own way.
"""

from __future__ import annotations

from collections.abc import Sequence

from .view import RoundRecord


def round_points(values: Sequence[int], winner: int, scoring: str) -> tuple[int, ...]:
    """What each seat scores in a round won by ``winner``, given ``values`` (points left in each hand).

    ``scoring = "winner"``: the winner scores every hand; ``"lowest"``: each keeps their own (SPEC G9)."""
    if scoring == "lowest":
        return tuple(values)
    points = [0] * len(values)
    points[winner] = sum(values)
    return tuple(points)


def match_winner(
    scores: Sequence[int],
    seated: Sequence[int],
    history: Sequence[RoundRecord],
    round_winner: int,
    target: int,
    scoring: str,
) -> int | None:
    """The match winner after a round won by ``round_winner``, or None if the match goes on (SPEC G9).

    ``target = 0``: a single round decides. ``scoring = "lowest"``: once someone reaches the target the lowest total
    wins; [RULING] a tie goes to the round winner if tied, else to the tied player with more rounds won, then the one
    who won a round more recently, then the lower seat."""
    if scoring == "lowest":
        if target and not any(scores[s] >= target for s in seated):
            return None
        low = min(scores[s] for s in seated)
        lowest = [s for s in seated if scores[s] == low]
        if round_winner in lowest:
            return round_winner
        if len(lowest) == 1:
            return lowest[0]
        last_won = {s: max((i for i, r in enumerate(history) if r.winner == s), default=-1) for s in lowest}
        wins = {s: sum(1 for r in history if r.winner == s) for s in lowest}
        return max(lowest, key=lambda s: (wins[s], last_won[s], -s))
    if target == 0 or scores[round_winner] >= target:
        return round_winner
    return None


def placement(
    scores: Sequence[int],
    winner: int | None,
    scoring: str,
    elimination: int = 0,
    history: Sequence[RoundRecord] = (),
    active: Sequence[bool] = (),
) -> list[int]:
    """Seats from first to last place: the match winner first, then by score — highest first with
    ``scoring = "winner"``, lowest first with ``"lowest"`` (SPEC G9) — ties by seat. ``winner`` None (an abandoned
    match): by score only. House rule ``elimination`` (SPEC H9, ``elimination`` the limit, ``history`` the rounds):
    the winner, then the players still in by lowest total, then the eliminated, the last out first (those out in the
    same round by lowest total), then, in a match won, those who left it (``active`` False and never out) by lowest
    total."""
    if elimination:
        last = len(history) + 1  # still in: after every round
        out = [last if r is None else r for r in elimination_rounds(history, len(scores), elimination)]
        for s, playing in enumerate(active if winner is not None else ()):  # an abandoned match: by when out
            if not playing and out[s] == last:  # left before going out: after everyone who played on (SPEC H9)
                out[s] = 0
        return sorted(range(len(scores)), key=lambda s: (s != winner, -out[s], scores[s], s))
    lowest = scoring == "lowest"
    return sorted(range(len(scores)), key=lambda s: (s != winner, scores[s] if lowest else -scores[s], s))


def elimination_rounds(history: Sequence[RoundRecord], players: int, limit: int) -> list[int | None]:
    """House rule ``elimination`` (SPEC H9): per seat, the round (1-based) whose points took its total past ``limit``,
    or None (still in, or left the match before that). Read from the rounds' points, so nothing else is saved."""
    totals = [0] * players
    out: list[int | None] = [None] * players
    for number, record in enumerate(history, 1):
        for s in range(players):
            totals[s] += record.points[s]
            if out[s] is None and totals[s] > limit:
                out[s] = number
    return out


__all__ = ["elimination_rounds", "match_winner", "placement", "round_points"]
