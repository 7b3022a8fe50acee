"""The :class:`Store` protocol: what every caller (adapter, cogs, client) may ask of the database, whichever it is.

One implementation, :class:`~bot.storage._store.SqlStore`, on two dialects: :class:`~bot.storage._sqlite.SqliteStore`
(one SQLite file, the embedded default) and :class:`~bot.storage._postgres.PostgresStore` (a PostgreSQL server through
asyncpg, for several processes). Open one with :func:`bot.storage.open_store`; no caller needs to know which one it
got.

Errors, for every method
    :class:`InvalidInputError` (a ``ValueError``) for a bad argument, raised before anything is written;
    :class:`StorageUnavailable` when the database cannot be reached (server down or restarting, connection lost, file
    locked): the call had no effect unless said otherwise, and the next call reconnects by itself;
    :class:`StorageError` for a database this code cannot use. A failing statement (a constraint of the schema) raises
    the driver's own error after rolling the transaction back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any, Protocol, Self

from bot.limits import RATING_MIN_MATCHES

from ._models import (
    GuildSettings,
    Held,
    HistoryRow,
    LeaderboardRow,
    LiveGame,
    MatchResult,
    MatchSteps,
    PlayerRating,
    PlayerStats,
    RatingCheck,
    RatingRow,
    Season,
    Shards,
    UserPrefs,
    _Unset,
)


class Store(Protocol):
    """Settings, live games, match results, leaderboards and live-game leases. Safe to call from many tasks at once."""

    async def close(self) -> None:
        """Wait for the running calls, then close; the store cannot be used afterwards."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    # --- server settings ------------------------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; defaults when it never changed any (a damaged stored value reads as its default)."""
        ...

    async def update_settings(
        self,
        guild_id: int,
        *,
        default_mode: str | _Unset = ...,
        turn_timer: int | _Unset = ...,
        language: str | _Unset | None = ...,
        text_only: bool | _Unset = ...,
        default_target_score: int | _Unset = ...,
        turn_pings: bool | _Unset = ...,
        game_threads: bool | _Unset = ...,
        default_options: dict[str, Any] | _Unset = ...,
        season_period: str | _Unset = ...,
        ai_level: str | _Unset = ...,
    ) -> GuildSettings:
        """Change the given settings (the others keep their value) and return them all; ``UNSET`` = unchanged.
        ``default_options`` must pass the ``validate_options`` the store was opened with."""
        ...

    # --- user preferences -----------------------------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences (``/uno prefs``); defaults when they never changed any."""
        ...

    async def update_prefs(
        self, user_id: int, *, text_only: bool | _Unset = ..., large_cards: bool | _Unset = ...
    ) -> UserPrefs:
        """Change some of a user's preferences and return them all."""
        ...

    # --- live games -----------------------------------------------------------------------------------------------

    async def save_game(
        self,
        game: LiveGame,
        *,
        owner: str | None = None,
        expected_version: int | None = None,
        steps: MatchSteps | None = None,
    ) -> None:
        """Insert or replace the live game of ``game.channel_id``, with ``steps`` appended to its match's record in the
        same transaction (issue 19 point 1); returns once it is committed.

        Fenced writes (issue 16 point 5): with ``owner``, only if ``owner`` holds the channel's lease by the database's
        clock; with ``expected_version``, only if the stored game is at that version (or there is none). Otherwise
        nothing is written and :class:`~bot.storage.WriteRefused` is raised: the caller lost the game."""
        ...

    async def delete_game(self, channel_id: int, *, owner: str | None = None) -> bool:
        """Remove the channel's live game; ``False`` if there was none. Fenced by ``owner``'s lease as
        :meth:`save_game`."""
        ...

    async def load_games(
        self, validate: Callable[[dict[str, Any]], object] | None = None, *, shards: Shards | None = None
    ) -> list[LiveGame]:
        """The live games by channel id — only those of guilds ``shards`` owns when given. A row that cannot be loaded
        (or that ``validate(snapshot)`` rejects by raising) is moved to ``quarantined_games`` with one warning."""
        ...

    # --- leases: one process runs a live game at a time -----------------------------------------------------------

    async def acquire_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Take (or extend) the lease of the channel's game for ``ttl`` seconds: ``True`` if ``owner`` holds it now,
        ``False`` while another owner's lease has not expired. Taking over an expired lease is how a process replaces
        one that crashed."""
        ...

    async def acquire_leases(self, channel_ids: Iterable[int], owner: str, ttl: float) -> dict[int, str]:
        """Take (or extend) the lease of each of those channels' games that is free, expired or ``owner``'s, for ``ttl``
        seconds, in one round trip (issue 16: start-up and takeovers, as :meth:`renew_leases`); returns each channel's
        lease owner now (``owner`` where it got it). A channel missing from the answer is held by an owner that could
        not be read (it took the lease at that very moment)."""
        ...

    async def renew_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Extend ``owner``'s lease to ``ttl`` seconds from now; ``False`` if ``owner`` no longer holds it (another
        owner took it over after it expired, or it was released)."""
        ...

    async def renew_leases(self, owner: str, ttl: float) -> Held:
        """Extend every game lease and shard lock ``owner`` still holds to ``ttl`` seconds from now (the database's
        clock), in one round trip (issue 16 point 7); returns what it holds. A lease that expired but that nobody took
        over is still ``owner``'s and is renewed (how a process takes its games back after a database outage)."""
        ...

    async def acquire_shards(self, shards: Shards | None, owner: str, ttl: float) -> dict[tuple[int, int], str]:
        """Take or extend the lock of each shard of ``shards`` (:func:`~bot.storage._models.shard_keys`) that is free,
        expired or ``owner``'s, for ``ttl`` seconds (issue 16 point 4: one process per shard at a time); returns the
        owner of each of those locks now."""
        ...

    async def release_lease(self, channel_id: int, owner: str) -> bool:
        """Give up ``owner``'s lease of that channel; ``False`` if ``owner`` did not hold it."""
        ...

    async def release_leases(self, owner: str) -> int:
        """Give up every lease and shard lock of ``owner`` (on a clean stop); returns how many game leases."""
        ...

    async def lease_owner(self, channel_id: int) -> str | None:
        """Who holds an unexpired lease of the channel's game, if anyone."""
        ...

    # --- match results and leaderboards ---------------------------------------------------------------------------

    async def finish_match(
        self,
        result: MatchResult,
        *,
        replace_with: LiveGame | None = None,
        owner: str | None = None,
        expected_version: int | None = None,
        steps: MatchSteps | None = None,
    ) -> bool:
        """Record a finished match, update its players' totals and ratings, append ``steps`` to its record and delete
        (or, with ``replace_with``, replace) the channel's live game in one transaction; ``False`` and nothing written
        if its ``match_key`` was recorded. Fenced as :meth:`save_game` (:class:`~bot.storage.WriteRefused`, nothing
        written)."""
        ...

    async def match_history(
        self, user_id: int, *, guild_id: int | None, limit: int = 10, offset: int = 0
    ) -> list[HistoryRow]:
        """A player's finished matches, newest first, in a server or (``None``) everywhere (issue 19 point 2)."""
        ...

    async def match_history_count(self, user_id: int, *, guild_id: int | None) -> int:
        """How many finished matches :meth:`match_history` pages through."""
        ...

    async def match_record(self, match_key: str) -> list[tuple[int, dict[str, Any]]]:
        """The entries of a match's record, ``(seq, entry)`` in order (issue 19 point 1); empty when it has none."""
        ...

    async def leaderboard(
        self, *, guild_id: int | None, mode: str | None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a leaderboard in ``RANK_ORDER`` (``None`` = all servers / all modes); ``limit`` 1–1000."""
        ...

    async def leaderboard_count(self, *, guild_id: int | None, mode: str | None) -> int:
        """How many players that leaderboard lists."""
        ...

    async def season_leaderboard(
        self, *, guild_id: int | None, mode: str | None, season: str, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a season's leaderboard (issue 19 point 4), in :data:`RANK_ORDER`, as :meth:`leaderboard` but
        counting only the matches that ended in ``season`` (a key of :func:`bot.storage.season_key`: a server has
        weekly, monthly and quarterly seasons, all servers monthly ones; another key raises
        :class:`InvalidInputError`). Empty for a season without matches."""
        ...

    async def season_leaderboard_count(self, *, guild_id: int | None, mode: str | None, season: str) -> int:
        """How many players :meth:`season_leaderboard` lists."""
        ...

    async def seasons(self, *, guild_id: int | None, period: str, now: float, limit: int = 25) -> list[Season]:
        """A scope's seasons of ``period``, newest first: the one holding ``now`` (Unix seconds; listed even before
        its first match), then every earlier one with a match, at most ``limit`` (1–1000) in all. All servers
        (``guild_id`` ``None``) have only :data:`bot.limits.GLOBAL_SEASON_PERIOD` seasons."""
        ...

    async def player_stats(self, user_id: int, *, guild_id: int | None, mode: str | None) -> PlayerStats | None:
        """A player's totals and rank in one scope; ``None`` if they have no finished match there."""
        ...

    async def rebuild_aggregates(self) -> None:
        """Recompute every leaderboard total and rank table from the raw match tables, in one transaction."""
        ...

    async def rating_leaderboard(
        self,
        *,
        guild_id: int | None,
        mode: str,
        limit: int = 10,
        offset: int = 0,
        min_matches: int = RATING_MIN_MATCHES,
    ) -> list[RatingRow]:
        """One page of a game's by-rating leaderboard (issue 19 point 3), players with ``min_matches`` rated matches
        or more, best first (:data:`~bot.storage.RATING_ORDER`)."""
        ...

    async def rating_leaderboard_count(
        self, *, guild_id: int | None, mode: str, min_matches: int = RATING_MIN_MATCHES
    ) -> int:
        """How many players :meth:`rating_leaderboard` lists."""
        ...

    async def player_ratings(
        self, user_id: int, *, guild_id: int | None, mode: str | None, min_matches: int = RATING_MIN_MATCHES
    ) -> list[PlayerRating]:
        """A player's rating, rating rank and trend in ``mode`` (``None``: each game they have a rating in)."""
        ...

    async def rebuild_ratings(self, *, replace: bool = False) -> RatingCheck:
        """Recompute every rating from the recorded results and compare with (``replace``: replace) the stored ones."""
        ...
