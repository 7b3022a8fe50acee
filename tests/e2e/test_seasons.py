"""End to end (the real discord.py client against the emulator): seasons of the leaderboard (issue 19 point 4), the
server's season period and default AI level in ``/uno settings`` (issue 21 point 1), and the server's default rules
set in the rule panel that ``/uno settings`` opens (it had reached Discord's 25 options). Matches are recorded
through the bot's own store, as a finished match is."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.engine.options import Options
from bot.i18n import t
from bot.storage import StorageUnavailable, season_bounds, season_key
from tests.discord_emulator import DiscordEmulator

from .server_defaults import defaults_select, open_defaults
from .test_ratings import result
from .uno_driver import Table, make_bot, uno_world


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


async def test_the_leaderboard_of_a_season_the_current_one_and_an_archived_one(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, _carol = world["users"]
    guild, channel = world["guild"], world["channel"]
    store = bot.store
    now = time.time()
    this_month = season_key("monthly", now)
    start, _ = season_bounds(this_month)
    last_month = season_key("monthly", start - 86400)
    # last month bob won 3; this month alice won 2 and eleven others one each (two pages of ten). A match ends 10
    # minutes after it starts: one started in the first minutes of a month still ends in it.
    recent = max(start, now - 900)
    for i in range(3):
        people = [(bob.id, "bob"), (alice.id, "alice")]
        assert await store.finish_match(result(f"old{i}", guild.id, "classic", people, start - 86400 * (i + 2)))
    for i in range(2):
        people = [(alice.id, "alice"), (bob.id, "bob")]
        assert await store.finish_match(result(f"new{i}", guild.id, "flip", people, recent + i))
    for k in range(11):
        people = [(9000 + k, f"player{k}"), (bob.id, "bob")]
        assert await store.finish_match(result(f"p{k}", guild.id, "classic", people, recent))

    res = await emulator.slash(alice, channel, "uno leaderboard", season="current")
    (board,) = res.public_messages
    assert f"Leaderboard · this server · all games · season {this_month}" in board.text
    assert f"**Season {this_month}** · <t:{int(start)}:D>" in board.text and "ends <t:" in board.text
    assert "**1.** alice: wins 2 · played 2" in board.text and "bob" not in board.text  # no win of bob's this month
    assert "Page 1/2" in board.text
    assert board.find_button(label="▶").custom_id == f"uno:ls:{guild.id}:all:{this_month}:1:n"
    await emulator.click(bob, board, label="▶")
    page2 = emulator.message(board.id)
    assert "Page 2/2" in page2.text and "**11.**" in page2.text and f"season {this_month}" in page2.text

    # the seasons offered: the current one first, then last month's archive
    res = await emulator.autocomplete(alice, channel, "uno leaderboard", focused="season", season="")
    choices = res.choices or []
    assert [c["value"] for c in choices] == ["current", last_month]
    assert choices[0]["name"].startswith(f"{this_month} · current season") and "matches: 13" in choices[0]["name"]
    assert choices[1]["name"].startswith(f"{last_month} · ") and "matches: 3" in choices[1]["name"]
    res = await emulator.autocomplete(alice, channel, "uno leaderboard", focused="season", season=last_month[-2:])
    assert last_month in [c["value"] for c in res.choices or []]

    res = await emulator.slash(alice, channel, "uno leaderboard", season=last_month, game="classic")
    (archived,) = res.public_messages
    assert f"**Season {last_month}**" in archived.text and "· ended" in archived.text
    assert "**1.** bob: wins 3 · played 3" in archived.text and "alice" not in archived.text
    # the all-time board still counts everything
    res = await emulator.slash(alice, channel, "uno leaderboard")
    assert "**1.** bob: wins 3" in res.public_messages[0].text

    # the all-servers board has monthly seasons
    res = await emulator.slash(alice, channel, "uno leaderboard", scope="global", season="current")
    assert f"all servers · all games · season {this_month}" in res.public_messages[0].text

    # refused in one line, nothing posted: no such season, a season not started, a week on the monthly global board,
    # a season by skill rating
    future = season_key("monthly", season_bounds(this_month)[1] + 86400 * 40)
    week = season_key("weekly", now)
    for options, text in (
        ({"season": "2026-13"}, "This leaderboard has no such season"),
        ({"season": "december"}, "This leaderboard has no such season"),
        ({"season": future}, "This leaderboard has no such season"),
        ({"season": week, "scope": "global"}, "This leaderboard has no such season"),
        ({"season": "current", "order": "rating"}, "skill ratings are not kept per season"),
    ):
        res = await emulator.slash(alice, channel, "uno leaderboard", **options)
        assert res.public_messages == [] and text in res.ephemeral_messages[0].text, options
    # a server may still read a week by its key (every period is kept, whatever its setting)
    res = await emulator.slash(alice, channel, "uno leaderboard", season=week)
    assert f"**Season {week}**" in res.public_messages[0].text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_settings_season_period_and_ai_level_and_the_lobby_adds_the_servers_level(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _bob, carol = world["users"]
    guild, channel = world["guild"], world["channel"]
    res = await emulator.slash(carol, channel, "uno settings")
    assert "Leaderboard seasons: Monthly\nLevel of Add AI: Normal" in res.ephemeral_messages[0].text
    res = await emulator.slash(alice, channel, "uno settings", ai_level="hard")  # not a server manager
    assert "Manage Server" in res.ephemeral_messages[0].text
    assert (await bot.store.get_settings(guild.id)).ai_level == "normal"

    res = await emulator.slash(carol, channel, "uno settings", season_period="weekly", ai_level="hard")
    (saved,) = res.ephemeral_messages
    assert "Settings saved" in saved.text and "Leaderboard seasons: Weekly\nLevel of Add AI: Hard" in saved.text
    settings = await bot.store.get_settings(guild.id)
    assert (settings.season_period, settings.ai_level) == ("weekly", "hard")
    # the server's seasons are weeks now
    res = await emulator.autocomplete(alice, channel, "uno leaderboard", focused="season", season="")
    assert (res.choices or [])[0]["name"].startswith(f"{season_key('weekly', time.time())} · current season")

    # the lobby: Add AI adds the server's level (highlighted); the others keep a button each
    await emulator.slash(alice, channel, "uno new")
    table = Table(emulator, bot, channel, [alice])
    lobby = table.public_message()
    add = lobby.find_button(label="Add AI")
    assert add.custom_id == f"uno:l:ai_hard:{channel.id}" and add.style == 1
    assert lobby.find_button(label="Add normal AI").style == 2 and lobby.find_button(label="Add easy AI").style == 2
    await emulator.click(alice, lobby, label="Add AI")
    assert [s.level for s in table.session.seats if s.ai] == ["hard"]
    assert "🤖 AI 1 · Hard" in table.public_message().text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_the_default_rules_panel_of_settings(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _bob, carol = world["users"]
    guild, channel = world["guild"], world["channel"]
    panel = await open_defaults(emulator, carol, channel)
    assert panel.visible_to == carol.id and "Default rules of this server" in panel.text
    pick = defaults_select(panel, "pick")
    # every option of /uno new of every game, from the one table: FLIP's and Flex's too
    assert {"flip_pairing", "classic_deck", "elimination", "stacking"} <= {o.value for o in pick.options}
    assert "seven_zero" in {o.value for o in defaults_select(panel, "flags").options}

    await emulator.select(carol, panel, defaults_select(panel, "preset").custom_id, ["chaos"])
    chaos = Options(
        stacking="any_draw",
        draw_to_match=True,
        force_play=True,
        seven_zero=True,
        jump_in=True,
        number_finish=True,
        stack_deflect=True,
        multi_play=True,
    )
    assert (await bot.store.get_settings(guild.id)).default_options == chaos.to_dict()
    assert "Seven-zero" in emulator.message(panel.id).text  # the panel is redrawn from what was saved
    await emulator.select(carol, panel, defaults_select(panel, "pick").custom_id, ["scoring"])
    await emulator.select(carol, panel, defaults_select(panel, "set").custom_id, ["lowest"])
    saved = await bot.store.get_settings(guild.id)
    assert saved.default_options == Options(**{**chaos.to_dict(), "scoring": "lowest"}).to_dict()

    # a FLIP table starts from them, the classic-only seven-zero left out
    await emulator.slash(alice, channel, "uno new", game="flip")
    table = Table(emulator, bot, channel, [alice])
    assert table.session.options.scoring == "lowest" and table.session.options.stacking == "any_draw"
    assert not table.session.options.seven_zero

    # anyone else, and forged values, change nothing
    g = guild.id
    for user, data, text in (
        (alice, {"custom_id": f"uno:sd:preset:{g}:", "component_type": 3, "values": ["official"]}, "someone else"),
        (
            carol,
            {"custom_id": f"uno:sd:set:{g}:scoring", "component_type": 3, "values": ["bogus"]},
            "not one of the choices",
        ),
        (carol, {"custom_id": f"uno:sd:pick:{g}:", "component_type": 3, "values": ["target_score"]}, "not allowed"),
        (carol, {"custom_id": f"uno:sd:flags:{g}:", "component_type": 3, "values": ["nope"]}, "not allowed"),
        (carol, {"custom_id": f"uno:sd:preset:{g}:", "component_type": 3, "values": ["mayhem"]}, "not allowed"),
    ):
        res = await emulator.forged_component(user, panel, data, unseen=user is alice)
        assert text in res.ephemeral_messages[0].text, data
        assert await bot.store.get_settings(guild.id) == saved, data
    # reset_rules forgets them
    res = await emulator.slash(carol, channel, "uno settings", reset_rules=True)
    assert "Default rules: the standard rules" in res.ephemeral_messages[0].text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_database_outage_leaves_the_season_list_empty_and_the_board_says_so(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20 point 7 for seasons: while the database is away the autocomplete offers nothing (no error) and the
    board answers the one outage line."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    channel = world["channel"]

    async def down(*args: Any, **kwargs: Any) -> Any:
        raise StorageUnavailable("the database is away (test)")

    for name in ("seasons", "season_leaderboard", "season_leaderboard_count"):
        monkeypatch.setattr(bot.store, name, down)
    res = await emulator.autocomplete(alice, channel, "uno leaderboard", focused="season", season="")
    assert res.choices == []
    res = await emulator.slash(alice, channel, "uno leaderboard", season="current")
    assert res.public_messages == [] and res.ephemeral_messages[0].text == t("error.storage_unavailable", "en")
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
