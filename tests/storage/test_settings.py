"""Server settings: defaults, partial updates, validation (nothing written on bad input), damaged rows."""

from __future__ import annotations

import logging

import pytest

from bot.storage import DEFAULT_TURN_TIMER, GuildSettings, InvalidInputError, Store

from .conftest import Backend


async def test_a_server_without_settings_gets_the_defaults(store: Store):
    assert await store.get_settings(42) == GuildSettings(42, "classic", 60, None, False)
    assert DEFAULT_TURN_TIMER == 60


async def test_update_changes_only_what_is_given_and_persists(store: Store, backend: Backend):
    s = await store.update_settings(42, default_mode="flip", language="sk")
    assert s == GuildSettings(42, "flip", 60, "sk", False)
    s = await store.update_settings(42, turn_timer=15, text_only=True)
    assert s == GuildSettings(42, "flip", 15, "sk", True)
    s = await store.update_settings(42, language=None, turn_timer=600)
    assert s == GuildSettings(42, "flip", 600, None, True)
    assert await store.get_settings(42) == s
    assert await store.get_settings(43) == GuildSettings(43)

    await store.close()
    reopened = await backend.open()
    try:
        assert await reopened.get_settings(42) == s
    finally:
        await reopened.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"default_mode": "poker"},
        {"default_mode": "Classic"},
        {"turn_timer": -5},
        {"turn_timer": 0},
        {"turn_timer": 14},
        {"turn_timer": 601},
        {"turn_timer": 30.0},
        {"turn_timer": True},
        {"language": "fr"},
        {"language": "EN"},
        {"language": ""},
        {"text_only": 1},
        {"text_only": "yes"},
        {"default_mode": "flex", "turn_timer": -1},  # one bad value spoils the whole update
    ],
)
async def test_bad_values_raise_a_value_error_and_change_nothing(store: Store, changes):
    before = await store.update_settings(7, default_mode="flip", turn_timer=90, language="it")
    with pytest.raises(InvalidInputError) as err:
        await store.update_settings(7, **changes)
    assert isinstance(err.value, ValueError)
    assert len(str(err.value)) < 120
    assert await store.get_settings(7) == before


@pytest.mark.parametrize("guild_id", [0, -1, "12", None, 2**63, True])
async def test_bad_guild_ids_are_refused(store: Store, guild_id):
    with pytest.raises(InvalidInputError):
        await store.get_settings(guild_id)
    with pytest.raises(InvalidInputError):
        await store.update_settings(guild_id, turn_timer=30)


async def test_damaged_values_fall_back_to_their_defaults_with_a_log_line(store: Store, backend: Backend, caplog):
    await store.update_settings(9, default_mode="flex", turn_timer=45, language="es", text_only=True)
    if backend.name == "sqlite":  # untyped columns: a value of the wrong type too
        await backend.execute("INSERT INTO guild_settings VALUES (8, 'poker', 'soon', 'fr', 'maybe')")
    else:
        await backend.execute("INSERT INTO guild_settings VALUES (8, 'poker', 4, 'fr', 2)")
    await backend.execute("UPDATE guild_settings SET turn_timer = -3 WHERE guild_id = 9")
    caplog.set_level(logging.WARNING, logger="bot.storage")

    assert await store.get_settings(8) == GuildSettings(8)
    assert len(caplog.records) == 4
    assert {r.levelno for r in caplog.records} == {logging.WARNING}
    assert all("guild 8" in r.getMessage() for r in caplog.records)

    caplog.clear()
    assert await store.get_settings(9) == GuildSettings(9, "flex", 60, "es", True)
    assert [r.getMessage() for r in caplog.records] == [
        "guild 9: stored setting turn_timer=-3 is not valid; using the default 60"
    ]

    # the next update writes a repaired row
    assert await store.update_settings(9, language="en") == GuildSettings(9, "flex", 60, "en", True)
    assert await backend.fetch("SELECT turn_timer FROM guild_settings WHERE guild_id = 9") == [(60,)]
