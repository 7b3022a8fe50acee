"""Shared fixtures: the loopback Discord emulator (``emulator``, ``bot_starter``) for every test package."""

import sys
from collections.abc import Iterator

import pytest

from tests.discord_emulator.fixtures import bot_starter, emulator

__all__ = ["bot_starter", "emulator", "pytest_configure"]


@pytest.fixture(autouse=True)
def _components_v2_back_to_its_default() -> Iterator[None]:
    """A bot started with ``components_v2=False`` (embeds) sets the process-wide :data:`cogs.uno.layout.ENABLED`:
    the next test starts from the default again (Components V2), whatever ran before it."""
    yield
    layout = sys.modules.get("cogs.uno.layout")
    if layout is not None:
        layout.ENABLED = True


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "rate_limit_scale(factor, reason): the emulator's Discord rate limits on windows `factor` times as long "
        "(same buckets; tests/discord_emulator/ratelimits.py)",
    )
