"""Deck composition and card notation (rules: SPEC C1, F1, F2, X1, Appendix A)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.cards import (
    DeckError,
    Face,
    Kind,
    Mode,
    NotationError,
    build_deck,
    check_flip_pairs,
    flip_dark_faces,
    flip_light_faces,
    format_card,
    format_face,
    parse_face,
    physical_flip_pairs,
)

ALL_FACES = sorted(
    {f for m in Mode for c in build_deck(m).cards for f in (c.light, c.dark) if f is not None}
    | {c.light for c in build_deck(Mode.CLASSIC, classic_edition="112").cards},
    key=format_face,
)


def test_c1_classic_deck_has_108_cards():
    """SPEC C1: 19 numbers, 2 Skip, 2 Reverse, 2 Draw Two per colour; 4 Wild, 4 Wild Draw Four."""
    faces = Counter(format_face(c.light) for c in build_deck(Mode.CLASSIC).cards)
    assert sum(faces.values()) == 108
    assert faces["R0"] == 1 and faces["R9"] == 2 and faces["BS"] == 2 and faces["G+2"] == 2
    assert faces["W"] == 4 and faces["W+4"] == 4


def test_c1_classic_112_edition_adds_shuffle_hands_and_customizable():
    faces = Counter(format_face(c.light) for c in build_deck(Mode.CLASSIC, classic_edition="112").cards)
    assert sum(faces.values()) == 112
    assert faces["WSH"] == 1 and faces["WC"] == 3


def test_f1_flip_sides_have_112_faces_each_without_zero():
    light, dark = Counter(flip_light_faces()), Counter(flip_dark_faces())
    assert sum(light.values()) == sum(dark.values()) == 112
    assert parse_face("R1") in light and not any(f.number == 0 for f in light)
    assert light[parse_face("W+2")] == 4 and dark[parse_face("W+C")] == 4
    assert dark[parse_face("TSE")] == 2 and dark[parse_face("O+5")] == 2


def test_f2_appendix_a_pairing_is_checked_and_not_type_preserving():
    pairs = physical_flip_pairs()
    assert len(pairs) == 112
    assert (parse_face("BR"), parse_face("W")) in pairs  # a blue Reverse backs a dark Wild (SPEC F2)
    assert not any(a.is_wild and b.is_wild for a, b in pairs)


def test_f2_a_wrong_pairing_is_refused_when_loaded():
    pairs = physical_flip_pairs()
    broken = [(pairs[0][0], pairs[1][1]), *pairs[1:]]  # one dark face twice too often, one missing
    with pytest.raises(DeckError, match="dark faces differ"):
        check_flip_pairs(broken)
    wild_both = [(parse_face("W"), parse_face("W")), *pairs[1:]]
    with pytest.raises(DeckError):
        check_flip_pairs(wild_both)


def test_x1_flex_deck_numbers_flip_icons_and_flex_colours():
    faces = [c.light for c in build_deck(Mode.FLEX).cards]
    assert len(faces) == 104
    numbers = [f for f in faces if f.kind is Kind.NUMBER]
    assert {f.number for f in numbers} == set(range(1, 9))
    icons = sorted(format_face(f) for f in numbers if f.flip_icon)
    assert "Y1*" in icons and "B7*" in icons and "R2*" in icons and "G8*" in icons and len(icons) == 16
    flex = {format_face(f) for f in numbers if f.flex_colour is not None}
    assert {"Y1/G", "Y4/B", "Y8/R", "R3/B", "R5/G", "R7/Y", "B2/R", "B6/Y", "B8/G", "G1/Y", "G4/R", "G7/B"} <= flex
    kinds = Counter(f.kind for f in faces)
    assert kinds[Kind.WILD_ALL_FLIP] == kinds[Kind.FLEX_WILD_DRAW_FOUR] == 4
    assert kinds[Kind.FLEX_WILD_TARGET_DRAW_TWO] == kinds[Kind.FLEX_WILD_ALL_DRAW] == 4


@given(st.sampled_from(ALL_FACES))
def test_notation_round_trips_for_every_face_of_every_deck(face: Face):
    assert parse_face(format_face(face)) == face


def test_notation_of_flip_cards_shows_both_faces():
    card = build_deck(Mode.FLIP).cards[0]
    assert format_card(card) == "W+2|O4"


@pytest.mark.parametrize("bad", ["", "R", "Z5", "R10", "W+3", "RX", "R5/P", "Q+2"])
def test_notation_refuses_what_is_not_a_card(bad: str):
    with pytest.raises(NotationError):
        parse_face(bad)
