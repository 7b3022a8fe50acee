"""Shared fixtures: the loopback Discord emulator (``emulator``, ``bot_starter``) for every test package."""

from tests.discord_emulator.fixtures import bot_starter, emulator

__all__ = ["bot_starter", "emulator"]
