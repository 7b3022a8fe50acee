"""Card, hand and table images for the bot (Pillow), drawn entirely by our own code and cached.

Public API:

- :func:`card_image` / :func:`dimmed_card_image`: one face (classic, FLIP light/dark, Flex) as an RGBA image;
  :func:`card_back_image`, :func:`power_card_image`, :func:`colour_swatch_image`: the other pieces;
  :func:`chip_image`: a face simplified for the table's seat rows (UNO FLIP's other faces, SPEC F10).
- :func:`render_hand` / :func:`hand_image`: a hand with index labels, playable cards highlighted.
- :func:`render_table` / :func:`table_image` with :class:`TableScene` and :class:`SeatView`: the table.
- :func:`render_hand_and_table` / :func:`hand_and_table_image`: UNO FLIP's hand message, the hand over the table as
  its player sees it (SPEC F10), as one image.
- :func:`warm_cache`: draw every card image ahead of time (call from a worker thread at start-up).
- :func:`colour_mark`, :func:`mark_count`, :func:`mark_shape`, :func:`colour_emoji`, :func:`colour_rgb`: the
  colour-blind marks and emoji, for images and text alike.

This package imports nothing from discord, asyncio or storage, and only :mod:`bot.engine.cards` from the engine.
"""

from bot.render.card_art import (
    CARD_CACHE_SIZE,
    CARD_WIDTH,
    CHIP_WIDTH,
    MINI_WIDTH,
    card_back_image,
    card_cache_info,
    card_height,
    card_image,
    chip_height,
    chip_image,
    clear_card_cache,
    colour_swatch_image,
    dimmed_card_image,
    images_drawn,
    power_card_image,
)
from bot.render.combined import hand_and_table_image, render_hand_and_table
from bot.render.hand import HAND_MAX_WIDTH, HandLayout, hand_image, hand_layout, render_hand
from bot.render.palette import MarkShape, colour_emoji, colour_mark, colour_rgb, mark_count, mark_shape
from bot.render.table import TABLE_WIDTH, SeatView, TableScene, render_table, seat_box, table_image, table_size
from bot.render.warm import faces_of, warm_cache

__all__ = [
    "CARD_CACHE_SIZE",
    "CARD_WIDTH",
    "CHIP_WIDTH",
    "HAND_MAX_WIDTH",
    "MINI_WIDTH",
    "TABLE_WIDTH",
    "HandLayout",
    "MarkShape",
    "SeatView",
    "TableScene",
    "card_back_image",
    "card_cache_info",
    "card_height",
    "card_image",
    "chip_height",
    "chip_image",
    "clear_card_cache",
    "colour_emoji",
    "colour_mark",
    "colour_rgb",
    "colour_swatch_image",
    "dimmed_card_image",
    "faces_of",
    "hand_and_table_image",
    "hand_image",
    "hand_layout",
    "images_drawn",
    "mark_count",
    "mark_shape",
    "power_card_image",
    "render_hand",
    "render_hand_and_table",
    "render_table",
    "seat_box",
    "table_image",
    "table_size",
    "warm_cache",
]
