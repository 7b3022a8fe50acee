"""Names in images: every script the bundled fonts cover is drawn as itself (no accents stripped, no "?", no tofu),
emoji in colour, and nothing raises for any text (issue 10, point 8)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.engine.cards import Mode, Side, parse_face
from bot.render import SeatView, TableScene, seat_box, table_image
from bot.render._text import (
    FONT_CHAIN,
    chain_font,
    fit,
    has_glyph,
    read_coverage,
    runs,
    text_image,
    text_width,
    write_coverage,
)
from bot.render.palette import TEXT

NAMES = {
    "Ľubomír Šťastný": 0,  # Slovak: Noto Sans
    "Nguyễn Văn Đức": 0,
    "Ωμέγα Жук": 0,
    "山田太郎": 2,  # Japanese: Noto Sans CJK
    "さくら": 2,
    "김민준": 2,
    "李小龙": 2,
    "🎲🔥": 3,  # emoji: Noto Color Emoji
    "★♠♥": 1,  # symbols: Noto Sans Symbols 2
}


def _ink(img: Image.Image) -> Image.Image:
    return img.getchannel("A").point(lambda v: 255 if v > 96 else 0)


def _glyph(font: ImageFont.FreeTypeFont, text: str, **kw: object) -> bytes:
    img = Image.new("RGBA", (4 * font.size, 2 * font.size), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((font.size // 2, font.size // 4), text, font=font, fill=(255, 255, 255, 255), **kw)  # type: ignore[arg-type]
    return img.tobytes()


@pytest.mark.parametrize(("name", "font_index"), list(NAMES.items()))
def test_each_name_is_drawn_by_a_font_that_has_its_glyphs(name: str, font_index: int):
    parts = runs(name)
    assert "".join(s for _, s in parts) == name  # nothing replaced, nothing stripped
    assert {i for i, s in parts if s.strip()} == {font_index}
    for i, s in parts:
        for ch in s:
            assert has_glyph(i, ord(ch)), (name, ch)
            # and the glyph is a real one, not the font's missing-glyph box
            f = chain_font(i, 40)
            kw = {"embedded_color": True} if FONT_CHAIN[i].strike else {}
            assert _glyph(f, ch, **kw) != _glyph(f, "\U0010fffd", **kw), (name, ch)


@pytest.mark.parametrize("name", [n for n, i in NAMES.items() if FONT_CHAIN[i].strike is None])
def test_the_sprite_is_the_name_set_in_its_font(name: str):
    """The name sprite holds exactly the ink of the name drawn directly with the font that covers it."""
    size = 30
    sprite = text_image(name, size, TEXT)
    i = runs(name)[0][0]
    f = chain_font(i, size)
    direct = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    ImageDraw.Draw(direct).text((0, round(size * 1.1)), name, font=f, fill=(*TEXT, 255), anchor="ls")
    assert ImageChops.difference(_ink(sprite), _ink(direct)).getbbox() is None
    assert _ink(sprite).getbbox() is not None


def test_accents_are_kept_not_stripped():
    accented = text_image("Ľubomír Šťastný", 30, TEXT)
    stripped = text_image("Lubomir Stastny", 30, TEXT)
    assert _ink(accented).tobytes() != _ink(stripped).tobytes()
    # the carons and acutes sit above the x-height: the accented name has more ink in the top band
    top = (0, 0, min(accented.width, stripped.width), 12)
    assert sum(_ink(accented).crop(top).tobytes()) > sum(_ink(stripped).crop(top).tobytes())


def test_emoji_are_drawn_in_colour():
    data = text_image("Alice 🔥", 30, TEXT).tobytes()
    px = [data[i : i + 4] for i in range(0, len(data), 4) if data[i + 3] > 200]
    saturated = [p for p in px if max(p[:3]) - min(p[:3]) > 80]
    assert len(saturated) > 40  # the flame's orange, not a grey "?"


def test_fancy_letters_fall_back_to_their_plain_form_and_the_rest_to_a_question_mark():
    assert "".join(s for _, s in runs("𝐁𝐨𝐥𝐝")) == "Bold"
    assert "".join(s for _, s in runs("\U0010fffd")) == "?"


@pytest.mark.parametrize(
    "text", ["", "   ", "\u0301", "a\u200d", "\x00", "மதி", "x" * 300, "👩‍🚀", "e\u0301\u0301\u0301", "\ufe0f"]
)
def test_no_text_raises(text: str):
    img = text_image(text, 20, TEXT)
    assert img.height > 0 and img.width > 0
    assert fit(text, 20, 100) is not None


def test_the_table_draws_the_real_name():
    def scene(name: str) -> TableScene:
        return TableScene(Mode.CLASSIC, Side.LIGHT, parse_face("R1"), (SeatView(name, 2), SeatView("Bo", 1)))

    box = seat_box(scene("x"), 0)
    name_area = (box[0] + 28, box[1], box[0] + 230, box[3])
    real = table_image(scene("Ľubomír Šťastný")).crop(name_area)
    old = table_image(scene("Lubomir Stastny")).crop(name_area)
    jp = table_image(scene("山田太郎")).crop(name_area)
    qq = table_image(scene("????")).crop(name_area)
    assert real.tobytes() != old.tobytes()
    assert jp.tobytes() != qq.tobytes()
    assert ImageChops.difference(jp, table_image(scene("")).crop(name_area)).getbbox() is not None


def test_the_stored_coverage_is_each_fonts_character_map(tmp_path):
    """``fonts/coverage.json`` (read at run time instead of the fonts' cmaps) matches the bundled fonts."""
    import json

    from bot.render import _text

    stored = json.loads(_text.COVERAGE_FILE.read_text(encoding="utf-8"))
    assert stored == {ff.file: read_coverage(ff.path) for ff in FONT_CHAIN}
    assert callable(write_coverage)


def test_a_country_flag_is_drawn_as_its_flag_not_as_two_letters():
    """Issue 18 (review): "Mia 🇮🇹" showed Mia and two boxed letters I T in the table image; the flag is one emoji
    wide and drawn in its colours (green, white, red from left to right); a pair that is no flag stays two letters."""
    from bot.render._text import FLAG

    assert runs("Mia 🇮🇹") == [(0, "Mia "), (FLAG, "🇮🇹")]
    assert [i for i, _ in runs("🇦🇦")] == [len(FONT_CHAIN) - 1]  # no flag: the letters, as Discord does
    flag = text_image("🇮🇹", 40, TEXT)
    letters = text_image("🇮 🇹", 40, TEXT)
    assert text_width("🇮🇹", 40) == pytest.approx(text_width("🔥", 40))
    assert flag.width < letters.width / 2 + 5
    band = flag.crop((0, flag.height // 3, flag.width, flag.height * 2 // 3)).convert("RGB")
    row = [band.getpixel((x, band.height // 2)) for x in range(band.width)]
    coloured = [p for p in row if max(p) > 120]
    thirds = [coloured[len(coloured) * k // 6] for k in (1, 3, 5)]
    green, white, red = thirds
    assert green[1] > green[0] + 60 and min(white) > 200 and red[0] > red[1] + 80, thirds


def test_the_stored_flags_are_every_flag_of_the_emoji_font():
    import json

    from bot.render import _text

    index = json.loads(_text.FLAGS_INDEX.read_text(encoding="utf-8"))
    assert len(index) == 258 and {"IT", "PL", "SK", "DE", "FR", "BR", "ES", "UN", "EU"} <= set(index)
    with Image.open(_text.FLAGS_FILE) as sheet:
        for x, y in index.values():
            assert sheet.crop((x, y, x + _text.FLAG_CELL[0], y + _text.FLAG_CELL[1])).getbbox() is not None
