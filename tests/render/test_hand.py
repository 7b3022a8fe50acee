"""Hand images: layout in rows, index labels, playable cards highlighted, the Power Card (SPEC X3, X9)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.cards import Face, Mode, Side, flex_faces, flip_dark_faces, parse_faces
from bot.render import (
    HAND_MAX_WIDTH,
    card_height,
    faces_of,
    hand_image,
    hand_layout,
    images_drawn,
    render_hand,
    warm_cache,
)
from bot.render.palette import HAND_BACKGROUND, HIGHLIGHT, LABEL_BG, POWER_OFF, POWER_ON
from tests.render.util import close


def _hand(n: int, seed: int = 7) -> list[Face]:
    return random.Random(seed).sample(flex_faces(), n)


@pytest.mark.parametrize(("n", "rows"), [(1, 1), (7, 1), (25, 2), (40, 3)])
def test_hands_decode_as_png_with_sensible_dimensions(n: int, rows: int):
    faces = _hand(n)
    data = render_hand(faces, playable=[0, n - 1])
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    layout = hand_layout(n)
    assert layout.rows == rows
    assert img.size == (layout.width, layout.height)
    assert img.width <= HAND_MAX_WIDTH
    assert rows * card_height(100) < img.height < rows * (card_height(100) + 60) + 30
    assert len(data) < 300_000
    # every card keeps at least half its width visible, so its corner index and marks show
    assert layout.step >= 50


def test_png_is_faithful_to_the_drawn_image():
    faces = _hand(25)
    drawn = hand_image(faces, playable=[3, 4])
    decoded = Image.open(io.BytesIO(render_hand(faces, playable=[3, 4]))).convert("RGB")
    diff = [abs(a - b) for a, b in zip(drawn.tobytes(), decoded.tobytes(), strict=True)]
    assert sum(diff) / len(diff) < 2.5  # palette mapping: near-identical on average
    assert sum(d > 40 for d in diff) < len(diff) * 0.01


def test_each_card_has_its_index_label():
    faces = _hand(12)
    layout = hand_layout(12)
    img = hand_image(faces, playable=[2])
    for i in range(12):
        cx, cy = layout.label_centre(i)
        top_of_pill = img.getpixel((cx, cy - 13))
        assert close(top_of_pill, HIGHLIGHT if i == 2 else LABEL_BG), i  # type: ignore[arg-type]
    # labels are numbered 1..n: two different labels look different
    a, b = layout.label_centre(0), layout.label_centre(1)
    assert (
        img.crop((a[0] - 8, a[1] - 6, a[0] + 8, a[1] + 6)).tobytes()
        != img.crop((b[0] - 8, b[1] - 6, b[0] + 8, b[1] + 6)).tobytes()
    )


def test_playable_cards_are_raised_and_outlined_others_dimmed():
    faces = parse_faces("R5 R5 R5")
    layout = hand_layout(3)
    img = hand_image(faces, playable=[1])
    (x0, y0), (x1, y1), _ = layout.positions
    # the raised card's outline shows in the gap above the unraised row
    assert close(img.getpixel((x1 + 50, y1 - 15)), HIGHLIGHT)  # type: ignore[arg-type]
    assert close(img.getpixel((x0 + 50, y0 - 15)), HAND_BACKGROUND)  # type: ignore[arg-type]
    # the same face, dimmed when unplayable: sample the field at the same spot on both cards
    lit = img.getpixel((x1 + 40, y1 - 14 + 130))
    dim = img.getpixel((x0 + 40, y0 + 130))
    assert sum(dim) < 0.75 * sum(lit)  # type: ignore[arg-type]


def test_nothing_dimmed_when_nothing_is_marked_playable():
    faces = parse_faces("G3 G3")
    img = hand_image(faces)
    (x0, y0), (x1, y1) = hand_layout(2).positions
    assert img.getpixel((x0 + 10, y0 + 100)) == img.getpixel((x1 + 10, y1 + 100))


def test_power_card_state_is_shown():
    faces = _hand(5)
    on, off, none = (hand_image(faces, power=p) for p in (True, False, None))
    assert on.width == off.width > none.width  # a column is kept for the Power Card
    # the Power Card's field, left of the hand
    assert close(on.getpixel((16, 80)), POWER_ON) and close(off.getpixel((16, 80)), POWER_OFF)  # type: ignore[arg-type]


def test_dark_side_hand_has_black_borders():
    faces = flip_dark_faces()[:5]
    img = hand_image(faces, side=Side.DARK)
    x, y = hand_layout(5).positions[0]
    assert max(img.getpixel((x + 50, y + 2))) < 30  # type: ignore[arg-type]


def test_empty_hand_and_bad_indices():
    assert hand_image([]).size == (hand_layout(0).width, hand_layout(0).height)
    with pytest.raises(ValueError):
        hand_image(_hand(3), playable=[3])
    with pytest.raises(ValueError):
        hand_image(flip_dark_faces()[:2], side=Side.LIGHT)


def test_hands_only_paste_cached_cards_and_are_deterministic():
    """After warm_cache, composing a hand draws no card again; the same hand gives the same bytes."""
    assert warm_cache([Mode.CLASSIC]) >= 0
    assert warm_cache([Mode.CLASSIC]) == 0  # everything is cached now
    faces = [f for f, _ in faces_of(Mode.CLASSIC)][:30]
    before = images_drawn()
    first = render_hand(faces, playable=[1, 5])
    assert render_hand(faces, playable=[1, 5]) == first
    assert images_drawn() == before
