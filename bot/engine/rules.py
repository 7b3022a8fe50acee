"""The rules of each game in one place: a :class:`Ruleset` per mode (in the spirit of python-chess's variants).

A ruleset says what differs between classic UNO, UNO FLIP and UNO Flex!: the seats (SPEC G1), the deck (C1, F1, X1),
the card points (C6, F9, X8), the opening-card rule (C2, F4, X2), which cards make the next player draw and how many
(C3, F5, F6), the wild draw penalties (C5, F7, X7), whether a wild counts as "the colour in play" for the wild draw
restriction (G7, X7), the targeted cards (X5) and the house rules the game allows (H). The game engine reads these
tables instead of asking ``if mode is …``.

It also holds the rule helpers other layers need (so they never re-derive them): :func:`holds_colour` (the G7 guilt
test), :func:`colour_held_most`, :meth:`Ruleset.points_of`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bot import limits

from .cards import CHALLENGEABLE_KINDS, TARGETED_KINDS, Colour, Deck, Face, Kind, Mode, Side, colours_of
from .decks import deck_for
from .options import HOUSE_RULES, RULE_OPTIONS, OptionError, Options


@dataclass(frozen=True, slots=True)
class Penalty:
    """Cards a wild draw makes someone draw: ``count`` cards, or (``count is None``) one at a time until a card of the
    declared colour (SPEC F6), then ``extra`` more (SPEC F7: a wrong challenger of a Wild Draw Color draws 2 more)."""

    count: int | None
    extra: int = 0

    def expected(self, until_colour: float = 4.0) -> float:
        """The expected number of cards: ``count``, or ``until_colour`` (an estimate) + ``extra``."""
        return float(self.count) if self.count is not None else until_colour + self.extra


@dataclass(frozen=True, slots=True)
class WildDraw:
    """A restricted, challengeable wild draw (SPEC G7): what the victim draws on ``accept``, what a wrong challenger
    draws (``innocent``: the card was played legally) and what a guilty player draws instead (``guilty``)."""

    accept: Penalty
    innocent: Penalty
    guilty: Penalty


#: Every game's challengeable wild draws (SPEC C5, F7, X7).
WILD_DRAWS: Mapping[Kind, WildDraw] = MappingProxyType(
    {
        Kind.WILD_DRAW_FOUR: WildDraw(Penalty(4), Penalty(6), Penalty(4)),
        Kind.FLEX_WILD_DRAW_FOUR: WildDraw(Penalty(4), Penalty(6), Penalty(4)),
        Kind.WILD_DRAW_TWO: WildDraw(Penalty(2), Penalty(4), Penalty(2)),
        Kind.WILD_DRAW_COLOUR: WildDraw(Penalty(None), Penalty(None, 2), Penalty(None)),
    }
)
assert set(WILD_DRAWS) == CHALLENGEABLE_KINDS


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules of one game.

    - ``players``: ``(min, max)`` seats (SPEC G1, from :data:`bot.limits.PLAYER_RANGE`).
    - ``points``: points of each non-number kind left in a hand; numbers score their face value (SPEC C6, F9, X8).
    - ``opening_numbers_only``: SPEC X2 — any non-number opening card is ignored and the next one turned; otherwise
      SPEC C2/F4 — ``opening_returned`` kinds go back into the deck, the others take effect.
    - ``draw_cards``: cards that make the next player draw ``n`` and lose their turn (SPEC C3, F5, F6).
    - ``wilds_match``: a wild in hand counts as "the colour in play" for the wild draw restriction (SPEC G7, X7).
    - ``house_rules``: the house rules of SPEC H this game allows (from the option table, :data:`RULE_OPTIONS`).
    - ``two_sided``: cards have a dark face and a Flip turns the game over (SPEC F1, F8); ``opening_flip`` applies.
    - ``power_cards``: each player has a Power Card (SPEC X3); ``targeted``: cards whose flex side names a target.
    """

    mode: Mode
    players: tuple[int, int]
    points: Mapping[Kind, int]
    opening_numbers_only: bool
    opening_returned: frozenset[Kind]
    draw_cards: Mapping[Kind, int]
    wilds_match: bool
    two_sided: bool = False
    power_cards: bool = False
    targeted: frozenset[Kind] = frozenset()
    wild_draws: Mapping[Kind, WildDraw] = field(default_factory=lambda: WILD_DRAWS)

    @property
    def house_rules(self) -> frozenset[str]:
        return frozenset(name for name in HOUSE_RULES if RULE_OPTIONS[name].applies_to(self.mode))

    def points_of(self, face: Face) -> int:
        """Points ``face`` is worth when left in a hand at the end of a round (SPEC C6, F9, X8)."""
        if face.kind is Kind.NUMBER:
            return face.number or 0
        return self.points[face.kind]

    def deck(self, options: Options, pairing: tuple[int, ...] | None = None) -> Deck:
        """This game's deck for ``options`` (SPEC C1, F1, F2, X1)."""
        return deck_for(self.mode, options, pairing)

    def check_options(self, options: Options) -> None:
        """Raise :class:`~bot.engine.options.OptionError` for a house rule this game does not have (SPEC H:
        ``seven_zero`` is classic only)."""
        for name in options.house_rules():
            if name not in self.house_rules:
                raise OptionError(f"{name} is not a rule of {self.mode.value}")

    def holds_colour(self, faces: Iterable[Face], colour: Colour | None, *, green: bool = False) -> bool:
        """See :func:`holds_colour`."""
        if colour is None:
            return False
        for f in faces:
            if f.colour is colour:
                return True
            if self.wilds_match and (f.is_wild or (green and f.flex_colour is colour)):
                return True
        return False


RULESETS: Mapping[Mode, Ruleset] = MappingProxyType(
    {
        Mode.CLASSIC: Ruleset(
            mode=Mode.CLASSIC,
            players=limits.PLAYER_RANGE["classic"],
            points=MappingProxyType(
                {
                    Kind.SKIP: 20,
                    Kind.REVERSE: 20,
                    Kind.DRAW_TWO: 20,
                    Kind.WILD: 50,
                    Kind.WILD_DRAW_FOUR: 50,
                    Kind.WILD_SHUFFLE_HANDS: 40,
                    Kind.WILD_CUSTOMIZABLE: 40,
                }
            ),
            opening_numbers_only=False,
            opening_returned=frozenset({Kind.WILD_DRAW_FOUR}),
            draw_cards=MappingProxyType({Kind.DRAW_TWO: 2}),
            wilds_match=False,
        ),
        Mode.FLIP: Ruleset(
            mode=Mode.FLIP,
            players=limits.PLAYER_RANGE["flip"],
            points=MappingProxyType(
                {
                    Kind.DRAW_ONE: 10,
                    Kind.DRAW_FIVE: 20,
                    Kind.REVERSE: 20,
                    Kind.SKIP: 20,
                    Kind.FLIP: 20,
                    Kind.SKIP_EVERYONE: 30,
                    Kind.WILD: 40,
                    Kind.WILD_DRAW_TWO: 50,
                    Kind.WILD_DRAW_COLOUR: 60,
                }
            ),
            opening_numbers_only=False,
            # the Flip is returned too unless opening_flip = "apply" (SPEC F4): the engine checks that option
            opening_returned=frozenset({Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOUR}),
            draw_cards=MappingProxyType({Kind.DRAW_ONE: 1, Kind.DRAW_FIVE: 5}),
            wilds_match=False,
            two_sided=True,
        ),
        Mode.FLEX: Ruleset(
            mode=Mode.FLEX,
            players=limits.PLAYER_RANGE["flex"],
            points=MappingProxyType(
                {
                    Kind.SKIP: 20,
                    Kind.REVERSE: 20,
                    Kind.DRAW_TWO: 20,
                    Kind.FLEX_DRAW_TWO: 20,
                    Kind.FLEX_SKIP: 20,
                    Kind.FLEX_REVERSE: 20,
                    Kind.WILD_ALL_FLIP: 50,
                    Kind.FLEX_WILD_DRAW_FOUR: 50,
                    Kind.FLEX_WILD_TARGET_DRAW_TWO: 50,
                    Kind.FLEX_WILD_ALL_DRAW: 50,
                }
            ),
            opening_numbers_only=True,
            opening_returned=frozenset(),
            draw_cards=MappingProxyType({Kind.DRAW_TWO: 2, Kind.FLEX_DRAW_TWO: 2}),
            wilds_match=True,
            power_cards=True,
            targeted=TARGETED_KINDS,
        ),
    }
)


#: House rule ``stacking`` (SPEC H): the cards that start or join a stack — regular sides only — and the cards each
#: adds to the total. Wild Draw Color (no count: "until the colour"), and every Flex flex side (Flex Draw Two's
#: "everyone draws 1", Targeted Draw Two, All Draw, the flex side of Flex Wild Draw Four: nobody loses a turn to
#: them) neither start nor join a stack: they are carried out at once, as without the rule.
STACK_DRAWS: Mapping[Kind, int] = MappingProxyType(
    {
        Kind.DRAW_TWO: 2,
        Kind.FLEX_DRAW_TWO: 2,
        Kind.WILD_DRAW_FOUR: 4,
        Kind.FLEX_WILD_DRAW_FOUR: 4,
        Kind.DRAW_ONE: 1,
        Kind.DRAW_FIVE: 5,
        Kind.WILD_DRAW_TWO: 2,
    }
)
#: ``same_kind``: a card stacks on the cards of its own family (the same printed symbol: a Flex Draw Two's regular
#: side is a Draw Two, a Flex Wild Draw Four's regular side a Wild Draw Four).
_SAME_SYMBOL = {Kind.FLEX_DRAW_TWO: Kind.DRAW_TWO, Kind.FLEX_WILD_DRAW_FOUR: Kind.WILD_DRAW_FOUR}
STACK_FAMILY: Mapping[Kind, Kind] = MappingProxyType({k: _SAME_SYMBOL.get(k, k) for k in STACK_DRAWS})


#: House rule ``stack_deflect`` (SPEC H7): the cards that send a pending stack on — regular sides only. A Reverse (or
#: the regular side of a Flex Reverse) sends it back the other way, a Skip (or a Flex Skip's regular side) to the next
#: player. Skip Everyone (every other player is skipped: it would come back to its player) does not deflect.
DEFLECTS: frozenset[Kind] = frozenset({Kind.REVERSE, Kind.FLEX_REVERSE, Kind.SKIP, Kind.FLEX_SKIP})
#: Of :data:`DEFLECTS`, the cards that turn the direction of play (SPEC C3) as they deflect.
DEFLECTS_BACK: frozenset[Kind] = frozenset({Kind.REVERSE, Kind.FLEX_REVERSE})


def stacks_on(setting: str, card: Kind, top: Kind) -> bool:
    """House rule ``stacking`` (SPEC H): may a card of kind ``card`` (regular side) be stacked on a pending stack
    whose top card is of kind ``top``? ``"off"``: never; ``"same_kind"``: the same family (:data:`STACK_FAMILY`);
    ``"any_draw"``: any stacking card of the game on any (:data:`STACK_DRAWS`). A stacking card needs no matching
    colour: it answers a draw with a draw (a wild one still declares its colour)."""
    if setting == "off" or card not in STACK_DRAWS or top not in STACK_DRAWS:
        return False
    return setting == "any_draw" or STACK_FAMILY[card] is STACK_FAMILY[top]


#: For README: which cards stack on which under each setting, per game (SPEC H).
STACKS_ON: Mapping[Mode, tuple[Kind, ...]] = MappingProxyType(
    {
        Mode.CLASSIC: (Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR),
        Mode.FLIP: (Kind.DRAW_ONE, Kind.WILD_DRAW_TWO, Kind.DRAW_FIVE),
        Mode.FLEX: (Kind.DRAW_TWO, Kind.FLEX_DRAW_TWO, Kind.FLEX_WILD_DRAW_FOUR),
    }
)


def ruleset(mode: Mode | str) -> Ruleset:
    """The ruleset of ``mode``. Raises ``ValueError`` for an unknown mode."""
    return RULESETS[Mode(mode)]


def holds_colour(mode: Mode | str, faces: Iterable[Face], colour: Colour | None, *, green: bool = False) -> bool:
    """SPEC G7, X7: do ``faces`` (a hand, without the wild draw being judged) hold a card of the colour in play?

    Classic and FLIP count coloured cards only; Flex counts wilds too, and a flex number by its flex colour while its
    owner's Power Card is ``green``. ``colour is None`` (nothing declared yet) holds nothing. This is the engine's own
    test: a wild draw is *guilty* exactly when it is true."""
    return RULESETS[Mode(mode)].holds_colour(faces, colour, green=green)


def colour_held_most(faces: Iterable[Face], side: Side) -> Colour:
    """The colour of ``side`` that ``faces`` hold most (by regular colour; ties: the first colour of the side)."""
    counts = Counter(f.colour for f in faces if f.colour is not None)
    return max(colours_of(side), key=lambda c: counts.get(c, 0))


__all__ = [
    "DEFLECTS",
    "DEFLECTS_BACK",
    "RULESETS",
    "STACKS_ON",
    "STACK_DRAWS",
    "STACK_FAMILY",
    "WILD_DRAWS",
    "Penalty",
    "Ruleset",
    "WildDraw",
    "colour_held_most",
    "holds_colour",
    "ruleset",
    "stacks_on",
]
