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

#: Near-black used for outlines, dark borders and wild fields.
INK: RGB = (22, 22, 26)
#: Off-white used for light borders and the light-side centre disc.
PAPER: RGB = (251, 250, 246)


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
