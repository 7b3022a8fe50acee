"""Hands and the UNO FLIP table rows read at Discord's preview width (issue 10, point 8): Discord scales an image down
to about 450 px wide, so the colour-blind marks, the index numbers under the cards and the values of the other faces in
the table's rows are measured there, in pixels of the scaled image."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from PIL import Image, ImageChops, ImageFilter

import bot.render.card_art as cards_module
from bot.engine.cards import Face, Kind, Mode, Side, build_deck, classic_faces, flip_dark_faces, flip_light_faces
from bot.render import (
    SeatView,
    TableScene,
    clear_card_cache,
    hand_image,
    hand_layout,
    mark_count,
    seat_box,
    table_image,
)
from bot.render._draw import GlyphFn
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


# --------------------------------------------------------------------------------------------------------------------
# UNO FLIP table rows (SPEC F10): everyone sees the other faces of the opponents' hands, drawn in their seat's row.
#
# The table image is 800 px wide, so Discord shows it at 450/800 = 0.56 of its size. A row card is small and shows one
# value and 1–4 marks, so the thresholds are lower than a hand's: a mark must be at least 5 px tall there (a filled
# white triangle or circle 5 px high inside an ink outline is still a separate, countable shape; at 2–3 px it is a
# speck that merges with its neighbours), and a value or symbol at least 8 px (a bold digit 8 px high on a saturated
# field reads like 11 px UI text; the hand's index digits need 9 px because they are thinner text on a grey pill).
# "Distinguishable" is measured too: every mark is its own blob, and every card's value its own group of columns.

MIN_ROW_MARK_PX = 5
MIN_ROW_GLYPH_PX = 8
#: Cards in the opponents' hands of the measured scene: one card, a small, a middling and a very large hand.
ROW_HANDS = (1, 6, 12, 25)


def _flip_rows_scene(side: Side, seed: int = 5) -> TableScene:
    """A seeded UNO FLIP table with ``side`` in play: the viewer's own hand (count only) and four opponents holding
    :data:`ROW_HANDS` cards, whose other faces (of ``side.other``) the rows show (SPEC F10)."""
    cards = list(build_deck(Mode.FLIP).cards)
    random.Random(seed).shuffle(cards)
    seats = [SeatView("Viewer", 7)]
    for i, n in enumerate(ROW_HANDS):
        seats.append(SeatView(f"Player {i + 2}", n, tuple(cards.pop().face(side.other) for _ in range(n))))
    top = next(c.face(side) for c in cards if not c.face(side).is_wild)
    return TableScene(
        Mode.FLIP, side, top, tuple(seats), turn=1, draw_count=40, draw_top_other=cards[0].face(side.other)
    )


@contextmanager
def _without_glyphs() -> Iterator[None]:
    """Cards drawn without their centre value or symbol (a glyph that draws nothing; plain wilds keep none)."""
    real = cards_module.centre_glyph

    def blank(face: Face) -> GlyphFn | None:
        return None if real(face) is None else (lambda *a: None)

    cards_module.centre_glyph = blank  # type: ignore[assignment]
    clear_card_cache()
    try:
        yield
    finally:
        cards_module.centre_glyph = real
        clear_card_cache()


def _row_diffs(
    scene: TableScene, without: Callable[[], AbstractContextManager[None]]
) -> list[tuple[Image.Image, Image.Image]]:
    """For each seat, its row at preview width drawn as usual, and the mask (255/0) of the row's pixels that change
    when the cards are drawn ``without`` something (their marks or their values)."""
    clear_card_cache()
    full, k = _preview(table_image(scene))
    with without():
        bare, _ = _preview(table_image(scene))
    out = []
    for i in range(len(scene.seats)):
        x0, y0, x1, y1 = seat_box(scene, i)
        box = (int(x0 * k), int(y0 * k), int(x1 * k) + 1, int(y1 * k) + 1)
        row, row_bare = full.crop(box), bare.crop(box)
        r, g, b = ImageChops.difference(row, row_bare).split()
        changed = ImageChops.lighter(r, ImageChops.lighter(g, b)).point(lambda v: 255 if v > 60 else 0)
        out.append((row, changed))
    return out


def _white_parts(row: Image.Image, changed: Image.Image) -> Image.Image:
    """The pixels of ``row`` that ``changed`` and are white-ish (the bodies of marks and values, not their outlines)
    as an ``L`` mask (255/0)."""
    mask = Image.new("RGB", row.size, (0, 0, 0))
    mask.paste(row, (0, 0), changed)
    return mask.point(lambda v: 255 if v >= 170 else 0).convert("L").point(lambda v: 255 if v == 255 else 0)


def row_mark_heights(scene: TableScene) -> list[list[int]]:
    """For each seat, the heights in px, at preview width, of the white body of every colour-blind mark in its row,
    smallest first (blobs of 4 px or more: smaller ones are antialiasing slivers, or marks too small to count)."""
    out = []
    for row, changed in _row_diffs(scene, _without_marks):
        found = blobs(_white_parts(row, changed).convert("RGB"), lambda p: p[0] == 255, min_size=4)
        out.append(sorted(max(y for _, y in g) - min(y for _, y in g) + 1 for g in found))
    return out


def _runs(on: list[bool]) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of True in ``on``."""
    runs: list[tuple[int, int]] = []
    for i, v in enumerate(on):
        if v and runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        elif v:
            runs.append((i, i + 1))
    return runs


def row_glyph_heights(scene: TableScene) -> list[list[int]]:
    """For each seat, the heights in px, at preview width, of each card's value or symbol in its row, in reading
    order: the pixels that change when the values are drawn (outlines included; white bodies grown by 1 px, as an ink
    outline on a black wild does not show as a change) fall into bands of rows (one per line of cards) and, in each
    band, runs of columns, one per card whose value stands apart from its neighbours'; a run's height is that of the
    white body of the value in it."""
    out = []
    for row, changed in _row_diffs(scene, _without_glyphs):
        white = _white_parts(row, changed)
        changed = ImageChops.lighter(changed, white.filter(ImageFilter.MaxFilter(3)))
        w, h = changed.size
        heights = []
        for top, bottom in _runs([changed.crop((0, y, w, y + 1)).getbbox() is not None for y in range(h)]):
            band = changed.crop((0, top, w, bottom))
            for a, b in _runs([band.crop((x, 0, x + 1, bottom - top)).getbbox() is not None for x in range(w)]):
                box = white.crop((a, top, b, bottom)).getbbox()
                heights.append(0 if box is None else box[3] - box[1])
        out.append(heights)
    return out


def _every_other_face_scene(side: Side) -> TableScene:
    """An UNO FLIP table with ``side`` in play whose opponents hold, between them, every distinct face of the other
    side once, 13 to a seat (a full line of row chips, their closest spacing)."""
    deck = flip_dark_faces() if side is Side.LIGHT else flip_light_faces()
    faces = list(dict.fromkeys(deck))
    seats = [SeatView("Viewer", 7)]
    for n, i in enumerate(range(0, len(faces), 13)):
        hand = tuple(faces[i : i + 13])
        seats.append(SeatView(f"Player {n + 2}", len(hand), hand))
    top = next(f for f in dict.fromkeys(flip_light_faces() if side is Side.LIGHT else flip_dark_faces()))
    return TableScene(Mode.FLIP, side, top, tuple(seats), turn=0, draw_count=40)


def _row_faces(scene: TableScene, i: int) -> tuple[Face, ...]:
    backs = scene.seats[i].backs
    assert backs is not None
    return backs


def _check_rows(scene: TableScene) -> None:
    marks, glyphs = row_mark_heights(scene), row_glyph_heights(scene)
    for i in range(1, len(scene.seats)):
        faces = _row_faces(scene, i)
        expected = sum(mark_count(f.colour) for f in faces if f.colour is not None)
        assert len(marks[i]) == expected, (i, len(faces), len(marks[i]), expected)
        assert all(h >= MIN_ROW_MARK_PX for h in marks[i]), (i, marks[i][:8])
        shown = [str(f) for f in faces if cards_module.centre_glyph(f) is not None]
        assert len(glyphs[i]) == len(shown), (i, shown, glyphs[i])
        small = [(f, h) for f, h in zip(shown, glyphs[i], strict=True) if h < MIN_ROW_GLYPH_PX]
        assert not small, (i, small)


@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
def test_flip_rows_are_readable_at_preview_width(side: Side):
    """SPEC F10: every opponent's other faces are shown in their order; at 450 px every mark on them is a separate
    shape ≥ :data:`MIN_ROW_MARK_PX` tall (one blob per mark: none lost to overlap, none merged) and every card's value
    or symbol stands apart from its neighbours' and is ≥ :data:`MIN_ROW_GLYPH_PX` tall (plain wilds have none: their
    colour wheel is their symbol). Hands of 1, 6, 12 and 25 cards, seeded."""
    scene = _flip_rows_scene(side)
    kinds = {f.kind for i in range(1, len(scene.seats)) for f in _row_faces(scene, i)}
    assert Kind.NUMBER in kinds and Kind.WILD in kinds and len(kinds) >= 5  # a spread of numbers, actions, wilds
    _check_rows(scene)


@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
def test_every_other_face_reads_in_a_full_row_at_preview_width(side: Side):
    """SPEC F10, F1: the same measures for every distinct face of the side not in play, 13 to a row."""
    _check_rows(_every_other_face_scene(side))
