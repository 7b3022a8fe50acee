"""A loopback Discord for end-to-end tests: the real discord.py client against a fake Discord on 127.0.0.1.

Facts it follows: ``shared/docs/discord-emulator.md``. Entry points: ``DiscordEmulator`` (server, state, acting as
users, assertions), ``running_bot`` / ``start_bot`` / ``stop_bot`` (run a ``commands.Bot`` against it), and the
pytest fixtures in ``tests.discord_emulator.fixtures``. Discord's rate limits and token lifetime are imposed by
default; each limit and its source: ``tests.discord_emulator.ratelimits``. The application's emojis
(``applications/{app}/emojis``) are kept with Discord's limits (``rest.RestApi.create_app_emoji``), and a component
may name only an emoji the application owns.
"""

from .emulator import DiscordEmulator, Fault
from .gateway import GatewayEvent, Session
from .model import (
    Ack,
    Attachment,
    Button,
    Channel,
    ErrorResponse,
    Guild,
    InteractionRecord,
    Member,
    Message,
    RateLimited,
    Revision,
    Role,
    Select,
    SelectOption,
    User,
    shard_of,
)
from .ratelimits import RateLimits
from .runner import running_bot, start_bot, stop_bot

__all__ = [
    "Ack",
    "Attachment",
    "Button",
    "Channel",
    "DiscordEmulator",
    "ErrorResponse",
    "Fault",
    "GatewayEvent",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "RateLimited",
    "RateLimits",
    "Revision",
    "Role",
    "Select",
    "SelectOption",
    "Session",
    "User",
    "running_bot",
    "shard_of",
    "start_bot",
    "stop_bot",
]
