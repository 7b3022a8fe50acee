"""Storage: server settings, user preferences, live-game snapshots, finished matches and leaderboards in one SQLite
file (aiosqlite).

Imports nothing from discord, the engine or the adapter: snapshots are the adapter's JSON-able dicts, stored as
they are.
Open one :class:`Store` at start-up with the path from ``UNO_DATABASE`` (default ``data/uno.sqlite3``)::

    store = await Store.open(settings.database)
    games = await store.load_games(validate=lambda snap: Game.from_dict(snap))
    ...
    await store.close()

See :mod:`bot.storage._store` for transactions, durability and how leaderboards stay fast, and
``bot/storage/migrations/`` for the schema.
"""

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
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    GuildSettings,
    InvalidInputError,
    LeaderboardRow,
    LiveGame,
    MatchPlayer,
    MatchResult,
    OptionsValidator,
    PlayerStats,
    RoundResult,
    SchemaTooNewError,
    StorageError,
    UserPrefs,
)
from ._store import ALL_GUILDS, ALL_MODES, UNSET, Store

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
    "TURN_TIMER_MAX",
    "TURN_TIMER_MIN",
    "UNSET",
    "GuildSettings",
    "InvalidInputError",
    "LeaderboardRow",
    "LiveGame",
    "MatchPlayer",
    "MatchResult",
    "Migration",
    "OptionsValidator",
    "PlayerStats",
    "RoundResult",
    "SchemaTooNewError",
    "StorageError",
    "Store",
    "UserPrefs",
    "available_migrations",
]
