"""Value types of the storage layer, their validation and the errors it raises.

Everything here is plain data: ids are Discord snowflakes (positive ``int``), times are Unix seconds (``float``),
game modes are the strings ``"classic"``, ``"flip"`` and ``"flex"`` (the engine's ``Mode`` values are ``str`` and work
as they are).
Validation raises :class:`InvalidInputError` (a ``ValueError``) with a short message; the store validates before it
writes anything, so bad input never changes the database.
"""

from __future__ import annotations

import json
import math
import re
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from bot.limits import (
    AI_LEVEL_DEFAULT,
    AI_LEVELS,
    SEASON_PERIOD_DEFAULT,
    SEASON_PERIODS,
    TARGET_SCORE_DEFAULT,
    TARGET_SCORE_MAX,
    TURN_TIMER_DEFAULT,
)
from bot.limits import LANGUAGES as LANGUAGES
from bot.limits import MAX_PLAYERS as MAX_PLAYERS
from bot.limits import MODES as MODES
from bot.limits import TURN_TIMER_MAX as TURN_TIMER_MAX
from bot.limits import TURN_TIMER_MIN as TURN_TIMER_MIN

# MODES: game modes, as stored; LANGUAGES: codes a server may choose (None = each user's Discord locale); the turn
# timer bounds and MAX_PLAYERS: all from bot.limits, the one home of the limits every layer checks.
MATCH_STATUSES: tuple[str, ...] = ("completed", "abandoned")
"""How a finished match ended: ``completed`` = someone reached the target score; ``abandoned`` = it stopped before."""

DEFAULT_DATABASE = "data/uno.sqlite3"
"""Where the bot keeps its database unless ``UNO_DATABASE`` says otherwise (relative to the working directory)."""
DEFAULT_MODE = "classic"
DEFAULT_TURN_TIMER = TURN_TIMER_DEFAULT
"""Seconds a player has for a decision before the adapter takes the default for them."""
MAX_SEAT = 255
MAX_NAME_LENGTH = 100
MAX_MATCH_KEY_LENGTH = 200
MAX_OPTIONS_LENGTH = 2000
"""The longest ``default_options`` a server may save, as compact JSON text (SPEC table O has a dozen short fields)."""
_MAX_SNOWFLAKE = 2**63 - 1
_LIVE_STATUS = re.compile(r"[a-z][a-z_]{0,31}")


class StorageError(Exception):
    """The database cannot be used (not an SQLite file, a schema this code does not know, a broken migration)."""


class StorageUnavailable(StorageError):
    """The database cannot be reached right now: the PostgreSQL server is down, restarting or dropped the connection,
    or the SQLite file stayed locked or failed to write. Nothing of the call is known to be committed unless the
    method says otherwise (``finish_match`` may be retried: its ``match_key`` keeps it from counting twice).

    The store reconnects by itself on the next call once the database is back; callers refuse the action with a clear
    message and keep their state as it was before the call.

    ``writes_only``: only writes fail (an SQLite disk that is full, a read-only file), reads still work.
    """

    def __init__(self, message: str, *, writes_only: bool = False) -> None:
        super().__init__(message)
        self.writes_only = writes_only


class WriteRefused(StorageError):
    """A fenced write of a live game was refused (issue 16 point 5): the writer does not hold the game's lease by the
    database's clock (it expired, another process took the game over, or it was released), or the stored game is no
    longer at the version the writer expected. Nothing was written. The writer must stop running that game as if its
    lease were lost — never treat the call as a success."""


class SchemaTooNewError(StorageError):
    """The database was written by a newer version of the bot (its schema version is above the newest one known here).

    Nothing is changed; run the newer bot, or restore a backup made for this version.
    """


class InvalidInputError(ValueError):
    """An argument is out of range or malformed; nothing was written."""


class _Unset:
    """Marks an argument that was not given (``None`` is a real value for ``language``)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


def is_postgres_url(target: object) -> bool:
    """Whether ``UNO_DATABASE`` names a PostgreSQL server (``postgresql://…`` or ``postgres://…``), not a file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact_database(target: object) -> str:
    """``UNO_DATABASE`` as it may be shown in messages and logs: a PostgreSQL address without its password."""
    text = str(target)
    if not is_postgres_url(text):
        return text
    parts = urllib.parse.urlsplit(text)
    if parts.password is None:
        return text
    return urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


MAX_SHARDS = 65536
MAX_OWNER_LENGTH = 200
MAX_LEASE_TTL = 86400.0
"""Seconds: the longest lease :meth:`Store.acquire_lease` grants (a day)."""


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one process runs: ``count`` shards in all, this process runs ``ids`` (each 0 ≤ id < count).

    A guild belongs to shard ``(guild_id >> 22) % count`` (Discord's rule); :meth:`owns` applies it. Build with
    :meth:`of`, which validates (raises :class:`InvalidInputError`).
    """

    count: int
    ids: frozenset[int]

    @classmethod
    def of(cls, count: int, ids: Iterable[int]) -> Shards:
        count = _int("shard_count", count, 1, MAX_SHARDS)
        chosen = frozenset(_int("shard id", i, 0, count - 1) for i in ids)
        if not chosen:
            raise InvalidInputError("a process must run at least one shard")
        return cls(count, chosen)

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's games belong to this process."""
        return (guild_id >> 22) % self.count in self.ids


class Held(NamedTuple):
    """What one lease renewal found a process still holding (:meth:`Store.renew_leases`): the channels of its game
    leases and the ``(shard_count, shard_id)`` of its shard locks, each sorted."""

    channels: list[int]
    shards: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """One server's settings.

    - ``default_mode``: game of ``/uno new`` without a mode — one of :data:`MODES`; default ``"classic"``.
    - ``turn_timer``: seconds per decision, :data:`TURN_TIMER_MIN`–:data:`TURN_TIMER_MAX`; default 60.
    - ``language``: one of :data:`LANGUAGES`, or ``None`` (default) = each user's Discord locale.
    - ``text_only``: ``True`` = no card images, text only; default ``False``.
    - ``default_target_score``: the target score of ``/uno new`` without one, 0–:data:`bot.limits.TARGET_SCORE_MAX`
      (0 = a single round decides, SPEC G9); default :data:`bot.limits.TARGET_SCORE_DEFAULT` (500).
    - ``turn_pings``: ``True`` (default) = a short message mentions the player whose turn it is.
    - ``game_threads``: ``True`` = each game is played in a thread of its own; default ``False``.
    - ``default_options``: the rule options (SPEC table O, as :meth:`bot.engine.options.Options.to_dict` gives them)
      that ``/uno new`` starts from; default ``{}`` (the SPEC defaults). Storage checks that it is a small JSON object;
      the rules are checked by the ``validate_options`` given to :func:`open_store`.
    - ``season_period``: how long a season of the server's standings lasts (issue 19 point 4), one of
      :data:`bot.limits.SEASON_PERIODS`; default :data:`bot.limits.SEASON_PERIOD_DEFAULT` (``"monthly"``).
    - ``ai_level``: the level of an AI seat added with the lobby's **Add AI** (issue 21 point 1), one of
      :data:`bot.limits.AI_LEVELS`; default :data:`bot.limits.AI_LEVEL_DEFAULT` (``"normal"``).
    """

    guild_id: int
    default_mode: str = DEFAULT_MODE
    turn_timer: int = DEFAULT_TURN_TIMER
    language: str | None = None
    text_only: bool = False
    default_target_score: int = TARGET_SCORE_DEFAULT
    turn_pings: bool = True
    game_threads: bool = False
    default_options: dict[str, Any] = field(default_factory=dict)
    season_period: str = SEASON_PERIOD_DEFAULT
    ai_level: str = AI_LEVEL_DEFAULT


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a scope's standings (issue 19 point 4).

    ``key``: ``2026-W49`` (an ISO week), ``2026-12`` (a month) or ``2026-Q4`` (a quarter), in UTC; ``period`` its
    length (``weekly``, ``monthly`` or ``quarterly``); ``start`` and ``end`` its first moment and the first moment
    after it, Unix seconds (``start <= t < end``); ``matches`` how many finished matches with a human seat it counts
    in that scope (0 for a season nobody played yet, such as the current one on its first day).
    """

    key: str
    period: str
    start: float
    end: float
    matches: int


@dataclass(frozen=True, slots=True)
class UserPrefs:
    """One user's own display choices (``/uno prefs``), the same in every server.

    - ``text_only``: ``True`` = their hand is shown as text, without card images, even where the server shows them;
      default ``False``.
    - ``large_cards``: ``True`` = their hand's image is drawn with larger cards; default ``False``.
    """

    user_id: int
    text_only: bool = False
    large_cards: bool = False


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A running (or just finished, still displayed) game, one per channel or thread.

    ``snapshot`` is the adapter's JSON-able dict, stored as it is (the storage layer never looks inside). ``status``
    is a short lower-case word chosen by the adapter (``"lobby"``, ``"playing"``, ``"finished"``…; pattern
    ``[a-z][a-z_]{0,31}``);
    ``version`` is the adapter's action counter (``int`` ≥ 0); ``updated_at`` Unix seconds.
    """

    channel_id: int
    guild_id: int
    mode: str
    status: str
    version: int
    snapshot: dict[str, Any]
    updated_at: float


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """One seat of a finished match.

    ``seat`` is the adapter's seat index (0–255); ``user_id`` is ``None`` exactly when ``is_ai`` (AI seats are kept
    with the match but never reach a leaderboard). ``placement`` 1 = first; ``final_score`` the match total;
    ``rounds_won`` must equal the number of :class:`RoundResult` with this seat as winner; ``points_scored`` the points
    this seat scored over the match (SPEC G9; with ``scoring = "lowest"``, whatever the adapter counts as scored).
    ``team``: in a partner game the seat's team, numbered from 1 (SPEC T1; partners share it), else ``None``
    (migration 0008; matches recorded before have it only when their record says they were a partner game).
    """

    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool
    final_score: int
    placement: int
    rounds_won: int
    points_scored: int
    team: int | None = None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round that was played to its end: ``number`` counts from 1, ``points`` what the round was worth (SPEC G9)."""

    number: int
    winner_seat: int
    points: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match, written once by :meth:`Store.finish_match`.

    - ``match_key``: the caller's unique name for this match (e.g. ``"<channel id>:<game start>"``); a second result
      with the same key is refused, so a retried write can never count a match twice.
    - ``status``: ``"completed"`` (``winner_seat`` reached ``target_score``; its placement is 1) or ``"abandoned"``
      (``winner_seat`` is ``None``).
    - ``target_score`` ≥ 0 (0 = a single round decides, SPEC G9); ``started_at`` ≤ ``ended_at``, Unix seconds.
    - ``players``: 2–10 seats, distinct seat numbers, distinct users; ``rounds``: the rounds played to their end,
      numbered 1, 2, … in order (an abandoned match may have none).
    - ``team`` (a partner game, SPEC T): given for every seat or for none; each from 1 to the number of seats, at
      least two teams.
    """

    match_key: str
    mode: str
    guild_id: int
    channel_id: int
    status: str
    target_score: int
    started_at: float
    ended_at: float
    winner_seat: int | None
    players: tuple[MatchPlayer, ...]
    rounds: tuple[RoundResult, ...]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One finished match in a player's history (``/uno history``, issue 19 point 2).

    ``match_key`` names its record (:meth:`Store.match_record`; ``recorded`` whether it has one: matches from before
    records have none); ``ended_at`` Unix seconds; ``status`` ``completed`` or ``abandoned``; ``placement`` 1 = first
    of ``seats``; ``final_score`` and ``points`` the player's (as :class:`MatchPlayer`); ``opponents`` the other seats'
    names in seat order (AI seats included), without the player's ``partners`` (a partner game, SPEC T: the other
    seats of their team, in seat order; empty without teams or for a match recorded without its teams);
    ``rating_change`` how much the player's shown rating moved with this match in the history's scope, ``None`` when
    the match was not rated; ``places`` how many places the match's seats took (a partner game's partners share their
    team's place, SPEC T4, so there it is the number of teams, and one more for each player who left, T5; else
    ``seats``; 0 where not read).
    """

    match_id: int
    match_key: str
    mode: str
    guild_id: int
    ended_at: float
    status: str
    placement: int
    seats: int
    final_score: int
    points: int
    opponents: tuple[str, ...]
    rating_change: int | None
    recorded: bool
    partners: tuple[str, ...] = ()
    places: int = 0


@dataclass(frozen=True, slots=True)
class MatchSteps:
    """Entries of a match record to append (issue 19 point 1): ``match_key`` as its :class:`MatchResult` will have
    it, ``entries`` ``(seq, entry)`` pairs, ``seq`` ≥ 0 and distinct, ``entry`` a JSON-able dict (the adapter's, stored
    as it is; bot/adapter/records.py says what they hold)."""

    match_key: str
    entries: tuple[tuple[int, dict[str, Any]], ...]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard.

    ``rank`` counts from 1 and is never shared (see :data:`RANK_ORDER`). ``wins`` = completed matches won; ``played`` =
    completed matches played; ``abandoned`` = abandoned matches played; ``win_rate`` = ``wins / played`` (0.0–1.0);
    ``rounds_won`` and ``points`` add up every finished match, completed or abandoned. ``display_name`` is the name the
    player had in their most recently recorded match of this scope.
    """

    rank: int
    user_id: int
    display_name: str
    wins: int
    played: int
    abandoned: int
    win_rate: float
    rounds_won: int
    points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's totals in one scope (a server or all servers; a mode or all modes), same fields as
    :class:`LeaderboardRow`.

    ``rank`` is the player's position on that leaderboard, or ``None`` when they are not on it (no match won yet:
    only losses or abandoned matches; issue 18); ``ranked_players`` is how many players the leaderboard has.
    """

    user_id: int
    display_name: str
    guild_id: int | None
    mode: str | None
    rank: int | None
    ranked_players: int
    wins: int
    played: int
    abandoned: int
    win_rate: float
    rounds_won: int
    points: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a by-rating leaderboard (issue 19 point 3): a game mode in a scope (a server or all servers).

    ``rank`` counts from 1, in :data:`RATING_ORDER`; ``rating`` is the rating users see (1000 for a new player,
    :func:`bot.storage._ratings.shown_rating`), ``mu`` and ``sigma`` the model's estimate of the skill and its
    uncertainty; ``matches`` the rated matches played in this scope; ``wins`` and ``played`` the player's totals of
    the by-wins board of the same scope.
    """

    rank: int
    user_id: int
    display_name: str
    rating: int
    mu: float
    sigma: float
    matches: int
    wins: int
    played: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating in one game mode and scope (``guild_id`` ``None`` = all servers), as ``/uno stats`` shows it.

    ``rating``, ``mu``, ``sigma``, ``matches`` as in :class:`RatingRow`. ``rank`` is the position on the by-rating
    leaderboard, ``None`` until ``matches`` reaches :data:`bot.limits.RATING_MIN_MATCHES`; ``ranked_players`` how many
    players that board lists. ``trend`` is how much the shown rating moved over the last
    :data:`bot.limits.RATING_TREND_MATCHES` rated matches (or all of them if fewer); ``last_change`` over the last one.
    """

    user_id: int
    guild_id: int | None
    mode: str
    rating: int
    mu: float
    sigma: float
    matches: int
    rank: int | None
    ranked_players: int
    trend: int
    last_change: int


@dataclass(frozen=True, slots=True)
class RatingCheck:
    """What :meth:`Store.rebuild_ratings` found: ``matches`` rated matches replayed, ``ratings`` ratings computed
    (player × mode × scope), ``stored`` ratings that were stored, and ``mismatches``: up to 20 ratings whose stored
    value differs from the recomputed one (or exists on one side only), as
    ``(guild_id, mode, user_id, stored (mu, sigma, matches) or None, recomputed or None)``; ``differing`` how many
    differ in all. ``rebuilt``: whether the stored ratings were replaced by the recomputed ones."""

    matches: int
    ratings: int
    stored: int
    differing: int
    mismatches: tuple[tuple[int, str, int, tuple[float, float, int] | None, tuple[float, float, int] | None], ...]
    rebuilt: bool

    @property
    def ok(self) -> bool:
        """``True`` when the stored ratings are exactly the recomputed ones."""
        return self.differing == 0


RATING_ORDER = "rating DESC, user_id ASC"
"""By-rating leaderboard order: higher ``mu - 3 sigma`` first, ties by the smaller user id (ranks never shared)."""


RANK_ORDER = "wins DESC, win_rate DESC, played DESC, user_id ASC"
"""Leaderboard order, used by every query: most match wins first; ties by higher win rate, then more completed matches
played, then the smaller user id (so ranks are never shared and a page never reorders)."""


# --- validation -------------------------------------------------------------------------------------------------


def _int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, not {type(value).__name__}")
    if not lo <= value <= hi:
        raise InvalidInputError(f"{name} must be between {lo} and {hi}, got {value}")
    return int(value)


def check_id(name: str, value: object) -> int:
    """A Discord snowflake: positive 64-bit integer."""
    return _int(name, value, 1, _MAX_SNOWFLAKE)


def check_ids(name: str, values: Iterable[object]) -> list[int]:
    """Snowflakes (:func:`check_id` each), sorted, each once."""
    return sorted({check_id(name, v) for v in values})


def check_count(name: str, value: object, hi: int = _MAX_SNOWFLAKE) -> int:
    return _int(name, value, 0, hi)


def check_time(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{name} must be Unix seconds, not {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise InvalidInputError(f"{name} must be finite Unix seconds ≥ 0, got {value}")
    return float(value)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInputError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return str(value)  # a StrEnum member becomes its plain value


def check_mode(value: object, name: str = "mode") -> str:
    return _choice(name, value, MODES)


def check_optional_mode(value: object) -> str | None:
    """``None`` = all modes."""
    return None if value is None else check_mode(value)


def check_optional_guild(value: object) -> int | None:
    """``None`` = all servers."""
    return None if value is None else check_id("guild_id", value)


def check_owner(value: object) -> str:
    """A lease owner: the name a process gives itself (e.g. ``"host:pid"``), 1–200 characters."""
    return _name("owner", value, MAX_OWNER_LENGTH)


def check_ttl(value: object) -> float:
    """Seconds a lease lasts: finite, > 0, at most :data:`MAX_LEASE_TTL`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(f"ttl must be a number of seconds, got {value!r}")
    if not 0 < value <= MAX_LEASE_TTL:
        raise InvalidInputError(f"ttl must be between 0 and {MAX_LEASE_TTL:g} seconds, got {value}")
    return float(value)


def shard_keys(shards: Shards | None) -> list[tuple[int, int]]:
    """The ``(shard_count, shard_id)`` keys of the shard locks a process running ``shards`` holds (issue 16 point 4);
    a process running every guild (``None``) holds the one lock ``(1, 0)``."""
    if shards is None:
        return [(1, 0)]
    return [(shards.count, i) for i in sorted(shards.ids)]


def check_version(value: object) -> int | None:
    """An expected live-game version for a fenced write: ``None`` (no version condition) or a count ≥ 0."""
    return None if value is None else check_count("expected_version", value)


def check_shards(value: object) -> Shards | None:
    if value is not None and not isinstance(value, Shards):
        raise InvalidInputError(f"shards must be a Shards or None, not {type(value).__name__}")
    return value


def check_turn_timer(value: object) -> int:
    return _int("turn_timer", value, TURN_TIMER_MIN, TURN_TIMER_MAX)


def check_season_period(value: object) -> str:
    """One of :data:`bot.limits.SEASON_PERIODS`."""
    return _choice("season_period", value, SEASON_PERIODS)


def check_ai_level(value: object) -> str:
    """One of :data:`bot.limits.AI_LEVELS`."""
    return _choice("ai_level", value, AI_LEVELS)


def check_language(value: object) -> str | None:
    return None if value is None else _choice("language", value, LANGUAGES)


def check_text_only(value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"text_only must be True or False, got {value!r}")
    return value


def check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{name} must be True or False, got {value!r}")
    return value


def check_target_score(value: object) -> int:
    return _int("default_target_score", value, 0, TARGET_SCORE_MAX)


OptionsValidator = Callable[[dict[str, Any]], object]
"""Checks a server's ``default_options`` (e.g. ``bot.engine.options.Options.from_dict``): raises ``ValueError`` for
options the rules refuse; its return value is ignored."""


def check_default_options(value: object, validate: OptionsValidator | None) -> str:
    """``default_options`` as the compact JSON text to store: a JSON object of option names (str) to JSON scalars, at
    most :data:`MAX_OPTIONS_LENGTH` characters, accepted by ``validate`` when one is given."""
    if not isinstance(value, dict):
        raise InvalidInputError(f"default_options must be a dict, not {type(value).__name__}")
    for k, v in value.items():
        if not isinstance(k, str) or not (v is None or isinstance(v, bool | int | str)):
            raise InvalidInputError(f"default_options: {k!r} must name a plain value")
    text = encode_snapshot(value)
    if len(text) > MAX_OPTIONS_LENGTH:
        raise InvalidInputError(f"default_options is longer than {MAX_OPTIONS_LENGTH} characters")
    if validate is not None:
        try:
            validate(dict(value))
        except (ValueError, TypeError) as e:
            raise InvalidInputError(f"default_options: {e}"[:200]) from None
    return text


def check_page(limit: object, offset: object) -> tuple[int, int]:
    return _int("limit", limit, 1, 1000), check_count("offset", offset)


def _name(name: str, value: object, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{name} must be a non-empty string")
    if len(value) > max_length:
        raise InvalidInputError(f"{name} is longer than {max_length} characters")
    return value


def encode_snapshot(snapshot: object) -> str:
    """The snapshot as compact JSON text; it must be a JSON-able dict (no NaN/Infinity)."""
    if not isinstance(snapshot, dict):
        raise InvalidInputError(f"snapshot must be a dict, not {type(snapshot).__name__}")
    try:
        return json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise InvalidInputError(f"snapshot is not JSON-able: {e}") from None


def check_live_game(game: object) -> tuple[int, int, str, str, int, str, float]:
    """Validate a :class:`LiveGame`; returns the row to store (channel, guild, mode, status, version, JSON, updated)."""
    if not isinstance(game, LiveGame):
        raise InvalidInputError(f"expected a LiveGame, not {type(game).__name__}")
    status = game.status
    if not isinstance(status, str) or not _LIVE_STATUS.fullmatch(status):
        raise InvalidInputError(f"status must be a short lower-case word, got {status!r}")
    return (
        check_id("channel_id", game.channel_id),
        check_id("guild_id", game.guild_id),
        check_mode(game.mode),
        str(status),
        check_count("version", game.version),
        encode_snapshot(game.snapshot),
        check_time("updated_at", game.updated_at),
    )


def check_match_key(value: object) -> str:
    return _name("match_key", value, MAX_MATCH_KEY_LENGTH)


def check_steps(steps: object) -> list[tuple[str, int, str]]:
    """Validate :class:`MatchSteps`; returns the rows to store, ``(match_key, seq, JSON text)``."""
    if not isinstance(steps, MatchSteps):
        raise InvalidInputError(f"expected MatchSteps, not {type(steps).__name__}")
    key = _name("match_key", steps.match_key, MAX_MATCH_KEY_LENGTH)
    if not isinstance(steps.entries, tuple):
        raise InvalidInputError("entries must be a tuple of (seq, entry)")
    rows: list[tuple[str, int, str]] = []
    seen: set[int] = set()
    for item in steps.entries:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise InvalidInputError("entries must be a tuple of (seq, entry)")
        seq = check_count("seq", item[0], 2**31 - 1)
        if seq in seen:
            raise InvalidInputError(f"entry {seq} appears twice")
        seen.add(seq)
        rows.append((key, seq, encode_snapshot(item[1])))
    return rows


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seat(value: object, seats: dict[int, MatchPlayer]) -> bool:
    return _is_int(value) and value in seats


def check_match_result(result: object) -> MatchResult:
    """Validate a :class:`MatchResult` as a whole (see its docstring for the rules); returns it unchanged."""
    if not isinstance(result, MatchResult):
        raise InvalidInputError(f"expected a MatchResult, not {type(result).__name__}")
    _name("match_key", result.match_key, MAX_MATCH_KEY_LENGTH)
    check_mode(result.mode)
    check_id("guild_id", result.guild_id)
    check_id("channel_id", result.channel_id)
    _choice("status", result.status, MATCH_STATUSES)
    check_count("target_score", result.target_score)
    if check_time("started_at", result.started_at) > check_time("ended_at", result.ended_at):
        raise InvalidInputError("started_at is after ended_at")

    players, rounds = result.players, result.rounds
    if not isinstance(players, tuple) or not 2 <= len(players) <= MAX_PLAYERS:
        raise InvalidInputError(f"players must be a tuple of 2 to {MAX_PLAYERS} MatchPlayer")
    if not isinstance(rounds, tuple):
        raise InvalidInputError("rounds must be a tuple of RoundResult")
    seats: dict[int, MatchPlayer] = {}
    users: set[int] = set()
    for p in players:
        if not isinstance(p, MatchPlayer):
            raise InvalidInputError(f"players must hold MatchPlayer, not {type(p).__name__}")
        seat = check_count("seat", p.seat, MAX_SEAT)
        if seat in seats:
            raise InvalidInputError(f"seat {seat} appears twice")
        seats[seat] = p
        if not isinstance(p.is_ai, bool):
            raise InvalidInputError(f"seat {seat}: is_ai must be True or False")
        if p.is_ai:
            if p.user_id is not None:
                raise InvalidInputError(f"seat {seat}: an AI seat has no user_id")
        else:
            if p.user_id is None:
                raise InvalidInputError(f"seat {seat}: a human seat needs a user_id")
            if check_id("user_id", p.user_id) in users:
                raise InvalidInputError(f"user {p.user_id} appears twice")
            users.add(p.user_id)
        _name(f"seat {seat}: display_name", p.display_name, MAX_NAME_LENGTH)
        check_count(f"seat {seat}: final_score", p.final_score)
        _int(f"seat {seat}: placement", p.placement, 1, len(players))
        check_count(f"seat {seat}: rounds_won", p.rounds_won)
        check_count(f"seat {seat}: points_scored", p.points_scored)

    teams = [p.team for p in players]
    if any(team is not None for team in teams):
        for p in players:
            if p.team is None:
                raise InvalidInputError(f"seat {p.seat}: a partner game needs every seat's team")
            _int(f"seat {p.seat}: team", p.team, 1, len(players))
        if len(set(teams)) < 2:
            raise InvalidInputError("a partner game needs at least two teams")

    won: dict[int, int] = dict.fromkeys(seats, 0)
    for i, r in enumerate(rounds, start=1):
        if not isinstance(r, RoundResult):
            raise InvalidInputError(f"rounds must hold RoundResult, not {type(r).__name__}")
        if not _is_int(r.number) or r.number != i:
            raise InvalidInputError(f"rounds must be numbered 1, 2, … in order; round {i} has number {r.number!r}")
        if not _is_seat(r.winner_seat, seats):
            raise InvalidInputError(f"round {i}: winner_seat {r.winner_seat!r} is not a seat of this match")
        check_count(f"round {i}: points", r.points)
        won[r.winner_seat] += 1
    for seat, p in seats.items():
        if p.rounds_won != won[seat]:
            raise InvalidInputError(f"seat {seat}: rounds_won is {p.rounds_won} but it won {won[seat]} of the rounds")

    if result.status == "completed":
        winner = result.winner_seat
        if winner is None or not _is_seat(winner, seats):
            raise InvalidInputError(f"a completed match needs winner_seat among its seats, got {winner!r}")
        if seats[winner].placement != 1:
            raise InvalidInputError("the winner's placement must be 1")
    elif result.winner_seat is not None:
        raise InvalidInputError("an abandoned match has no winner_seat")
    return result
