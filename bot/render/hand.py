"""A player's hand as one image: cards in overlapping rows, an index label under each, playable cards raised and
outlined, the others dimmed, and optionally the player's Power Card (UNO Flex!)."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import Face, Side
from bot.render._png import encode_png
from bot.render._text import main_font
from bot.render.card_art import CARD_WIDTH, card_height, card_image, dimmed_card_image, power_card_image
from bot.render.palette import HAND_BACKGROUND, HIGHLIGHT, LABEL_BG, LABEL_DARK_FG, LABEL_FG

#: Widest hand image in px (Discord shows embeds/attachments about this wide without scaling them much).
HAND_MAX_WIDTH = 800
#: Narrowest visible strip of an overlapped card, in px (keeps its corner index and marks in view).
MIN_STEP = 50

_MARGIN = 12
_GAP = 6
_RAISE = 14
_LABEL_H = 38
_ROW_GAP = 4
_POWER_W = 60
_LABEL_PILL_H = 32
#: Index digits' font size: about 9–10 px tall when Discord shows an 800 px hand 450 px wide.
_LABEL_FONT = 26


@dataclass(frozen=True, slots=True)
class HandLayout:
    """Where :func:`hand_image` puts things: ``positions[i]`` is card ``i``'s top-left corner (before raising),
    ``step`` the horizontal distance between neighbours (< card width when cards overlap)."""

    width: int
    height: int
    card_width: int
    card_height: int
    step: int
    rows: int
    positions: tuple[tuple[int, int], ...]

    def label_centre(self, i: int) -> tuple[int, int]:
        """Centre of card ``i``'s index label: under the visible strip of the card."""
        x, y = self.positions[i]
        return x + min(self.step, self.card_width) // 2, y + self.card_height + 3 + _LABEL_PILL_H // 2

    def label_box(self, i: int) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` px of card ``i``'s index label."""
        cx, cy = self.label_centre(i)
        w = _label(str(i + 1), False).width
        return cx - w // 2, cy - _LABEL_PILL_H // 2, cx - w // 2 + w, cy - _LABEL_PILL_H // 2 + _LABEL_PILL_H


def hand_layout(
    n: int, *, power: bool = False, card_width: int = CARD_WIDTH, max_width: int = HAND_MAX_WIDTH
) -> HandLayout:
    """Lay out ``n`` cards: one row without overlap if it fits in ``max_width``, otherwise as few rows as keep every
    card's visible strip at least :data:`MIN_STEP` px wide, cards spread evenly over the rows (first rows fuller).
    ``power`` reserves a column on the left for the Power Card."""
    if n < 0:
        raise ValueError("a hand cannot have a negative number of cards")
    ch = card_height(card_width)
    left = _MARGIN + (_POWER_W + _MARGIN if power else 0)
    avail = max_width - left - _MARGIN
    if n * card_width + max(0, n - 1) * _GAP <= avail:
        rows, per_row, step = 1, max(n, 1), card_width + _GAP
    else:
        max_per_row = max(2, 1 + (avail - card_width) // MIN_STEP)
        rows = math.ceil(n / max_per_row)
        per_row = math.ceil(n / rows)
        step = min(card_width + _GAP, (avail - card_width) // (per_row - 1))
    row_h = _RAISE + ch + _LABEL_H + _ROW_GAP
    positions = tuple((left + (i % per_row) * step, _MARGIN + (i // per_row) * row_h + _RAISE) for i in range(n))
    used = card_width + (min(n, per_row) - 1) * step if n else card_width
    width = left + used + _MARGIN
    height = _MARGIN + rows * row_h - _ROW_GAP + _MARGIN - 4
    if power:
        height = max(height, _MARGIN + _RAISE + card_height(_POWER_W) + _MARGIN)
    return HandLayout(width, height, card_width, ch, step, rows, positions)


@lru_cache(maxsize=8)
def _glow(width: int, height: int, pad: int) -> Image.Image:
    """A rounded highlight ``pad`` px larger than a card on every side."""
    img = Image.new("RGBA", (width + 2 * pad, height + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, img.width - 1, img.height - 1), radius=round(width * 0.09) + pad, fill=(*HIGHLIGHT, 255)
    )
    return img


@lru_cache(maxsize=128)
def _label(text: str, highlighted: bool) -> Image.Image:
    """The index label pill under a card."""
    f = main_font(_LABEL_FONT)
    w, h = max(_LABEL_PILL_H, int(f.getlength(text)) + 14), _LABEL_PILL_H
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2 - 1, fill=(*(HIGHLIGHT if highlighted else LABEL_BG), 255))
    top, bottom = f.getbbox("0", anchor="ls")[1::2]  # digits centred on their own ink, not the font's line box
    d.text((w / 2, (h - top - bottom) / 2), text, font=f, anchor="ms", fill=LABEL_DARK_FG if highlighted else LABEL_FG)
    return img


def hand_image(
    faces: Sequence[Face],
    *,
    playable: Collection[int] = (),
    side: Side = Side.LIGHT,
    power: bool | None = None,
    card_width: int = CARD_WIDTH,
) -> Image.Image:
    """The hand ``faces`` (in order) as an RGB image at most :data:`HAND_MAX_WIDTH` px wide.

    Each card shows its ``side`` face border (FLIP: the side in play). Under each card is its 1-based position
    (``faces[0]`` is labelled 1) so players can match it to the text list. ``playable`` holds 0-based indices into
    ``faces``: those cards are raised and outlined and their labels highlighted; when ``playable`` is non-empty the
    other cards are dimmed (when it is empty, nothing is raised or dimmed). ``power`` (UNO Flex!) adds the player's
    Power Card on the left: True active (green), False inactive (red), None no Power Card.

    Size: one row of ``card_width`` × ``1.5 card_width`` px cards when they fit, else several overlapping rows
    (see :func:`hand_layout`); an empty hand gives a small empty panel. Raises ``ValueError`` for an index in
    ``playable`` outside ``faces`` or a face that cannot be on ``side``.
    """
    n = len(faces)
    bad = [i for i in playable if not 0 <= i < n]
    if bad:
        raise ValueError(f"playable indices {sorted(bad)} are outside the hand of {n} cards")
    chosen = frozenset(playable)
    layout = hand_layout(n, power=power is not None, card_width=card_width)
    img = Image.new("RGB", (layout.width, layout.height), HAND_BACKGROUND)
    if power is not None:
        p = power_card_image(power, _POWER_W)
        img.paste(p, (_MARGIN, _MARGIN + _RAISE), p)
    glow = _glow(card_width, layout.card_height, 3)
    for i, (face, (x, y)) in enumerate(zip(faces, layout.positions, strict=True)):
        lit = i in chosen
        if lit:
            y -= _RAISE
            img.paste(glow, (x - 3, y - 3), glow)
            card = card_image(face, side, card_width)
        elif chosen:
            card = dimmed_card_image(face, side, card_width)
        else:
            card = card_image(face, side, card_width)
        img.paste(card, (x, y), card)
    # labels last, so an overlapping neighbour never covers one
    for i in range(n):
        label = _label(str(i + 1), i in chosen)
        cx, cy = layout.label_centre(i)
        img.paste(label, (cx - label.width // 2, cy - label.height // 2), label)
    return img


def render_hand(
    faces: Sequence[Face],
    *,
    playable: Collection[int] = (),
    side: Side = Side.LIGHT,
    power: bool | None = None,
    card_width: int = CARD_WIDTH,
) -> bytes:
    """:func:`hand_image` encoded as a palette PNG (bytes; about 50 KB for 25 cards, see ``benchmarks/render.py``).
    Same arguments and errors as :func:`hand_image`."""
    return encode_png(hand_image(faces, playable=playable, side=side, power=power, card_width=card_width))
