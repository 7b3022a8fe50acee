"""Match results: how a finished or abandoned match is settled and recorded (DESIGN "Storage", SPEC G9).

Pure functions of the session and the clock's time: the manager commits what they return.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.teams import team_of
from bot.engine.view import Phase
from bot.storage import MatchPlayer, MatchResult, RoundResult

from .session import MatchOutcome, Session, Status


def abandon(game: Game, remove: Callable[[int], list[Event]] | None = None) -> list[Event]:
    """Remove every remaining player (with ``remove``, e.g. :meth:`Session.remove` which notes each removal for the
    match record; default the game's own ``remove_player``): the match ends without a winner. Returns the engine's
    events."""
    remove = remove or game.remove_player
    events: list[Event] = []
    for s in range(game.players):
        if game.phase is Phase.MATCH_OVER:
            break
        if game.active[s]:
            events += remove(s)
    return events


def settle(session: Session, now: float, *, abandoned: bool = False) -> MatchResult:
    """Mark ``session`` finished at ``now`` (Unix seconds), fill ``session.result`` and return the match's record for
    the store. Placement: the winner first, then by score (lowest first under ``scoring="lowest"``), then by seat; in a
    partner game (SPEC T4) both partners share their team's place, so the store credits the match win to both and rates
    them as one team, but a player who left or was removed ranks after every team (SPEC T5); each seat's team is
    recorded (numbered from 1), so that a history tells partners from opponents."""
    game = session.game
    assert game is not None
    session.status = Status.FINISHED
    session.deadline = None
    session.last_activity = now  # finished sessions are kept for Limits.finished_kept from here
    abandoned = abandoned or game.abandoned or game.winner is None
    scores = game.scores
    order = game.placement()  # the engine's ranking (SPEC G9), the one the summary shows too
    placement = _places(session, order, game.teams)
    rounds = tuple(RoundResult(i + 1, r.winner, sum(r.points)) for i, r in enumerate(game.history))
    players = tuple(
        MatchPlayer(
            seat=s,
            user_id=seat.user_id,
            display_name=seat.name[:100] or "?",
            is_ai=seat.ai,
            final_score=scores[s],
            placement=placement[s],
            rounds_won=sum(1 for r in game.history if r.winner == s),
            points_scored=sum(r.points[s] for r in game.history),
            team=team_of(s, game.teams) + 1 if game.teams else None,  # SPEC T1: teams numbered from 1
        )
        for s, seat in enumerate(session.seats)
    )
    session.result = MatchOutcome(
        "abandoned" if abandoned else "completed", None if abandoned else game.winner, tuple(scores), now, tuple(order)
    )
    return MatchResult(
        match_key=session.match_key,
        mode=session.mode.value,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        status="abandoned" if abandoned else "completed",
        target_score=game.options.target_score,
        started_at=session.started_at or session.created_at,
        ended_at=max(now, session.started_at or session.created_at),
        winner_seat=None if abandoned else game.winner,
        players=players,
        rounds=rounds,
    )


def _places(session: Session, order: list[int], teams: int) -> dict[int, int]:
    """Each seat's recorded place (1 = first) from the engine's ``order``. In a partner game (SPEC T4) a team's place
    is both partners'; a player who left the match or was removed from it (SPEC T5) shares neither their team's place
    nor its win: they rank after every team, in the engine's order."""
    if not teams:
        return {s: i + 1 for i, s in enumerate(order)}
    stayed = [s for s in order if not session.seats[s].left]
    gone = [s for s in order if session.seats[s].left]
    team_place: dict[int, int] = {}
    places: dict[int, int] = {}
    for s in stayed:
        places[s] = team_place.setdefault(team_of(s, teams), len(team_place) + 1)
    for k, s in enumerate(gone, start=len(team_place) + 1):
        places[s] = k
    return places


__all__ = ["abandon", "settle"]
