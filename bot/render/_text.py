"""Text in the composites (player names, counts, index labels): bundled open fonts with a per-character fallback chain.

Pillow has no font fallback of its own, so a text is cut into runs, each drawn with the first font of
:data:`FONT_CHAIN` whose character map holds its characters, and the runs are set on one baseline. The character
maps are stored in ``fonts/coverage.json`` (so drawing needs no font library but Pillow; ``python -m
bot.render._text`` rewrites it with fontTools after a font changes). The fonts are bundled in ``bot/render/fonts/``
under the SIL Open Font License 1.1 (``OFL.txt`` there):

- Noto Sans Bold: Latin (every accent, Vietnamese), Greek, Cyrillic;
- Noto Sans Symbols 2: stars, suits, arrows, dingbats often found in display names;
- Noto Sans CJK JP Bold, subset to kana, JIS X 0208 and GB2312 ideographs, KS X 1001 hangul and full-width forms;
- Noto Color Emoji, subset to the single-code-point emoji (no skin-tone or ZWJ sequences: their first emoji shows);
- the country flags of Noto Color Emoji (a pair of regional indicator letters, 🇮🇹), which that subset cannot form
  (it has no layout tables, and Pillow may have no text shaper): ``fonts/flags.png``, every flag's bitmap in one
  sheet, and ``fonts/flags.json``, where each one is (``python -m bot.render._text flags FULL_FONT`` rewrites them
  from the full Noto Color Emoji). A pair that is no flag is drawn as its two letters, as Discord does.

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
#: Every country flag of Noto Color Emoji in one RGBA sheet, and where each one is in it (``{"IT": [x, y], ...}``).
FLAGS_FILE = FONT_DIR / "flags.png"
FLAGS_INDEX = FONT_DIR / "flags.json"
#: The size of a flag in :data:`FLAGS_FILE`: the emoji font's whole strike box (advance × ascent + descent) scaled.
FLAG_CELL = (51, 48)
_REGIONAL_A = 0x1F1E6  # REGIONAL INDICATOR SYMBOL LETTER A; Z is _REGIONAL_A + 25


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


def write_flags(full_font: Path) -> int:
    """Rewrite :data:`FLAGS_FILE` and :data:`FLAGS_INDEX` from the full Noto Color Emoji at ``full_font`` (Debian's
    ``fonts-noto-color-emoji``): every regional-indicator pair its GSUB table makes one glyph, drawn through Pillow's
    Raqm layout at the strike size and scaled to :data:`FLAG_CELL`. Needs fontTools and Raqm; returns the number of
    flags."""
    from fontTools.ttLib import TTFont

    with TTFont(full_font, lazy=True) as tt:
        glyph_cp = {g: cp for cp, g in tt.getBestCmap().items() if 0 <= cp - _REGIONAL_A < 26}
        codes = set()
        for lookup in tt["GSUB"].table.LookupList.Lookup:
            for sub in lookup.SubTable:
                sub = getattr(sub, "ExtSubTable", sub)
                for first, ligatures in getattr(sub, "ligatures", {}).items():
                    for lig in ligatures:
                        if first in glyph_cp and len(lig.Component) == 1 and lig.Component[0] in glyph_cp:
                            pair = (glyph_cp[first], glyph_cp[lig.Component[0]])
                            codes.add("".join(chr(65 + cp - _REGIONAL_A) for cp in pair))
    ff = FONT_CHAIN[-1]
    font = ImageFont.truetype(str(full_font), ff.strike or 109, layout_engine=ImageFont.Layout.RAQM)
    ascent, descent = font.getmetrics()
    advance = round(font.getlength("\U0001f600"))
    columns = 16
    sheet = Image.new("RGBA", (columns * FLAG_CELL[0], -(-len(codes) // columns) * FLAG_CELL[1]), (0, 0, 0, 0))
    index: dict[str, list[int]] = {}
    for k, code in enumerate(sorted(codes)):
        big = Image.new("RGBA", (advance, ascent + descent), (0, 0, 0, 0))
        indicators = "".join(chr(_REGIONAL_A + ord(c) - 65) for c in code)
        ImageDraw.Draw(big).text((0, ascent), indicators, font=font, embedded_color=True, anchor="ls")
        x, y = (k % columns) * FLAG_CELL[0], (k // columns) * FLAG_CELL[1]
        sheet.alpha_composite(big.resize(FLAG_CELL, Image.Resampling.LANCZOS), (x, y))
        index[code] = [x, y]
    sheet.save(FLAGS_FILE, optimize=True)
    FLAGS_INDEX.write_text(json.dumps(index, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    return len(index)


@lru_cache(maxsize=1)
def _flags() -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    index = json.loads(FLAGS_INDEX.read_text(encoding="utf-8"))
    with Image.open(FLAGS_FILE) as sheet:
        return sheet.convert("RGBA"), {code: (x, y) for code, (x, y) in index.items()}


def _flag_code(a: str, b: str) -> str | None:
    """``"IT"`` for the pair of regional indicators 🇮 🇹 when it is a flag of :data:`FLAGS_FILE`, else None."""
    i, j = ord(a) - _REGIONAL_A, ord(b) - _REGIONAL_A
    if not (0 <= i < 26 and 0 <= j < 26):
        return None
    code = chr(65 + i) + chr(65 + j)
    return code if code in _flags()[1] else None


@lru_cache(maxsize=256)
def _flag_sprite(code: str, size: int) -> Image.Image:
    """The flag ``code`` as drawn in a text of ``size`` px: the emoji font's strike box scaled as its emoji are."""
    sheet, index = _flags()
    x, y = index[code]
    ff = FONT_CHAIN[-1]
    k = size * ff.scale / (ff.strike or 109)
    box = chain_font(len(FONT_CHAIN) - 1, size).getmetrics()
    w, h = round(chain_font(len(FONT_CHAIN) - 1, size).getlength("\U0001f600") * k), round(sum(box) * k)
    cell = sheet.crop((x, y, x + FLAG_CELL[0], y + FLAG_CELL[1]))
    return cell.resize((max(1, w), max(1, h)), Image.Resampling.LANCZOS)


FLAG = -1
"""The font index :func:`runs` gives a run of country flags (each one two regional indicators, drawn from
:data:`FLAGS_FILE`)."""


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

    chars = " ".join(text.split())
    skip = False
    for n, ch in enumerate(chars):
        if skip:
            skip = False
            continue
        if n + 1 < len(chars) and _flag_code(ch, chars[n + 1]) is not None:
            add(FLAG, ch + chars[n + 1])  # a country flag (module docstring)
            skip = True
            continue
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
    if i == FLAG:
        return len(s) // 2 * _run_width(len(FONT_CHAIN) - 1, "\U0001f600", size)
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
        if i == FLAG:
            k = size * FONT_CHAIN[-1].scale / (FONT_CHAIN[-1].strike or 109)
            ascent = chain_font(len(FONT_CHAIN) - 1, size).getmetrics()[0]
            step = _run_width(FLAG, "..", size)
            for n in range(0, len(s), 2):
                code = _flag_code(s[n], s[n + 1]) or ""
                img.alpha_composite(_flag_sprite(code, size), (round(x), max(0, baseline - round(ascent * k))))
                x += step
            continue
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
    import sys

    if sys.argv[1:2] == ["flags"]:
        print(f"{write_flags(Path(sys.argv[2]))} flags written to {FLAGS_FILE}")
    else:
        write_coverage()
