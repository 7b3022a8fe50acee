"""Card colours as RGB, their colour-blind marks and their emoji (text-only mode).

Colour-blind marks (shown on every coloured card beside its colour, and usable in text):

=========  ========  ====================
colour     marks     emoji
=========  ========  ====================
yellow     ▲         🟨 yellow square
green      ▲▲        🟩 green square
blue       ▲▲▲       🟦 blue square
red        ▲▲▲▲      🟥 red square
pink       ●         🩷 pink heart
teal       ●●        🩵 light blue heart
orange     ●●●       🧡 orange heart
purple     ●●●●      💜 purple heart
=========  ========  ====================

The light colours follow UNO Flex!'s own convention (1–4 triangles for yellow, green, blue, red) in every game; the
FLIP dark colours get 1–4 *circles*, so a mark's shape alone already tells the side.

Emoji: Unicode has no pink or teal square, so the dark colours use hearts (🩷 and 🩵 are Unicode 15, 2022, and are in
the Twemoji set Discord draws; 🧡 and 💜 are much older). Squares for the light side and hearts for the dark side also
make the side readable at a glance.
"""

from __future__ import annotations

from enum import StrEnum

from bot.engine.cards import Colour

RGB = tuple[int, int, int]

#: The printed colour of each card colour (original palette, chosen for contrast with white and black borders).
COLOUR_RGB: dict[Colour, RGB] = {
    Colour.RED: (218, 41, 46),
    Colour.YELLOW: (247, 196, 26),
    Colour.GREEN: (33, 158, 80),
    Colour.BLUE: (28, 104, 214),
    Colour.PINK: (232, 70, 156),
    Colour.TEAL: (0, 164, 160),
    Colour.ORANGE: (245, 124, 24),
    Colour.PURPLE: (124, 62, 200),
}

#: Near-black used for outlines and symbols.
INK: RGB = (22, 22, 26)
#: Off-white used for light borders and the light-side centre disc.
PAPER: RGB = (251, 250, 246)
#: Border of dark-side faces (SPEC F1: black).
DARK_BORDER: RGB = (12, 12, 14)
#: Field of wild cards.
WILD_FIELD: RGB = (30, 30, 36)
#: Thin outer edge of light- and dark-bordered cards, and the rim round a dark card's field.
LIGHT_EDGE: RGB = (150, 150, 156)
DARK_EDGE: RGB = (92, 92, 100)
DARK_RIM: RGB = (78, 78, 88)
#: Card back.
BACK_FIELD: RGB = (38, 34, 86)
BACK_STRIPE: RGB = (47, 42, 104)
BACK_DISC: RGB = (26, 23, 62)
#: Power Card: green = active, red = inactive (SPEC X3).
POWER_ON: RGB = (38, 170, 80)
POWER_OFF: RGB = (212, 44, 44)
#: Hand image background, highlight of playable cards, index labels.
HAND_BACKGROUND: RGB = (35, 37, 42)
HIGHLIGHT: RGB = (255, 206, 58)
LABEL_BG: RGB = (62, 65, 73)
LABEL_FG: RGB = (222, 224, 230)
LABEL_DARK_FG: RGB = (30, 30, 34)
#: Table: felt, seat rows, the seat whose turn it is, text, muted lines, count pills, pile edges.
FELT: RGB = (27, 61, 48)
SEAT_BG: RGB = (34, 74, 59)
TURN_BG: RGB = (58, 96, 70)
TEXT: RGB = (236, 238, 240)
MUTED: RGB = (170, 196, 184)
PILL_BG: RGB = (18, 40, 32)
PILE_EDGE: RGB = (225, 225, 220)
PILE_LINE: RGB = (120, 120, 120)
#: Unplayable cards in a hand are blended this far towards :data:`DIM_TOWARDS`.
DIM_AMOUNT = 0.5
DIM_TOWARDS: RGB = (30, 31, 36)
#: Strength (0–255) of the white sheen over the top-left of a card's field.
SHEEN = 22


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` (0–1) of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def shade(rgb: RGB, factor: float) -> RGB:
    """``rgb`` darkened by ``factor`` (0–1)."""
    return (round(rgb[0] * factor), round(rgb[1] * factor), round(rgb[2] * factor))


def surface_colours() -> list[RGB]:
    """Every flat colour the images use (card colours and what is derived from them: sheen, rings, dimmed cards;
    borders, backs, backgrounds, text): the colours a palette for the composites must hold exactly."""
    base = [*COLOUR_RGB.values(), INK, PAPER, DARK_BORDER, WILD_FIELD, LIGHT_EDGE, DARK_EDGE, DARK_RIM]
    base += [BACK_FIELD, BACK_STRIPE, BACK_DISC, POWER_ON, POWER_OFF]
    derived = [blend(c, (255, 255, 255), SHEEN / 255) for c in [*COLOUR_RGB.values(), WILD_FIELD]]
    derived += [shade(c, 0.85) for c in COLOUR_RGB.values()]
    cards = base + derived
    dimmed = [blend(c, DIM_TOWARDS, DIM_AMOUNT) for c in cards]
    ui = [HAND_BACKGROUND, HIGHLIGHT, LABEL_BG, LABEL_FG, LABEL_DARK_FG, FELT, SEAT_BG, TURN_BG, TEXT, MUTED]
    ui += [PILL_BG, PILE_EDGE, PILE_LINE, DIM_TOWARDS]
    return list(dict.fromkeys(cards + dimmed + ui))


class MarkShape(StrEnum):
    """The shape of a colour-blind mark: triangles for the light colours, circles for the FLIP dark colours."""

    TRIANGLE = "triangle"
    CIRCLE = "circle"


_MARK_COUNT: dict[Colour, int] = {
    Colour.YELLOW: 1,
    Colour.GREEN: 2,
    Colour.BLUE: 3,
    Colour.RED: 4,
    Colour.PINK: 1,
    Colour.TEAL: 2,
    Colour.ORANGE: 3,
    Colour.PURPLE: 4,
}
_LIGHT = frozenset({Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE})
_MARK_CHAR = {MarkShape.TRIANGLE: "▲", MarkShape.CIRCLE: "●"}
_EMOJI: dict[Colour, str] = {
    Colour.RED: "🟥",
    Colour.YELLOW: "🟨",
    Colour.GREEN: "🟩",
    Colour.BLUE: "🟦",
    Colour.PINK: "🩷",
    Colour.TEAL: "🩵",
    Colour.ORANGE: "🧡",
    Colour.PURPLE: "💜",
}


def colour_rgb(colour: Colour) -> RGB:
    """The RGB triple (0–255 each) the cards of ``colour`` are printed in."""
    return COLOUR_RGB[colour]


def mark_count(colour: Colour) -> int:
    """How many colour-blind marks ``colour`` carries: 1–4 (yellow, green, blue, red; pink, teal, orange, purple)."""
    return _MARK_COUNT[colour]


def mark_shape(colour: Colour) -> MarkShape:
    """The shape of ``colour``'s marks: :attr:`MarkShape.TRIANGLE` on the light side, :attr:`MarkShape.CIRCLE` on the
    FLIP dark side."""
    return MarkShape.TRIANGLE if colour in _LIGHT else MarkShape.CIRCLE


def colour_mark(colour: Colour) -> str:
    """The colour-blind mark of ``colour`` as text, e.g. ``"▲▲"`` for green or ``"●●●"`` for orange (see module doc)."""
    return _MARK_CHAR[mark_shape(colour)] * mark_count(colour)


def colour_emoji(colour: Colour) -> str:
    """A one-character emoji for ``colour`` that Discord renders: squares 🟥🟨🟩🟦 for the light colours, hearts
    🩷🩵🧡💜 for pink, teal, orange and purple (see module doc)."""
    return _EMOJI[colour]
