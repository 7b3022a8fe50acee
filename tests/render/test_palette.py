"""Colour-blind marks and colour emoji, for images and the text-only mode (SPEC X1's Flex convention, F1 colours)."""

import pytest

from bot.engine.cards import DARK_COLOURS, LIGHT_COLOURS, Colour
from bot.render import MarkShape, colour_emoji, colour_mark, colour_rgb, mark_count, mark_shape


def test_light_colours_follow_flex_triangle_convention():
    """UNO Flex! prints 1–4 triangles for yellow, green, blue, red; we use it for every game's light colours."""
    assert [mark_count(c) for c in (Colour.YELLOW, Colour.GREEN, Colour.BLUE, Colour.RED)] == [1, 2, 3, 4]
    assert {mark_shape(c) for c in LIGHT_COLOURS} == {MarkShape.TRIANGLE}
    assert colour_mark(Colour.YELLOW) == "▲"
    assert colour_mark(Colour.RED) == "▲▲▲▲"


def test_dark_colours_get_their_own_distinct_marks():
    assert [mark_count(c) for c in (Colour.PINK, Colour.TEAL, Colour.ORANGE, Colour.PURPLE)] == [1, 2, 3, 4]
    assert {mark_shape(c) for c in DARK_COLOURS} == {MarkShape.CIRCLE}
    assert colour_mark(Colour.ORANGE) == "●●●"


def test_every_colour_has_a_unique_mark_and_emoji():
    assert len({colour_mark(c) for c in Colour}) == 8
    assert len({colour_emoji(c) for c in Colour}) == 8
    assert colour_emoji(Colour.RED) == "🟥" and colour_emoji(Colour.PURPLE) == "💜"


@pytest.mark.parametrize("colour", list(Colour))
def test_colours_are_distinct_and_saturated(colour: Colour):
    r, g, b = colour_rgb(colour)
    assert max(r, g, b) - min(r, g, b) > 100  # never a grey
    others = [colour_rgb(c) for c in Colour if c is not colour]
    assert all(sum(abs(x - y) for x, y in zip((r, g, b), o, strict=True)) > 60 for o in others)
