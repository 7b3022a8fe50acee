"""Settings from the environment and ``.env`` (python-dotenv). See README "Configuration" and ``.env.example``."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.limits import LEASE_SECONDS_DEFAULT, LEASE_SECONDS_MAX, LEASE_SECONDS_MIN, PROCESS_SLOT_MAX
from bot.storage import DEFAULT_DATABASE, is_postgres_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says what to do (one line)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's settings.

    - ``token``: ``DISCORD_TOKEN`` (required).
    - ``database``: ``UNO_DATABASE``: a ``postgresql://…`` address (kept as the string) or an SQLite file path,
      default ``data/uno.sqlite3``.
    - ``dev_guild_id``: ``DEV_GUILD_ID``: sync the slash commands to that one server at start (instant).
    - ``log_level``: ``LOG_LEVEL``, one of DEBUG/INFO/WARNING/ERROR (default INFO).
    - ``api_base`` / ``gateway_url``: ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``: send REST and gateway traffic to
      a proxy or the test emulator.
    - ``shard_count`` / ``shard_ids``: ``SHARD_COUNT`` (total shards of the bot, ≥ 1) and ``SHARD_IDS`` (the ones
      this process runs, e.g. ``0,1`` or ``0-3``; needs ``SHARD_COUNT``; default all of them). Both unset: one
      process runs every shard Discord recommends.
    - ``lease_seconds``: ``UNO_LEASE_SECONDS``, how long this process's lease of each live game lasts without a
      renewal (:data:`bot.limits.LEASE_SECONDS_MIN`–:data:`~bot.limits.LEASE_SECONDS_MAX`, default 30): after a
      crash, how long its games wait before another machine's process takes them over (``bot.adapter.leases``).
    - ``process_slot``: ``UNO_PROCESS_SLOT`` (issue 16 point 8), a stable name for this process's place in the
      deployment (letters, digits, ``.``, ``_``, ``-``; at most :data:`bot.limits.PROCESS_SLOT_MAX` characters),
      given to exactly one running process at a time, such as a compose service or a StatefulSet pod name: a process
      restarted in that slot (a new container, a new host name) takes its predecessor's games back at once instead of
      waiting for their leases to expire. Unset (default): only a predecessor of this machine and PID namespace whose
      process is gone is recognised.
    - ``card_emojis``: ``UNO_CARD_EMOJIS`` (issue 18 point 1), ``0`` to keep the cards' Unicode colour squares and
      marks instead of uploading the card faces as the application's emojis at start-up and showing them (default
      ``1``; a ``Settings`` built in code, as the tests build theirs, has them off unless it says otherwise).
    - ``components_v2``: ``UNO_COMPONENTS_V2`` (issue 18 point 2), ``1`` (default) to send the lobby, the table, the
      hands and the summaries as Components V2 messages (one container tinted with the colour in play, the image in a
      media gallery, the controls beside what they act on); ``0``: embeds.
    """

    token: str
    database: Path | str
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    lease_seconds: int = LEASE_SECONDS_DEFAULT
    process_slot: str | None = None
    card_emojis: bool = False
    components_v2: bool = True

    def shard_id_list(self) -> list[int] | None:
        """``shard_ids`` as discord.py's ``AutoShardedClient(shard_ids=...)`` takes them (None: all)."""
        return None if self.shard_ids is None else list(self.shard_ids)

    @classmethod
    def from_env(cls, env_file: str | os.PathLike[str] | None = ".env") -> Settings:
        """Read ``env_file`` (if it exists; real environment variables win) and the environment.

        Raises :class:`ConfigError` with a one-line explanation for a missing token or a malformed value."""
        if env_file is not None and Path(env_file).is_file():
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token in it "
                "(README: 'Create the Discord application')."
            )
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        shard_count, shard_ids = parse_shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
        lease = os.environ.get("UNO_LEASE_SECONDS", "").strip()
        if lease and (
            not lease.isdecimal() or not lease.isascii() or not LEASE_SECONDS_MIN <= int(lease) <= LEASE_SECONDS_MAX
        ):
            raise ConfigError(
                f"UNO_LEASE_SECONDS must be a whole number of seconds, {LEASE_SECONDS_MIN}-{LEASE_SECONDS_MAX}, "
                f"not {lease!r}."
            )
        slot = os.environ.get("UNO_PROCESS_SLOT", "").strip()
        if slot and not re.fullmatch(rf"[A-Za-z0-9._-]{{1,{PROCESS_SLOT_MAX}}}", slot):
            raise ConfigError(
                f"UNO_PROCESS_SLOT must be 1-{PROCESS_SLOT_MAX} letters, digits, '.', '_' or '-' "
                f"(a name one running process has at a time, e.g. shard-0), not {slot!r}."
            )
        emojis = os.environ.get("UNO_CARD_EMOJIS", "1").strip() or "1"
        if emojis not in ("0", "1"):
            raise ConfigError(f"UNO_CARD_EMOJIS must be 1 (card faces as emojis) or 0 (Unicode marks), not {emojis!r}.")
        v2 = os.environ.get("UNO_COMPONENTS_V2", "1").strip() or "1"
        if v2 not in ("0", "1"):
            raise ConfigError(f"UNO_COMPONENTS_V2 must be 1 (Components V2 messages) or 0 (embeds), not {v2!r}.")
        return cls(
            token=token,
            database=_database(os.environ.get("UNO_DATABASE", "").strip() or DEFAULT_DATABASE),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
            shard_count=shard_count,
            shard_ids=shard_ids,
            lease_seconds=int(lease) if lease else LEASE_SECONDS_DEFAULT,
            process_slot=slot or None,
            card_emojis=emojis == "1",
            components_v2=v2 == "1",
        )


def _database(value: str) -> Path | str:
    """A PostgreSQL address stays a string; anything else is an SQLite file path."""
    return value if is_postgres_url(value) else Path(value)


_SHARD_RANGE = re.compile(r"(\d+)(?:\s*-\s*(\d+))?", re.ASCII)


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``(shard_count, shard_ids)`` from ``SHARD_COUNT`` and ``SHARD_IDS`` texts (blank: unset).

    ``ids_text`` is a comma-separated list of ids and inclusive ranges (``"0,2"``, ``"0-3"``, ``"0-1,4"``), each
    in ``0..count-1``, no id twice; the result is sorted. ``SHARD_COUNT`` alone: this process runs all its shards.
    Raises :class:`ConfigError` (one line) for a non-number, a count below 1, ids without a count, an id out of
    range, a reversed range or a repeated id."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(f"SHARD_IDS={ids_text!r} needs SHARD_COUNT (the bot's total number of shards) too.")
        return None, None
    if not count_text.isdecimal() or not count_text.isascii() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        match = _SHARD_RANGE.fullmatch(part.strip())
        if match is None:
            raise ConfigError(f"SHARD_IDS must be shard ids and ranges like 0,1 or 0-3, not {ids_text!r}.")
        first, last = int(match[1]), int(match[2] or match[1])
        if first > last:
            raise ConfigError(f"SHARD_IDS range {part.strip()!r} goes backwards: write it as {last}-{first}.")
        if last >= count:
            raise ConfigError(f"SHARD_IDS {part.strip()!r} is outside 0-{count - 1} (SHARD_COUNT={count}).")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS {ids_text!r} names a shard twice.")
    return count, tuple(sorted(ids))


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at ``api_base`` / ``gateway_url`` when set (a proxy or the test emulator)."""
    import discord
    import yarl

    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
