"""Skill ratings (issue 19 point 3): which results are rated and how, with the ``openskill`` package's Plackett–Luce
model rather than maths of our own.

- **Who is rated.** The human seats of a *completed* match with at least two of them (:func:`rated_seats`). AI seats
  are left out (the humans are ranked among themselves by their placement), abandoned matches move nothing.
- **Scopes.** One rating per player, game mode and scope: the server (``guild_id``) and all servers
  (:data:`~bot.storage._common.ALL_GUILDS`). There is no all-modes rating: a skill is per game.
- **Deterministic.** The same results in the same order give bit-for-bit the same ratings: the players of a match are
  always passed to the model in one order (placement, then user id), the model has no randomness, and the order of
  matches is their id (the store allocates a rated match's id under the lock that serialises rating updates). So
  :meth:`SqlStore.rebuild_ratings <bot.storage._store.SqlStore.rebuild_ratings>` recomputes exactly what was stored.
- **Shown rating.** ``mu - 3 sigma`` (openskill's *ordinal*, the conservative estimate) orders the leaderboard; users
  see it on a familiar scale, ``1000 + 40 × ordinal`` (:func:`shown_rating`, openskill's ``alpha`` and ``target``),
  so a new player shows 1000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

from ._models import MatchResult

MODEL: Final = PlackettLuce()
"""The rating model: openskill's Plackett–Luce, default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
INITIAL: Final[tuple[float, float]] = (MODEL.mu, MODEL.sigma)
"""``(mu, sigma)`` of a player's first rated match."""
SHOWN_SCALE: Final = 40.0
SHOWN_OFFSET: Final = 1000.0


def ordinal(mu: float, sigma: float) -> float:
    """The stored ``rating`` column: ``mu - 3 sigma`` (openskill's ordinal)."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def shown_rating(mu: float, sigma: float) -> int:
    """The rating users see: openskill's ordinal scaled to ``1000 + 40 × (mu - 3 sigma)``, rounded."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SHOWN_SCALE, target=SHOWN_OFFSET))


def rated_seats(result: MatchResult) -> list[tuple[int, int]]:
    """``(user_id, placement)`` of the seats a result rates, in the model's order (placement, user id); empty when
    the match is not rated (abandoned, or fewer than two places among its human seats: partners share one, SPEC T4)."""
    if result.status != "completed":
        return []
    seats = sorted((p.placement, p.user_id) for p in result.players if not p.is_ai and p.user_id is not None)
    return [(user, placement) for placement, user in seats] if len({p for p, _ in seats}) >= 2 else []


def rate(
    seats: Sequence[tuple[int, int]], prior: Mapping[int, tuple[float, float]]
) -> list[tuple[int, float, float, float, float]]:
    """The new ratings of one rated match in one scope.

    ``seats``: ``(user_id, placement)`` in the order of :func:`rated_seats` (placement 1 = first). Seats sharing a
    placement are the partners of one team (SPEC T4): the model rates them as a team;
    ``prior``: each user's ``(mu, sigma)`` before the match (missing = :data:`INITIAL`). Returns
    ``(user_id, mu_before, sigma_before, mu_after, sigma_after)`` per seat, in the order given.
    """
    before = [prior.get(user, INITIAL) for user, _ in seats]
    places = sorted({placement for _, placement in seats})
    teams: list[list[Any]] = [[] for _ in places]
    where: list[tuple[int, int]] = []  # per seat: its team, its index in the team
    for (_, placement), (mu, sigma) in zip(seats, before, strict=True):
        team = teams[places.index(placement)]
        where.append((places.index(placement), len(team)))
        team.append(MODEL.rating(mu=mu, sigma=sigma))
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        (user, mu, sigma, float(after[t][i].mu), float(after[t][i].sigma))
        for (user, _), (mu, sigma), (t, i) in zip(seats, before, where, strict=True)
    ]
