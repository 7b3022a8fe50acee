"""Setting a server's default rules the way a server manager does (issue 19/21 session: ``/uno settings`` has no rule
options any more): ``/uno settings``, its **Default rules** button, then the panel's selects."""

from __future__ import annotations

from typing import Any

from bot.engine.options import RULE_OPTIONS
from tests.discord_emulator import DiscordEmulator, Message


def defaults_select(panel: Message, verb: str) -> Any:
    """The select ``verb`` (preset, flags, pick, set) of the server's default-rules panel."""
    return next(s for s in panel.selects() if s.custom_id.startswith(f"uno:sd:{verb}:"))


async def open_defaults(emulator: DiscordEmulator, admin: Any, channel: Any) -> Message:
    """``/uno settings`` then **Default rules**: the panel, only for ``admin``."""
    res = await emulator.slash(admin, channel, "uno settings")
    (answer,) = res.ephemeral_messages
    res = await emulator.click(admin, answer, label="Default rules")
    (panel,) = res.ephemeral_messages
    return panel


async def set_default_rules(emulator: DiscordEmulator, admin: Any, channel: Any, **rules: Any) -> Message:
    """Set each of ``rules`` (option name = value) in the panel, one select at a time; returns the panel."""
    panel = await open_defaults(emulator, admin, channel)
    for name, value in rules.items():
        if RULE_OPTIONS[name].kind is bool:
            flags = defaults_select(panel, "flags")
            on = {o.value for o in flags.options if o.default}
            await emulator.select(admin, panel, flags.custom_id, sorted(on | {name} if value else on - {name}))
        else:
            await emulator.select(admin, panel, defaults_select(panel, "pick").custom_id, [name])
            await emulator.select(admin, panel, defaults_select(panel, "set").custom_id, [str(value)])
    return emulator.message(panel.id)
