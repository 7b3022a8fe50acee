"""Match options: SPEC table O. Every RULING of SPEC is an option here with SPEC's default.

The house rules of SPEC H are all off by default. ``seven_zero`` is for classic UNO only: a game of another mode
refuses it (:meth:`bot.engine.rules.Ruleset.check_options`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from bot.limits import FALSE_CATCH_PENALTY_MAX, TARGET_SCORE_MAX


class OptionError(ValueError):
    """An option value outside SPEC table O."""

    code = "bad_option"


_CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": ("winner", "lowest"),
    "classic_deck": ("108", "112"),
    "flip_pairing": ("physical", "random"),
    "opening_flip": ("redraw", "apply"),
    "exposed_wild_chooser": ("next", "flipper"),
    "stacking": ("off", "same_kind", "any_draw"),
}
#: The house rules of SPEC H, in the order of table O.
HOUSE_RULES = ("stacking", "draw_to_match", "force_play", "seven_zero", "jump_in")


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one match (SPEC O). Raises :class:`OptionError` on a value outside the table.

    - ``target_score``: points that win the match (SPEC G9); 0 = a single round decides.
    - ``scoring``: ``"winner"`` (the round winner scores the others' hands) or ``"lowest"`` (SPEC G9 alternative).
    - ``block_illegal_wild_draw``: forbid an illegal wild draw instead of allowing the bluff (SPEC G7).
    - ``false_catch_penalty``: cards drawn by a false UNO catcher (SPEC G8).
    - ``classic_deck``: ``"108"`` or ``"112"`` (SPEC C1).
    - ``flip_pairing``: ``"physical"`` (Appendix A) or ``"random"`` (SPEC F2).
    - ``opening_flip``: ``"redraw"`` or ``"apply"`` (SPEC F4).
    - ``exposed_wild_chooser``: ``"next"`` or ``"flipper"`` (SPEC F8).
    - ``flip_invert_piles``: turn the piles over on a Flip (SPEC F8).
    - ``flex_reset_power``: Power Cards back to green each round (SPEC X3).
    - ``flex_target_can_challenge``: the target of a flex-side Flex Wild Draw Four may challenge (SPEC X7).
    - ``stacking``: ``"off"``, ``"same_kind"`` or ``"any_draw"`` — a player who must draw from a draw card may pass
      the total on with another (SPEC H; which cards stack on which: :data:`bot.engine.rules.STACKS_ON`).
    - ``draw_to_match``: a draw goes on until a playable card arrives (SPEC H).
    - ``force_play``: holding a playable card, drawing (and keeping a playable drawn card) is refused (SPEC H).
    - ``seven_zero`` (classic only): a 7 swaps hands with a chosen player; a 0 passes every hand on (SPEC H).
    - ``jump_in``: a card identical to the top may be played out of turn (SPEC H).
    """

    target_score: int = 500
    scoring: str = "winner"
    block_illegal_wild_draw: bool = False
    false_catch_penalty: int = 0
    classic_deck: str = "108"
    flip_pairing: str = "physical"
    opening_flip: str = "redraw"
    exposed_wild_chooser: str = "next"
    flip_invert_piles: bool = True
    flex_reset_power: bool = True
    flex_target_can_challenge: bool = True
    stacking: str = "off"
    draw_to_match: bool = False
    force_play: bool = False
    seven_zero: bool = False
    jump_in: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise OptionError(f"{f.name} must be true or false")
        if not isinstance(self.target_score, int) or isinstance(self.target_score, bool) or self.target_score < 0:
            raise OptionError("target_score must be a whole number >= 0")
        if self.target_score > TARGET_SCORE_MAX:
            raise OptionError(f"target_score must be at most {TARGET_SCORE_MAX}")
        penalty = self.false_catch_penalty
        if not isinstance(penalty, int) or isinstance(penalty, bool) or not 0 <= penalty <= FALSE_CATCH_PENALTY_MAX:
            raise OptionError(f"false_catch_penalty must be a whole number from 0 to {FALSE_CATCH_PENALTY_MAX}")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise OptionError(f"{name} must be one of {', '.join(allowed)}")

    def house_rules(self) -> tuple[str, ...]:
        """The house rules in force (SPEC H), in the order of table O."""
        return tuple(name for name in HOUSE_RULES if getattr(self, name) not in (False, "off"))

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from their defaults (JSON-able)."""
        return {name: value for name, default in _DEFAULTS.items() if (value := getattr(self, name)) != default}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Inverse of :meth:`to_dict`. Unknown names raise :class:`OptionError`."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise OptionError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**data)


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Options)}
