"""Options: SPEC table O. Each option's default and alternative; refused values change nothing.

The behaviour of each RULING option is tested next to its rule (G7 block_illegal_wild_draw, G8 false_catch_penalty,
G9 target_score and scoring, C1 classic_deck, F2 flip_pairing, F4 opening_flip, F8 exposed_wild_chooser and
flip_invert_piles, X3 flex_reset_power, X7 flex_target_can_challenge); this module checks the table itself.
"""

import pytest

from bot.engine.game import Game
from bot.engine.options import OptionError, Options
from bot.engine.view import Phase

from .helpers import build, play


def test_o_defaults_are_the_spec_table():
    o = Options()
    assert (o.target_score, o.scoring, o.block_illegal_wild_draw, o.false_catch_penalty) == (500, "winner", False, 0)
    assert (o.classic_deck, o.flip_pairing, o.opening_flip, o.exposed_wild_chooser) == (
        "108",
        "physical",
        "redraw",
        "next",
    )
    assert (o.flip_invert_piles, o.flex_reset_power, o.flex_target_can_challenge) == (True, True, True)
    assert (o.stacking, o.draw_to_match, o.force_play, o.seven_zero, o.jump_in) == ("off", False, False, False, False)


@pytest.mark.parametrize(
    "bad",
    [
        {"target_score": -1},
        {"target_score": "500"},
        {"scoring": "highest"},
        {"false_catch_penalty": 11},
        {"classic_deck": "100"},
        {"flip_pairing": "sorted"},
        {"opening_flip": "ignore"},
        {"exposed_wild_chooser": "dealer"},
        {"flip_invert_piles": "yes"},
    ],
)
def test_o_values_outside_the_table_are_refused(bad):
    with pytest.raises(OptionError):
        Options(**bad)


@pytest.mark.parametrize("rule", ["draw_to_match", "force_play", "seven_zero", "jump_in"])
def test_h_house_rules_are_off_by_default_and_may_be_switched_on(rule):
    assert getattr(Options(), rule) is False and Options().stacking == "off" and Options().house_rules() == ()
    on = Options(**{rule: True})
    assert on.house_rules() == (rule,) and Options.from_dict(on.to_dict()) == on
    assert Options(stacking="any_draw", jump_in=True).house_rules() == ("stacking", "jump_in")
    with pytest.raises(OptionError):
        Options(**{rule: "yes"})
    with pytest.raises(OptionError):
        Options(stacking="everything")


def test_o_options_round_trip_through_a_dict_of_non_defaults():
    o = Options(target_score=250, scoring="lowest", flip_pairing="random")
    assert o.to_dict() == {"target_score": 250, "scoring": "lowest", "flip_pairing": "random"}
    assert Options.from_dict(o.to_dict()) == o
    with pytest.raises(OptionError, match="unknown"):
        Options.from_dict({"bogus": 1})


def test_o_target_score_default_500():
    below = build("classic", ["R7", "B9 B9"], "R5", scores=[481, 0])
    play(below, 0, "R7")
    assert below.phase is Phase.ROUND_OVER and below.scores[0] == 499
    reach = build("classic", ["R7", "B9 B9"], "R5", scores=[482, 0])
    play(reach, 0, "R7")
    assert reach.phase is Phase.MATCH_OVER and reach.scores[0] == 500


def test_o_classic_deck_108_and_112():
    assert len(Game.new("classic", 2, seed=1)[0].deck) == 108
    assert len(Game.new("classic", 2, seed=1, options=Options(classic_deck="112"))[0].deck) == 112
