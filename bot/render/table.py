"""The table as one image: discard pile (with the declared colour), draw pile, direction of play, the side in play
(UNO FLIP) and one row per player with their card count, their Power Card (UNO Flex!) and, in UNO FLIP, the other
faces of their hand that everyone can see (SPEC F10)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import Colour, Face, Mode, Side, colours_of
from bot.render._draw import arc_arrow, arrowhead
from bot.render._png import encode_png
from bot.render._text import fit, main_font, text_image, text_width
from bot.render.card_art import (
    CHIP_WIDTH,
    card_back_image,
    card_height,
    card_image,
    chip_height,
    chip_image,
    colour_swatch_image,
    power_card_image,
)
from bot.render.palette import (
    COLOUR_RGB,
    FELT,
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    PILE_EDGE,
    PILE_LINE,
    PILL_BG,
    SEAT_BG,
    TEXT,
    TURN_BG,
)

#: Width of every table image, in px.
TABLE_WIDTH = 800

_TOP_W = 140
_PILE_W = 116
_SWATCH = 62
_SEAT_POWER_W = 26
_SEAT_BACK_W = 24
_HEADER_H = 252
_MARGIN = 14
_ROW_GAP = 6
_SEATS_X = 34
_NAME_SIZE = 22
_NAME_SIZE_SMALL = 18  # a name too long for its column at _NAME_SIZE: smaller before it is cut (still read at 450 px)
_ROW_H = 52  # a seat row of classic and Flex (card backs), px
_LEFT_LABEL_SIZE = 17  # px, the words for a player who left
_LEFT_LABEL_X = 226  # from the row's left edge: where a player who left has "left the game" instead of a count
# UNO FLIP rows: the other faces of a hand as row chips (SPEC F10), side by side from _CARDS_X, 4 px apart, closer
# (overlapping at most their 3 px border) as a line fills; more than fit on one line (13) take two lines, balanced;
# more than fit on two overlap further. Sized so that values and marks still read at 450 px (test_preview_size.py).
_CARDS_X = 284  # from the row's left edge
_NAME_X = 30  # a name's left, from the row's left edge
_NAME_W = 186  # a name's column, px, when the rows have no room to spare (else wider: :func:`_name_width`)
_BACK_STEP = 12  # px from one card back to the next in a classic or Flex row, at most
_CARDS_RIGHT = 8  # free at the row's right edge
_CHIP_H = chip_height(CHIP_WIDTH)
_CHIP_STEP = CHIP_WIDTH + 4
_CHIP_MIN_STEP = CHIP_WIDTH - 3
_CHIP_LINES = 2
_CHIP_LINE_GAP = 5
_CHIP_PAD = 6  # above and below the chips in a row


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player as the table shows them.

    ``name``: display name (any script and emoji, drawn with the bundled fonts of :mod:`bot.render._text`);
    ``cards``: how many cards they hold; ``backs``: UNO FLIP only, the other faces of their hand in their order
    (SPEC F10), or None to show just the count (e.g. the viewer's own hand); ``power``: UNO Flex! only, their Power Card
    (True active/green, False inactive/red, SPEC X9); ``left``: the player is out of the match (left, kicked or removed
    after repeated timeouts): the words drawn in place of their cards, in the table's language (e.g. "left the game"),
    and their row is dimmed, their name struck through, with no card count, cards or Power Card; None while they play.

    Raises ``ValueError`` for a negative count, backs that do not match it, or backs of a seat that left."""

    name: str
    cards: int
    backs: tuple[Face, ...] | None = None
    power: bool | None = None
    left: str | None = None

    def __post_init__(self) -> None:
        if self.cards < 0:
            raise ValueError(f"{self.name!r} cannot hold {self.cards} cards")
        if self.left is not None and self.backs is not None:
            raise ValueError(f"{self.name!r} left the game: no cards of theirs are shown")
        if self.backs is not None and len(self.backs) != self.cards:
            raise ValueError(f"{self.name!r} holds {self.cards} cards but {len(self.backs)} backs were given")


@dataclass(frozen=True, slots=True)
class TableScene:
    """What everyone sees on the table.

    ``side``: the side in play (always LIGHT outside UNO FLIP); ``top``: the face on top of the discard pile;
    ``declared``: the colour declared for a wild on top (None otherwise); ``seats``: the players in seat order;
    ``turn``: index into ``seats`` of the player to act (None: nobody, e.g. between rounds); ``clockwise``: play
    goes down the list of seats (True) or up it (False); ``draw_count``: cards in the draw pile;
    ``draw_top_other``: UNO FLIP only, the visible other face of the draw pile's top card (SPEC F3, F10).

    Raises ``ValueError`` when the parts contradict each other (a dark side outside FLIP, a declared colour of the
    other side, ``turn`` outside ``seats``, FLIP backs outside FLIP...)."""

    mode: Mode
    side: Side
    top: Face
    seats: tuple[SeatView, ...]
    turn: int | None = 0
    declared: Colour | None = None
    clockwise: bool = True
    draw_count: int = 0
    draw_top_other: Face | None = None

    def __post_init__(self) -> None:
        if not self.seats:
            raise ValueError("a table needs at least one seat")
        if self.turn is not None and not 0 <= self.turn < len(self.seats):
            raise ValueError(f"turn {self.turn} is not a seat (0–{len(self.seats) - 1})")
        if self.draw_count < 0:
            raise ValueError("the draw pile cannot hold a negative number of cards")
        if self.declared is not None and self.declared not in colours_of(self.side):
            raise ValueError(f"{self.declared} cannot be declared on the {self.side} side")
        if self.mode is not Mode.FLIP:
            if self.side is not Side.LIGHT:
                raise ValueError(f"{self.mode} is always played on the light side")
            if self.draw_top_other is not None or any(s.backs is not None for s in self.seats):
                raise ValueError("only UNO FLIP shows the other faces of cards")


# --------------------------------------------------------------------------------------------------------------------


def _chip_lines(n: int) -> tuple[int, int, float]:
    """How the row chips of ``n`` cards are laid out: ``(lines, per_line, step)``: 1 or 2 lines (at most
    :data:`_CHIP_LINES`), the most chips on one line, and the px from one chip's left edge to the next."""
    avail = TABLE_WIDTH - _MARGIN - _CARDS_RIGHT - _SEATS_X - _CARDS_X - CHIP_WIDTH
    fits = 1 + int(avail // _CHIP_MIN_STEP)
    lines = max(1, min(_CHIP_LINES, math.ceil(n / fits)))
    per_line = max(1, math.ceil(n / lines))
    step = _CHIP_STEP if per_line == 1 else min(_CHIP_STEP, avail / (per_line - 1))
    return lines, per_line, step


def _cards_room(scene: TableScene, seat: SeatView) -> float:
    """The px a seat row's cards take from where they start, laid out as they are with a name column of
    :data:`_NAME_W`: the Power Card and the card backs at their widest spacing, or the row chips of UNO FLIP; for a
    seat out of the match, its words (:attr:`SeatView.left`, which start left of the cards: a long name elsewhere
    must not cut why a seat is out, issue 18 point 5)."""
    if seat.left is not None:
        return max(0.0, text_width(" ".join(seat.left.split()), _LEFT_LABEL_SIZE) - (_CARDS_X - _LEFT_LABEL_X))
    if scene.mode is Mode.FLIP and seat.backs is not None:
        if not seat.backs:
            return 0.0
        _, per_line, step = _chip_lines(len(seat.backs))
        return CHIP_WIDTH + (per_line - 1) * step
    power = 36 if scene.mode is Mode.FLEX and seat.power is not None else 0
    return power + (_SEAT_BACK_W + (seat.cards - 1) * _BACK_STEP if seat.cards else 0)


def _name_width(scene: TableScene) -> int:
    """The width of the name column, px: :data:`_NAME_W`, or wider for a name that needs it while every row has that
    room to spare right of its cards (issue 18 point 5: "Christopher Al…" beside 400 empty px); the counts and cards
    move right by as much in every row, so the columns stay aligned and no row's cards are squeezed or relaid."""
    needed = max(text_width(" ".join(seat.name.split()), _NAME_SIZE) for seat in scene.seats)
    if needed <= _NAME_W:
        return _NAME_W
    free = TABLE_WIDTH - _MARGIN - _SEATS_X - _CARDS_X - _CARDS_RIGHT
    spare = min(free - _cards_room(scene, seat) for seat in scene.seats)
    return _NAME_W + max(0, min(math.ceil(needed) - _NAME_W, int(spare)))


def _row_height(scene: TableScene, seat: SeatView) -> int:
    """A seat row's height in px: one or two lines of row chips in UNO FLIP, :data:`_ROW_H` otherwise."""
    if scene.mode is not Mode.FLIP:
        return _ROW_H
    lines, _, _ = _chip_lines(len(seat.backs or ()))
    return 2 * _CHIP_PAD + lines * _CHIP_H + (lines - 1) * _CHIP_LINE_GAP


def table_size(scene: TableScene) -> tuple[int, int]:
    """``(width, height)`` in px of :func:`table_image` for ``scene``: :data:`TABLE_WIDTH` wide; a header of about
    250 px plus one row per seat, 6 px apart: 52 px in classic and Flex; in UNO FLIP 77 px, or 147 px for a seat whose
    other faces take two lines (more than 13 cards)."""
    rows = sum(_row_height(scene, s) + _ROW_GAP for s in scene.seats) - _ROW_GAP
    return TABLE_WIDTH, _HEADER_H + rows + _MARGIN


def table_image(scene: TableScene) -> Image.Image:
    """The table ``scene`` as an RGB image of :func:`table_size`. Raises ``ValueError`` if a face cannot be on the
    side it is shown on."""
    w, h = table_size(scene)
    img = Image.new("RGB", (w, h), FELT)
    _header(img, scene)
    _seats(img, scene)
    return img


def render_table(scene: TableScene) -> bytes:
    """:func:`table_image` encoded as a palette PNG (bytes; about 100 KB for 10 FLIP players). Same errors."""
    return encode_png(table_image(scene))


# --------------------------------------------------------------------------------------------------------------------
# Header: discard pile, direction, side, draw pile


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    img.paste(sprite, (x, y), sprite)


def _paste_centred(img: Image.Image, sprite: Image.Image, cx: int, cy: int) -> None:
    img.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)


def _header(img: Image.Image, scene: TableScene) -> None:
    # discard pile: card edges under the top card for depth, the declared colour on its corner
    x, y = 54, 18
    top = card_image(scene.top, scene.side, _TOP_W)
    _paste(img, _pile_edges(_TOP_W, top.height, 2), x, y)
    _paste(img, top, x, y)
    if scene.declared is not None:
        _paste(img, colour_swatch_image(scene.declared, _SWATCH), x + _TOP_W - 26, y + top.height - 50)
    # direction of play and the side in play, between the piles
    _paste_centred(img, _direction_icon(58, scene.clockwise), 400, 112)
    if scene.mode is Mode.FLIP:
        _paste_centred(img, _side_badge(scene.side), 400, 214)
    # draw pile: the back (classic, Flex) or the visible other face of its top card (FLIP)
    px, py = 590, 26
    ph = card_height(_PILE_W)
    if scene.draw_count == 0:
        _paste(img, _empty_slot(_PILE_W, ph), px, py)
    else:
        _paste(img, _pile_edges(_PILE_W, ph, min(3, scene.draw_count - 1)), px, py)
        if scene.mode is Mode.FLIP and scene.draw_top_other is not None:
            pile = card_image(scene.draw_top_other, scene.side.other, _PILE_W)
        else:
            pile = card_back_image(_PILE_W)
        _paste(img, pile, px, py)
    _paste_centred(img, _pill(str(scene.draw_count), 24, False), px + _PILE_W // 2, py + ph + 24)


@lru_cache(maxsize=8)
def _pile_edges(w: int, h: int, n: int) -> Image.Image:
    """``n`` card edges that peek out, 4 px apart, under a pile's top card placed at this image's top-left."""
    img = Image.new("RGBA", (w + 4 * n, h + 4 * n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i in range(n, 0, -1):
        o = 4 * i
        d.rounded_rectangle(
            (o, o, w + o - 1, h + o - 1), radius=round(w * 0.09), fill=PILE_EDGE, outline=PILE_LINE, width=1
        )
    return img


@lru_cache(maxsize=2)
def _empty_slot(w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), radius=round(w * 0.09), outline=MUTED, width=2)
    return img


@lru_cache(maxsize=4)
def _direction_icon(r: int, clockwise: bool) -> Image.Image:
    """Two arrows turning clockwise or anticlockwise round a chevron that points the way play goes along the seat
    list (down for clockwise)."""
    ss = 4
    size = (2 * r + 24) * ss
    c = size / 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rr, t = r * ss, 9 * ss
    for start in (0, 180):
        arc_arrow(d, c, c, rr, start + 200, start + 335, t, PAPER, head=t * 2.8, backwards=not clockwise)
    tip = (c, c + 18 * ss) if clockwise else (c, c - 18 * ss)
    arrowhead(d, tip, 90 if clockwise else 270, 30 * ss, 34 * ss, HIGHLIGHT)
    return img.reduce(ss)


@lru_cache(maxsize=2)
def _side_badge(side: Side) -> Image.Image:
    """A sun (light side in play) or a moon (dark side in play), 56 px."""
    ss, size = 4, 56
    img = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, R, r = size * ss / 2, 26 * ss, 15 * ss
    yellow = COLOUR_RGB[Colour.YELLOW]
    if side is Side.LIGHT:
        d.ellipse((c - R, c - R, c + R, c + R), fill=PAPER, outline=INK, width=2 * ss)
        d.ellipse((c - r + 4 * ss, c - r + 4 * ss, c + r - 4 * ss, c + r - 4 * ss), fill=yellow)
        for i in range(8):
            a = math.radians(i * 45)
            p0 = (c + 14 * ss * math.cos(a), c + 14 * ss * math.sin(a))
            p1 = (c + 21 * ss * math.cos(a), c + 21 * ss * math.sin(a))
            d.line((p0, p1), fill=yellow, width=3 * ss)
    else:
        d.ellipse((c - R, c - R, c + R, c + R), fill=INK, outline=PAPER, width=2 * ss)
        d.ellipse((c - r, c - r, c + r, c + r), fill=PAPER)
        d.ellipse((c - r + 8 * ss, c - r - 4 * ss, c + r + 8 * ss, c + r - 4 * ss), fill=INK)
    return img.reduce(ss)


@lru_cache(maxsize=512)
def _pill(text: str, size: int, hot: bool) -> Image.Image:
    """A rounded pill holding ``text`` (a count); ``hot`` (one card left) in the highlight colour."""
    f = main_font(size)
    w = max(size + 12, int(f.getlength(text)) + 16)
    h = size + 10
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=HIGHLIGHT if hot else PILL_BG)
    d.text((w / 2, h / 2), text, font=f, anchor="mm", fill=INK if hot else TEXT)
    return img


@lru_cache(maxsize=512)
def _name(text: str, turn: bool, width: int = _NAME_W) -> Image.Image:
    """A player's name in the bundled fonts (any script, emoji; see :mod:`bot.render._text`) to fit its column of
    ``width`` px: smaller when it is too long for it (:func:`_name_size`), then cut with an ellipsis, as a transparent
    sprite."""
    size = _name_size(text, width)
    return text_image(fit(text, size, width) or "?", size, HIGHLIGHT if turn else TEXT)


def _name_size(text: str, width: int) -> int:
    """The font size of a name in a column of ``width`` px: :data:`_NAME_SIZE`, or :data:`_NAME_SIZE_SMALL` for a
    name too long for it (issue 18 point 5: the room a row has is used before a name is cut)."""
    if text_width(" ".join(text.split()), _NAME_SIZE) <= width:
        return _NAME_SIZE
    return _NAME_SIZE_SMALL


@lru_cache(maxsize=512)
def _left_name(text: str, width: int = _NAME_W) -> Image.Image:
    """The name of a player who left: dimmed and struck through, cut like :func:`_name`."""
    size = _name_size(text, width)
    img = text_image(fit(text, size, width) or "?", size, MUTED).copy()
    y = round(size * 0.83)  # through the middle of the lower-case letters (baseline at 1.1 × size)
    ImageDraw.Draw(img).line((0, y, img.width - 1, y), fill=(*MUTED, 255), width=2)
    return img


@lru_cache(maxsize=64)
def _left_label(text: str, shift: int = 0) -> Image.Image:
    """The words for a player who left (:attr:`SeatView.left`), dimmed, cut to the row's free width (``shift``: px
    the name column is wider than :data:`_NAME_W`)."""
    free = TABLE_WIDTH - _MARGIN - _CARDS_RIGHT - _SEATS_X - _LEFT_LABEL_X - shift
    return text_image(fit(text, _LEFT_LABEL_SIZE, free) or "—", _LEFT_LABEL_SIZE, MUTED)


@lru_cache(maxsize=8)
def _row_background(w: int, h: int, turn: bool, left: bool = False) -> Image.Image:
    """A seat row's background: highlighted with an arrow for the player to act, plain for the others, only an
    outline (dimmed into the felt) for a player who left."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if left:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, outline=SEAT_BG, width=2)
    elif turn:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=TURN_BG, outline=HIGHLIGHT, width=3)
        arrowhead(d, (22, h / 2), 0, 14, 18, HIGHLIGHT)
    else:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=SEAT_BG)
    return img


# --------------------------------------------------------------------------------------------------------------------
# Seats


def seat_box(scene: TableScene, i: int) -> tuple[int, int, int, int]:
    """The ``(left, top, right, bottom)`` px box of seat ``i``'s row in :func:`table_image`. ``IndexError`` if ``i``
    is not a seat."""
    top = _HEADER_H + sum(_row_height(scene, s) + _ROW_GAP for s in scene.seats[:i])
    return _SEATS_X, top, TABLE_WIDTH - _MARGIN, top + _row_height(scene, scene.seats[i])


def _seats(img: Image.Image, scene: TableScene) -> None:
    width = _name_width(scene)
    shift = width - _NAME_W  # the counts, cards and labels move right by as much as the names' column grew
    for i, seat in enumerate(scene.seats):
        turn = i == scene.turn
        x0, y0, x1, y1 = seat_box(scene, i)
        cy = (y0 + y1) // 2
        if seat.left is not None:
            _paste(img, _row_background(x1 - x0, y1 - y0, False, left=True), x0, y0)
            name = _left_name(seat.name, width)
            _paste(img, name, x0 + _NAME_X, cy - name.height // 2)
            label = _left_label(seat.left, shift)
            _paste(img, label, x0 + _LEFT_LABEL_X + shift, cy - label.height // 2)
            continue
        _paste(img, _row_background(x1 - x0, y1 - y0, turn), x0, y0)
        name = _name(seat.name, turn, width)
        _paste(img, name, x0 + _NAME_X, cy - name.height // 2)
        _paste_centred(img, _pill(str(seat.cards), 22, seat.cards == 1), x0 + 250 + shift, cy)  # legible at 450 px
        x = x0 + _CARDS_X + shift
        if scene.mode is Mode.FLEX and seat.power is not None:
            p = power_card_image(seat.power, _SEAT_POWER_W)
            _paste(img, p, x, cy - p.height // 2)
            x += 36
        if scene.mode is Mode.FLIP and seat.backs is not None:
            _chips(img, seat.backs, scene.side.other, x, y0 + _CHIP_PAD)
        else:
            back = card_back_image(_SEAT_BACK_W)
            _strip(img, [back] * seat.cards, x, cy, x1 - _CARDS_RIGHT, max_step=_BACK_STEP)
    # the direction of play along the seat list
    if len(scene.seats) > 1:
        d = ImageDraw.Draw(img)
        first, last = seat_box(scene, 0), seat_box(scene, len(scene.seats) - 1)
        top, bottom = (first[1] + first[3]) // 2, (last[1] + last[3]) // 2
        d.line((16, top, 16, bottom), fill=MUTED, width=3)
        if scene.clockwise:
            arrowhead(d, (16, bottom + 10), 90, 14, 14, MUTED)
        else:
            arrowhead(d, (16, top - 10), 270, 14, 14, MUTED)


def _chips(img: Image.Image, faces: tuple[Face, ...], side: Side, x: int, y: int) -> None:
    """The row chips of ``faces`` (shown on ``side``) in their order, left to right and line by line from the
    top-left ``(x, y)``, as :func:`_chip_lines` lays them out."""
    if not faces:
        return
    _, per_line, step = _chip_lines(len(faces))
    for i, face in enumerate(faces):
        line, col = divmod(i, per_line)
        _paste(img, chip_image(face, side), round(x + col * step), y + line * (_CHIP_H + _CHIP_LINE_GAP))


def _strip(
    img: Image.Image, cards: list[Image.Image], x: int, cy: int, right: int, max_step: int | None = None
) -> None:
    """Cards in one overlapping row from ``x``, squeezed to end before ``right``."""
    if not cards:
        return
    w = cards[0].width
    step: float = max_step if max_step is not None else w + 4
    if len(cards) > 1:
        step = min(step, (right - x - w) / (len(cards) - 1))
    for i, c in enumerate(cards):
        img.paste(c, (round(x + i * step), cy - c.height // 2), c)
