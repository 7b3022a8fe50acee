"""Cards, faces and decks of classic UNO, UNO FLIP and UNO Flex!, and their text notation.

A *face* is what is printed on one side of a card (colour, kind, number; for Flex the flex colour and the flip icon).
A *card* is a physical card: an integer id (its index in the deck) and one face per side (FLIP cards have a light and a
dark face; the others only a light one). Piles and hands hold card ids, never faces, so a card is never mutated and a
wild's declared colour lives in the game state (SPEC G5).

Text notation (round-trips: ``parse_face(format_face(f)) == f``):

=====================  =========================================================
``R5`` ``Y9`` ``P3``   number: colour letter + number
``R5*``                Flex number with the flip icon (SPEC X1, X3)
``R5/B``               Flex flex number: regular colour / flex colour (SPEC X4)
``GS`` ``GR``          Skip, Reverse
``B+2`` ``B+1``        Draw Two, Draw One (FLIP light)
``T+5`` ``TSE``        Draw Five, Skip Everyone (FLIP dark)
``OF``                 Flip (FLIP)
``RX+2`` ``RXS``       Flex Draw Two, Flex Skip, Flex Reverse (``RXR``)
``W`` ``W+4``          Wild, Wild Draw Four
``WSH`` ``WC``         Wild Shuffle Hands, Wild Customizable (classic 112 edition)
``W+2`` ``W+C``        Wild Draw Two, Wild Draw Color (FLIP)
``WAF``                Wild All Flip (Flex)
``XW+4`` ``XWT+2``     Flex Wild Draw Four, Flex Wild Target Draw Two
``XWA+2``              Flex Wild All Draw
``R5|O1``              a FLIP card: light face | dark face
=====================  =========================================================

Colour letters: R red, Y yellow, G green, B blue (classic, FLIP light side, Flex); P pink, T teal, O orange, U purple
(FLIP dark side).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .frozen import picklable


class Mode(StrEnum):
    """The three games (SPEC G, C, F, X)."""

    CLASSIC = "classic"
    FLIP = "flip"
    FLEX = "flex"


class Side(StrEnum):
    """The side in play (SPEC F1). Classic and Flex are always on the light side."""

    LIGHT = "light"
    DARK = "dark"

    @property
    def other(self) -> Side:
        return Side.DARK if self is Side.LIGHT else Side.LIGHT


class Colour(StrEnum):
    """Card colours: four of the light side (classic, Flex, FLIP light) and four of the FLIP dark side."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PINK = "pink"
    TEAL = "teal"
    ORANGE = "orange"
    PURPLE = "purple"

    @property
    def letter(self) -> str:
        return _COLOUR_LETTER[self]


LIGHT_COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
DARK_COLOURS: tuple[Colour, ...] = (Colour.PINK, Colour.TEAL, Colour.ORANGE, Colour.PURPLE)
_COLOUR_LETTER = {
    Colour.RED: "R",
    Colour.YELLOW: "Y",
    Colour.GREEN: "G",
    Colour.BLUE: "B",
    Colour.PINK: "P",
    Colour.TEAL: "T",
    Colour.ORANGE: "O",
    Colour.PURPLE: "U",
}
_LETTER_COLOUR = {v: k for k, v in _COLOUR_LETTER.items()}


def colours_of(side: Side) -> tuple[Colour, ...]:
    """The four colours a wild may declare on ``side`` (SPEC F5, F6)."""
    return LIGHT_COLOURS if side is Side.LIGHT else DARK_COLOURS


class Kind(StrEnum):
    """What a face does. Matching "by symbol" means the same :attr:`Face.symbol` (SPEC G3)."""

    NUMBER = "number"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW_TWO = "draw_two"
    WILD = "wild"
    WILD_DRAW_FOUR = "wild_draw_four"
    WILD_SHUFFLE_HANDS = "wild_shuffle_hands"
    WILD_CUSTOMIZABLE = "wild_customizable"
    DRAW_ONE = "draw_one"
    FLIP = "flip"
    WILD_DRAW_TWO = "wild_draw_two"
    DRAW_FIVE = "draw_five"
    SKIP_EVERYONE = "skip_everyone"
    WILD_DRAW_COLOUR = "wild_draw_colour"
    FLEX_DRAW_TWO = "flex_draw_two"
    FLEX_SKIP = "flex_skip"
    FLEX_REVERSE = "flex_reverse"
    WILD_ALL_FLIP = "wild_all_flip"
    FLEX_WILD_DRAW_FOUR = "flex_wild_draw_four"
    FLEX_WILD_TARGET_DRAW_TWO = "flex_wild_target_draw_two"
    FLEX_WILD_ALL_DRAW = "flex_wild_all_draw"


WILD_KINDS = frozenset(
    {
        Kind.WILD,
        Kind.WILD_DRAW_FOUR,
        Kind.WILD_SHUFFLE_HANDS,
        Kind.WILD_CUSTOMIZABLE,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_COLOUR,
        Kind.WILD_ALL_FLIP,
        Kind.FLEX_WILD_DRAW_FOUR,
        Kind.FLEX_WILD_TARGET_DRAW_TWO,
        Kind.FLEX_WILD_ALL_DRAW,
    }
)
#: Wild draw cards that are restricted and challengeable when played on their regular side (SPEC G7).
CHALLENGEABLE_KINDS = frozenset(
    {Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOUR, Kind.FLEX_WILD_DRAW_FOUR}
)
#: Cards whose flex side names another player, the target (SPEC X5).
TARGETED_KINDS = frozenset({Kind.FLEX_WILD_TARGET_DRAW_TWO, Kind.FLEX_WILD_DRAW_FOUR})
#: Cards whose flex side exists (SPEC X4, X5); flex numbers are numbers with a flex colour.
FLEX_SIDE_KINDS = frozenset(
    {
        Kind.FLEX_DRAW_TWO,
        Kind.FLEX_SKIP,
        Kind.FLEX_REVERSE,
        Kind.FLEX_WILD_TARGET_DRAW_TWO,
        Kind.FLEX_WILD_ALL_DRAW,
        Kind.FLEX_WILD_DRAW_FOUR,
    }
)
#: The printed symbol a face matches on (SPEC G3): a Flex action card's regular side shows its classic symbol.
_SYMBOL = {
    Kind.FLEX_DRAW_TWO: Kind.DRAW_TWO,
    Kind.FLEX_SKIP: Kind.SKIP,
    Kind.FLEX_REVERSE: Kind.REVERSE,
}

_KIND_CODE = {
    Kind.SKIP: "S",
    Kind.REVERSE: "R",
    Kind.DRAW_TWO: "+2",
    Kind.DRAW_ONE: "+1",
    Kind.FLIP: "F",
    Kind.DRAW_FIVE: "+5",
    Kind.SKIP_EVERYONE: "SE",
    Kind.FLEX_DRAW_TWO: "X+2",
    Kind.FLEX_SKIP: "XS",
    Kind.FLEX_REVERSE: "XR",
}
_WILD_CODE = {
    Kind.WILD: "W",
    Kind.WILD_DRAW_FOUR: "W+4",
    Kind.WILD_SHUFFLE_HANDS: "WSH",
    Kind.WILD_CUSTOMIZABLE: "WC",
    Kind.WILD_DRAW_TWO: "W+2",
    Kind.WILD_DRAW_COLOUR: "W+C",
    Kind.WILD_ALL_FLIP: "WAF",
    Kind.FLEX_WILD_DRAW_FOUR: "XW+4",
    Kind.FLEX_WILD_TARGET_DRAW_TWO: "XWT+2",
    Kind.FLEX_WILD_ALL_DRAW: "XWA+2",
}
_CODE_KIND = {v: k for k, v in _KIND_CODE.items()}
_CODE_WILD = {v: k for k, v in _WILD_CODE.items()}


class NotationError(ValueError):
    """A card text that is not valid notation (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Face:
    """One printed side of a card.

    ``colour`` is None exactly for wilds; ``number`` is set exactly for numbers (1–9, 0 in classic);
    ``flex_colour`` is set for Flex flex numbers (SPEC X1) and ``flip_icon`` for Flex numbers with the flip icon
    (SPEC X3).
    """

    kind: Kind
    colour: Colour | None = None
    number: int | None = None
    flex_colour: Colour | None = None
    flip_icon: bool = False

    @property
    def is_wild(self) -> bool:
        return self.kind in WILD_KINDS

    @property
    def symbol(self) -> Kind:
        """The symbol matched by "symbol" (SPEC G3): the kind, with Flex action cards showing their classic symbol."""
        return _SYMBOL.get(self.kind, self.kind)

    @property
    def has_flex_side(self) -> bool:
        """True for cards with a flex side: flex numbers and the six Flex action/wild cards (SPEC X4, X5)."""
        return self.flex_colour is not None or self.kind in FLEX_SIDE_KINDS

    def __str__(self) -> str:
        return format_face(self)


@dataclass(frozen=True, slots=True)
class Card:
    """A physical card: ``id`` (index in its deck), its light face and, for UNO FLIP, its dark face (SPEC F1, F2)."""

    id: int
    light: Face
    dark: Face | None = None

    def face(self, side: Side) -> Face:
        """The face showing on ``side``. Raises ``ValueError`` for the dark side of a single-sided card."""
        if side is Side.LIGHT:
            return self.light
        if self.dark is None:
            raise ValueError(f"card {self.id} has no dark face")
        return self.dark

    def __str__(self) -> str:
        return format_card(self)


#: House rule ``seven_zero`` (SPEC H): the number that swaps hands with a chosen player, and the one that passes every
#: hand on.
SWAP_NUMBER = 7
PASS_NUMBER = 0


def swaps_hands(face: Face) -> bool:
    """Under house rule ``seven_zero`` (SPEC H), does playing ``face`` swap hands with a player to be named (a 7)?
    The one test the engine's legal plays, its effects and the hand's target picker share."""
    return face.kind is Kind.NUMBER and face.number == SWAP_NUMBER


def passes_hands(face: Face) -> bool:
    """Under house rule ``seven_zero`` (SPEC H), does playing ``face`` pass every hand one seat on (a 0)?"""
    return face.kind is Kind.NUMBER and face.number == PASS_NUMBER


_COLOUR_ORDER = {c: i for i, c in enumerate(LIGHT_COLOURS + DARK_COLOURS)}
_KIND_ORDER = {k: i for i, k in enumerate(Kind)}


def hand_sort_key(face: Face) -> tuple[int, int, int, int]:
    """The order a hand is shown in (images and text alike): by colour (red, yellow, green, blue; pink, teal, orange,
    purple), wilds last; within a colour numbers by value, then action cards in :class:`Kind` order; Flex numbers
    with the flip icon or a flex colour after the plain one. Pass the face on the side in play (UNO FLIP)."""
    colour = _COLOUR_ORDER[face.colour] if face.colour is not None else len(_COLOUR_ORDER)
    value = face.number if face.number is not None else 10 + _KIND_ORDER[face.kind]
    flex = _COLOUR_ORDER[face.flex_colour] + 1 if face.flex_colour is not None else 0
    return colour, value, flex, int(face.flip_icon)


# --------------------------------------------------------------------------------------------------------------------
# Notation

_NUMBER_RE = re.compile(r"^([RYGBPTOU])(\d)(\*|/([RYGB]))?$")
_ACTION_RE = re.compile(r"^([RYGBPTOU])(X\+2|XS|XR|SE|S|R|\+2|\+1|\+5|F)$")


def format_face(face: Face) -> str:
    """The notation of ``face`` (module docstring), e.g. ``"R5"``, ``"W+4"``, ``"R3/B"``."""
    if face.colour is None:
        return _WILD_CODE[face.kind]
    letter = _COLOUR_LETTER[face.colour]
    if face.kind is Kind.NUMBER:
        text = f"{letter}{face.number}"
        if face.flex_colour is not None:
            return f"{text}/{_COLOUR_LETTER[face.flex_colour]}"
        return text + "*" if face.flip_icon else text
    return letter + _KIND_CODE[face.kind]


def parse_face(text: str) -> Face:
    """Parse one face in notation (module docstring). Raises :class:`NotationError` on anything else."""
    t = text.strip().upper()
    if t in _CODE_WILD:
        return Face(_CODE_WILD[t])
    m = _NUMBER_RE.match(t)
    if m:
        flex = _LETTER_COLOUR[m.group(4)] if m.group(4) else None
        return Face(
            Kind.NUMBER,
            _LETTER_COLOUR[m.group(1)],
            int(m.group(2)),
            flex_colour=flex,
            flip_icon=m.group(3) == "*",
        )
    m = _ACTION_RE.match(t)
    if m:
        return Face(_CODE_KIND[m.group(2)], _LETTER_COLOUR[m.group(1)])
    raise NotationError(f"not a card: {text!r}")


def format_card(card: Card) -> str:
    """A physical card: its light face, or ``"light|dark"`` for a FLIP card."""
    if card.dark is None:
        return format_face(card.light)
    return f"{format_face(card.light)}|{format_face(card.dark)}"


def parse_faces(text: str) -> list[Face]:
    """Parse a whitespace- or comma-separated list of faces, e.g. ``"R5 G3, W+4"``."""
    return [parse_face(t) for t in re.split(r"[\s,]+", text.strip()) if t]


# --------------------------------------------------------------------------------------------------------------------
# Decks


def _coloured(kind: Kind, colour: Colour, copies: int) -> list[Face]:
    return [Face(kind, colour)] * copies


def classic_faces(edition: str = "108") -> list[Face]:
    """The classic deck (SPEC C1): 108 faces, or the 112 edition with Wild Shuffle Hands and 3 Wild Customizable."""
    faces: list[Face] = []
    for c in LIGHT_COLOURS:
        faces.append(Face(Kind.NUMBER, c, 0))
        for n in range(1, 10):
            faces += [Face(Kind.NUMBER, c, n)] * 2
        for k in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            faces += _coloured(k, c, 2)
    faces += [Face(Kind.WILD)] * 4 + [Face(Kind.WILD_DRAW_FOUR)] * 4
    if edition == "112":
        faces += [Face(Kind.WILD_SHUFFLE_HANDS)] + [Face(Kind.WILD_CUSTOMIZABLE)] * 3
    elif edition != "108":
        raise ValueError(f"classic_deck must be '108' or '112', not {edition!r}")
    return faces


def flip_light_faces() -> list[Face]:
    """The 112 light faces of UNO FLIP (SPEC F1)."""
    faces: list[Face] = []
    for c in LIGHT_COLOURS:
        for n in range(1, 10):
            faces += [Face(Kind.NUMBER, c, n)] * 2
        for k in (Kind.DRAW_ONE, Kind.REVERSE, Kind.SKIP, Kind.FLIP):
            faces += _coloured(k, c, 2)
    return faces + [Face(Kind.WILD)] * 4 + [Face(Kind.WILD_DRAW_TWO)] * 4


def flip_dark_faces() -> list[Face]:
    """The 112 dark faces of UNO FLIP (SPEC F1)."""
    faces: list[Face] = []
    for c in DARK_COLOURS:
        for n in range(1, 10):
            faces += [Face(Kind.NUMBER, c, n)] * 2
        for k in (Kind.DRAW_FIVE, Kind.REVERSE, Kind.SKIP_EVERYONE, Kind.FLIP):
            faces += _coloured(k, c, 2)
    return faces + [Face(Kind.WILD)] * 4 + [Face(Kind.WILD_DRAW_COLOUR)] * 4


#: Flex colour of flex numbers by regular colour and number band 1–3, 4–6, 7–8 (SPEC X1).
FLEX_COLOUR_TABLE: dict[Colour, tuple[Colour, Colour, Colour]] = {
    Colour.YELLOW: (Colour.GREEN, Colour.BLUE, Colour.RED),
    Colour.RED: (Colour.BLUE, Colour.GREEN, Colour.YELLOW),
    Colour.BLUE: (Colour.RED, Colour.YELLOW, Colour.GREEN),
    Colour.GREEN: (Colour.YELLOW, Colour.RED, Colour.BLUE),
}


def flex_colour_of(colour: Colour, number: int) -> Colour:
    """The flex colour of the flex number ``colour number`` (SPEC X1 table)."""
    band = 0 if number <= 3 else 1 if number <= 6 else 2
    return FLEX_COLOUR_TABLE[colour][band]


def has_flip_icon(colour: Colour, number: int) -> bool:
    """Whether Flex's classic number ``colour number`` carries the flip icon (SPEC X1)."""
    if colour in (Colour.YELLOW, Colour.BLUE):
        return number % 2 == 1
    return number % 2 == 0


def flex_faces() -> list[Face]:
    """The 104 playing cards of UNO Flex! (SPEC X1); the 8 Power Cards are game state, not cards."""
    faces: list[Face] = []
    for c in LIGHT_COLOURS:
        for n in range(1, 9):
            faces.append(Face(Kind.NUMBER, c, n, flip_icon=has_flip_icon(c, n)))
        for k in (Kind.DRAW_TWO, Kind.SKIP, Kind.REVERSE):
            faces.append(Face(k, c))
        for n in range(1, 9):
            faces.append(Face(Kind.NUMBER, c, n, flex_colour=flex_colour_of(c, n)))
        for k in (Kind.FLEX_DRAW_TWO, Kind.FLEX_SKIP, Kind.FLEX_REVERSE):
            faces.append(Face(k, c))
    for k in (
        Kind.WILD_ALL_FLIP,
        Kind.FLEX_WILD_DRAW_FOUR,
        Kind.FLEX_WILD_TARGET_DRAW_TWO,
        Kind.FLEX_WILD_ALL_DRAW,
    ):
        faces += [Face(k)] * 4
    return faces


# Appendix A of SPEC: light face → its dark backs, transcribed from a physical deck (SPEC F2).
_APPENDIX_A = """
W+2: O4 O7 P2 U9
W: P5 PF U7 T3
B1: USE USE
B2: O8 P6
B3: U8 T2
B4: U1 T+5
B5: OR P9
B6: UR TSE
B7: O3 OSE
B8: T4 TR
B9: O5 UF
B+1: P6 T6
BF: U6 U7
BR: O4 W
BS: P9 T1
G1: O5 OF
G2: T+5 TSE
G3: PF U2
G4: P8 T9
G5: O7 T4
G6: P5 W+C
G7: O6 T2
G8: PR T9
G9: O+5 PR
G+1: O6 T6
GF: T3 W+C
GR: O1 P7
GS: O9 U4
R1: P3 U2
R2: OR U+5
R3: P7 W+C
R4: OF U+5
R5: P2 T5
R6: O9 PSE
R7: O1 U5
R8: UR T7
R9: U5 TR
R+1: P3 P4
RF: P8 U3
RR: U3 T7
RS: O+5 W
Y1: PSE W
Y2: T1 T8
Y3: P+5 U1
Y4: P+5 UF
Y5: U9 T8
Y6: OSE W+C
Y7: O2 U6
Y8: O2 P1
Y9: U4 T5
Y+1: P1 U8
YF: O8 P4
YR: TF W
YS: O3 TF
"""


class DeckError(ValueError):
    """A deck definition that breaks the composition rules (SPEC C1, F1, F2, X1)."""


def physical_flip_pairs() -> list[tuple[Face, Face]]:
    """The (light, dark) faces of the 112 FLIP cards as printed (SPEC F2, Appendix A), checked against SPEC F1.

    Raises :class:`DeckError` if the table does not give every light and dark face of F1 exactly as often as F1 says,
    or pairs a wild with a wild.
    """
    pairs: list[tuple[Face, Face]] = []
    for line in _APPENDIX_A.strip().splitlines():
        light_text, backs = line.split(":")
        light = parse_face(light_text)
        pairs += [(light, parse_face(b)) for b in backs.split()]
    check_flip_pairs(pairs)
    return pairs


def check_flip_pairs(pairs: Sequence[tuple[Face, Face]]) -> None:
    """Check a FLIP pairing: the light faces are F1's light side, the dark faces F1's dark side, no wild on both sides.

    Raises :class:`DeckError` naming the first difference (SPEC F1, F2, Appendix A "check when loading").
    """
    for label, got, want in (
        ("light", Counter(p[0] for p in pairs), Counter(flip_light_faces())),
        ("dark", Counter(p[1] for p in pairs), Counter(flip_dark_faces())),
    ):
        if got != want:
            extra = sorted(format_face(f) for f in (got - want).elements())
            missing = sorted(format_face(f) for f in (want - got).elements())
            raise DeckError(f"FLIP {label} faces differ from SPEC F1: extra {extra}, missing {missing}")
    for light, dark in pairs:
        if light.is_wild and dark.is_wild:
            raise DeckError(f"FLIP card {format_face(light)}|{format_face(dark)} is wild on both sides (SPEC F2)")


class Deck:
    """The cards of one match, indexed by id (``deck.cards[i].id == i``). Immutable."""

    __slots__ = ("_faces", "cache", "cards", "mode")

    def __init__(self, mode: Mode, cards: tuple[Card, ...]) -> None:
        self.mode = mode
        self.cards = cards
        #: Derived data other modules keep with the deck (e.g. the engine's matching tables).
        self.cache: dict[object, object] = {}
        self._faces = {Side.LIGHT: tuple(c.light for c in cards)}
        if all(c.dark is not None for c in cards):
            self._faces[Side.DARK] = tuple(c.face(Side.DARK) for c in cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, card_id: int) -> Card:
        return self.cards[card_id]

    def faces(self, side: Side) -> tuple[Face, ...]:
        """The face of every card on ``side``, indexed by card id. ``KeyError`` for the dark side of a
        single-sided deck."""
        return self._faces[side]


def build_deck(
    mode: Mode, *, classic_edition: str = "108", flip_pairs: Iterable[tuple[Face, Face]] | None = None
) -> Deck:
    """The deck of ``mode``: classic 108/112 (SPEC C1), FLIP 112 double-faced (SPEC F1, F2; ``flip_pairs`` defaults to
    Appendix A), Flex 104 playing cards (SPEC X1). Raises :class:`DeckError` for a bad FLIP pairing."""
    if mode is Mode.CLASSIC:
        return Deck(mode, tuple(Card(i, f) for i, f in enumerate(classic_faces(classic_edition))))
    if mode is Mode.FLEX:
        return Deck(mode, tuple(Card(i, f) for i, f in enumerate(flex_faces())))
    pairs = list(flip_pairs) if flip_pairs is not None else physical_flip_pairs()
    check_flip_pairs(pairs)
    return Deck(mode, tuple(Card(i, light, dark) for i, (light, dark) in enumerate(pairs)))


picklable(Face, Card)  # copy and pickle work on the compiled engine too (bot.engine.frozen)
