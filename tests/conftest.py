"""Shared fixtures: the loopback Discord emulator (``emulator``, ``bot_starter``) for every test package."""

import pytest

from tests.discord_emulator.fixtures import bot_starter, emulator

__all__ = ["bot_starter", "emulator", "pytest_configure"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "rate_limit_scale(factor, reason): the emulator's Discord rate limits on windows `factor` times as long "
        "(same buckets; tests/discord_emulator/ratelimits.py)",
    )
