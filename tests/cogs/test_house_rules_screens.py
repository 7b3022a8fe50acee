"""The Discord layer's screens and checks under house rules H8-H9 (found in review 7): the **Play several…**
labels, a full history page, a forged **Play several…** value."""

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
    from cogs.uno.screens import house, ids

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 G5 Y5 R5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    view = game.view(0)
    labels = [house.many_label(a, view, lang) for a in ids.many_options(view)]
    assert labels
    assert not any("<:" in label for label in labels), labels


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_history_page_of_ten_full_tables_with_long_names_fits_an_embed(lang: str) -> None:
    """Issue 19 point 2 at the worst case: a page of 10 matches of 10 seats whose players have 32-character display
    names (Discord's longest; with Markdown characters that shown_name escapes) must fit an embed's description
    (4,096 characters) and its whole size (6,000), or Discord refuses the page."""
    from bot.storage import HistoryRow
    from cogs.uno.screens.recap import history_embed

    names = tuple(f"{'_' * 31}{i}" for i in range(9))
    row = HistoryRow(1, "1:2:3", "flip", 2, 1_799_999_999.0, "completed", 10, 10, 1234, 1234, names, -123, True)
    embed = history_embed("x" * 32, [row] * 10, lang, 9, 10, "this server")
    assert len(embed.description or "") <= 4096 and len(embed) <= 6000, len(embed.description or "")


@pytest.mark.parametrize("values", [("2",), ("-1",), ("0", "1"), (), ("１",), ("0x1",)])
def test_h8_a_forged_play_several_value_is_refused(values: tuple[str, ...]) -> None:
    """SPEC H8: a "Play several…" select sends exactly one index of the list the player saw; anything else is
    forged and refused before any action is built."""
    from bot.adapter.session_view import SessionView
    from cogs.uno.input.clicks import HAND_ACTIONS, HandClick
    from cogs.uno.input.inputs import BadInput
    from tests.cogs.sessions import flip_session

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    session = flip_session(3)
    session.mode, session.options, session.game = Mode.CLASSIC, options, game
    with pytest.raises(BadInput):
        HAND_ACTIONS["many"](HandClick(SessionView.of(session), game.view(0), "en", "", values))
