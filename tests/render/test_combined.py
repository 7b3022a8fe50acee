"""UNO FLIP's hand message carries one image: the hand over the table as its player sees it (SPEC F10)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.engine.cards import Mode, Side, flip_dark_faces, flip_light_faces
from bot.render import SeatView, TableScene, hand_and_table_image, hand_image, render_hand_and_table, table_image


def _scene() -> TableScene:
    dark = flip_dark_faces()
    seats = (
        SeatView("Ľubomír", 5),
        SeatView("山田", 3, backs=tuple(dark[:3])),
        SeatView("Bo", 2, backs=tuple(dark[3:5])),
    )
    return TableScene(Mode.FLIP, Side.LIGHT, flip_light_faces()[0], seats, turn=0, draw_count=40)


def test_one_image_holds_the_hand_over_the_table():
    faces = flip_light_faces()[:9]
    scene = _scene()
    img = hand_and_table_image(faces, scene, playable=[1, 4], side=Side.LIGHT)
    hand, table = hand_image(faces, playable=[1, 4], side=Side.LIGHT), table_image(scene)
    assert img.size == (max(hand.width, table.width), hand.height + table.height)
    x = (img.width - hand.width) // 2
    assert ImageChops.difference(img.crop((x, 0, x + hand.width, hand.height)), hand).getbbox() is None
    assert ImageChops.difference(img.crop((0, hand.height, table.width, img.height)), table).getbbox() is None


def test_encoded_as_one_png_and_an_empty_hand_gives_the_table():
    data = render_hand_and_table(flip_light_faces()[:3], _scene())
    png = Image.open(io.BytesIO(data))
    assert png.format == "PNG" and png.height > table_image(_scene()).height
    assert hand_and_table_image([], _scene()).size == table_image(_scene()).size
