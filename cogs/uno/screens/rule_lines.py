"""The rule options in Discord's texts, all derived from the engine's one table
(:data:`bot.engine.options.RULE_OPTIONS`, issue 17 point 1): their labels (the slash options' descriptions and
choices of ``/uno new``, the rule panels of :mod:`cogs.uno.input.panel` and :mod:`cogs.uno.input.defaults`), the
lobby and ``/uno rules`` lines, the presets and README's rule table. The slash options themselves and the checks of
what a user sends are :mod:`cogs.uno.input.rule_options`'s.

Texts come from the catalogues by the option's name (``text`` is the stem where an older key is kept):

- ``opt.<text>``: what the option does (the slash option's description, the panel's label);
- ``opt.<name>.name``: a house rule's slash option name in each language (the others keep their English names);
- ``choice.<name>_<value>`` or ``choice.<value>``: a choice's label (neither: the value itself, e.g. ``108``);
- ``lobby.house.<name>`` (``lobby.house.<name>_<value>`` for a choice; ``{n}`` in it for a number): a house rule's
  lobby line; ``rules.house.<name>.title`` and ``rules.house.<name>`` (``…_<value>``): its ``/uno rules``
  explanation;
- ``opt.line.<name>.<value>`` (``opt.line.<text>`` for a number, ``{n}`` in it): another option's lobby line when
  it differs from SPEC's default, except the older keys of :data:`_LINE_KEYS`.

So a new boolean house rule needs its behaviour, one row of the table and the texts ``opt.<name>``,
``opt.<name>.name``, ``lobby.house.<name>``, ``rules.house.<name>.title`` and ``rules.house.<name>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.engine.cards import Mode
from bot.engine.options import HOUSE_RULES, PRESETS, RULE_OPTIONS, Options, RuleOption
from bot.engine.rules import STACKS_ON
from bot.i18n import has, t

#: The rule options ``/uno new`` takes (SPEC table O; the target score has its own option).
SLASH_OPTIONS: tuple[RuleOption, ...] = tuple(row for row in RULE_OPTIONS.values() if row.slash)

#: Lobby lines of options other than house rules whose catalogue keys predate the table: (name, value) -> key.
_LINE_KEYS: Mapping[tuple[str, object], str] = {
    ("scoring", "lowest"): "opt.line.lowest",
    ("block_illegal_wild_draw", True): "opt.line.block",
    ("classic_deck", "112"): "opt.line.deck112",
    ("flip_pairing", "random"): "opt.line.random_pairing",
    ("opening_flip", "apply"): "opt.line.opening_flip",
    ("exposed_wild_chooser", "flipper"): "opt.line.flipper",
    ("flip_invert_piles", False): "opt.line.no_invert",
    ("flex_reset_power", False): "opt.line.keep_power",
    ("flex_target_can_challenge", False): "opt.line.no_target_challenge",
}
# --------------------------------------------------------------------------------------------------------------------
# Labels


def description_key(row: RuleOption) -> str:
    return f"opt.{row.text}"


def choice_key(row: RuleOption, value: object) -> str | None:
    """The catalogue key of a choice's label (``choice.<name>_<value>``, else ``choice.<value>``), None if neither
    exists (the value is its own label)."""
    for key in (f"choice.{row.name}_{value}", f"choice.{value}"):
        if has(key):
            return key
    return None


def value_label(row: RuleOption, value: object, lang: str) -> str:
    """A value of ``row`` in ``lang``: on/off for a boolean, a choice's label, a number as it is."""
    if row.kind is bool or (row.house and row.kind is int and value == row.default):
        return t("panel.on" if value else "panel.off", lang)  # a house rule's number: 0 is off (SPEC H9)
    key = choice_key(row, value) if row.kind is str else None
    return t(key, lang) if key is not None else str(value)


def label(row: RuleOption, lang: str) -> str:
    """What ``row`` does, in ``lang`` (the slash option's description)."""
    return t(description_key(row), lang)


# --------------------------------------------------------------------------------------------------------------------
# Lines


def _differs(options: Options, mode: Mode | None, rows: Iterable[RuleOption]) -> list[tuple[RuleOption, Any]]:
    return [
        (row, value)
        for row in rows
        if (value := getattr(options, row.name)) != row.default and (mode is None or row.applies_to(mode))
    ]


def _suffix(row: RuleOption, value: object) -> str:
    """A house rule's key suffix: a choice's value; none for an on/off rule or a number (given as ``{n}``)."""
    return f"_{value}" if row.kind is str else ""


def option_lines(options: Options, mode: Mode | None, lang: str) -> list[str]:
    """One line per rule option other than the target score and the house rules that differs from SPEC's default,
    for ``mode``'s game only, or for every game when ``mode`` is None (a server's saved defaults)."""
    rows = (row for row in SLASH_OPTIONS if not row.house)
    return [t(_line_key(row, value), lang, n=value) for row, value in _differs(options, mode, rows)]


def _line_key(row: RuleOption, value: object) -> str:
    if (row.name, value) in _LINE_KEYS:
        return _LINE_KEYS[row.name, value]
    return f"opt.line.{row.text}" if row.kind is int else f"opt.line.{row.name}.{value}"


def house_lines(options: Options, lang: str, mode: Mode | None = None) -> list[str]:
    """One lobby line per house rule in force (SPEC H), in the order of table O."""
    rows = (RULE_OPTIONS[name] for name in HOUSE_RULES)
    return [
        t(f"lobby.house.{row.name}{_suffix(row, value)}", lang, n=value) for row, value in _differs(options, mode, rows)
    ]


def stack_kinds(mode: Mode, lang: str) -> str:
    """The cards of ``mode`` that start or join a stack (SPEC H ``stacking``), by name (``"Draw Two, Wild Draw
    Four"``)."""
    return ", ".join(t(f"kind.{kind.value}", lang) for kind in STACKS_ON[mode])


def house_explanations(mode: Mode, options: Options, lang: str) -> list[tuple[str, str]]:
    """The house rules in force at a table of ``mode`` with ``options`` (SPEC H), as ``(title, explanation)``."""
    kinds = stack_kinds(mode, lang)
    rows = (RULE_OPTIONS[name] for name in HOUSE_RULES)
    return [
        (
            t(f"rules.house.{row.name}.title", lang),
            t(f"rules.house.{row.name}{_suffix(row, value)}", lang, kinds=kinds, n=value),
        )
        for row, value in _differs(options, mode, rows)
    ]


def catalogue_keys() -> set[str]:
    """Every catalogue key the table's rows need (what the catalogue tests check exists in every language)."""
    keys = {"panel.on", "panel.off"}
    for name in PRESETS:
        keys |= {f"panel.preset.{name}", f"panel.preset.{name}.desc"}
    for row in RULE_OPTIONS.values():
        keys.add(description_key(row))
        keys.update(k for v in row.choices if (k := choice_key(row, v)) is not None)
        others = [v for v in row.values if v != row.default]
        if row.house:
            keys.add(f"opt.{row.name}.name")
            keys.add(f"rules.house.{row.name}.title")
            keys.update(f"lobby.house.{row.name}{_suffix(row, v)}" for v in others)
            keys.update(f"rules.house.{row.name}{_suffix(row, v)}" for v in others)
        elif row.slash:
            keys.update(_line_key(row, v) for v in others)
    return keys


# --------------------------------------------------------------------------------------------------------------------
# README


#: The lines of README.md between which :func:`readme_table` stands.
README_MARKERS = ("<!-- rule options: generated by cogs/uno/screens/rule_lines.py -->", "<!-- end of rule options -->")


def readme_table() -> str:
    """README's "Rule options" table, in English, from the table (a test compares it with README.md; ``python -m
    cogs.uno.screens.rule_lines`` writes it there)."""
    games = {frozenset(Mode): "all"}
    lines = [
        "| option | what it sets | default | other values | games | rules |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in RULE_OPTIONS.values():
        name = f"`{row.name}`" if row.slash else f"`{row.name}` (`target`)"
        default = value_label(row, row.default, "en")
        if row.kind is int:
            assert row.bounds is not None
            low, high = row.bounds
            others = f"{low + 1 if row.default == low else low}–{high}"
        else:
            others = "; ".join(value_label(row, v, "en") for v in row.values if v != row.default)
        where = games.get(row.games) or ", ".join(m.value for m in Mode if m in row.games)
        section = f"SPEC {row.section}" + (" (house rule)" if row.house else "")
        lines.append(f"| {name} | {label(row, 'en')} | {default} | {others} | {where} | {section} |")
    return "\n".join(lines) + "\n"


def write_readme(path: str = "README.md") -> bool:
    """Put :func:`readme_table` between README's markers; True if the file changed."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = README_MARKERS
    head, rest = text.split(start + "\n", 1)
    _, tail = rest.split(end, 1)
    new = f"{head}{start}\n{readme_table()}{end}{tail}"
    if new == text:
        return False
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    return True


if __name__ == "__main__":
    print("README.md updated" if write_readme() else "README.md already up to date")


__all__ = [
    "README_MARKERS",
    "SLASH_OPTIONS",
    "catalogue_keys",
    "choice_key",
    "house_explanations",
    "house_lines",
    "label",
    "option_lines",
    "readme_table",
    "stack_kinds",
    "value_label",
]
