"""review7 (int9): where house rules H6-H9, match records/ratings/recaps and card emojis / Components V2 meet."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.card_emojis import CARD_EMOJIS
from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.i18n import LANGUAGES
from bot.render.emoji import all_face_emojis


@pytest.fixture
def synced_emojis() -> Iterator[None]:
    CARD_EMOJIS.use({e.code: discord.PartialEmoji(name=e.name, id=10_000 + n) for n, e in enumerate(all_face_emojis())})
    yield
    CARD_EMOJIS.clear()


@pytest.mark.usefixtures("synced_emojis")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_several_labels_never_carry_custom_emoji_markup(lang: str) -> None:
    """SPEC H8 multi_play with the card emojis synced (issue 18 point 1): a select option's label shows no custom
    emoji, so the "Play several…" entries must name the top card in words, not as ``<:uno_…:id>`` markup (which
    Discord shows as raw text and which the 100-character cut may break in half)."""
    from cogs.uno import house, ids

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 G5 Y5 R5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    view = game.view(0)
    labels = [house.many_label(a, view, lang) for a in ids.many_options(view)]
    assert labels
    assert not any("<:" in label for label in labels), labels
