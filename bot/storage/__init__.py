"""Storage: server settings, user preferences, live-game snapshots, finished matches, leaderboards and live-game
leases.

Two stores behind one typed protocol, :class:`Store`: an SQLite file (aiosqlite, the embedded default) or a PostgreSQL
server (asyncpg, an optional extra, for several processes or machines). Imports nothing from discord, the engine or the
adapter: snapshots are the adapter's JSON-able dicts, stored as they are.
Open one at start-up with ``UNO_DATABASE`` (a file path, default ``data/uno.sqlite3``, or ``postgresql://…``)::

    store = await open_store(settings.database)
    games = await store.load_games(validate=lambda snap: Game.from_dict(snap))
    ...
    await store.close()

Every behaviour is written once, in :mod:`bot.storage._store` (and how leaderboards stay fast); the two dialects,
:mod:`bot.storage._sqlite` and :mod:`bot.storage._postgres`, hold connections, transactions, durability, concurrency
and the few statements whose SQL must differ (:mod:`bot.storage._dialect`); ``bot/storage/migrations/`` and
``bot/storage/pg_migrations/`` the schemas;
``python -m bot.storage.copy`` copies an SQLite database into PostgreSQL.
"""

from ._common import ALL_GUILDS, ALL_MODES
from ._migrations import Migration
from ._migrations import available as available_migrations
from ._models import (
    DEFAULT_DATABASE,
    DEFAULT_MODE,
    DEFAULT_TURN_TIMER,
    LANGUAGES,
    MATCH_STATUSES,
    MODES,
    RANK_ORDER,
    RATING_ORDER,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    UNSET,
    GuildSettings,
    Held,
    HistoryRow,
    InvalidInputError,
    LeaderboardRow,
    LiveGame,
    MatchPlayer,
    MatchResult,
    MatchSteps,
    OptionsValidator,
    PlayerRating,
    PlayerStats,
    RatingCheck,
    RatingRow,
    RoundResult,
    SchemaTooNewError,
    Season,
    Shards,
    StorageError,
    StorageUnavailable,
    UserPrefs,
    WriteRefused,
    is_postgres_url,
    redact_database,
)
from ._open import open_store
from ._outage import OutageLog, watch_outages
from ._protocol import Store
from ._seasons import season_bounds, season_key, season_period
from ._sqlite import SqliteStore

# ``Store.open(target, …)`` is open_store (for callers written when Store was the SQLite class); not part of the typed
# protocol, so type-checked code calls open_store.
Store.open = staticmethod(open_store)  # type: ignore[attr-defined]

__all__ = [
    "ALL_GUILDS",
    "ALL_MODES",
    "DEFAULT_DATABASE",
    "DEFAULT_MODE",
    "DEFAULT_TURN_TIMER",
    "LANGUAGES",
    "MATCH_STATUSES",
    "MODES",
    "RANK_ORDER",
    "RATING_ORDER",
    "TURN_TIMER_MAX",
    "TURN_TIMER_MIN",
    "UNSET",
    "GuildSettings",
    "Held",
    "HistoryRow",
    "InvalidInputError",
    "LeaderboardRow",
    "LiveGame",
    "MatchPlayer",
    "MatchResult",
    "MatchSteps",
    "Migration",
    "OptionsValidator",
    "OutageLog",
    "PlayerRating",
    "PlayerStats",
    "RatingCheck",
    "RatingRow",
    "RoundResult",
    "SchemaTooNewError",
    "Season",
    "Shards",
    "SqliteStore",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "UserPrefs",
    "WriteRefused",
    "available_migrations",
    "is_postgres_url",
    "open_store",
    "redact_database",
    "season_bounds",
    "season_key",
    "season_period",
    "watch_outages",
]
