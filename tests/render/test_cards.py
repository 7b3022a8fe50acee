"""Every card face of every deck as an image (SPEC C1, F1, X1, X3), borders, marks, flex corners, caching."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.engine.cards import (
    DARK_COLOURS,
    LIGHT_COLOURS,
    Colour,
    Face,
    Kind,
    Side,
    classic_faces,
    colours_of,
    flex_faces,
    flip_dark_faces,
    flip_light_faces,
    parse_face,
)
from bot.render import (
    CARD_CACHE_SIZE,
    CHIP_WIDTH,
    MarkShape,
    card_back_image,
    card_cache_info,
    card_height,
    card_image,
    chip_height,
    chip_image,
    clear_card_cache,
    colour_rgb,
    colour_swatch_image,
    dimmed_card_image,
    mark_count,
    mark_shape,
    power_card_image,
)
from bot.render.palette import PAPER
from tests.render.util import blobs, close, fill_ratio, is_white


def _unique(faces: list[Face]) -> list[Face]:
    return list(dict.fromkeys(faces))


DECKS: dict[str, tuple[list[Face], Side]] = {
    "classic-108": (_unique(classic_faces("108")), Side.LIGHT),
    "classic-112": (_unique(classic_faces("112")), Side.LIGHT),
    "flip-light": (_unique(flip_light_faces()), Side.LIGHT),
    "flip-dark": (_unique(flip_dark_faces()), Side.DARK),
    "flex": (_unique(flex_faces()), Side.LIGHT),
}
WHITE_BORDER = PAPER
BLACK_BORDER = (12, 12, 14)


def _border_samples(img: Image.Image) -> list[tuple[int, ...]]:
    """Pixels in the middle of each of the four border strips (inside the thin outer edge line)."""
    w, h = img.size
    b = max(1, round(w * 0.025))
    return [
        img.getpixel((w // 2, b)),
        img.getpixel((w // 2, h - 1 - b)),
        img.getpixel((b, h // 2)),
        img.getpixel((w - 1 - b, h // 2)),
    ]  # type: ignore[list-item]


@pytest.mark.parametrize("deck", list(DECKS))
@pytest.mark.parametrize("width", [100, 40])
def test_every_face_renders_at_the_expected_size(deck: str, width: int):
    faces, side = DECKS[deck]
    images = [card_image(f, side, width) for f in faces]
    assert all(im.size == (width, card_height(width)) and im.mode == "RGBA" for im in images)
    # corners are transparent (rounded), the middle is opaque
    assert all(im.getpixel((0, 0))[3] == 0 and im.getpixel((width // 2, width))[3] == 255 for im in images)  # type: ignore[index]
    # no two different faces look the same
    assert len({im.tobytes() for im in images}) == len(faces)


@pytest.mark.parametrize("deck", ["classic-112", "flip-light", "flex"])
def test_light_faces_have_a_white_border(deck: str):
    """SPEC F1: the light side has a white border (classic and Flex cards too)."""
    faces, side = DECKS[deck]
    for face in faces:
        assert all(close(p, WHITE_BORDER) for p in _border_samples(card_image(face, side, 100))), face


def test_flip_dark_faces_have_a_black_border():
    """SPEC F1: the dark side has a black border."""
    faces, side = DECKS["flip-dark"]
    for face in faces:
        for width in (100, 40):
            assert all(close(p, BLACK_BORDER) for p in _border_samples(card_image(face, side, width))), face


def test_a_wild_takes_the_colours_and_border_of_its_side():
    wild = Face(Kind.WILD)
    light, dark = card_image(wild, Side.LIGHT, 200), card_image(wild, Side.DARK, 200)
    # the top-left quarter of the centre wheel: red on the light side, pink on the dark side
    assert close(light.getpixel((80, 130)), colour_rgb(Colour.RED))  # type: ignore[arg-type]
    assert close(dark.getpixel((80, 130)), colour_rgb(Colour.PINK))  # type: ignore[arg-type]
    assert close(light.getpixel((100, 4)), WHITE_BORDER) and close(dark.getpixel((100, 4)), BLACK_BORDER)  # type: ignore[arg-type]


@pytest.mark.parametrize("colour", list(LIGHT_COLOURS) + list(DARK_COLOURS))
def test_cards_carry_their_colour_blind_marks(colour: Colour):
    """Flex's convention: 1–4 triangles for yellow, green, blue, red; the dark colours 1–4 circles."""
    side = Side.LIGHT if colour in LIGHT_COLOURS else Side.DARK
    img = card_image(Face(Kind.NUMBER, colour, 5), side, 200)
    # the column of marks under the top-left index
    row = img.crop((13, 62, 47, 226))
    marks = blobs(row, is_white)
    assert len(marks) == mark_count(colour)
    ratios = [fill_ratio(m) for m in marks]
    if mark_shape(colour) is MarkShape.TRIANGLE:
        assert all(0.4 < r < 0.65 for r in ratios), ratios
    else:
        assert all(0.7 < r < 0.9 for r in ratios), ratios


@pytest.mark.parametrize("colour", list(Colour))
def test_declared_colour_swatch_shows_colour_and_marks(colour: Colour):
    sw = colour_swatch_image(colour, 96)
    assert sw.size == (96, 96)
    assert close(sw.getpixel((20, 20)), colour_rgb(colour))  # type: ignore[arg-type]
    inner = sw.crop((12, 12, 84, 84))
    assert len(blobs(inner, is_white)) == mark_count(colour)


def test_flex_number_shows_both_colours():
    """SPEC X1: a flex number has its regular colour and, in the lower-right flex corner, its flex colour."""
    for face in (f for f in DECKS["flex"][0] if f.flex_colour is not None):
        assert face.colour is not None and face.flex_colour is not None
        img = card_image(face, Side.LIGHT, 200)
        assert close(img.getpixel((52, 262)), colour_rgb(face.colour)), face  # type: ignore[arg-type]
        assert close(img.getpixel((132, 280)), colour_rgb(face.flex_colour)), face  # type: ignore[arg-type]
        assert not close(img.getpixel((132, 280)), colour_rgb(face.colour))  # type: ignore[arg-type]


def test_flex_action_and_wild_cards_show_a_flex_side():
    """SPEC X5: the six Flex action/wild cards have a flex side, drawn in their lower-right corner."""
    plain, flex = card_image(parse_face("R+2"), Side.LIGHT, 200), card_image(parse_face("RX+2"), Side.LIGHT, 200)
    assert close(plain.getpixel((132, 280)), colour_rgb(Colour.RED))  # type: ignore[arg-type]
    assert not close(flex.getpixel((132, 280)), colour_rgb(Colour.RED))  # type: ignore[arg-type]
    wild = card_image(parse_face("XWT+2"), Side.LIGHT, 200)
    assert close(wild.getpixel((132, 280)), PAPER)  # type: ignore[arg-type]


@pytest.mark.parametrize(("width", "region"), [(100, (32, 7, 52, 27)), (40, (3, 46, 14, 57))])
def test_flip_icon_is_drawn(width: int, region: tuple[int, int, int, int]):
    """SPEC X1, X3: some Flex numbers carry the flip icon (beside the top-left index; bottom-left on small cards)."""
    with_icon = card_image(Face(Kind.NUMBER, Colour.YELLOW, 5, flip_icon=True), Side.LIGHT, width)
    without = card_image(Face(Kind.NUMBER, Colour.YELLOW, 5), Side.LIGHT, width)
    assert blobs(without.crop(region), is_white, min_size=3) == []
    assert len(blobs(with_icon.crop(region), is_white, min_size=3)) >= 1


def test_power_card_states_differ():
    """SPEC X3: green when active, red when inactive."""
    on, off = power_card_image(True, 100), power_card_image(False, 100)
    assert on.size == off.size == (100, 150)
    assert on.tobytes() != off.tobytes()
    g, r = on.getpixel((10, 100)), off.getpixel((10, 100))
    assert g[1] > g[0] + 60 and r[0] > r[1] + 60  # type: ignore[index]


def test_card_back_and_dimmed_cards():
    back = card_back_image(100)
    assert back.size == (100, 150) and back.getpixel((50, 2))[3] == 255  # type: ignore[index]
    face = parse_face("Y7")
    bright, dim = card_image(face), dimmed_card_image(face)
    assert dim.size == bright.size
    assert sum(dim.convert("L").tobytes()) < 0.7 * sum(bright.convert("L").tobytes())


def test_faces_are_cached_and_the_cache_is_bounded():
    clear_card_cache()
    face = parse_face("G4")
    first = card_image(face, Side.LIGHT, 88)
    hits, misses, maxsize, size = card_cache_info()
    assert card_image(face, Side.LIGHT, 88) is first
    assert card_cache_info()[0] == hits + 1 and card_cache_info()[1] == misses
    assert maxsize == CARD_CACHE_SIZE and size <= CARD_CACHE_SIZE
    # another border or size is another image
    assert card_image(face, Side.LIGHT, 90) is not first
    clear_card_cache()
    assert card_cache_info()[3] == 0


@pytest.mark.parametrize("deck", ["flip-light", "flip-dark"])
def test_row_chips_of_every_flip_face(deck: str):
    """SPEC F1, F10: the table's rows show the other faces as row chips: the border of their side (white light, black
    dark), every face distinct, rounded transparent corners."""
    faces, side = DECKS[deck]
    images = [chip_image(f, side) for f in faces]
    assert all(im.size == (CHIP_WIDTH, chip_height(CHIP_WIDTH)) and im.mode == "RGBA" for im in images)
    assert all(im.getpixel((0, 0))[3] == 0 and im.getpixel((CHIP_WIDTH // 2, 30))[3] == 255 for im in images)  # type: ignore[index]
    assert len({im.tobytes() for im in images}) == len(faces)
    border = WHITE_BORDER if side is Side.LIGHT else BLACK_BORDER
    for face, im in zip(faces, images, strict=True):
        assert all(close(p, border) for p in _border_samples(im)), face


@pytest.mark.parametrize("colour", list(LIGHT_COLOURS) + list(DARK_COLOURS))
def test_row_chips_carry_their_colour_blind_marks(colour: Colour):
    """The marks of the colour (1–4 triangles light, circles dark) in the chip's top half, the value under them."""
    side = Side.LIGHT if colour in LIGHT_COLOURS else Side.DARK
    img = chip_image(Face(Kind.NUMBER, colour, 1), side, 200)
    assert close(img.getpixel((180, 320)), colour_rgb(colour))  # type: ignore[arg-type]
    marks = blobs(img.crop((20, 20, 180, 180)), is_white)  # inside the border
    assert len(marks) == mark_count(colour)
    ratios = [fill_ratio(m) for m in marks]
    if mark_shape(colour) is MarkShape.TRIANGLE:
        assert all(0.4 < r < 0.65 for r in ratios), ratios
    else:
        assert all(0.7 < r < 0.9 for r in ratios), ratios
    assert len(blobs(img.crop((16, 190, 184, img.height - 16)), is_white, min_size=200)) == 1  # the "1"


def test_a_wild_row_chip_shows_the_wheel_of_its_side_instead_of_marks():
    light, dark = chip_image(Face(Kind.WILD), Side.LIGHT, 200), chip_image(Face(Kind.WILD), Side.DARK, 200)
    # the top-left quarter of the wheel in the middle: red on the light side, pink on the dark side
    assert close(light.getpixel((80, 150)), colour_rgb(Colour.RED))  # type: ignore[arg-type]
    assert close(dark.getpixel((80, 150)), colour_rgb(Colour.PINK))  # type: ignore[arg-type]
    # a wild draw card: the four colours of its side on top (where marks go), its value under it
    for face, side in ((parse_face("W+2"), Side.LIGHT), (parse_face("W+C"), Side.DARK)):
        img = chip_image(face, side, 200)
        wheel = [img.getpixel(p) for p in ((70, 64), (130, 64), (130, 124), (70, 124))]
        assert {c for c in colours_of(side) if any(close(p, colour_rgb(c)) for p in wheel)} == set(colours_of(side))  # type: ignore[arg-type]
        assert len(blobs(img.crop((20, 190, 180, img.height - 20)), is_white, min_size=200)) >= 1


@pytest.mark.parametrize(
    ("face", "side", "width"),
    [
        (parse_face("P3"), Side.LIGHT, 100),  # a dark colour on the light side
        (parse_face("R3"), Side.DARK, 100),
        (parse_face("W+C"), Side.LIGHT, 100),
        (parse_face("W+4"), Side.DARK, 100),
        (parse_face("R3"), Side.LIGHT, 8),
        (parse_face("R3"), Side.LIGHT, 5000),
    ],
)
def test_impossible_cards_raise(face: Face, side: Side, width: int):
    with pytest.raises(ValueError):
        card_image(face, side, width)
    with pytest.raises(ValueError):
        chip_image(face, side, width)


@pytest.mark.parametrize(
    "face", [parse_face("RX+2"), parse_face("XWT+2"), Face(Kind.NUMBER, Colour.RED, 5, flip_icon=True)]
)
def test_row_chips_refuse_what_they_cannot_show(face: Face):
    """Row chips are for UNO FLIP's faces: a Flex flex side (SPEC X4, X5) or flip icon would be lost, so they raise."""
    with pytest.raises(ValueError):
        chip_image(face, Side.LIGHT)
