"""Scoring a round and a match (SPEC G9): round points, the match winner, and the placement order of a match.

Pure functions over plain numbers, so every layer (the engine, the adapter's result, the Discord summary) uses the
same ranking instead of sorting scores its own way.
"""

from __future__ import annotations

from collections.abc import Sequence

from .teams import members, team_of, team_totals
from .view import RoundRecord


def round_points(values: Sequence[int], winner: int, scoring: str, teams: int = 0) -> tuple[int, ...]:
    """What each seat scores in a round won by ``winner``, given ``values`` (points left in each hand).

    ``scoring = "winner"``: the winner scores every hand; ``"lowest"``: each keeps their own (SPEC G9). In a game of
    ``teams`` teams (SPEC T2) the winner scores the opponents' hands only: their partner's counts for nothing."""
    if scoring == "lowest":
        return tuple(values)
    points = [0] * len(values)
    if teams:
        side = team_of(winner, teams)
        points[winner] = sum(v for s, v in enumerate(values) if team_of(s, teams) != side)
    else:
        points[winner] = sum(values)
    return tuple(points)


def _team_history(history: Sequence[RoundRecord], teams: int) -> list[RoundRecord]:
    """``history`` told team by team (SPEC T3): each round's winning team and each team's points."""
    return [RoundRecord(team_of(r.winner, teams), tuple(team_totals(r.points, teams))) for r in history]


def match_winner(
    scores: Sequence[int],
    seated: Sequence[int],
    history: Sequence[RoundRecord],
    round_winner: int,
    target: int,
    scoring: str,
    teams: int = 0,
) -> int | None:
    """The match winner after a round won by ``round_winner``, or None if the match goes on (SPEC G9).

    ``target = 0``: a single round decides. ``scoring = "lowest"``: once someone reaches the target the lowest total
    wins; [RULING] a tie goes to the round winner if tied, else to the tied player with more rounds won, then the one
    who won a round more recently, then the lower seat. In a game of ``teams`` teams the same is played team by team
    on the team totals (SPEC T3), and the match winner is ``round_winner`` when their team wins."""
    if teams:
        sides = sorted({team_of(s, teams) for s in seated})
        won = match_winner(
            team_totals(scores, teams),
            sides,
            _team_history(history, teams),
            team_of(round_winner, teams),
            target,
            scoring,
        )
        if won is None or won == team_of(round_winner, teams):
            return None if won is None else round_winner
        first, second = members(won, teams)
        return first if first in seated else second
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
    teams: int = 0,
) -> list[int]:
    """Seats from first to last place: the match winner first, then by score — highest first with
    ``scoring = "winner"``, lowest first with ``"lowest"`` (SPEC G9) — ties by seat. ``winner`` None (an abandoned
    match): by score only. House rule ``elimination`` (SPEC H9, ``elimination`` the limit, ``history`` the rounds):
    the winner, then the players still in by lowest total, then the eliminated, the last out first (those out in the
    same round by lowest total), then, in a match won, those who left it (``active`` False and never out) by lowest
    total. In a game of ``teams`` teams (SPEC T4) the teams are ranked so on their totals (the winner's team first),
    and each team's partners follow one another: the match winner first, then the higher scorer (lower with
    ``"lowest"``), then the lower seat."""
    lowest = scoring == "lowest"
    if teams:
        order = placement(team_totals(scores, teams), None if winner is None else team_of(winner, teams), scoring)
        return [
            s
            for team in order
            for s in sorted(members(team, teams), key=lambda s: (s != winner, scores[s] if lowest else -scores[s], s))
        ]
    if elimination:
        last = len(history) + 1  # still in: after every round
        out = [last if r is None else r for r in elimination_rounds(history, len(scores), elimination)]
        for s, playing in enumerate(active if winner is not None else ()):  # an abandoned match: by when out
            if not playing and out[s] == last:  # left before going out: after everyone who played on (SPEC H9)
                out[s] = 0
        return sorted(range(len(scores)), key=lambda s: (s != winner, -out[s], scores[s], s))
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
