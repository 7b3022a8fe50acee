"""Match options: SPEC table O, declared once (issue 17 point 1).

Every rule option is one field of :class:`Options`, declared with :func:`rule` — its default, its values (choices or
bounds), whether it is a house rule (SPEC H), the games it applies to and its rules section. :data:`RULE_OPTIONS`
(the table, in declaration order) is read from those declarations, and everything else is derived from it: the
engine's validation (:meth:`Options.__post_init__`, :meth:`bot.engine.rules.Ruleset.check_options`), the house rules
each game allows (:attr:`bot.engine.rules.Ruleset.house_rules`), the slash options of ``/uno new``, the lobby's
rule panel and the server's default-rules panel of ``/uno settings``, the lobby and ``/uno rules`` lines and README's
rule table (``cogs.uno.screens.rule_lines``).

Adding a boolean house rule takes its behaviour, its texts (catalogue keys named after the option, see
``cogs.uno.screens.rule_lines``) and one line here, ``name: bool = rule(False, house=True, section=...)``, naming its
new section of ``docs/rules/house-rules.md``.

The house rules of SPEC H are all off by default. ``seven_zero`` is for classic UNO only: a game of another mode
refuses it (:meth:`bot.engine.rules.Ruleset.check_options`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TypeVar

from bot.limits import FALSE_CATCH_PENALTY_MAX, TARGET_SCORE_MAX

from .cards import Mode

T = TypeVar("T", bool, int, str)

#: The games an option applies to when its declaration names none.
ALL_GAMES: frozenset[Mode] = frozenset(Mode)


class OptionError(ValueError):
    """An option value outside SPEC table O."""

    code = "bad_option"


class TeamsElimination(OptionError):
    """Partners and house rule elimination together (SPEC T6)."""

    code = "teams_elimination"


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One row of SPEC table O: an option of a match.

    - ``name``: the option's name (the field of :class:`Options`, the key of saved options, the slash option's name).
    - ``default``: SPEC's value; its type is the option's type (``bool``, ``int`` or ``str``).
    - ``choices``: the values a ``str`` option takes, in the order they are offered (the default among them).
    - ``bounds``: ``(low, high)`` inclusive, for an ``int`` option.
    - ``house``: a house rule of SPEC H (off by default; listed in the lobby's "House rules", in ``Chaos``...).
    - ``games``: the games it applies to (a house rule outside them is refused, another option ignored).
    - ``section``: the rules section that defines it (``docs/rules/``, e.g. ``"G9"``, ``"H1"``).
    - ``text``: the stem of its catalogue keys when it is not ``name`` (texts kept from before the table).
    - ``slash``: offered by ``/uno new`` and the panels (lobby, server defaults) as a rule option (``target_score``
      has its own).
    - ``steps``: for an ``int`` option, the values the lobby's rule panel offers (default: every value in bounds).
    """

    name: str
    default: bool | int | str
    choices: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None
    house: bool = False
    games: frozenset[Mode] = ALL_GAMES
    section: str = "O"
    text: str = ""
    slash: bool = True
    steps: tuple[int, ...] = ()

    @property
    def kind(self) -> type:
        """``bool``, ``int`` or ``str``."""
        return type(self.default)

    @property
    def values(self) -> tuple[bool | int | str, ...]:
        """Every value the option may take, the default first for a boolean (``False, True``), in the order of
        ``choices`` for a str, ``steps`` (or the whole range) for an int."""
        if self.kind is bool:
            return (False, True)
        if self.kind is str:
            return self.choices
        assert self.bounds is not None
        return self.steps or tuple(range(self.bounds[0], self.bounds[1] + 1))

    @property
    def on(self) -> bool | int | str:
        """The value that turns a house rule fully on (``True``; a choice: the last one, e.g. ``any_draw``)."""
        return True if self.kind is bool else self.values[-1]

    def applies_to(self, mode: Mode | str) -> bool:
        return Mode(mode) in self.games

    def check(self, value: object) -> None:
        """Raise :class:`OptionError` unless ``value`` is one this option takes (a bool is not an int here)."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"{self.name} must be true or false")
        elif self.kind is int:
            assert self.bounds is not None
            low, high = self.bounds
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise OptionError(f"{self.name} must be a whole number from {low} to {high}")
        elif value not in self.choices:
            raise OptionError(f"{self.name} must be one of {', '.join(self.choices)}")


def rule(
    default: T,
    *,
    choices: tuple[str, ...] = (),
    bounds: tuple[int, int] | None = None,
    house: bool = False,
    games: tuple[Mode, ...] = (),
    section: str = "O",
    text: str = "",
    slash: bool = True,
    steps: tuple[int, ...] = (),
) -> T:
    """Declare a field of :class:`Options` as one row of table O (see :class:`RuleOption`; the name is the field's).
    Typed as its default so that ``Options`` keeps its attribute types."""
    row = RuleOption(
        "",
        default,
        choices,
        bounds,
        house,
        frozenset(games) or ALL_GAMES,
        section,
        text,
        slash,
        steps,
    )
    out: T = field(default=default, metadata={"rule": row})
    return out


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one match: SPEC table O, one field per option, each declared by :func:`rule` (its row of
    :data:`RULE_OPTIONS`). Raises :class:`OptionError` on a value outside the table."""

    #: ``target_score``: points that win the match (SPEC G9); 0 = a single round decides.
    target_score: int = rule(
        500,
        bounds=(0, TARGET_SCORE_MAX),
        section="G9",
        text="target",
        slash=False,
        steps=(0, 100, 200, 250, 300, 500, 1000),
    )
    #: ``scoring``: ``"winner"`` (the round winner scores the others' hands) or ``"lowest"`` (SPEC G9 alternative).
    scoring: str = rule("winner", choices=("winner", "lowest"), section="G9")
    #: ``block_illegal_wild_draw``: forbid an illegal wild draw instead of allowing the bluff (SPEC G7).
    block_illegal_wild_draw: bool = rule(False, section="G7", text="block")
    #: ``false_catch_penalty``: cards drawn by a false UNO catcher (SPEC G8).
    false_catch_penalty: int = rule(0, bounds=(0, FALSE_CATCH_PENALTY_MAX), section="G8", text="false_catch")
    #: ``classic_deck``: ``"108"`` or ``"112"`` (SPEC C1).
    classic_deck: str = rule("108", choices=("108", "112"), games=(Mode.CLASSIC,), section="C1")
    #: ``flip_pairing``: ``"physical"`` (Appendix A) or ``"random"`` (SPEC F2).
    flip_pairing: str = rule("physical", choices=("physical", "random"), games=(Mode.FLIP,), section="F2")
    #: ``opening_flip``: ``"redraw"`` or ``"apply"`` (SPEC F4).
    opening_flip: str = rule("redraw", choices=("redraw", "apply"), games=(Mode.FLIP,), section="F4")
    #: ``exposed_wild_chooser``: ``"next"`` or ``"flipper"`` (SPEC F8).
    exposed_wild_chooser: str = rule(
        "next", choices=("next", "flipper"), games=(Mode.FLIP,), section="F8", text="exposed_wild"
    )
    #: ``flip_invert_piles``: turn the piles over on a Flip (SPEC F8).
    flip_invert_piles: bool = rule(True, games=(Mode.FLIP,), section="F8", text="invert")
    #: ``flex_reset_power``: Power Cards back to green each round (SPEC X3).
    flex_reset_power: bool = rule(True, games=(Mode.FLEX,), section="X3", text="reset_power")
    #: ``flex_target_can_challenge``: the target of a flex-side Flex Wild Draw Four may challenge (SPEC X7).
    flex_target_can_challenge: bool = rule(True, games=(Mode.FLEX,), section="X7", text="target_challenge")
    #: ``stacking``: ``"off"``, ``"same_kind"`` or ``"any_draw"`` — a player who must draw from a draw card may pass the
    #: total on with another (SPEC H; which cards stack on which: :data:`bot.engine.rules.STACKS_ON`).
    stacking: str = rule("off", choices=("off", "same_kind", "any_draw"), house=True, section="H1")
    #: ``draw_to_match``: a draw goes on until a playable card arrives (SPEC H).
    draw_to_match: bool = rule(False, house=True, section="H2")
    #: ``force_play``: holding a playable card, drawing (and keeping a playable drawn card) is refused (SPEC H).
    force_play: bool = rule(False, house=True, section="H3")
    #: ``seven_zero`` (classic only): a 7 swaps hands with a chosen player; a 0 passes every hand on (SPEC H).
    seven_zero: bool = rule(False, house=True, games=(Mode.CLASSIC,), section="H4")
    #: ``jump_in``: a card identical to the top may be played out of turn (SPEC H).
    jump_in: bool = rule(False, house=True, section="H5")
    #: ``number_finish``: a player may not go out on an action card or a wild: a last card that is not a number
    #: cannot be played (SPEC H6).
    number_finish: bool = rule(False, house=True, section="H6")
    #: ``stack_deflect``: with ``stacking``, the player a stack is addressed to may send it on with a Reverse (back the
    #: other way) or a Skip (to the next player) instead of stacking or taking it (SPEC H7). Without stacking it
    #: changes nothing (a draw card is drawn at once).
    stack_deflect: bool = rule(False, house=True, section="H7")
    #: ``multi_play``: on their turn a player may play several cards of the same number at once, the first playable as
    #: usual, the last on top (SPEC H8).
    multi_play: bool = rule(False, house=True, section="H8")
    #: ``elimination``: a point limit, 0 = off. Each player takes the points left in their own hand at the end of a
    #: round; a total past the limit puts them out; the last one in wins the match (``target_score`` and ``scoring``
    #: do not apply) (SPEC H9).
    elimination: int = rule(0, bounds=(0, TARGET_SCORE_MAX), house=True, section="H9", steps=(0, 100, 200, 300, 500))
    #: ``teams``: partners (2v2) — teams of two sitting opposite, playing for their team (SPEC T); classic and FLIP,
    #: 4, 6 or 8 players (:mod:`bot.engine.teams`). Not with house rule ``elimination`` (SPEC T6).
    teams: bool = rule(False, games=(Mode.CLASSIC, Mode.FLIP), section="T1")

    def __post_init__(self) -> None:
        for row in RULE_OPTIONS.values():
            row.check(getattr(self, row.name))
        if self.teams and self.elimination:
            raise TeamsElimination("teams and elimination cannot be played together")  # SPEC T6

    def house_rules(self) -> tuple[str, ...]:
        """The house rules in force (SPEC H), in the order of table O."""
        return tuple(name for name in HOUSE_RULES if getattr(self, name) != RULE_OPTIONS[name].default)

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from their defaults (JSON-able)."""
        return {name: value for name, row in RULE_OPTIONS.items() if (value := getattr(self, name)) != row.default}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Inverse of :meth:`to_dict`. Unknown names raise :class:`OptionError`."""
        unknown = set(data) - set(RULE_OPTIONS)
        if unknown:
            raise OptionError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def _table() -> Mapping[str, RuleOption]:
    rows = {}
    for f in fields(Options):
        row: RuleOption = f.metadata["rule"]
        rows[f.name] = RuleOption(
            f.name,
            row.default,
            row.choices,
            row.bounds,
            row.house,
            row.games,
            row.section,
            row.text or f.name,
            row.slash,
            row.steps,
        )
        if (row.kind is str and row.default not in row.choices) or (row.kind is int and row.bounds is None):
            raise TypeError(f"option {f.name}: a str needs choices holding its default, an int bounds")
    return MappingProxyType(rows)


#: SPEC table O: every rule option by name, in the order of :class:`Options`' fields (issue 17 point 1).
RULE_OPTIONS: Mapping[str, RuleOption] = _table()
#: The house rules of SPEC H, in the order of table O.
HOUSE_RULES: tuple[str, ...] = tuple(name for name, row in RULE_OPTIONS.items() if row.house)

#: Presets (issue 18 point 3): several rule options set at once, by name. Each starts from the standard rules (SPEC's
#: defaults; the target score and ``teams`` are kept) and sets its own values; ``chaos`` switches every house rule
#: fully on (a new house rule joins it by itself) but ``elimination`` (a point limit: it changes how the match ends,
#: not how a round is played, SPEC H9). Values of options a game does not have are left out (:func:`preset`).
PRESETS: Mapping[str, Mapping[str, bool | int | str]] = MappingProxyType(
    {
        "official": MappingProxyType({}),
        "party": MappingProxyType({"stacking": "any_draw", "jump_in": True, "seven_zero": True}),
        "chaos": MappingProxyType(
            {name: RULE_OPTIONS[name].on for name in HOUSE_RULES if RULE_OPTIONS[name].kind is not int}
        ),
    }
)


#: Options a preset keeps as they are, like the target score: ``teams`` (SPEC T) says who plays with whom, not a rule.
KEPT_BY_PRESETS: tuple[str, ...] = ("teams",)


def preset(name: str, mode: Mode | str, options: Options) -> Options:
    """``options`` with preset ``name`` applied for a game of ``mode``: every rule option offered by ``/uno new``
    back to its default, then the preset's values for the options the game has; the target score and ``teams`` are
    kept. Raises :class:`OptionError` for an unknown preset."""
    if name not in PRESETS:
        raise OptionError(f"unknown preset {name!r}")
    values: dict[str, Any] = {
        n: getattr(options, n) for n, row in RULE_OPTIONS.items() if not row.slash or n in KEPT_BY_PRESETS
    }
    values.update({n: v for n, v in PRESETS[name].items() if RULE_OPTIONS[n].applies_to(mode)})
    return Options(**values)
