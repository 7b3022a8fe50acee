"""The UNO cog: ``/uno`` commands, persistent buttons and the public messages of every game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import UnoCog
from .screens import layout
from .screens.components import DYNAMIC_ITEMS

if TYPE_CHECKING:
    from bot.client import UnoBot


async def setup(bot: UnoBot) -> None:
    """discord.py extension entry point: add the cog and register the persistent components."""
    layout.ENABLED = bot.settings.components_v2  # the table and the hand as Components V2 (issue 18 point 2)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(UnoCog(bot))
