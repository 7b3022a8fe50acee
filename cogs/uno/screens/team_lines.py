"""Partner games (SPEC T) on screen: who partners whom in the lobby, the team tags and totals of the table, and the
team lines of the round and match summaries.

Pure text helpers: the caller (:mod:`cogs.uno.screens`) gives each seat's shown name through ``name``. Who partners
whom comes from the engine (:mod:`bot.engine.teams`), never worked out here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.engine.teams import TEAM_PLAYERS, members, partner_of, plays_teams, team_of, team_totals
from bot.i18n import t, tn

#: A seat's shown name, by seat.
Names = Callable[[int], str]


def teams_at(mode: Mode, options: Options, seats: int) -> int:
    """The number of teams of a table of ``seats`` players (SPEC T1); 0 when it is not a partner game (or, in a lobby,
    not yet one of 4, 6 or 8 players)."""
    return seats // 2 if plays_teams(mode, options) and seats in TEAM_PLAYERS else 0


def team_name(team: int, lang: str) -> str:
    """ "Team 1" for team 0 (SPEC T1 numbers teams from 1)."""
    return t("team.name", lang, n=team + 1)


def seat_team(seat: int, teams: int, lang: str) -> str:
    """ "Team 2": the name of ``seat``'s team (SPEC T1)."""
    return team_name(team_of(seat, teams), lang)


def partners(team: int, teams: int, name: Names, lang: str) -> str:
    """ "Ann and Cid": the two players of ``team``."""
    a, b = members(team, teams)
    return t("team.members", lang, a=name(a), b=name(b))


def lobby_teams(mode: Mode, options: Options, seats: int, name: Names, lang: str) -> str | None:
    """The lobby's "Partners" field: one line per team once the table has 4, 6 or 8 players, else how teams are formed;
    None when the table is not a partner game."""
    if not plays_teams(mode, options):
        return None
    if seats not in TEAM_PLAYERS:
        return t("lobby.teams_pending", lang)
    teams = seats // 2
    return "\n".join(f"**{team_name(k, lang)}**: {partners(k, teams, name, lang)}" for k in range(teams))


def seat_tag(seat: int, teams: int) -> str:
    """The short, language-free tag of a seat's team on the table image: ``[1]``."""
    return f"[{team_of(seat, teams) + 1}]"


def totals_line(scores: Sequence[int], teams: int, lang: str) -> str:
    """The table's line of team scores (SPEC T3): "**Team 1** 120 points · **Team 2** 85 points"."""
    return " · ".join(
        f"**{team_name(k, lang)}** {tn('table.points', total, lang)}"
        for k, total in enumerate(team_totals(scores, teams))
    )


def round_line(winner: int, teams: int, name: Names, lang: str, left: Callable[[int], bool] | None = None) -> str:
    """The round summary's first line: the team that won the round (SPEC T2), both partners named; a partner who
    ``left`` the match plays no part in its rounds any more (SPEC T5), so only the winner is named then."""
    team = team_of(winner, teams)
    if left is not None and left(partner_of(winner, teams)):
        return t("round.team", lang, n=team + 1, players=name(winner))
    return t("round.team", lang, n=team + 1, players=partners(team, teams, name, lang))


def winners(winner: int, teams: int, name: Names, lang: str, left: Callable[[int], bool] | None = None) -> str:
    """The players who won the match with ``winner``: both partners (SPEC T3), or ``winner`` alone when their partner
    ``left`` the match (SPEC T5: they do not share its win)."""
    if left is not None and left(partner_of(winner, teams)):
        return name(winner)
    return partners(team_of(winner, teams), teams, name, lang)


def match_title(winner: int, teams: int, name: Names, lang: str, left: Callable[[int], bool] | None = None) -> str:
    """The match summary's title: the team that won the match and its :func:`winners` (SPEC T3, T5)."""
    team = team_of(winner, teams)
    return t("match.title_team", lang, n=team + 1, players=winners(winner, teams, name, lang, left))


__all__ = [
    "lobby_teams",
    "match_title",
    "partners",
    "round_line",
    "seat_tag",
    "seat_team",
    "team_name",
    "teams_at",
    "totals_line",
    "winners",
]
