"""Table images for the three games (SPEC F3, F10 what everyone sees in FLIP, X9 Power Cards are public)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.cards import (
    DARK_COLOURS,
    Colour,
    Face,
    Mode,
    Side,
    build_deck,
    flip_dark_faces,
    flip_light_faces,
    parse_face,
    parse_faces,
)
from bot.render import colour_rgb
from bot.render._text import fit
from bot.render.palette import BACK_FIELD, FELT, HIGHLIGHT, MUTED, PILL_BG, POWER_OFF, POWER_ON, SEAT_BG, TEXT, TURN_BG
from bot.render.table import TABLE_WIDTH, SeatView, TableScene, render_table, seat_box, table_image, table_size
from tests.render.util import close


def _count(img: Image.Image, rgb: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    """Pixels of ``img`` (inside ``box``) within a small distance of ``rgb``."""
    region = img.crop(box) if box else img
    data = region.convert("RGB").tobytes()
    return sum(
        1
        for i in range(0, len(data), 3)
        if abs(data[i] - rgb[0]) <= 6 and abs(data[i + 1] - rgb[1]) <= 6 and abs(data[i + 2] - rgb[2]) <= 6
    )


def _scene(mode: Mode, players: int, seed: int = 3, **kw: object) -> TableScene:
    rng = random.Random(seed)
    cards = list(build_deck(mode).cards)
    rng.shuffle(cards)
    seats = []
    for i in range(players):
        hand = [cards.pop() for _ in range(rng.randint(1, 15))]
        backs = tuple(c.face(Side.DARK) for c in hand) if mode is Mode.FLIP else None
        power = (i % 2 == 0) if mode is Mode.FLEX else None
        seats.append(SeatView(f"Player {i + 1}", len(hand), backs, power))
    top = next(c.light for c in cards if not c.light.is_wild)
    args: dict[str, object] = {
        "turn": players - 1,
        "draw_count": len(cards),
        "draw_top_other": cards[0].dark if mode is Mode.FLIP else None,
    }
    args.update(kw)
    return TableScene(mode, Side.LIGHT, top, tuple(seats), **args)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("players", [2, 10])
def test_table_renders_for_every_mode(mode: Mode, players: int):
    scene = _scene(mode, players)
    data = render_table(scene)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.size == table_size(scene)
    assert img.width == TABLE_WIDTH and img.height < 1200
    assert len(data) < 300_000
    img = img.convert("RGB")
    # the seat whose turn it is has a highlighted outline, the others do not
    for i in range(players):
        x0, y0, x1, _ = seat_box(scene, i)
        assert close(img.getpixel(((x0 + x1) // 2, y0 + 1)), HIGHLIGHT) == (i == scene.turn)  # type: ignore[arg-type]


def test_flip_shows_the_other_faces_of_each_hand():
    """SPEC F10: everyone sees the other face of every opponent's hand and of the draw pile's top card."""
    pink = parse_faces("P1 P2 P3 P4")
    hidden = SeatView("Me", 3)  # the viewer's own hand: only its size
    seen = SeatView("Ann", 4, tuple(pink))
    scene = TableScene(
        Mode.FLIP, Side.LIGHT, parse_face("R5"), (hidden, seen), turn=0, draw_count=30, draw_top_other=parse_face("T7")
    )
    img = table_image(scene)
    assert _count(img, colour_rgb(Colour.PINK), seat_box(scene, 1)) > 1000
    assert _count(img, colour_rgb(Colour.PINK), seat_box(scene, 0)) == 0
    # the draw pile shows the teal 7, not a card back
    header = (400, 0, TABLE_WIDTH, 240)
    assert _count(img, colour_rgb(Colour.TEAL), header) > 2000
    assert _count(img, BACK_FIELD, header) == 0


def test_flip_dark_side_in_play_shows_light_backs():
    scene = TableScene(
        Mode.FLIP,
        Side.DARK,
        parse_face("O5"),
        (SeatView("Ann", 2, (parse_face("Y1"), parse_face("W+2"))), SeatView("Bob", 1, (parse_face("B3"),))),
        turn=1,
        declared=None,
        draw_count=5,
        draw_top_other=parse_face("G2"),
    )
    img = table_image(scene)
    assert _count(img, colour_rgb(Colour.YELLOW), seat_box(scene, 0)) > 300
    assert _count(img, colour_rgb(Colour.BLUE), seat_box(scene, 1)) > 300


def _flip_seats(*counts: int, side: Side = Side.DARK, seed: int = 9) -> tuple[SeatView, ...]:
    """Seats holding ``counts`` cards each, their ``side`` faces dealt at random from UNO FLIP's with repeats (so any
    count fits)."""
    rng = random.Random(seed)
    faces = flip_dark_faces() if side is Side.DARK else flip_light_faces()
    return tuple(SeatView(f"P{i}", n, tuple(rng.choice(faces) for _ in range(n))) for i, n in enumerate(counts))


def _rows_hold_their_chips(scene: TableScene, img: Image.Image) -> None:
    """Each row's chips stay inside it: the gap under a row is bare felt, the row's right edge bare."""
    for i in range(len(scene.seats)):
        x0, y0, x1, y1 = seat_box(scene, i)
        assert _count(img, FELT, (x0, y1, x1, y1 + 6)) == (x1 - x0) * 6, i
        edge = (x1 - 8, y0 + 10, x1, y1 - 10)
        assert _count(img, SEAT_BG, edge) + _count(img, TURN_BG, edge) + _count(img, HIGHLIGHT, edge) == 8 * (
            y1 - y0 - 20
        )


def test_flip_rows_take_a_second_line_for_a_large_hand():
    """SPEC F10: every other face is shown; up to 13 cards fit one line of row chips, more take two (the row grows),
    more than 26 overlap within the two lines."""
    counts = (1, 13, 14, 26, 40)
    scene = TableScene(Mode.FLIP, Side.LIGHT, parse_face("R5"), _flip_seats(*counts), turn=0)
    heights = [seat_box(scene, i)[3] - seat_box(scene, i)[1] for i in range(len(counts))]
    assert heights == [77, 77, 147, 147, 147]
    img = table_image(scene)
    assert img.size == table_size(scene) == (TABLE_WIDTH, 252 + sum(heights) + 6 * (len(counts) - 1) + 14)
    _rows_hold_their_chips(scene, img)
    for i, n in enumerate(counts):  # the chips' colours fill the row in proportion to the cards (up to two lines)
        x0, y0, x1, y1 = seat_box(scene, i)
        colour = sum(_count(img, colour_rgb(c), (x0 + 284, y0, x1 - 8, y1)) for c in DARK_COLOURS)
        assert colour > 300 * min(n, 26), i


def test_ten_flip_players_with_25_cards_each_fit_in_a_bounded_table():
    """Far more cards than a deck holds, the height still bounded: two lines of chips per seat at most."""
    seats = _flip_seats(*[25] * 10, side=Side.LIGHT)
    scene = TableScene(Mode.FLIP, Side.DARK, parse_face("P5"), seats, turn=9)
    img = table_image(scene)
    assert img.size == table_size(scene) == (TABLE_WIDTH, 252 + 10 * 147 + 9 * 6 + 14)
    _rows_hold_their_chips(scene, img)


def test_classic_draw_pile_shows_a_card_back_and_declared_colour_a_swatch():
    base = _scene(Mode.CLASSIC, 3)
    wild = TableScene(Mode.CLASSIC, Side.LIGHT, Face(parse_face("W+4").kind), base.seats, draw_count=20)
    declared = TableScene(Mode.CLASSIC, Side.LIGHT, wild.top, base.seats, draw_count=20, declared=Colour.GREEN)
    header = (0, 0, TABLE_WIDTH, 240)
    assert _count(table_image(base), BACK_FIELD, header) > 2000
    green = colour_rgb(Colour.GREEN)
    assert _count(table_image(declared), green, header) > _count(table_image(wild), green, header) + 1000


def test_flex_power_cards_are_shown():
    """SPEC X9: Power Card states are public."""
    scene = _scene(Mode.FLEX, 2)
    img = table_image(scene)
    assert scene.seats[0].power is True and scene.seats[1].power is False
    for i, (shown, other) in enumerate(((POWER_ON, POWER_OFF), (POWER_OFF, POWER_ON))):
        x0, y0, _, y1 = seat_box(scene, i)
        card = (x0 + 280, y0, x0 + 316, y1)  # the Power Card sits right of the card count
        assert _count(img, shown, card) > 100 and _count(img, other, card) == 0


def test_direction_of_play_is_drawn():
    cw = table_image(_scene(Mode.CLASSIC, 4, clockwise=True))
    acw = table_image(_scene(Mode.CLASSIC, 4, clockwise=False))
    assert cw.crop((300, 30, 500, 200)).tobytes() != acw.crop((300, 30, 500, 200)).tobytes()
    assert cw.crop((0, 240, 30, cw.height)).tobytes() != acw.crop((0, 240, 30, acw.height)).tobytes()


def test_names_are_fitted():
    long = fit("Eve the Great Destroyer of Hands", 19, 120)
    assert long.endswith("…") and len(long) < 20
    scene = TableScene(Mode.CLASSIC, Side.LIGHT, parse_face("R1"), (SeatView("Ωmega 😀", 2), SeatView("x" * 80, 1)))
    assert table_image(scene).size == table_size(scene)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"turn": 5},
        {"side": Side.DARK},
        {"declared": Colour.PINK},
        {"draw_count": -1},
        {"draw_top_other": parse_face("P1")},
        {"seats": ()},
        {"seats": (SeatView("Ann", 1, (parse_face("P1"),)),)},
    ],
)
def test_contradictory_scenes_raise(kwargs: dict[str, object]):
    args: dict[str, object] = {
        "mode": Mode.CLASSIC,
        "side": Side.LIGHT,
        "top": parse_face("R1"),
        "seats": (SeatView("Ann", 1), SeatView("Bob", 2)),
    }
    args.update(kwargs)
    with pytest.raises(ValueError):
        TableScene(**args)  # type: ignore[arg-type]


def test_seat_backs_must_match_the_count():
    with pytest.raises(ValueError):
        SeatView("Ann", 2, (parse_face("P1"),))


@pytest.mark.parametrize("mode", [Mode.CLASSIC, Mode.FLEX])
def test_a_player_who_left_has_a_dimmed_row_with_no_count_and_no_cards(mode: Mode):
    """SPEC G11, what everyone sees: a player removed from the match (left, kicked, timed out) is not drawn like a
    player who went out: no count badge, no card backs, no Power Card, the name dimmed and struck through, the words
    given instead."""
    power = True if mode is Mode.FLEX else None

    def scene(milan: SeatView) -> TableScene:
        seats = (SeatView("Ann", 3, power=power), milan, SeatView("Bob", 5, power=power))
        return TableScene(mode, Side.LIGHT, parse_face("R1"), seats, turn=2, draw_count=40)

    playing = scene(SeatView("Milan", 2, power=power))
    left = scene(SeatView("Milan", 2, power=power, left="left the game"))
    assert table_size(left) == table_size(playing)
    before = Image.open(io.BytesIO(render_table(playing))).convert("RGB")
    after = Image.open(io.BytesIO(render_table(left))).convert("RGB")
    row = seat_box(left, 1)
    x0, y0, x1, y1 = row
    badge = (x0 + 230, y0, x0 + 270, y1)
    assert _count(before, PILL_BG, badge) > 200 and _count(after, PILL_BG, badge) == 0  # no count badge
    assert _count(before, BACK_FIELD, row) > 100 and _count(after, BACK_FIELD, row) == 0  # no card backs
    assert _count(after, POWER_ON, row) == 0 and _count(after, POWER_OFF, row) == 0  # no Power Card
    area = (x1 - x0) * (y1 - y0)
    assert _count(before, SEAT_BG, row) > area // 2 and _count(after, SEAT_BG, row) < area // 10  # dimmed into the felt
    assert _count(before, TEXT, row) > 50 and _count(after, TEXT, row) == 0  # the name is dimmed
    words = (x0 + 226, y0, x1, y1)
    assert _count(after, MUTED, words) > 100  # "left the game" is written instead
    # the other rows are drawn as before
    for i in (0, 2):
        assert before.crop(seat_box(left, i)).tobytes() == after.crop(seat_box(left, i)).tobytes()


def test_a_seat_that_left_shows_no_other_faces():
    with pytest.raises(ValueError):
        SeatView("Milan", 1, (parse_face("P1"),), left="left the game")


def test_a_long_name_uses_the_room_its_row_has_and_the_columns_stay_aligned() -> None:
    """Issue 18 point 5: "Christopher Alexander-Montgomery" (or a name with an emoji at its end) is drawn whole while
    the rows have room right of their cards (it was cut at 186 px beside 400 empty ones); the counts and cards move
    right together in every row; a row whose cards fill it keeps the 186 px column, and its cards as they were."""
    from bot.render.table import _NAME_SIZE, _NAME_W, _cards_room, _name_size, _name_width

    top = parse_face("R5")
    long_name, emoji_name = "Christopher Alexander-Montgomery", "Ľubomír Novák the Great 🎉"
    seats = (SeatView(long_name, 7), SeatView(emoji_name, 3), SeatView("Mia", 12))
    scene = TableScene(Mode.CLASSIC, Side.LIGHT, top, seats)
    width = _name_width(scene)
    assert width > _NAME_W
    assert fit(long_name, _NAME_SIZE, width) == long_name and fit(emoji_name, _NAME_SIZE, width) == emoji_name
    assert fit(long_name, _NAME_SIZE, _NAME_W) != long_name  # what it used to draw: "Christopher Alexan…"
    img = table_image(scene)
    x0, y0, _x1, y1 = seat_box(scene, 2)  # Mia's count pill moved right with the column
    shift = width - _NAME_W
    assert _count(img, PILL_BG, (x0 + 250 + shift - 8, y0, x0 + 250 + shift + 8, y1)) > 0
    assert _count(img, PILL_BG, (x0 + 240, y0, x0 + 246, y1)) == 0

    full = TableScene(Mode.CLASSIC, Side.LIGHT, top, (SeatView(long_name, 7), SeatView("Mia", 60)))
    assert _name_width(full) == _NAME_W  # 60 backs fill that row: nothing to spare
    flip = [SeatView(long_name, 13, backs=tuple(parse_faces("O1 O2 O3 O4 O5 O6 O7 O8 O9 P1 P2 P3 P4")))]
    flip_scene = TableScene(Mode.FLIP, Side.LIGHT, top, tuple(flip))
    free = TABLE_WIDTH - 14 - 34 - 284 - 8
    assert _name_width(flip_scene) - _NAME_W <= free - _cards_room(flip_scene, flip[0])
    # a name still too long for its column is drawn smaller before it is cut
    assert _name_size(long_name, _NAME_W) < _NAME_SIZE and _name_size("Mia", _NAME_W) == _NAME_SIZE
    assert len(fit(long_name, _name_size(long_name, 260), 260)) > len(fit(long_name, _NAME_SIZE, 260))


@pytest.mark.parametrize(
    "label",
    [
        "nach 3 Zeitüberschreitungen in Folge entfernt",  # de: table.timed_out
        "usunięto po 3 kolejnych przekroczeniach czasu",  # pl
        "removed after 3 timeouts in a row",
    ],
)
def test_a_long_name_does_not_cut_the_words_saying_why_a_seat_is_out(label: str) -> None:
    """Issue 18 point 5: why a seat is out ("removed after 3 timeouts in a row", in the table's language) is what
    its row says: a long name in another row widens the names' column only into room that words leave, so they are
    drawn whole (they were cut to "nach 3 Zeitüberschreitungen in Fo…" beside "Christopher Alexander-Montgomery")."""
    from bot.render._text import text_width
    from bot.render.table import _CARDS_RIGHT, _LEFT_LABEL_X, _MARGIN, _NAME_W, _SEATS_X, _name_width

    room = TABLE_WIDTH - _MARGIN - _CARDS_RIGHT - _SEATS_X - _LEFT_LABEL_X  # the label's room with a 186 px column
    assert text_width(label, 17) <= room  # whole before the column widened
    seats = (
        SeatView("Christopher Alexander-Montgomery", 2),
        SeatView("Grzegorz Brzęczyszczykiewicz", 0, left=label),
        SeatView("Mia", 5),
    )
    scene = TableScene(Mode.CLASSIC, Side.LIGHT, parse_face("R5"), seats)
    shift = _name_width(scene) - _NAME_W
    assert fit(label, 17, room - shift) == label
    table_image(scene)  # drawn
