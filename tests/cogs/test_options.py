"""Issue 17 point 1: one declaration per rule option. The engine's table (:data:`bot.engine.options.RULE_OPTIONS`)
is what the validation, the house rules each game allows, the slash options of ``/uno new`` and ``/uno settings``,
the lobby and ``/uno rules`` lines and README's rule table are derived from.

Before the change the options were declared in 11 places over 4 files (no table to derive from): every test here
failed on import (``RULE_OPTIONS``, ``cogs.uno.screens.rule_lines``) or, for README, on its hand-written table.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from bot.engine.cards import Mode
from bot.engine.options import HOUSE_RULES, RULE_OPTIONS, OptionError, Options
from bot.engine.rules import RULESETS
from bot.i18n import LANGUAGES, has, t
from cogs.uno.cog import UnoCog
from cogs.uno.input import rule_options
from cogs.uno.screens import rule_lines as opts

ROOT = Path(__file__).resolve().parents[2]
ALL = LANGUAGES


def test_17_1_the_table_is_the_options_fields_with_their_defaults() -> None:
    assert list(RULE_OPTIONS) == [f.name for f in fields(Options)]
    default = Options()
    assert all(getattr(default, name) == row.default for name, row in RULE_OPTIONS.items())
    assert HOUSE_RULES == (
        "stacking",
        "draw_to_match",
        "force_play",
        "seven_zero",
        "jump_in",
        "number_finish",
        "stack_deflect",
        "multi_play",
        "elimination",
    )
    assert all(RULE_OPTIONS[name].default in (False, "off", 0) for name in HOUSE_RULES)  # SPEC H: all off by default


def test_17_1_the_house_rules_each_game_allows_come_from_the_table() -> None:
    assert RULESETS[Mode.CLASSIC].house_rules == frozenset(HOUSE_RULES)
    for mode in (Mode.FLIP, Mode.FLEX):
        assert RULESETS[mode].house_rules == frozenset(HOUSE_RULES) - {"seven_zero"}
    with pytest.raises(OptionError):
        RULESETS[Mode.FLIP].check_options(Options(seven_zero=True))


@pytest.mark.parametrize("name", list(RULE_OPTIONS))
def test_17_1_the_engine_accepts_exactly_the_values_of_each_row(name: str) -> None:
    row = RULE_OPTIONS[name]
    for value in row.values:
        assert getattr(Options(**{name: value}), name) == value
    if row.kind is bool:
        bad: list[object] = ["yes", 1, None]
    elif row.kind is int:
        assert row.bounds is not None
        bad = [row.bounds[0] - 1, row.bounds[1] + 1, True, "1"]
    else:
        bad = ["nope", "", None]
    for value in bad:
        with pytest.raises(OptionError):
            Options(**{name: value})


def _command(name: str) -> object:
    return next(c for c in UnoCog.__cog_app_commands__ if c.name == name)


def test_17_1_the_slash_options_are_the_tables_rows() -> None:
    cmd = _command("new")
    params = {p.name: p for p in cmd.parameters}  # type: ignore[attr-defined]
    rows = [row for row in RULE_OPTIONS.values() if row.slash]
    assert [p for p in params if p in RULE_OPTIONS] == [row.name for row in rows]
    assert len(params) <= 25  # Discord's limit
    assert "target_score" not in params  # it has its own option (target)
    for row in rows:
        param = params[row.name]
        assert not param.required
        assert param.description == t(opts.description_key(row), "en")
        if row.kind is str:
            assert [c.value for c in param.choices] == list(row.choices)
        if row.kind is int:
            assert (param.min_value, param.max_value) == row.bounds
        if row.house:  # house rules have a name in each language
            assert param.locale_name is not None and param.locale_name.extras["key"] == f"opt.{row.name}.name"


def test_settings_takes_general_options_and_the_rule_panel_every_rule_of_new() -> None:
    """``/uno settings`` keeps its general options (room for the season period and the AI level under Discord's 25);
    the server's default rules are every row ``/uno new`` takes, set in the rule panel it opens
    (:mod:`cogs.uno.input.defaults`), derived from the same table."""
    from cogs.uno.input import defaults

    params = [p.name for p in _command("settings").parameters]  # type: ignore[attr-defined]
    assert not set(params) & set(RULE_OPTIONS) and len(params) <= 25
    assert {"season_period", "ai_level", "default_target", "reset_rules"} <= set(params)
    assert [row for row in RULE_OPTIONS.values() if row.slash] == defaults.ROWS


@pytest.mark.parametrize("lang", ALL)
def test_17_1_every_row_has_its_texts(lang: str) -> None:
    for key in opts.catalogue_keys():
        assert has(key), key
        assert t(key, lang, n=1, kinds="x")
    for row in RULE_OPTIONS.values():
        assert 1 <= len(opts.label(row, lang)) <= 100
        assert all(1 <= len(opts.value_label(row, v, lang)) <= 100 for v in row.values)


def test_17_1_lines_follow_the_table() -> None:
    every = Options(
        scoring="lowest",
        block_illegal_wild_draw=True,
        false_catch_penalty=3,
        classic_deck="112",
        flip_pairing="random",
        stacking="same_kind",
        draw_to_match=True,
        force_play=True,
        seven_zero=True,
        jump_in=True,
        number_finish=True,
        stack_deflect=True,
        multi_play=True,
        elimination=200,
    )
    classic = opts.option_lines(every, Mode.CLASSIC, "en")
    assert classic == [
        t("opt.line.lowest"),
        t("opt.line.block"),
        t("opt.line.false_catch", n=3),
        t("opt.line.deck112"),
    ]  # the FLIP pairing is not a rule of classic UNO
    assert t("opt.line.random_pairing") in opts.option_lines(every, None, "en")  # a server's defaults: every game
    assert opts.house_lines(every, "en") == [
        t("lobby.house.stacking_same_kind"),
        t("lobby.house.draw_to_match"),
        t("lobby.house.force_play"),
        t("lobby.house.seven_zero"),
        t("lobby.house.jump_in"),
        t("lobby.house.number_finish"),
        t("lobby.house.stack_deflect"),
        t("lobby.house.multi_play"),
        t("lobby.house.elimination", n=200),
    ]
    titles = [title for title, _ in opts.house_explanations(Mode.CLASSIC, every, "en")]
    assert titles == [t(f"rules.house.{name}.title") for name in HOUSE_RULES]


def test_17_1_saved_house_rules_a_game_does_not_have_are_left_out() -> None:
    saved = {"seven_zero": True, "jump_in": True, "scoring": "lowest"}
    assert rule_options.for_game(saved, "flip") == {"jump_in": True, "scoring": "lowest"}
    assert rule_options.for_game(saved, "classic") == saved


def test_17_1_readme_rule_table_is_the_code() -> None:
    """README's table is generated (``python -m cogs.uno.screens.rule_lines`` rewrites it): it must say what the code
    does."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = opts.README_MARKERS
    assert start in readme and end in readme
    table = readme.split(start + "\n", 1)[1].split(end, 1)[0]
    assert table == opts.readme_table(), "README's rule table is out of date: run python -m cogs.uno.screens.rule_lines"
    assert all(f"`{name}`" in table for name in RULE_OPTIONS)


def test_17_1_forged_slash_values_are_refused() -> None:
    # the class rule_options.py raises (a fresh ``from cogs.uno.input.inputs import BadInput`` here would be another
    # class once an earlier test in this process loaded and unloaded the bot's extension, which drops cogs.uno.*
    # modules)
    BadInput = rule_options.inputs.BadInput

    assert rule_options.given(
        {"force_play": True, "stacking": "any_draw", "false_catch_penalty": 2, "jump_in": None}
    ) == {
        "force_play": True,
        "stacking": "any_draw",
        "false_catch_penalty": 2,
    }
    for forged in ({"force_play": "maybe"}, {"stacking": "all"}, {"false_catch_penalty": 11}, {"scoring": 1}):
        with pytest.raises(BadInput):
            rule_options.given(forged)


# --------------------------------------------------------------------------------------------------------------------
# Issue 18 point 3: the lobby's rule panel is built from the table


def _lobby(mode: Mode, options: Options) -> object:
    from bot.adapter.session import Seat, Session, Status
    from bot.adapter.session_view import SessionView

    session = Session(1, 2, mode, options, 100, [Seat(100, "Host")], 60, 0.0, 1, status=Status.LOBBY)
    return SessionView.of(session)


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("mode", list(Mode))
def test_18_3_the_panel_offers_every_row_of_the_game_and_fits_discord(mode: Mode, lang: str) -> None:
    from cogs.uno.screens.rule_panels import panel_screen

    chaos = Options(**{n: RULE_OPTIONS[n].on for n in HOUSE_RULES if RULE_OPTIONS[n].applies_to(mode)})
    for picked in [None, *[n for n, r in RULE_OPTIONS.items() if r.kind is not bool and r.applies_to(mode)]]:
        screen = panel_screen(_lobby(mode, chaos), lang, picked)  # type: ignore[arg-type]
        assert screen.view is not None
        selects = {c.item.custom_id.split(":")[2]: c.item for c in screen.view.children}  # type: ignore[attr-defined]
        rows = [r for r in RULE_OPTIONS.values() if r.applies_to(mode)]
        assert [o.value for o in selects["flags"].options] == [r.name for r in rows if r.kind is bool]
        assert {o.value for o in selects["flags"].options if o.default} == {
            r.name for r in rows if r.kind is bool and getattr(chaos, r.name)
        }
        assert [o.value for o in selects["pick"].options] == [r.name for r in rows if r.kind is not bool]
        assert list(selects["preset"].options[i].value for i in range(3)) == ["official", "party", "chaos"]
        if picked is not None:
            values = [o.value for o in selects["set"].options]
            assert values == [str(v) for v in RULE_OPTIONS[picked].values]
        payload = screen.view.to_components()
        assert len(payload) <= 5
        for row in payload:
            for component in row["components"]:
                assert len(component["options"]) <= 25 and len(component.get("placeholder", "")) <= 150
                assert all(
                    len(o["label"]) <= 100 and len(o.get("description") or "") <= 100 for o in component["options"]
                )
        embed = screen.embed
        assert embed is not None and len(embed) <= 6000 and all(len(f.value or "") <= 1024 for f in embed.fields)


def test_17_1_each_rows_section_is_the_one_the_rules_reference_gives() -> None:
    """docs/rules/options.md lists each option with its section: the table cites the same one."""
    sections: dict[str, list[str]] = {}
    for line in (ROOT / "docs" / "rules" / "options.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            sections[cells[0].strip("`")] = [s.strip() for s in cells[3].split(",")]
    assert set(sections) == set(RULE_OPTIONS)
    assert all(RULE_OPTIONS[name].section in secs for name, secs in sections.items())


def test_a_saved_partner_game_is_left_out_of_a_game_without_teams() -> None:
    # review8: a server whose default rules play partners (SPEC T1, classic and FLIP only) could not open a Flex table
    # with house rule elimination: the saved ``teams`` came along and "teams and elimination" (SPEC T6) refused it
    saved = {"teams": True, "jump_in": True}
    assert rule_options.for_game(saved, "flex") == {"jump_in": True}
    assert Options.from_dict({**rule_options.for_game(saved, "flex"), "elimination": 100}).elimination == 100
    assert rule_options.for_game(saved, "classic") == saved and rule_options.for_game(saved, "flip") == saved
