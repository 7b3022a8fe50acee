"""Review: rule bugs found by probing the engine; each test fails until the bug is fixed."""

from __future__ import annotations

from bot.engine.options import Options
from bot.engine.view import Phase
from tests.engine.helpers import build, play


def test_x3_removing_the_only_green_player_turns_every_power_card_green() -> None:
    # Seats 0 and 1 are red, seat 2 (the only green) leaves / is kicked / times out.
    game = build("flex", ["Y1 Y2", "B4 B5", "G7 G8"], "Y5", power="RRG")
    game.remove_player(2)
    # "Whenever every Power Card is red at once, all turn green. [RULING] This check runs after every change."
    # The engine only runs the check after a play, so the two remaining players are stuck without flex sides.
    assert game.power is not None
    assert all(game.power[s] for s in range(3) if game.active[s])


def test_g9_lowest_scoring_with_target_zero_is_decided_by_the_single_round() -> None:
    # Seat 0 goes out (0 points); seat 1 is left holding a classic 0 (also 0 points).
    game = build("classic", ["R7", "Y0", "B4"], "R5", options=Options(scoring="lowest", target_score=0))
    play(game, 0, "R7")
    # The engine treats the 0-0 tie for lowest as "another round" (a ruling that is in no SPEC section and has no
    # option), so a "single round" match goes on to round 2.
    assert game.phase is Phase.MATCH_OVER
    assert game.winner in (0, 1)  # e.g. the player who went out breaks the tie; in any case the round decided it
