"""Hands read at Discord's preview width (issue 10, point 8): Discord scales an image down to about 450 px wide, so
the colour-blind marks and the index numbers under the cards are measured there, in pixels of the scaled image."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageChops

import bot.render.cards as cards_module
from bot.engine.cards import Face, Kind, Side, classic_faces, flip_dark_faces
from bot.render import clear_card_cache, hand_image, hand_layout
from tests.render.util import blobs

#: Discord's preview width, px.
PREVIEW_WIDTH = 450
#: Smallest readable mark and index digit at that width, px.
MIN_MARK_PX = 8
MIN_DIGIT_PX = 9


def _preview(img: Image.Image) -> tuple[Image.Image, float]:
    """``img`` scaled to :data:`PREVIEW_WIDTH` wide as a browser does (high-quality downscaling), and the factor."""
    k = PREVIEW_WIDTH / img.width
    return img.resize((PREVIEW_WIDTH, round(img.height * k)), Image.Resampling.LANCZOS), k


def _hand(n: int, side: Side) -> list[Face]:
    deck = classic_faces() if side is Side.LIGHT else flip_dark_faces()
    coloured = [f for f in deck if f.colour is not None and f.kind is Kind.NUMBER]
    return random.Random(n).sample(coloured, n)


@contextmanager
def _without_marks() -> Iterator[None]:
    real = cards_module.draw_marks
    cards_module.draw_marks = lambda *a, **k: None  # type: ignore[assignment]
    clear_card_cache()
    try:
        yield
    finally:
        cards_module.draw_marks = real
        clear_card_cache()


def mark_heights(faces: list[Face], side: Side) -> list[int]:
    """Heights in px, at preview width, of the white body of every colour-blind mark visible in the hand image: the
    pixels that change when the marks are left out and are white-ish with them (the marks' bodies, not outlines)."""
    clear_card_cache()
    with_marks, _ = _preview(hand_image(faces, side=side))
    with _without_marks():
        without, _ = _preview(hand_image(faces, side=side))
    r, g, b = ImageChops.difference(with_marks, without).split()
    changed = ImageChops.lighter(r, ImageChops.lighter(g, b)).point(lambda v: 255 if v > 60 else 0)
    mask = Image.new("RGB", with_marks.size, (0, 0, 0))
    mask.paste(with_marks, (0, 0), changed)
    found = blobs(mask, lambda p: min(p[:3]) >= 170, min_size=6)  # smaller: antialiasing slivers
    return [max(y for _, y in g) - min(y for _, y in g) + 1 for g in found]


def digit_heights(n: int) -> list[int]:
    """Heights in px, at preview width, of the index number under each card (its light ink inside its label)."""
    img, k = _preview(hand_image(_hand(n, Side.LIGHT)))
    out = []
    for i in range(n):
        x0, y0, x1, y1 = hand_layout(n).label_box(i)
        crop = img.crop((int(x0 * k), int(y0 * k), int(x1 * k) + 1, int(y1 * k) + 1)).convert("L")
        box = crop.point(lambda v: 255 if v >= 150 else 0).getbbox()
        out.append(0 if box is None else box[3] - box[1])
    return out


@pytest.mark.parametrize("n", [7, 15, 25])
@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
def test_colour_blind_marks_are_readable_at_preview_width(n: int, side: Side):
    faces = _hand(n, side)
    heights = mark_heights(faces, side)
    # every card shows at least its marks (overlapped cards show their top-left corner)
    assert len(heights) >= sum(cards_module.mark_count(f.colour) for f in faces if f.colour is not None)
    assert min(heights) >= MIN_MARK_PX, sorted(heights)[:8]


@pytest.mark.parametrize("n", [7, 15, 25])
def test_index_numbers_are_readable_at_preview_width(n: int):
    heights = digit_heights(n)
    assert min(heights) >= MIN_DIGIT_PX, heights
