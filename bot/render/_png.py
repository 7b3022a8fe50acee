"""PNG encoding for composites: mapped onto one fixed 256-colour palette, then zlib level 1.

Why: Pillow's PNG encoder runs an adaptive row filter on RGB images, which made encoding a 25-card hand cost 20+ ms
(more than drawing it). Palette images skip the filter and are a third of the bytes. Mapping onto a *fixed* palette
costs about 1 ms (Pillow caches nearest colours in a colour cube), against 7–9 ms for an adaptive quantisation per
image. The palette holds every flat colour of the art exactly (:func:`bot.render.palette.surface_colours`) and fills
the rest with the blends that antialiased edges between them produce.
"""

from __future__ import annotations

import io
import itertools
from functools import lru_cache

from PIL import Image

from bot.render.palette import RGB, blend, surface_colours

#: zlib level for composites: palette PNGs compress well even at level 1, the fastest.
PNG_COMPRESS_LEVEL = 1


@lru_cache(maxsize=1)
def palette_colours() -> tuple[RGB, ...]:
    """The 256 colours of the composites' palette: the art's flat colours, then edge blends chosen by octree
    quantisation of every pairwise 1/4, 1/2, 3/4 blend. Deterministic; computed once (a few ms)."""
    exact = surface_colours()
    if len(exact) > 224:  # pragma: no cover - a guard for whoever adds colours
        raise RuntimeError(f"{len(exact)} flat colours leave too little room for edge blends")
    blends = [blend(a, b, t) for a, b in itertools.combinations(exact, 2) for t in (0.25, 0.5, 0.75)]
    sample = Image.new("RGB", (len(blends), 1))
    sample.putdata(blends)
    spare = 256 - len(exact)
    reduced = sample.quantize(colors=spare, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat = reduced.getpalette() or []
    extra = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, min(len(flat), 3 * spare), 3)]
    colours = list(dict.fromkeys(exact + extra))
    colours += [colours[-1]] * (256 - len(colours))
    return tuple(colours[:256])


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    img = Image.new("P", (1, 1))
    img.putpalette([v for rgb in palette_colours() for v in rgb])
    return img


def to_palette(img: Image.Image) -> Image.Image:
    """``img`` (RGB) mapped onto :func:`palette_colours` without dithering (mode ``P``)."""
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    return rgb.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def encode_png(img: Image.Image, *, palette: bool = True, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """``img`` as PNG bytes: mapped onto the fixed palette first (``palette=True``) or as it is."""
    buf = io.BytesIO()
    (to_palette(img) if palette else img).save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()
