"""Single card images: every face of classic UNO, UNO FLIP and UNO Flex!, the card back, the Power Card and the
declared-colour swatch. All art is drawn here with Pillow primitives and Pillow's bundled font.

A card is ``width`` × ``round(width * 1.5)`` px, RGBA with transparent rounded corners. Cards at least
:data:`MINI_WIDTH` px wide use the full layout (border, field, centre disc with a big symbol, corner indices with the
colour-blind marks, the Flex flex side in the lower-right corner); narrower ones use a compact layout (field, one big
symbol, the marks) that stays legible at 30–60 px.

:func:`chip_image` draws a *row chip*: a card simplified for the table's seat rows (UNO FLIP's other faces, SPEC F10),
:data:`CHIP_WIDTH` × :func:`chip_height` px, with a big value and large marks so both still read when Discord shows the
table 450 px wide (tests/render/test_preview_size.py).

Images are drawn 4× larger and box-reduced (antialiasing), and cached: each (face, border side, width) is drawn once.
Cached images are shared: treat them as read-only (``.copy()`` before drawing on one).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.engine.cards import Colour, Face, Kind, Side, colours_of
from bot.render._draw import (
    GlyphFn,
    Ink,
    Layer,
    composite_outlined,
    g_all,
    g_bolt,
    g_check,
    g_cross,
    g_draw_colour,
    g_flip,
    g_flip_icon,
    g_pencil,
    g_reverse,
    g_reverse_skip,
    g_shuffle,
    g_skip,
    g_skip_all,
    g_target,
    g_text,
    g_toggle_all,
    g_wheel,
    triangle,
)
from bot.render.palette import (
    BACK_DISC,
    BACK_FIELD,
    BACK_STRIPE,
    COLOUR_RGB,
    DARK_BORDER,
    DARK_EDGE,
    DARK_RIM,
    DIM_AMOUNT,
    DIM_TOWARDS,
    INK,
    LIGHT_EDGE,
    PAPER,
    POWER_OFF,
    POWER_ON,
    RGB,
    SHEEN,
    WILD_FIELD,
    MarkShape,
    mark_count,
    mark_shape,
    shade,
)

#: Default card width in px (hand images); height is always ``round(width * 1.5)``.
CARD_WIDTH = 100
#: Cards narrower than this use the compact layout.
MINI_WIDTH = 64
#: Smallest and largest width accepted.
MIN_WIDTH, MAX_WIDTH = 16, 600
#: How many card images the cache keeps (least recently used are dropped).
CARD_CACHE_SIZE = 2048
#: Default width of a row chip (:func:`chip_image`) in px; its height is :func:`chip_height`.
CHIP_WIDTH = 38

_SS = 4  # supersampling factor

# Full layout, in units of 1/100 card width: the colour-blind marks run down the left edge under the corner index,
# big enough to read when Discord shows a 25-card hand 450 px wide (tests/render/test_preview_size.py).
_MARK_SIZE = 19.0
_MARK_GAP = 0.12
_MARK_X, _MARK_Y = 5.5, 33.0
_OVAL_RX, _OVAL_RY = 26.0, 42.0
_CENTRE_SIZE = 46.0

# Row chip, in units of 1/100 chip width: a frame, the marks in two rows of two (centred) in the top half, the value
# under them fitted into a box (centre y, width, height) narrow enough to leave neighbouring chips' values apart.
_CHIP_H = 171.0
_CHIP_MARK = 32.0
_CHIP_MARK_GAP = 6.0 / 32.0
_CHIP_MARK_Y = 12.0
_CHIP_GLYPH_Y, _CHIP_GLYPH_W, _CHIP_GLYPH_H = 126.0, 70.0, 60.0

# Kinds that exist only on one FLIP side; everything else coloured follows its colour.
_DARK_ONLY = frozenset({Kind.DRAW_FIVE, Kind.SKIP_EVERYONE, Kind.WILD_DRAW_COLOUR})


def card_height(width: int) -> int:
    """The height in px of a card ``width`` px wide (2:3 portrait)."""
    return round(width * 1.5)


def chip_height(width: int) -> int:
    """The height in px of a row chip ``width`` px wide (:func:`chip_image`; a little taller than a card)."""
    return round(width * _CHIP_H / 100)


def _check_width(width: int) -> None:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"card width must be {MIN_WIDTH}–{MAX_WIDTH} px, not {width}")


def _check_face_side(face: Face, side: Side) -> None:
    for colour in (face.colour, face.flex_colour):
        if colour is not None and colour not in colours_of(side):
            raise ValueError(f"{face} is not a {side} face: {colour} belongs to the other side")
    if face.kind in _DARK_ONLY and side is not Side.DARK:
        raise ValueError(f"{face} exists only on the dark side")
    if face.colour is None and face.kind is not Kind.WILD and face.kind not in _DARK_ONLY and side is Side.DARK:
        raise ValueError(f"{face} exists only on the light side")


def card_image(face: Face, side: Side = Side.LIGHT, width: int = CARD_WIDTH) -> Image.Image:
    """The image of ``face`` as printed on ``side`` of a card: white border on the light side (classic, Flex and FLIP's
    light faces), black border on the dark side (SPEC F1). Wilds take the four colours of ``side``.

    Returns a cached, read-only RGBA image of ``width`` × :func:`card_height` px. Raises ``ValueError`` if ``width`` is
    outside :data:`MIN_WIDTH`–:data:`MAX_WIDTH` or the face cannot be on ``side`` (e.g. a pink card on the light side).
    """
    _check_width(width)
    _check_face_side(face, side)
    return _card_image(face, side, width)


@lru_cache(maxsize=CARD_CACHE_SIZE)
def _card_image(face: Face, side: Side, width: int) -> Image.Image:
    return _CardPainter(face, side, width).paint()


def chip_image(face: Face, side: Side = Side.LIGHT, width: int = CHIP_WIDTH) -> Image.Image:
    """A row chip of ``face`` as printed on ``side``: the card simplified for the table's seat rows (SPEC F10), border
    and field as :func:`card_image` (white border on the light side, black on the dark side), the colour-blind marks
    large in the top half (1–2 side by side, 3–4 in two rows), the value or symbol large under them; a wild shows the
    colour wheel of ``side`` in place of marks (a plain wild only the wheel, larger).

    Returns a cached, read-only RGBA image of ``width`` × :func:`chip_height` px. Raises ``ValueError`` as
    :func:`card_image` does, and for UNO Flex! faces with a flex side or flip icon (chips have room for neither)."""
    _check_width(width)
    _check_face_side(face, side)
    if face.has_flex_side or face.flip_icon:
        raise ValueError(f"{face} has a flex side or flip icon, which a row chip cannot show")
    return _chip_image(face, side, width)


@lru_cache(maxsize=CARD_CACHE_SIZE)
def _chip_image(face: Face, side: Side, width: int) -> Image.Image:
    return _CardPainter(face, side, width, chip=True).paint()


def card_cache_info() -> tuple[int, int, int | None, int]:
    """``(hits, misses, maxsize, currsize)`` of the card image cache (faces, backs, Power Cards, swatches, dimmed)."""
    info = _card_image.cache_info()
    return info.hits, info.misses, info.maxsize, info.currsize


def clear_card_cache() -> None:
    """Drop every cached image (card faces, row chips and the other cached pieces)."""
    for fn in _CACHED:
        fn.cache_clear()


def images_drawn() -> int:
    """How many images the caches of this module have drawn so far (cache misses of faces, dimmed faces, row chips,
    backs, Power Cards and swatches)."""
    return sum(fn.cache_info().misses for fn in _CACHED)


@lru_cache(maxsize=CARD_CACHE_SIZE)
def _dimmed(face: Face, side: Side, width: int) -> Image.Image:
    """``card_image`` blended :data:`DIM_AMOUNT` of the way to :data:`DIM_TOWARDS` (alpha kept): an unplayable card."""
    img = card_image(face, side, width)
    flat = Image.new("RGBA", img.size, (*DIM_TOWARDS, 255))
    out = Image.blend(img, flat, DIM_AMOUNT)
    out.putalpha(img.getchannel("A"))
    return out


def dimmed_card_image(face: Face, side: Side = Side.LIGHT, width: int = CARD_WIDTH) -> Image.Image:
    """:func:`card_image` darkened by half (an unplayable card in a hand); cached, same size and errors."""
    _check_width(width)
    _check_face_side(face, side)
    return _dimmed(face, side, width)


# --------------------------------------------------------------------------------------------------------------------
# Which symbol goes where


def _number(face: Face) -> str:
    return str(face.number)


def centre_glyph(face: Face) -> GlyphFn | None:
    """The big symbol in the middle of the card (None: a plain wild, whose colour wheel is its symbol)."""
    k = face.kind
    if k is Kind.NUMBER:
        return g_text(_number(face))
    return _SYMBOL_GLYPHS.get(k)


def corner_glyph(face: Face) -> GlyphFn:
    """The small symbol in the top-left (and, mirrored, bottom-right) corner."""
    glyph = centre_glyph(face)
    if glyph is None:
        return g_wheel
    return glyph


def flex_glyph(face: Face) -> GlyphFn | None:
    """The symbol of the flex side (SPEC X4, X5), or None for cards without one."""
    if face.flex_colour is not None:
        return g_text(_number(face))
    return _FLEX_GLYPHS.get(face.kind)


_SYMBOL_GLYPHS: dict[Kind, GlyphFn] = {
    Kind.SKIP: g_skip,
    Kind.FLEX_SKIP: g_skip,
    Kind.REVERSE: g_reverse,
    Kind.FLEX_REVERSE: g_reverse,
    Kind.DRAW_TWO: g_text("+2"),
    Kind.FLEX_DRAW_TWO: g_text("+2"),
    Kind.DRAW_ONE: g_text("+1"),
    Kind.DRAW_FIVE: g_text("+5"),
    Kind.FLIP: g_flip,
    Kind.SKIP_EVERYONE: g_skip_all,
    Kind.WILD_DRAW_FOUR: g_text("+4"),
    Kind.FLEX_WILD_DRAW_FOUR: g_text("+4"),
    Kind.WILD_SHUFFLE_HANDS: g_shuffle,
    Kind.WILD_CUSTOMIZABLE: g_pencil,
    Kind.WILD_DRAW_TWO: g_text("+2"),
    Kind.WILD_DRAW_COLOUR: g_draw_colour,
    Kind.WILD_ALL_FLIP: g_toggle_all,
}
_FLEX_GLYPHS: dict[Kind, GlyphFn] = {
    Kind.FLEX_DRAW_TWO: g_all("+1"),
    Kind.FLEX_SKIP: g_skip_all,
    Kind.FLEX_REVERSE: g_reverse_skip,
    Kind.FLEX_WILD_TARGET_DRAW_TWO: g_target("+2"),
    Kind.FLEX_WILD_ALL_DRAW: g_all("+2"),
    Kind.FLEX_WILD_DRAW_FOUR: g_target("+4"),
}


def mark_positions(
    n: int, x: float, y: float, size: float, layout: str = "row", gap: float = 0.45
) -> list[tuple[float, float]]:
    """Centres of ``n`` marks of ``size`` px whose arrangement starts at the top-left ``(x, y)``: ``"row"``,
    ``"column"``, ``"grid"`` (rows of two) or ``"pairs"`` (rows of two, a lone mark centred under or between them);
    neighbours ``gap`` × ``size`` apart."""
    step = size * (1 + gap)
    cells: list[tuple[float, float]]
    if layout == "row":
        cells = [(i, 0) for i in range(n)]
    elif layout == "column":
        cells = [(0, i) for i in range(n)]
    elif layout == "pairs":
        cells = [(i % 2 + (0.5 if i == n - 1 and i % 2 == 0 else 0), i // 2) for i in range(n)]
    else:
        cells = [(i % 2, i // 2) for i in range(n)]
    return [(x + size / 2 + c * step, y + size / 2 + r * step) for c, r in cells]


def draw_marks(
    layer: Layer,
    colour: Colour,
    x: float,
    y: float,
    size: float,
    layout: str = "row",
    fill: RGB = PAPER,
    gap: float = 0.45,
) -> None:
    """Draw ``colour``'s colour-blind marks (1–4 triangles or circles, ``size`` px each) from the top-left ``(x, y)``
    in a ``layout`` of :func:`mark_positions`."""
    for cx, cy in mark_positions(mark_count(colour), x, y, size, layout, gap):
        if mark_shape(colour) is MarkShape.TRIANGLE:
            triangle(layer.draw, cx, cy, size, fill)
        else:
            r = size * 0.45
            layer.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def marks_width(colour: Colour, size: float, gap: float = 0.45) -> float:
    """Width in px of :func:`draw_marks`' row."""
    n = mark_count(colour)
    return n * size + (n - 1) * size * gap


# --------------------------------------------------------------------------------------------------------------------
# Painting


def _rounded_mask(size: tuple[int, int], box: tuple[float, float, float, float], radius: float) -> Image.Image:
    m = Image.new("L", size, 0)
    ImageDraw.Draw(m).rounded_rectangle(box, radius=radius, fill=255)
    return m


class _CardPainter:
    """Draws one face at ``_SS`` × ``width``; coordinates are in units ``u`` = 1/100 of the card width."""

    def __init__(self, face: Face, side: Side, width: int, *, chip: bool = False) -> None:
        self.face, self.side, self.width = face, side, width
        self.chip = chip
        self.mini = width < MINI_WIDTH or chip
        self.W, self.H = width * _SS, (chip_height(width) if chip else card_height(width)) * _SS
        self.u = self.W / 100
        self.img = Image.new("RGBA", (self.W, self.H), (0, 0, 0, 0))
        self.light = side is Side.LIGHT
        self.border = PAPER if self.light else DARK_BORDER
        self.field = COLOUR_RGB[face.colour] if face.colour is not None else WILD_FIELD
        wheel = tuple(COLOUR_RGB[c] for c in colours_of(side))
        self.wheel: tuple[RGB, RGB, RGB, RGB] = (wheel[0], wheel[1], wheel[2], wheel[3])

    def ink(self, main: RGB, other: RGB | None = None) -> Ink:
        return Ink(main, other if other is not None else (INK if self.light else PAPER), self.wheel)

    def layer(self) -> Layer:
        return Layer.new((self.W, self.H))

    def paint(self) -> Image.Image:
        u = self.u
        inset = (7 if self.mini else 5) * u
        radius = (12 if self.mini else 9) * u
        self._frame(radius, inset)
        if self.chip:
            self._chip_body()
            return self.img.reduce(_SS)
        if self.face.has_flex_side:
            self._flex_corner(inset, (48 if self.mini else 60) * u)
        if self.mini:
            self._mini_body()
        else:
            self._centre()
            self._corners()
        return self.img.reduce(_SS)

    def _frame(self, radius: float, inset: float) -> None:
        u, W, H = self.u, self.W, self.H
        d = ImageDraw.Draw(self.img)
        edge = LIGHT_EDGE if self.light else DARK_EDGE
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=self.border, outline=edge, width=round(u * 0.9))
        self.field_box = (inset, inset, W - 1 - inset, H - 1 - inset)
        self.field_radius = radius - inset * 0.6
        d.rounded_rectangle(self.field_box, radius=self.field_radius, fill=self.field)
        # a soft diagonal sheen across the top-left of the field (masks cropped to where it falls)
        sw, sh = math.ceil(W * 0.62), math.ceil(H * 0.46)
        sheen = Image.new("L", (sw, sh), 0)
        ImageDraw.Draw(sheen).polygon([(0, 0), (W * 0.62, 0), (0, H * 0.46)], fill=SHEEN)
        self.img.paste((255, 255, 255, 255), (0, 0), ImageChops.multiply(sheen, self._field_mask((0, 0, sw, sh))))
        if not self.light:  # a thin rim so a black wild field stays distinct from the black border
            d.rounded_rectangle(self.field_box, radius=self.field_radius, outline=DARK_RIM, width=round(u * 0.6))

    def _field_mask(self, box: tuple[int, int, int, int]) -> Image.Image:
        """The field's rounded rectangle as an ``L`` mask of the canvas region ``box``."""
        x0, y0, x1, y1 = box
        fb = self.field_box
        return _rounded_mask((x1 - x0, y1 - y0), (fb[0] - x0, fb[1] - y0, fb[2] - x0, fb[3] - y0), self.field_radius)

    def _flex_fill(self) -> RGB:
        if self.face.flex_colour is not None:
            return COLOUR_RGB[self.face.flex_colour]
        return PAPER if self.face.is_wild else INK

    def _flex_corner(self, inset: float, leg: float) -> None:
        """The flex side: the lower-right corner in the flex colour (flex numbers), black (Flex action cards) or white
        (Flex wilds), cut off by a white diagonal."""
        x1, y1 = self.field_box[2], self.field_box[3]
        box = (math.floor(x1 - leg - 4), math.floor(y1 - leg - 4), self.W, self.H)
        ox, oy = box[0], box[1]
        field = self._field_mask(box)
        tri = Image.new("L", field.size, 0)
        ImageDraw.Draw(tri).polygon(
            [(x1 + 2 - ox, y1 - leg - oy), (x1 + 2 - ox, y1 + 2 - oy), (x1 - leg - ox, y1 + 2 - oy)], fill=255
        )
        self.img.paste((*self._flex_fill(), 255), (ox, oy), ImageChops.multiply(tri, field))
        line = Image.new("L", field.size, 0)
        ImageDraw.Draw(line).line(
            [(x1 - leg - ox, y1 + 1 - oy), (x1 + 1 - ox, y1 - leg - oy)], fill=255, width=round(self.u * 2.2)
        )
        self.img.paste((*PAPER, 255), (ox, oy), ImageChops.multiply(line, field))

    # -- full layout ---------------------------------------------------------------------------------------------

    def _centre(self) -> None:
        u, face = self.u, self.face
        cx, cy = 50 * u, 75 * u
        rx, ry = _OVAL_RX * u, _OVAL_RY * u
        d = ImageDraw.Draw(self.img)
        glyph = centre_glyph(face)
        if face.is_wild:
            disc = self.layer()
            g_wheel(disc, cx, cy, 72 * u, self.ink(INK, self.border))
            composite_outlined(self.img, disc.img, self.border, 1.6 * u)
            fill, outline, o_r = PAPER, INK, 2.4 * u
        elif self.light:
            d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=PAPER)
            ring = 2.6 * u
            d.ellipse(
                (cx - rx + ring, cy - ry + ring, cx + rx - ring, cy + ry - ring),
                outline=shade(self.field, 0.85),
                width=max(1, round(0.5 * u)),
            )
            fill, outline, o_r = self.field, INK, 2.2 * u
        else:
            d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=INK, outline=self.field, width=round(1.4 * u))
            fill, outline, o_r = self.field, PAPER, 1.4 * u
        if glyph is not None:
            layer = self.layer()
            glyph(layer, cx, cy, _CENTRE_SIZE * u, self.ink(fill))
            composite_outlined(self.img, layer.img, outline, o_r)

    def _corner_group(
        self, glyph: GlyphFn, colour: Colour | None, badge: Callable[[Layer, float, float], None] | None
    ) -> Layer:
        """Index, marks and badge drawn at the top-left; the caller rotates it for the bottom-right."""
        u = self.u
        layer = self.layer()
        glyph(layer, 17 * u, 19 * u, 25 * u, self.ink(PAPER, INK))
        if colour is not None:
            draw_marks(layer, colour, _MARK_X * u, _MARK_Y * u, _MARK_SIZE * u, "column", gap=_MARK_GAP)
        if badge is not None:
            badge(layer, 33 * u, 8 * u)
        return layer

    def _corners(self) -> None:
        u, face = self.u, self.face
        badge: Callable[[Layer, float, float], None] | None = None
        if face.has_flex_side:
            badge = self._flex_badge
        elif face.flip_icon:
            badge = self._flip_icon_badge
        top = self._corner_group(corner_glyph(face), face.colour, badge)
        fg = flex_glyph(face)
        if fg is None:  # the same index upside down in the lower-right corner
            top.img.alpha_composite(top.img.transpose(Image.Transpose.ROTATE_180))
            composite_outlined(self.img, top.img, INK, 1.5 * u)
            return
        composite_outlined(self.img, top.img, INK, 1.5 * u)
        # the flex side's own index, upside down in the lower-right corner
        flex = self.layer()
        if face.flex_colour is not None:
            fg(flex, 16 * u, 18 * u, 23 * u, self.ink(PAPER, INK))
            draw_marks(flex, face.flex_colour, 8 * u, 31 * u, 6.5 * u, "grid")
        else:
            main = INK if face.is_wild else PAPER
            fg(flex, 21 * u, 21 * u, 30 * u, self.ink(main, PAPER if face.is_wild else INK))
        composite_outlined(
            self.img,
            flex.img.transpose(Image.Transpose.ROTATE_180),
            None if (face.is_wild and face.flex_colour is None) else INK,
            1.5 * u,
        )

    def _flex_badge(self, layer: Layer, x0: float, y0: float) -> None:
        """A small tile showing the flex side (readable in an overlapped hand): for flex numbers a square split like the
        card (regular colour / flex colour), for Flex action and wild cards the flex side's symbol."""
        u = self.u
        s = 17 * u
        frame = PAPER if not self.face.is_wild or self.face.flex_colour is not None else INK
        layer.draw.rounded_rectangle((x0, y0, x0 + s, y0 + s), radius=3 * u, fill=PAPER)
        i = 1.6 * u
        inner = (x0 + i, y0 + i, x0 + s - i, y0 + s - i)
        if self.face.flex_colour is not None:
            layer.draw.rounded_rectangle(inner, radius=2 * u, fill=self.field)
            layer.draw.polygon(
                [(inner[2], inner[1]), (inner[2], inner[3]), (inner[0], inner[3])], fill=self._flex_fill()
            )
            return
        fill = self._flex_fill()
        layer.draw.rounded_rectangle(inner, radius=2 * u, fill=fill)
        glyph = flex_glyph(self.face)
        if glyph is not None:
            glyph(layer, x0 + s / 2, y0 + s / 2, s * 0.8, self.ink(INK if fill == PAPER else PAPER, frame))

    def _flip_icon_badge(self, layer: Layer, x0: float, y0: float) -> None:
        u = self.u
        g_flip_icon(layer, x0 + 8.5 * u, y0 + 8.5 * u, 18 * u, self.ink(PAPER))

    # -- compact layout ------------------------------------------------------------------------------------------

    def _mini_body(self) -> None:
        u, face = self.u, self.face
        cx, cy = 50 * u, 78 * u
        glyph = centre_glyph(face)
        if face.is_wild:
            disc = self.layer()
            g_wheel(disc, cx, cy, 72 * u, self.ink(INK, self.border))
            composite_outlined(self.img, disc.img, self.border, 2 * u)
        layer = self.layer()
        if glyph is not None:
            glyph(layer, cx, cy, 66 * u, self.ink(PAPER, INK))
        if face.flip_icon:
            g_flip_icon(layer, 21 * u, 129 * u, 24 * u, self.ink(PAPER))
        if face.colour is not None:
            size = 12 * u
            w = marks_width(face.colour, size)
            draw_marks(layer, face.colour, 50 * u - w / 2, 16 * u, size)
        composite_outlined(self.img, layer.img, INK, 3 * u)
        fg = flex_glyph(face) if face.flex_colour is None else None
        if fg is not None:  # the flex side's symbol, upside down in its corner
            flex = self.layer()
            fg(flex, 20 * u, 20 * u, 27 * u, self.ink(INK if face.is_wild else PAPER, PAPER if face.is_wild else INK))
            outline = None if face.is_wild else INK
            composite_outlined(self.img, flex.img.transpose(Image.Transpose.ROTATE_180), outline, 2 * u)

    # -- row chip -----------------------------------------------------------------------------------------------

    def _chip_body(self) -> None:
        u, face = self.u, self.face
        cx = 50 * u
        glyph = centre_glyph(face)
        m = _CHIP_MARK * u
        top = _CHIP_MARK_Y * u
        marks_h = m * (2 + _CHIP_MARK_GAP)
        if face.is_wild:  # the colour wheel where the marks would be, or larger on its own for a plain wild
            d = (marks_h if glyph is not None else 84 * u) * 0.9
            wy = top + marks_h / 2 if glyph is not None else self.H / 2
            disc = self.layer()
            g_wheel(disc, cx, wy, d, self.ink(INK, self.border))
            composite_outlined(self.img, disc.img, self.border, 2.5 * u)
        layer = self.layer()
        if face.colour is not None:
            w = m * (2 + _CHIP_MARK_GAP)
            draw_marks(layer, face.colour, cx - w / 2, top, m, "pairs", gap=_CHIP_MARK_GAP)
        if glyph is not None:
            self._fitted(layer, glyph, cx, _CHIP_GLYPH_Y * u, _CHIP_GLYPH_W * u, _CHIP_GLYPH_H * u)
        composite_outlined(self.img, layer.img, INK, 4 * u)

    def _fitted(self, layer: Layer, glyph: GlyphFn, cx: float, cy: float, max_w: float, max_h: float) -> None:
        """``glyph`` drawn onto ``layer`` as large as fits in ``max_w`` × ``max_h`` px, its ink centred on
        ``(cx, cy)``."""
        ink = self.ink(PAPER, INK)
        probe = self.layer()
        glyph(probe, self.W / 2, self.H / 2, self.W, ink)
        box = probe.img.getbbox()
        if box is None:
            return
        s = self.W * min(max_w / (box[2] - box[0]), max_h / (box[3] - box[1]))
        fitted = self.layer()
        glyph(fitted, self.W / 2, self.H / 2, s, ink)
        box = fitted.img.getbbox()
        if box is None:
            return
        dx, dy = round(cx - (box[0] + box[2]) / 2), round(cy - (box[1] + box[3]) / 2)
        layer.img.alpha_composite(fitted.img.crop(box), (box[0] + dx, box[1] + dy))


# --------------------------------------------------------------------------------------------------------------------
# Other pieces


@lru_cache(maxsize=64)
def card_back_image(width: int = CARD_WIDTH) -> Image.Image:
    """The back of a card (the draw pile in classic and Flex): an original indigo design with four overlapping
    discs in the light colours. Cached RGBA, ``width`` × :func:`card_height` px; ``ValueError`` for a bad width."""
    _check_width(width)
    W, H = width * _SS, card_height(width) * _SS
    u = W / 100
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=9 * u, fill=PAPER, outline=LIGHT_EDGE, width=round(0.9 * u))
    inset = 5 * u
    field = _rounded_mask((W, H), (inset, inset, W - 1 - inset, H - 1 - inset), 6 * u)
    img.paste((*BACK_FIELD, 255), (0, 0), field)
    stripes = Image.new("L", (W, H), 0)
    sd = ImageDraw.Draw(stripes)
    step = 9 * u
    for i in range(-20, 40):
        x = i * step
        sd.line([(x, 0), (x + H, H)], fill=255, width=round(3 * u))
    img.paste((*BACK_STRIPE, 255), (0, 0), ImageChops.multiply(stripes, field))
    cx, cy = 50 * u, 75 * u
    d.ellipse((cx - 38 * u, cy - 38 * u, cx + 38 * u, cy + 38 * u), fill=BACK_DISC, outline=PAPER, width=round(2 * u))
    discs = Layer.new((W, H))
    r, off = 13 * u, 13 * u
    colours = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
    for (dx, dy), colour in zip(((0, -1), (1, 0), (0, 1), (-1, 0)), colours, strict=True):
        x, y = cx + dx * off, cy + dy * off
        discs.draw.ellipse((x - r, y - r, x + r, y + r), fill=COLOUR_RGB[colour], outline=PAPER, width=round(1.6 * u))
    discs.draw.regular_polygon((cx, cy, 6 * u), 4, rotation=45, fill=PAPER)
    composite_outlined(img, discs.img, INK, 1.2 * u)
    return img.reduce(_SS)


@lru_cache(maxsize=64)
def power_card_image(active: bool, width: int = CARD_WIDTH) -> Image.Image:
    """A Power Card (SPEC X3): green with a check when active, red with a cross when inactive; a lightning bolt in two
    corners. Cached RGBA, ``width`` × :func:`card_height` px; ``ValueError`` for a bad width."""
    _check_width(width)
    W, H = width * _SS, card_height(width) * _SS
    u = W / 100
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    field = POWER_ON if active else POWER_OFF
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=9 * u, fill=PAPER, outline=LIGHT_EDGE, width=round(0.9 * u))
    inset = 5 * u
    img.paste((*field, 255), (0, 0), _rounded_mask((W, H), (inset, inset, W - 1 - inset, H - 1 - inset), 6 * u))
    cx, cy, r = 50 * u, 75 * u, 33 * u
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PAPER)
    ink = Ink(field, PAPER, ((0, 0, 0),) * 4)
    sign = Layer.new((W, H))
    (g_check if active else g_cross)(sign, cx, cy, 52 * u, ink)
    composite_outlined(img, sign.img, INK, 2.2 * u)
    bolts = Layer.new((W, H))
    g_bolt(bolts, 17 * u, 19 * u, 24 * u, Ink(PAPER, INK, ink.wheel))
    g_bolt(bolts, 83 * u, 131 * u, 24 * u, Ink(PAPER, INK, ink.wheel))
    composite_outlined(img, bolts.img, INK, 1.5 * u)
    return img.reduce(_SS)


@lru_cache(maxsize=64)
def colour_swatch_image(colour: Colour, size: int = 48) -> Image.Image:
    """A ``size`` × ``size`` px rounded square in ``colour`` with its colour-blind marks: the colour declared for a
    wild on the discard pile. Cached RGBA; ``ValueError`` if ``size`` is outside 12–400."""
    if not 12 <= size <= 400:
        raise ValueError(f"swatch size must be 12–400 px, not {size}")
    S = size * _SS
    u = S / 100
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=22 * u, fill=PAPER, outline=INK, width=round(2 * u))
    i = 9 * u
    d.rounded_rectangle((i, i, S - 1 - i, S - 1 - i), radius=15 * u, fill=COLOUR_RGB[colour])
    marks = Layer.new((S, S))
    m = 16 * u if mark_count(colour) < 4 else 14 * u
    w = marks_width(colour, m)
    draw_marks(marks, colour, 50 * u - w / 2, 51 * u - m / 2, m)
    composite_outlined(img, marks.img, INK, 2.5 * u)
    return img.reduce(_SS)


_CACHED = (_card_image, _dimmed, _chip_image, card_back_image, power_card_image, colour_swatch_image)

__all__ = [
    "CARD_CACHE_SIZE",
    "CARD_WIDTH",
    "CHIP_WIDTH",
    "MINI_WIDTH",
    "card_back_image",
    "card_cache_info",
    "card_height",
    "card_image",
    "centre_glyph",
    "chip_height",
    "chip_image",
    "clear_card_cache",
    "colour_swatch_image",
    "corner_glyph",
    "dimmed_card_image",
    "flex_glyph",
    "power_card_image",
]
