"""Issue 18 point 3 end to end: the host sets the rules in the open lobby from an ephemeral panel built from the
option table; presets set several at once; everyone sees them in the lobby; the game started plays them; anyone else
is refused; forged values change nothing; a server's saved defaults still apply. The real discord.py client against
the emulator. Every test here failed before the panel existed (the lobby had no **Rules** button).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.engine.options import Options
from tests.discord_emulator import DiscordEmulator, Message

from .server_defaults import set_default_rules
from .uno_driver import Table, make_bot, uno_world


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def panel_select(panel: Message, verb: str) -> Any:
    return next(s for s in panel.selects() if s.custom_id.startswith(f"uno:r:{verb}:"))


async def open_panel(emulator: DiscordEmulator, table: Table, user: Any) -> Message:
    res = await emulator.click(user, table.public_message(), label="Rules")
    (panel,) = res.ephemeral_messages
    return panel


async def test_18_3_host_sets_a_preset_and_a_rule_the_lobby_shows_them_and_the_game_plays_them(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")

    panel = await open_panel(emulator, table, alice)
    assert panel.visible_to == alice.id
    presets = panel_select(panel, "preset")
    assert [o.value for o in presets.options] == ["official", "party", "chaos"]
    await emulator.select(alice, panel, presets.custom_id, ["party"])
    session = table.session
    assert session.options == Options(target_score=0, stacking="any_draw", jump_in=True, seven_zero=True)
    lobby = table.public_message().text  # everyone sees the rules in the lobby
    for line in ("Stacking: any draw card on any", "Seven-zero:", "Jump-in:"):
        assert line in lobby, lobby

    # the panel now shows the flags as they are; tick force play on, untick jump-in
    flags = panel_select(panel, "flags")
    on = {o.value for o in flags.options if o.default}
    assert on == {"seven_zero", "jump_in"}
    await emulator.select(alice, panel, flags.custom_id, ["seven_zero", "force_play"])
    assert table.session.options == Options(target_score=0, stacking="any_draw", force_play=True, seven_zero=True)

    # a choice: pick scoring, then "lowest"
    pick = panel_select(panel, "pick")
    await emulator.select(alice, panel, pick.custom_id, ["scoring"])
    chosen = panel_select(panel, "set")
    assert chosen.custom_id.endswith(":scoring") and {o.value for o in chosen.options} == {"winner", "lowest"}
    await emulator.select(alice, panel, chosen.custom_id, ["lowest"])
    expected = Options(target_score=0, scoring="lowest", stacking="any_draw", force_play=True, seven_zero=True)
    assert table.session.options == expected
    lobby = table.public_message().text
    for line in ("Force play:", "the lowest total wins", "Stacking: any draw card on any", "Seven-zero:"):
        assert line in lobby, lobby
    assert "Jump-in:" not in lobby

    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING
    assert table.session.game.options == expected  # the game started plays the rules set in the lobby


async def test_18_3_only_the_host_may_change_the_rules_and_forged_values_change_nothing(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game="flip")
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    before = table.session.options
    for other in (bob, carol):  # a player, and a server manager: the table's rules are the host's
        res = await emulator.click(other, table.public_message(), label="Rules")
        (answer,) = res.ephemeral_messages
        assert "only the host" in answer.text.lower() and not answer.selects()
    panel = await open_panel(emulator, table, alice)
    flags = panel_select(panel, "flags")
    assert "seven_zero" not in {o.value for o in flags.options}  # classic only (SPEC H)
    await emulator.select(alice, panel, panel_select(panel, "pick").custom_id, ["target_score"])
    for data in (  # values the panel's own selects do not offer, as a modified client could send them
        {"custom_id": flags.custom_id, "component_type": 3, "values": ["seven_zero"]},
        {"custom_id": flags.custom_id, "component_type": 3, "values": ["nonsense"]},
        {"custom_id": panel_select(panel, "preset").custom_id, "component_type": 3, "values": ["everything"]},
        {"custom_id": panel_select(panel, "set").custom_id, "component_type": 3, "values": ["999999"]},
        {"custom_id": panel_select(panel, "set").custom_id, "component_type": 3, "values": ["-1"]},
    ):
        res = await emulator.forged_component(alice, panel, data)
        refusal = res.ephemeral_messages[-1].text if res.ephemeral_messages else ""
        assert "not allowed" in refusal or "must be from 0 to 100000" in refusal, data
    for name, value in (("classic_deck", "112"), ("stacking", "all"), ("evil", "1")):  # ids the panel never had
        data = {"custom_id": f"uno:r:set:{channel.id}:{name}", "component_type": 3, "values": [value]}
        res = await emulator.forged_component(alice, panel, data)
        assert res.ephemeral_messages, data  # answered, and refused
    assert table.session.options == before

    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    res = await emulator.select(alice, panel, flags.custom_id, [])  # the panel still open: too late
    assert "already started" in res.ephemeral_messages[-1].text.lower()
    assert table.session.options == before and table.session.game.options == before


async def test_18_3_chaos_switches_every_house_rule_of_the_game_on_and_saved_defaults_still_apply(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", default_target=200)
    await set_default_rules(emulator, carol, channel, scoring="lowest", force_play=True)
    await emulator.slash(alice, channel, "uno new", game="flex")
    table = Table(emulator, bot, channel, [alice])
    assert table.session.options == Options(target_score=200, scoring="lowest", force_play=True)  # saved defaults
    panel = await open_panel(emulator, table, alice)
    await emulator.select(alice, panel, panel_select(panel, "preset").custom_id, ["chaos"])
    chaos = Options(
        target_score=200,
        stacking="any_draw",
        draw_to_match=True,
        force_play=True,
        jump_in=True,
        number_finish=True,
        stack_deflect=True,
        multi_play=True,
    )
    assert table.session.options == chaos  # seven_zero is not a rule of UNO Flex!, elimination not a mayhem
    await emulator.select(alice, panel, panel_select(panel, "preset").custom_id, ["official"])
    assert table.session.options == Options(target_score=200)
    # the target score from the panel
    await emulator.select(alice, panel, panel_select(panel, "pick").custom_id, ["target_score"])
    await emulator.select(alice, panel, panel_select(panel, "set").custom_id, ["0"])
    assert table.session.options == Options(target_score=0)
    assert "single round" in table.public_message().text.lower()
