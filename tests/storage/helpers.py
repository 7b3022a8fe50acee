"""Builders of storage values for the tests."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage import LiveGame, MatchPlayer, MatchResult, RoundResult


def game(channel_id: int = 100, *, guild_id: int = 1, version: int = 0, **snapshot: object) -> LiveGame:
    """A live game whose snapshot records its own fields, so a mixed-up row is easy to spot."""
    snap = {"channel": channel_id, "version": version, **snapshot}
    return LiveGame(channel_id, guild_id, "classic", "playing", version, snap, 1_700_000_000.0 + version)


def match(
    key: str,
    *,
    guild: int = 1,
    mode: str = "classic",
    channel: int = 100,
    seats: Sequence[tuple[int | None, str]] = ((11, "Ann"), (12, "Ben")),
    rounds: Sequence[tuple[int, int]] = ((0, 500),),
    winner: int | None = 0,
    status: str = "completed",
    ended_at: float = 1_700_000_900.0,
) -> MatchResult:
    """A consistent result: ``seats`` are (user id or None for an AI, name); ``rounds`` are (winner seat, points).

    Each seat's rounds_won and points_scored are derived from ``rounds``; placements follow points (winner first).
    """
    won = [0] * len(seats)
    pts = [0] * len(seats)
    for seat, points in rounds:
        won[seat] += 1
        pts[seat] += points
    order = sorted(range(len(seats)), key=lambda s: (s != winner, -pts[s], s))
    placement = {s: i + 1 for i, s in enumerate(order)}
    players = tuple(
        MatchPlayer(s, uid, name, uid is None, pts[s], placement[s], won[s], pts[s])
        for s, (uid, name) in enumerate(seats)
    )
    return MatchResult(
        key,
        mode,
        guild,
        channel,
        status,
        500,
        ended_at - 900.0,
        ended_at,
        winner if status == "completed" else None,
        players,
        tuple(RoundResult(i, seat, points) for i, (seat, points) in enumerate(rounds, start=1)),
    )
