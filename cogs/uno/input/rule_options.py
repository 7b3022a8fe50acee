"""The rule options as slash options and what users send for them (DESIGN "Discord layer", issue 17 point 1): the
rule parameters of ``/uno new``, derived from the engine's one table (:data:`bot.engine.options.RULE_OPTIONS`), the
checks of a value a user gives (a command's, a panel's), and the saved defaults a game takes. Their labels and lines
are :mod:`cogs.uno.screens.rule_lines`'s, which also lists the catalogue keys every option needs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.engine.cards import Mode
from bot.engine.options import RULE_OPTIONS, RuleOption
from bot.i18n import t

from ..screens.rule_lines import SLASH_OPTIONS, choice_key, description_key
from . import inputs

#: A slash command's callback.
Callback = Callable[..., Coroutine[Any, Any, None]]

#: Whole-number options whose out-of-range message names their bounds (others: ``error.bad_option``).
_WHOLE_CHECKS: Mapping[str, Callable[[object], int]] = {
    "target_score": inputs.target_score,
    "false_catch_penalty": inputs.false_catch_penalty,
}


def _l(key: str) -> locale_str:
    """A slash-command text: its English catalogue text, translated by ``bot.i18n.translator`` through ``key``."""
    return locale_str(t(key, "en"), key=key)


#: The house rules' slash option names in each language (SPEC H; the other options keep their English names).
HOUSE_NAMES: Mapping[str, locale_str] = {
    row.name: locale_str(row.name, key=f"opt.{row.name}.name") for row in SLASH_OPTIONS if row.house
}


# --------------------------------------------------------------------------------------------------------------------
# Slash options


def _annotation(row: RuleOption) -> Any:
    if row.kind is bool:
        return bool | None
    if row.kind is int:
        assert row.bounds is not None
        return app_commands.Range[int, row.bounds[0], row.bounds[1]] | None
    return str | None


def rule_parameters(func: Callback) -> Any:
    """Give a slash command's callback one optional parameter per rule option of :data:`SLASH_OPTIONS` (after its
    own; the callback takes them as ``**rules``), with their descriptions, choices and — for the house rules — their
    names in each language. Put it under the command's other decorators. (Typed ``Any``: mypy cannot match a
    callback with ``**rules`` against discord.py's ``Concatenate`` signature.)"""
    return _with_rules(func, SLASH_OPTIONS)


def _with_rules(func: Callback, rows: tuple[RuleOption, ...]) -> Any:
    signature = inspect.signature(func)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    added = [
        inspect.Parameter(row.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=_annotation(row))
        for row in rows
    ]
    func.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
    app_commands.describe(**{row.name: _l(description_key(row)) for row in rows})(func)
    choices: dict[str, list[Choice[str]]] = {
        row.name: [
            Choice(name=_l(key) if (key := choice_key(row, v)) is not None else str(v), value=str(v))
            for v in row.choices
        ]
        for row in rows
        if row.kind is str
    }
    app_commands.choices(**choices)(func)
    app_commands.rename(**{n: v for n, v in HOUSE_NAMES.items() if any(r.name == n for r in rows)})(func)
    return func


def checked(row: RuleOption, value: object) -> Any:
    """``value`` if ``row`` takes it (a real boolean, one of the choices, a whole number within bounds);
    :class:`~cogs.uno.input.inputs.BadInput` otherwise (discord.py passes forged values through)."""
    if row.kind is bool:
        return inputs.flag(value)
    if row.kind is str:
        return inputs.choice(value, row.choices)
    whole = _WHOLE_CHECKS.get(row.name)
    if whole is not None:
        return whole(value)
    assert row.bounds is not None
    return inputs.whole(value, row.bounds[0], row.bounds[1], "bad_option")


def given(values: Mapping[str, object]) -> dict[str, Any]:
    """The rule options a user gave to a command (``values``: its ``**rules``; None = not given), each checked
    (:func:`checked`). The engine's :class:`~bot.engine.options.Options` checks them again as a whole."""
    return {row.name: checked(row, values[row.name]) for row in SLASH_OPTIONS if values.get(row.name) is not None}


def for_game(options: Mapping[str, Any], mode: Mode | str) -> dict[str, Any]:
    """Saved rule options for a table of ``mode``: a saved option that game does not have (SPEC H: ``seven_zero``
    is classic only; SPEC T1: ``teams`` is classic and FLIP only, and would refuse a Flex table with ``elimination``,
    SPEC T6) is left out instead of refusing the table; one given to ``/uno new`` is not."""
    return {
        name: value
        for name, value in options.items()
        if name not in RULE_OPTIONS or RULE_OPTIONS[name].applies_to(mode)
    }


__all__ = ["HOUSE_NAMES", "checked", "for_game", "given", "rule_parameters"]
