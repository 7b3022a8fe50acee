"""Drawing every card image the composites use ahead of time, so the first hands of a match are as fast as the rest."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import (
    Face,
    Mode,
    Side,
    classic_faces,
    colours_of,
    flex_faces,
    flip_dark_faces,
    flip_light_faces,
)
from bot.render.card_art import (
    CARD_WIDTH,
    card_back_image,
    card_image,
    chip_image,
    colour_swatch_image,
    dimmed_card_image,
    images_drawn,
    power_card_image,
)
from bot.render.hand import _POWER_W
from bot.render.table import _PILE_W, _SEAT_BACK_W, _SEAT_POWER_W, _SWATCH, _TOP_W


def faces_of(mode: Mode) -> list[tuple[Face, Side]]:
    """Every distinct (face, side) of ``mode``'s deck: classic includes the 112 edition, FLIP both sides."""
    if mode is Mode.CLASSIC:
        return [(f, Side.LIGHT) for f in dict.fromkeys(classic_faces("112"))]
    if mode is Mode.FLEX:
        return [(f, Side.LIGHT) for f in dict.fromkeys(flex_faces())]
    light = [(f, Side.LIGHT) for f in dict.fromkeys(flip_light_faces())]
    return light + [(f, Side.DARK) for f in dict.fromkeys(flip_dark_faces())]


def warm_cache(modes: Iterable[Mode] = tuple(Mode)) -> int:
    """Draw every face of ``modes`` at every size the hand and table images use (hand cards plain and dimmed, the
    discard pile; for FLIP also the draw pile and the row chips of the opponents' hands), and the card back, Power
    Cards and swatches. Returns how many images were drawn (0 when all were cached already).

    Takes tens of seconds of CPU for all three games (about 25 ms per image), so call it from a worker thread at
    start-up; concurrent renders stay correct meanwhile (at worst an image is drawn twice)."""
    before = images_drawn()
    for mode in modes:
        for face, side in faces_of(mode):
            card_image(face, side, CARD_WIDTH)
            dimmed_card_image(face, side, CARD_WIDTH)
            card_image(face, side, _TOP_W)
            if mode is Mode.FLIP:
                card_image(face, side, _PILE_W)
                chip_image(face, side)
        for side in (Side.LIGHT, Side.DARK) if mode is Mode.FLIP else (Side.LIGHT,):
            for colour in colours_of(side):
                colour_swatch_image(colour, _SWATCH)
    for width in (_PILE_W, _SEAT_BACK_W):
        card_back_image(width)
    for active in (True, False):
        for width in (_POWER_W, _SEAT_POWER_W):
            power_card_image(active, width)
    return images_drawn() - before
