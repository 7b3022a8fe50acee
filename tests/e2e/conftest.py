from tests.discord_emulator.fixtures import bot_starter, emulator

__all__ = ["bot_starter", "emulator"]
