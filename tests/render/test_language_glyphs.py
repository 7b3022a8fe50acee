"""Issue 18.4: the images speak the eight languages. Every letter of every catalogue (the words a table draws, such as
"left the game", come from there) and the names German, French, Polish and Brazilian players bring (ł ą ę ś ż ź ć ń,
ß, œ, ç, ã õ …) are drawn by the main bundled font, Noto Sans Bold, as real glyphs: no "?", no box, no accent lost."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.i18n import LANGUAGES, t
from bot.render._text import chain_font, has_glyph, runs, text_image
from bot.render.palette import TEXT
from tests.i18n.test_wording import texts

NAMES = {
    "pl": "Łukasz Żółć-Źdźbło, Ąę Ńś Ćma",
    "de": "Jürgen Größe, Ärger Öl Übel",
    "fr": "François Lætitia Œuvre Ÿves Éloïse Hélène Noël",
    "pt_BR": "João Conceição, Ângela Ônibus à ê õ",
}


def _glyph(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    img = Image.new("L", (2 * font.size, 2 * font.size), 0)
    ImageDraw.Draw(img).text((font.size // 2, font.size // 4), ch, font=font, fill=255)
    return img.tobytes()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_letter_of_each_catalogue_is_in_the_main_font(lang: str) -> None:
    letters = {ch for text in texts(lang) for ch in text if ch.isalpha()}
    assert len(letters) > 40
    assert sorted(ch for ch in letters if not has_glyph(0, ord(ch))) == []


@pytest.mark.parametrize(("lang", "name"), list(NAMES.items()))
def test_names_in_the_new_languages_keep_every_accent(lang: str, name: str) -> None:
    parts = runs(name)
    assert "".join(s for _, s in parts) == name  # nothing decomposed, nothing replaced by "?"
    assert {i for i, s in parts if s.strip()} == {0}
    font = chain_font(0, 40)
    missing = _glyph(font, "\U0010fffd")
    for ch in {c for c in name if c.isalpha()}:
        assert _glyph(font, ch) != missing, ch  # a real glyph, not the missing-glyph box
        base = unicodedata.normalize("NFD", ch)[0]
        if base != ch:  # an accented letter draws differently from its base letter: the accent is there
            assert _glyph(font, ch) != _glyph(font, base), ch


@pytest.mark.parametrize("lang", ["de", "fr", "pl", "pt_BR"])
def test_the_words_a_table_draws_render_in_each_new_language(lang: str) -> None:
    left = t("table.left", lang)
    sprite = text_image(left, 30, TEXT)
    assert sprite.getchannel("A").getbbox() is not None
    assert "".join(s for _, s in runs(left)) == left
