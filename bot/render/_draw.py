"""Private drawing primitives: fonts, text masks, outlined layers and the symbol glyphs drawn on cards.

All geometry is in pixels of the (supersampled) canvas. A glyph is drawn centred on ``(cx, cy)`` inside a square of
side ``s``; glyphs are drawn in flat colours onto a transparent :class:`Layer`, and :func:`composite_outlined` then
gives the whole layer one outline, so every symbol gets the same clean contour whatever its shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from bot.render.palette import RGB

Point = tuple[float, float]


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font (Aileron) at ``size`` px, for the symbols printed on cards (composites set their
    text with :mod:`bot.render._text`). Raises ``RuntimeError`` without FreeType support."""
    f = ImageFont.load_default(size=size)
    if not isinstance(f, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow built without FreeType
        raise RuntimeError("Pillow was built without FreeType; card images need its scalable default font")
    return f


@lru_cache(maxsize=1024)
def text_mask(text: str, height: int, weight: float = 0.065, stretch: float = 1.12) -> Image.Image:
    """An ``L`` mask of ``text`` cropped to its ink, about ``height`` px tall (digit height), widened by ``stretch``
    and emboldened by ``weight`` × height px on every side.

    The bold is a true dilation (the mask pasted at offsets round a circle), not FreeType's stroker, whose overlapping
    contours leave holes in heavy strokes."""
    size = max(6, round(height / 0.74))
    f = font(size)
    plain = Image.new("L", (int(f.getlength(text)) + size, 2 * size), 0)
    ImageDraw.Draw(plain).text((size // 4, size // 2), text, font=f, fill=255)
    box = plain.getbbox()
    if box is None:
        return plain
    plain = plain.crop(box)
    if stretch != 1:
        plain = plain.resize((max(1, round(plain.width * stretch)), plain.height), Image.Resampling.BICUBIC)
    bold = height * weight
    pad = math.ceil(bold) + 1
    canvas = Image.new("L", (plain.width + 2 * pad, plain.height + 2 * pad), 0)
    offsets = {(0, 0)}
    for ring in (bold, bold * 0.5):
        n = max(6, math.ceil(ring * 2.5))
        offsets |= {
            (round(ring * math.cos(2 * math.pi * i / n)), round(ring * math.sin(2 * math.pi * i / n))) for i in range(n)
        }
    for dx, dy in sorted(offsets):
        canvas.paste(255, (pad + dx, pad + dy), plain)
    box = canvas.getbbox()
    return canvas.crop(box) if box else canvas


def fit_text_mask(text: str, max_w: float, max_h: float, weight: float = 0.065) -> Image.Image:
    """:func:`text_mask` scaled to fit inside ``max_w`` × ``max_h`` px, keeping its proportions."""
    m = text_mask(text, max(4, round(max_h)), weight)
    if m.width > max_w:
        factor = max_w / m.width
        m = m.resize((max(1, round(m.width * factor)), max(1, round(m.height * factor))), Image.Resampling.LANCZOS)
    return m


@dataclass
class Layer:
    """A transparent RGBA image and its draw handle."""

    img: Image.Image
    draw: ImageDraw.ImageDraw

    @classmethod
    def new(cls, size: tuple[int, int]) -> Layer:
        img = Image.new("RGBA", size, (0, 0, 0, 0))
        return cls(img, ImageDraw.Draw(img))

    def text(
        self, text: str, cx: float, cy: float, max_w: float, max_h: float, fill: RGB, weight: float = 0.065
    ) -> None:
        """Paste ``text`` in ``fill`` centred on its ink at ``(cx, cy)``, fitted into ``max_w`` × ``max_h``."""
        m = fit_text_mask(text, max_w, max_h, weight)
        self.img.paste((*fill, 255), (round(cx - m.width / 2), round(cy - m.height / 2)), m)


_OUTLINE_LUT = [255 if v >= 20 else 0 for v in range(256)]  # hard edge: the 4× supersampling antialiases it


def composite_outlined(base: Image.Image, layer: Image.Image, outline: RGB | None, radius: float) -> None:
    """Alpha-composite ``layer`` onto ``base`` (same size, RGBA) after drawing an ``outline`` of about ``radius`` px
    around everything the layer holds (a blurred, thresholded copy of its alpha: cheap, round dilation)."""
    if outline is not None and radius > 0:
        alpha = layer.getchannel("A")
        bbox = alpha.getbbox()
        if bbox is not None:
            pad = math.ceil(radius * 2.5) + 2
            box = (
                max(0, bbox[0] - pad),
                max(0, bbox[1] - pad),
                min(base.width, bbox[2] + pad),
                min(base.height, bbox[3] + pad),
            )
            grown = alpha.crop(box).filter(ImageFilter.GaussianBlur(radius / 1.42)).point(_OUTLINE_LUT)
            base.paste((*outline, 255), box[:2], grown)
    bbox = layer.getbbox(alpha_only=True)
    if bbox is not None:
        base.alpha_composite(layer, dest=bbox[:2], source=bbox)


# --------------------------------------------------------------------------------------------------------------------
# Geometry helpers


def rotate(points: Sequence[Point], angle_deg: float, cx: float, cy: float, scale: float = 1.0) -> list[Point]:
    """Rotate unit-square ``points`` by ``angle_deg`` (clockwise on screen), scale them, move them to ``(cx, cy)``."""
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + scale * (x * ca - y * sa), cy + scale * (x * sa + y * ca)) for x, y in points]


def arrowhead(draw: ImageDraw.ImageDraw, tip: Point, angle_deg: float, length: float, width: float, fill: RGB) -> None:
    """A filled triangular arrowhead whose tip is at ``tip``, pointing along ``angle_deg`` (0 = right, 90 = down)."""
    a = math.radians(angle_deg)
    dx, dy = math.cos(a), math.sin(a)
    bx, by = tip[0] - dx * length, tip[1] - dy * length
    px, py = -dy * width / 2, dx * width / 2
    draw.polygon([tip, (bx + px, by + py), (bx - px, by - py)], fill=fill)


def arc_arrow(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    start: float,
    end: float,
    width: float,
    fill: RGB,
    head: float | None = None,
    *,
    backwards: bool = False,
) -> None:
    """An arc of radius ``r`` from ``start`` to ``end`` degrees (Pillow's convention: clockwise on screen, 0 = right)
    with an arrowhead at ``end`` pointing clockwise, or with ``backwards`` at ``start`` pointing anticlockwise."""
    head = head if head is not None else width * 2.6
    # shorten the stroke at the head's end so the head's tip lands on the arc's end angle
    back = math.degrees(head * 0.6 / r)
    if backwards:
        draw.arc((cx - r, cy - r, cx + r, cy + r), start + back, end, fill=fill, width=round(width))
        a, direction = start, start - 90
    else:
        draw.arc((cx - r, cy - r, cx + r, cy + r), start, end - back, fill=fill, width=round(width))
        a, direction = end, end + 90
    rm = r - width / 2
    tip = (cx + rm * math.cos(math.radians(a)), cy + rm * math.sin(math.radians(a)))
    arrowhead(draw, tip, direction, head, head * 1.15, fill)


def burst(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB, n: int = 8) -> None:
    """The "everyone" burst: ``n`` short rays round a symbol of size ``s`` (rays from 0.4 s to 0.52 s, thick
    0.075 s). Rays, not dots, so it never reads as the dark colours' circle marks."""
    r0, r1, t = s * 0.4, s * 0.52, s * 0.075
    for i in range(n):
        a = math.radians(i * 360 / n + 180 / n)
        ca, sa = math.cos(a), math.sin(a)
        draw.line((cx + r0 * ca, cy + r0 * sa, cx + r1 * ca, cy + r1 * sa), fill=fill, width=max(1, round(t)))


def triangle(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, fill: RGB) -> None:
    """An upward equilateral-ish triangle ``w`` px wide centred on ``(cx, cy)``."""
    h = w * 0.9
    draw.polygon([(cx, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)], fill=fill)


# --------------------------------------------------------------------------------------------------------------------
# Glyphs


@dataclass(frozen=True)
class Ink:
    """Colours a glyph may use: ``main`` for its body, ``other`` for contrast details, ``wheel`` for four-colour
    glyphs (the colours of the side in play)."""

    main: RGB
    other: RGB
    wheel: tuple[RGB, RGB, RGB, RGB]


GlyphFn = Callable[[Layer, float, float, float, Ink], None]


def g_text(text: str, height: float = 0.8, width: float = 1.05) -> GlyphFn:
    def draw(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
        if text in ("6", "9"):  # underline 6 and 9 so they read the same upside down
            m = fit_text_mask(text, s * width, s * height * 0.8)
            t = s * 0.07
            gap = s * 0.07
            top = cy - (m.height + gap + t) / 2
            layer.img.paste((*ink.main, 255), (round(cx - m.width / 2), round(top)), m)
            y = top + m.height + gap
            half = m.width * 0.42
            layer.draw.rounded_rectangle((cx - half, y, cx + half, y + t), radius=t * 0.45, fill=ink.main)
        else:
            layer.text(text, cx, cy, s * width, s * height, ink.main)

    return draw


def g_skip(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    r, t = s * 0.4, s * 0.13
    layer.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink.main, width=round(t))
    k = (r - t * 0.6) / math.sqrt(2)
    layer.draw.line((cx - k, cy - k, cx + k, cy + k), fill=ink.main, width=round(t))


_ARROW = [(0.0, -0.5), (0.3, -0.08), (0.11, -0.08), (0.11, 0.5), (-0.11, 0.5), (-0.11, -0.08), (-0.3, -0.08)]


def g_reverse(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    off = s * 0.17 / math.sqrt(2)
    layer.draw.polygon(rotate(_ARROW, 45, cx - off, cy - off, s * 0.8), fill=ink.main)
    layer.draw.polygon(rotate(_ARROW, 225, cx + off, cy + off, s * 0.8), fill=ink.main)


def g_flip(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    """A card showing both of its faces (split along its diagonal) inside two turning arrows."""
    w, h = s * 0.4, s * 0.58
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    card = Image.new("L", layer.img.size, 0)
    ImageDraw.Draw(card).rounded_rectangle((x0, y0, x1, y1), radius=s * 0.07, fill=255)
    layer.img.paste((*ink.main, 255), (0, 0), card)
    inset = s * 0.05
    inner = Image.new("L", layer.img.size, 0)
    ImageDraw.Draw(inner).rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=s * 0.04, fill=255)
    half = Image.new("L", layer.img.size, 0)
    ImageDraw.Draw(half).polygon([(x1 + 1, y0 - 1), (x1 + 1, y1 + 1), (x0 - 1, y1 + 1)], fill=255)
    layer.img.paste((*ink.other, 255), (0, 0), ImageChops.multiply(inner, half))
    r, t = s * 0.46, s * 0.08
    arc_arrow(layer.draw, cx, cy, r, 115, 245, t, ink.main, head=s * 0.24)
    arc_arrow(layer.draw, cx, cy, r, 295, 425, t, ink.main, head=s * 0.24)


def g_skip_all(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    g_skip(layer, cx, cy, s * 0.66, ink)
    burst(layer.draw, cx, cy, s, ink.main)


def g_wheel(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    r = s * 0.5
    for i, colour in enumerate(ink.wheel):
        start = 180 + 90 * i
        layer.draw.pieslice((cx - r, cy - r, cx + r, cy + r), start, start + 90, fill=colour)
    t = max(1, round(s * 0.035))
    layer.draw.line((cx - r, cy, cx + r, cy), fill=ink.other, width=t)
    layer.draw.line((cx, cy - r, cx, cy + r), fill=ink.other, width=t)


def g_shuffle(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    t = s * 0.1
    d = layer.draw
    for sign in (1, -1):
        pts = [(-0.46, 0.24 * sign), (-0.2, 0.24 * sign), (0.16, -0.24 * sign), (0.3, -0.24 * sign)]
        d.line([(cx + x * s, cy + y * s) for x, y in pts], fill=ink.main, width=round(t), joint="curve")
        arrowhead(d, (cx + 0.5 * s, cy - 0.24 * sign * s), 0, s * 0.24, s * 0.28, ink.main)


def g_pencil(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    body = [(-0.12, -0.5), (0.12, -0.5), (0.12, 0.22), (-0.12, 0.22)]
    tip = [(-0.12, 0.28), (0.12, 0.28), (0.0, 0.52)]
    layer.draw.polygon(rotate(body, -135, cx, cy, s * 0.9), fill=ink.main)
    layer.draw.polygon(rotate(tip, -135, cx, cy, s * 0.9), fill=ink.main)


def g_toggle_all(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    """Every Power Card toggles: the Power Card's bolt in the "everyone" burst."""
    g_bolt(layer, cx, cy, s * 0.6, ink)
    burst(layer.draw, cx, cy, s, ink.main)


def g_all(text: str) -> GlyphFn:
    """``text`` inside the "everyone" burst (every other player)."""

    def draw(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
        layer.text(text, cx, cy, s * 0.56, s * 0.4, ink.main)
        burst(layer.draw, cx, cy, s, ink.main)

    return draw


def g_target(text: str) -> GlyphFn:
    """``text`` inside cross-hairs (a chosen player)."""

    def draw(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
        r, t = s * 0.4, s * 0.065
        d = layer.draw
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink.main, width=round(t))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            d.line(
                (cx + dx * s * 0.3, cy + dy * s * 0.3, cx + dx * s * 0.52, cy + dy * s * 0.52),
                fill=ink.main,
                width=round(t),
            )
        layer.text(text, cx, cy, s * 0.5, s * 0.34, ink.main)

    return draw


def g_reverse_skip(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    """Reverse, then skip: the reverse arrows with a small skip sign."""
    g_reverse(layer, cx - s * 0.1, cy - s * 0.1, s * 0.78, ink)
    g_skip(layer, cx + s * 0.3, cy + s * 0.3, s * 0.42, ink)


def g_draw_colour(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    """Draw until a colour: a plus and a small colour wheel."""
    layer.text("+", cx - s * 0.25, cy, s * 0.4, s * 0.4, ink.main)
    r = s * 0.27
    layer.draw.ellipse((cx + s * 0.2 - r, cy - r, cx + s * 0.2 + r, cy + r), fill=ink.main)
    g_wheel(layer, cx + s * 0.2, cy, s * 0.42, ink)


def g_flip_icon(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    """UNO Flex!'s flip icon (toggles the Power Card): two arrows turning round each other."""
    r, t = s * 0.36, s * 0.13
    arc_arrow(layer.draw, cx, cy, r, 200, 340, t, ink.main, head=s * 0.34)
    arc_arrow(layer.draw, cx, cy, r, 20, 160, t, ink.main, head=s * 0.34)


def g_bolt(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    pts = [(0.12, -0.5), (-0.3, 0.08), (-0.03, 0.08), (-0.14, 0.5), (0.3, -0.1), (0.03, -0.1)]
    layer.draw.polygon([(cx + x * s, cy + y * s) for x, y in pts], fill=ink.main)


def g_check(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    pts = [(-0.34, 0.02), (-0.1, 0.26), (0.36, -0.24)]
    layer.draw.line([(cx + x * s, cy + y * s) for x, y in pts], fill=ink.main, width=round(s * 0.15), joint="curve")


def g_cross(layer: Layer, cx: float, cy: float, s: float, ink: Ink) -> None:
    k, t = s * 0.28, round(s * 0.15)
    layer.draw.line((cx - k, cy - k, cx + k, cy + k), fill=ink.main, width=t)
    layer.draw.line((cx - k, cy + k, cx + k, cy - k), fill=ink.main, width=t)
