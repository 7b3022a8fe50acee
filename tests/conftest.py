"""Shared fixtures: the loopback Discord emulator (``emulator``, ``bot_starter``) for every test package."""

import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.discord_emulator.fixtures import bot_starter, emulator

__all__ = ["bot_starter", "emulator", "pytest_configure"]


@pytest.fixture(autouse=True)
def _components_v2_back_to_its_default() -> Iterator[None]:
    """A bot started with ``components_v2=False`` (embeds) sets :data:`cogs.uno.screens.layout.ENABLED` for the process:
    the next test starts from the default again (Components V2), whatever ran before it. discord.py imports the cog's
    modules anew with each bot it loads, so the copies the test modules imported earlier are reset too."""
    yield
    layouts = [sys.modules.get("cogs.uno.screens.layout")]
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("tests."):
            for value in list(vars(module).values()):
                if isinstance(value, ModuleType) and value.__name__.startswith("cogs.uno"):
                    layouts.append(
                        value if value.__name__ == "cogs.uno.screens.layout" else getattr(value, "layout", None)
                    )
    for layout in layouts:
        if isinstance(layout, ModuleType) and hasattr(layout, "ENABLED"):
            layout.ENABLED = True


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "rate_limit_scale(factor, reason): the emulator's Discord rate limits on windows `factor` times as long "
        "(same buckets; tests/discord_emulator/ratelimits.py)",
    )
