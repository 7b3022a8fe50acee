"""Server settings: defaults, partial updates, validation (nothing written on bad input), damaged rows."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from bot import limits
from bot.engine.options import Options
from bot.storage import DEFAULT_TURN_TIMER, GuildSettings, InvalidInputError, Store, UserPrefs

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
        {"language": "nl"},
        {"language": "pt-BR"},  # Discord's locale, not the catalogue's code (pt_BR)
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
    cols = "guild_id, default_mode, turn_timer, language, text_only"
    if backend.name == "sqlite":  # untyped columns: a value of the wrong type too
        await backend.execute(f"INSERT INTO guild_settings ({cols}) VALUES (8, 'poker', 'soon', 'nl', 'maybe')")
    else:
        await backend.execute(f"INSERT INTO guild_settings ({cols}) VALUES (8, 'poker', 4, 'nl', 2)")
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


# --- migration 0002: server defaults and user preferences ------------------------------------------------------------


def _options_validator(options: dict) -> None:
    """Stands in for ``Options.from_dict`` (storage never imports the engine): knows two options."""
    known = {"scoring": ("winner", "lowest"), "false_catch_penalty": tuple(range(11))}
    for name, value in options.items():
        if name not in known or value not in known[name] or isinstance(value, bool):
            raise ValueError(f"bad option {name}")


async def test_the_new_server_settings_have_their_defaults_and_are_saved(store: Store, backend: Backend):
    s = await store.get_settings(42)
    assert (s.default_target_score, s.turn_pings, s.game_threads, s.default_options) == (500, True, False, {})
    assert s.default_target_score == limits.TARGET_SCORE_DEFAULT == Options().target_score
    s = await store.update_settings(42, default_target_score=150, turn_pings=False)
    assert s == GuildSettings(42, default_target_score=150, turn_pings=False)
    s = await store.update_settings(42, game_threads=True, default_options={"scoring": "lowest"}, turn_timer=30)
    assert s == GuildSettings(42, "classic", 30, None, False, 150, False, True, {"scoring": "lowest"})
    await store.close()
    reopened = await backend.open()
    try:
        assert await reopened.get_settings(42) == s
        assert await reopened.update_settings(42, default_options={}, default_target_score=0) == GuildSettings(
            42, "classic", 30, None, False, 0, False, True, {}
        )
    finally:
        await reopened.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"default_target_score": -1},
        {"default_target_score": limits.TARGET_SCORE_MAX + 1},
        {"default_target_score": 150.0},
        {"default_target_score": True},
        {"turn_pings": 1},
        {"turn_pings": "maybe"},
        {"game_threads": None},
        {"default_options": "scoring=lowest"},
        {"default_options": {"scoring": ["lowest"]}},
        {"default_options": {1: "x"}},
        {"default_options": {"scoring": "x" * 3000}},
        {"default_options": {"scoring": "highest"}},  # refused by the validator given to Store.open
        {"default_options": {"stacking": "any_draw"}},
    ],
)
async def test_bad_new_settings_are_refused_and_change_nothing(backend: Backend, changes):
    store = await backend.open(validate_options=_options_validator)
    try:
        before = await store.update_settings(7, default_target_score=200, default_options={"false_catch_penalty": 2})
        with pytest.raises(InvalidInputError) as err:
            await store.update_settings(7, **changes)
        assert len(str(err.value)) < 200
        assert await store.get_settings(7) == before
    finally:
        await store.close()


async def test_damaged_new_settings_fall_back_to_their_defaults_with_a_warning(backend: Backend, caplog):
    store = await backend.open(validate_options=_options_validator)
    try:
        await store.update_settings(
            5, default_target_score=150, game_threads=True, default_options={"scoring": "lowest"}
        )
        caplog.set_level(logging.WARNING, logger="bot.storage")
        for column, value, expected in [
            ("default_target_score", -4, {"default_target_score": 500}),
            ("default_target_score", "'many'", {"default_target_score": 500}),
            ("turn_pings", 2, {"turn_pings": True}),
            ("game_threads", "'yes'", {"game_threads": False}),
            ("default_options", "'{not json'", {"default_options": {}}),
            ("default_options", "'[1, 2]'", {"default_options": {}}),
            ("default_options", """'{"scoring": "highest"}'""", {"default_options": {}}),  # the validator refuses it
        ]:
            if backend.name == "postgres" and value in ("'many'", "'yes'"):
                continue  # typed columns: PostgreSQL refuses text in an INTEGER column itself
            good = GuildSettings(5, default_target_score=150, game_threads=True, default_options={"scoring": "lowest"})
            await store.update_settings(
                5, default_target_score=150, turn_pings=True, game_threads=True, default_options={"scoring": "lowest"}
            )
            assert await store.get_settings(5) == good
            await backend.execute(f"UPDATE guild_settings SET {column} = {value} WHERE guild_id = 5")
            caplog.clear()
            assert await store.get_settings(5) == dataclasses.replace(good, **expected), column
            (record,) = caplog.records
            assert record.levelno == logging.WARNING
            assert record.getMessage().startswith(f"guild 5: stored setting {column}=")
    finally:
        await store.close()


async def test_user_preferences_default_update_and_persist(store: Store, backend: Backend):
    assert await store.get_prefs(11) == UserPrefs(11, text_only=False, large_cards=False)
    assert await store.update_prefs(11, text_only=True) == UserPrefs(11, True, False)
    assert await store.update_prefs(11, large_cards=True) == UserPrefs(11, True, True)
    assert await store.update_prefs(11, text_only=False) == UserPrefs(11, False, True)
    assert await store.get_prefs(12) == UserPrefs(12)
    await store.close()
    reopened = await backend.open()
    try:
        assert await reopened.get_prefs(11) == UserPrefs(11, False, True)
    finally:
        await reopened.close()


@pytest.mark.parametrize(
    "changes", [{"text_only": 1}, {"text_only": "maybe"}, {"large_cards": None}, {"text_only": True, "large_cards": 0}]
)
async def test_bad_preferences_are_refused_and_change_nothing(store: Store, changes):
    before = await store.update_prefs(3, large_cards=True)
    with pytest.raises(InvalidInputError):
        await store.update_prefs(3, **changes)
    assert await store.get_prefs(3) == before
    for user_id in (0, -1, "3", None, True):
        with pytest.raises(InvalidInputError):
            await store.get_prefs(user_id)


async def test_damaged_preferences_fall_back_to_their_defaults_with_a_warning(store: Store, backend: Backend, caplog):
    await store.update_prefs(3, text_only=True, large_cards=True)
    damage = "'big'" if backend.name == "sqlite" else "2"  # PostgreSQL's INTEGER column takes no text
    await backend.execute(f"UPDATE user_prefs SET large_cards = {damage} WHERE user_id = 3")
    caplog.set_level(logging.WARNING, logger="bot.storage")
    assert await store.get_prefs(3) == UserPrefs(3, text_only=True, large_cards=False)
    assert [r.getMessage() for r in caplog.records] == [
        f"user 3: stored preference large_cards={damage if damage == '2' else repr('big')} is not valid; "
        "using the default False"
    ]
