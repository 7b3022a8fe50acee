"""Text in the composites (player names, counts, index labels): bundled open fonts with a per-character fallback chain.

Pillow has no font fallback of its own, so a text is cut into runs, each drawn with the first font of
:data:`FONT_CHAIN` whose character map holds its characters, and the runs are set on one baseline. The character
maps are stored in ``fonts/coverage.json`` (so drawing needs no font library but Pillow; ``python -m
bot.render._text`` rewrites it with fontTools after a font changes). The fonts are bundled in ``bot/render/fonts/``
under the SIL Open Font License 1.1 (``OFL.txt`` there):

- Noto Sans Bold: Latin (every accent, Vietnamese), Greek, Cyrillic;
- Noto Sans Symbols 2: stars, suits, arrows, dingbats often found in display names;
- Noto Sans CJK JP Bold, subset to kana, JIS X 0208 and GB2312 ideographs, KS X 1001 hangul and full-width forms;
- Noto Color Emoji, subset to the single-code-point emoji (no skin-tone or ZWJ sequences: their first emoji shows).

A character none of them has is replaced by its compatibility decomposition when that is drawable (the
"𝐁𝐨𝐥𝐝" letters of fancy names become "Bold") and otherwise by ``"?"``; combining marks, variation selectors and
joiners stay with the character before them. Nothing here raises for any text.
"""

from __future__ import annotations

import bisect
import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.render.palette import RGB

#: Folder of the bundled fonts and their licence.
FONT_DIR = Path(__file__).resolve().parent / "fonts"
#: The code points of each font of the chain, as ``{file: [[first, last], ...]}`` ranges.
COVERAGE_FILE = FONT_DIR / "coverage.json"


@dataclass(frozen=True, slots=True)
class FontFile:
    """One font of the chain: ``file`` in :data:`FONT_DIR`; ``strike``: the only pixel size of a bitmap (colour emoji)
    font, drawn at that size and scaled (None: scalable); ``scale``: its glyphs' size relative to the main font."""

    file: str
    strike: int | None = None
    scale: float = 1.0

    @property
    def path(self) -> Path:
        return FONT_DIR / self.file


#: The fallback chain, first match wins (see the module docstring).
FONT_CHAIN: tuple[FontFile, ...] = (
    FontFile("NotoSans-Bold.ttf"),
    FontFile("NotoSansSymbols2-Regular.ttf"),
    FontFile("NotoSansCJKjp-Bold-subset.otf"),
    FontFile("NotoColorEmoji-subset.ttf", strike=109, scale=0.95),
)

# Characters that belong to the character before them (combining marks are found by unicodedata).
_JOINERS = frozenset({0x200C, 0x200D, 0x20E3}) | frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0x1F3FB, 0x1F400))
_JOINERS |= frozenset(range(0xE0020, 0xE0080))


@lru_cache(maxsize=1)
def _ranges() -> dict[str, tuple[list[int], list[int]]]:
    data = json.loads(COVERAGE_FILE.read_text(encoding="utf-8"))
    return {name: ([a for a, _ in pairs], [b for _, b in pairs]) for name, pairs in data.items()}


def has_glyph(i: int, cp: int) -> bool:
    """Whether font ``i`` of :data:`FONT_CHAIN` has a glyph for code point ``cp`` (its best Unicode cmap)."""
    firsts, lasts = _ranges()[FONT_CHAIN[i].file]
    k = bisect.bisect_right(firsts, cp) - 1
    return k >= 0 and cp <= lasts[k]


def read_coverage(path: Path) -> list[list[int]]:
    """The best Unicode cmap of the font at ``path`` as sorted ``[first, last]`` ranges (needs fontTools, a
    development dependency)."""
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as f:
        cps = sorted(f.getBestCmap())
    out: list[list[int]] = []
    for cp in cps:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def write_coverage() -> None:
    """Rewrite :data:`COVERAGE_FILE` from the fonts (after changing one)."""
    data = {ff.file: read_coverage(ff.path) for ff in FONT_CHAIN}
    COVERAGE_FILE.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


@lru_cache(maxsize=128)
def chain_font(i: int, size: int) -> ImageFont.FreeTypeFont:
    """Font ``i`` of the chain at ``size`` px (a bitmap font at its strike size whatever ``size`` is)."""
    ff = FONT_CHAIN[i]
    return ImageFont.truetype(str(ff.path), ff.strike or max(1, round(size * ff.scale)))


def main_font(size: int) -> ImageFont.FreeTypeFont:
    """The chain's first font (Noto Sans Bold) at ``size`` px: for digits and other text it always holds."""
    return chain_font(0, size)


@lru_cache(maxsize=4096)
def _font_for(ch: str) -> int | None:
    cp = ord(ch)
    for i in range(len(FONT_CHAIN)):
        if has_glyph(i, cp):
            return i
    return None


def _attached(ch: str) -> bool:
    return ord(ch) in _JOINERS or unicodedata.combining(ch) != 0


def runs(text: str) -> list[tuple[int, str]]:
    """``text`` (whitespace runs made one space) as ``(font index, characters)`` runs, each drawable by that font of
    :data:`FONT_CHAIN`; characters no font has are decomposed or replaced by ``"?"`` (module docstring)."""
    out: list[tuple[int, str]] = []

    def add(i: int, s: str) -> None:
        if out and out[-1][0] == i:
            out[-1] = (i, out[-1][1] + s)
        else:
            out.append((i, s))

    for ch in " ".join(text.split()):
        if _attached(ch) and out:
            if _font_for(ch) == out[-1][0] or unicodedata.combining(ch) == 0:
                out[-1] = (out[-1][0], out[-1][1] + ch)  # joiners and selectors travel with their base
            continue  # a combining mark the base's font lacks: drop it rather than draw a box
        i = _font_for(ch)
        if i is not None:
            add(i, ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if base and all(_font_for(c) is not None for c in base):
            for c in base:
                add(_font_for(c) or 0, c)
        else:
            add(0, "?")
    return out


def _run_width(i: int, s: str, size: int) -> float:
    f = chain_font(i, size)
    ff = FONT_CHAIN[i]
    w = f.getlength(s)
    return w * (size * ff.scale / ff.strike) if ff.strike else w


def text_width(text: str, size: int) -> float:
    """Width in px of :func:`text_image` of ``text`` at ``size``."""
    return sum(_run_width(i, s, size) for i, s in runs(text))


def fit(text: str, size: int, max_width: float) -> str:
    """``text`` cut with an ellipsis (whole characters, never between a character and its marks) so that at ``size``
    it is at most ``max_width`` px wide."""
    text = " ".join(text.split())
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
        while text and _attached(text[-1]):
            text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=1024)
def text_image(text: str, size: int, fill: RGB) -> Image.Image:
    """``text`` drawn at ``size`` px (the main font's em) in ``fill`` on a transparent RGBA sprite, one line, through
    the fallback chain; emoji keep their own colours. The sprite is ``ceil(1.45 × size)`` px tall with the baseline at
    ``round(1.1 × size)``; an empty text gives a 1 px wide sprite. Cached and shared: treat as read-only."""
    height, baseline = -(-size * 145 // 100), round(size * 1.1)
    parts = runs(text)
    width = max(1, round(sum(_run_width(i, s, size) for i, s in parts)) + 2)
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    x = 0.0
    for i, s in parts:
        f = chain_font(i, size)
        ff = FONT_CHAIN[i]
        if ff.strike is None:
            ImageDraw.Draw(img).text((x, baseline), s, font=f, fill=(*fill, 255), anchor="ls")
            x += f.getlength(s)
            continue
        # a bitmap (colour emoji) run: drawn at its strike size and scaled to the text
        ascent, descent = f.getmetrics()
        big = Image.new("RGBA", (max(1, round(f.getlength(s))) + 4, ascent + descent), (0, 0, 0, 0))
        ImageDraw.Draw(big).text((0, ascent), s, font=f, embedded_color=True, anchor="ls")
        k = size * ff.scale / ff.strike
        small = big.resize((max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS)
        img.alpha_composite(small, (round(x), max(0, baseline - round(ascent * k))))
        x += f.getlength(s) * k
    return img


if __name__ == "__main__":
    write_coverage()
