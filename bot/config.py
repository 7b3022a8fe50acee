"""Settings from the environment and ``.env`` (python-dotenv). See README "Configuration" and ``.env.example``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

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
    """

    token: str
    database: Path | str
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None

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
        return cls(
            token=token,
            database=_database(os.environ.get("UNO_DATABASE", "").strip() or DEFAULT_DATABASE),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        )


def _database(value: str) -> Path | str:
    """A PostgreSQL address stays a string; anything else is an SQLite file path."""
    return value if is_postgres_url(value) else Path(value)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at ``api_base`` / ``gateway_url`` when set (a proxy or the test emulator)."""
    import discord
    import yarl

    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
