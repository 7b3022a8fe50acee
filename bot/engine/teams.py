"""Partners (2v2 teams, SPEC T): who partners whom and the team totals.

Pure functions over seat numbers and scores, shared by the engine (round scoring, the match, placement), the AI and
the Discord layer, so that no layer works out a partner its own way. ``teams`` is the number of teams of a game (0:
no teams); seat ``s`` is in team ``s % teams`` and partners seat ``(s + teams) % players`` (SPEC T1: partners sit
opposite).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Mode
from .options import RULE_OPTIONS, Options

#: The player counts of a team game (SPEC T1): two to a team, 2, 3 or 4 teams.
TEAM_PLAYERS: tuple[int, ...] = (4, 6, 8)


def plays_teams(mode: Mode | str, options: Options) -> bool:
    """Is a game of ``mode`` with ``options`` a partner game (SPEC T1: option ``teams`` in classic UNO or UNO FLIP)?"""
    return options.teams and RULE_OPTIONS["teams"].applies_to(mode)


def team_count(mode: Mode | str, options: Options, players: int) -> int:
    """The number of teams of a game (SPEC T1): ``players // 2`` in a partner game (:func:`plays_teams`), else 0.
    Raises ``ValueError`` for a partner game of a player count outside :data:`TEAM_PLAYERS`."""
    if not plays_teams(mode, options):
        return 0
    if players not in TEAM_PLAYERS:
        raise ValueError(f"a team game is for {', '.join(str(n) for n in TEAM_PLAYERS)} players")
    return players // 2


def team_of(seat: int, teams: int) -> int:
    """The team (0-based) of ``seat`` in a game of ``teams`` teams (SPEC T1)."""
    return seat % teams


def partner_of(seat: int, teams: int) -> int:
    """The partner of ``seat``, sitting opposite (SPEC T1)."""
    return (seat + teams) % (2 * teams)


def members(team: int, teams: int) -> tuple[int, int]:
    """The two seats of ``team``, the one who joined first first (SPEC T1)."""
    return (team, team + teams)


def team_totals(scores: Sequence[int], teams: int) -> list[int]:
    """Each team's score: the sum of its partners' (SPEC T3)."""
    return [scores[t] + scores[t + teams] for t in range(teams)]


__all__ = ["TEAM_PLAYERS", "members", "partner_of", "plays_teams", "team_count", "team_of", "team_totals"]
