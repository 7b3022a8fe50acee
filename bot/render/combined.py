"""UNO FLIP's hand message as one image: the player's hand on top and, under it, the table as that player sees it,
with the other faces of the opponents' hands (SPEC F10): one attachment where there were two."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image

from bot.engine.cards import Face, Side
from bot.render._png import encode_png
from bot.render.card_art import CARD_WIDTH
from bot.render.hand import hand_image
from bot.render.palette import HAND_BACKGROUND
from bot.render.table import TableScene, table_image


def hand_and_table_image(
    faces: Sequence[Face],
    scene: TableScene,
    *,
    playable: Collection[int] = (),
    side: Side = Side.LIGHT,
    power: bool | None = None,
    card_width: int = CARD_WIDTH,
) -> Image.Image:
    """:func:`~bot.render.hand_image` of ``faces`` (same ``playable``, ``side``, ``power``, ``card_width``), centred
    over :func:`~bot.render.table_image` of ``scene``, as one RGB image as wide as the wider of the two and as tall as
    both.
    An empty hand gives the table alone. Raises ``ValueError`` as those two do."""
    table = table_image(scene)
    if not faces:
        return table
    hand = hand_image(faces, playable=playable, side=side, power=power, card_width=card_width)
    width = max(hand.width, table.width)
    img = Image.new("RGB", (width, hand.height + table.height), HAND_BACKGROUND)
    img.paste(hand, ((width - hand.width) // 2, 0))
    img.paste(table, ((width - table.width) // 2, hand.height))
    return img


def render_hand_and_table(
    faces: Sequence[Face],
    scene: TableScene,
    *,
    playable: Collection[int] = (),
    side: Side = Side.LIGHT,
    power: bool | None = None,
    card_width: int = CARD_WIDTH,
) -> bytes:
    """:func:`hand_and_table_image` encoded as one palette PNG (bytes). Same arguments and errors."""
    return encode_png(
        hand_and_table_image(faces, scene, playable=playable, side=side, power=power, card_width=card_width)
    )
