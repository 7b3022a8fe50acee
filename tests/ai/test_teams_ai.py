"""AI partners (SPEC T): every level plays a partner game with legal moves only and plays for its team — it never
catches its partner, never aims a 7 at them while another play exists, and keeps its draws for the opponents."""

from __future__ import annotations

import pytest

from bot.ai import Level, decide
from bot.engine.actions import Catch, Play
from bot.engine.builder import build
from bot.engine.cards import format_face
from bot.engine.options import Options

from .test_levels import _play

TEAMS = Options(teams=True, target_score=0)


@pytest.mark.parametrize("mode", ["classic", "flip"])
@pytest.mark.parametrize("players", [4, 6])
def test_t1_every_level_plays_a_partner_round_with_legal_moves(mode: str, players: int) -> None:
    levels = [Level.EASY, Level.NORMAL, Level.HARD] * 2
    game = _play(mode, players, 5, levels[:players], TEAMS)
    assert game.history and game.teams == players // 2


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
@pytest.mark.parametrize("teams", [True, False], ids=["on", "off"])
def test_t1_a_partner_is_never_caught(level: Level, teams: bool) -> None:
    options = Options(teams=teams, target_score=0)
    # seat 2 (seat 0's partner with teams) played its next-to-last card without calling UNO
    game = build("classic", ["R5 B7", "G5 G6", "Y7", "B1 B2"], "R3", current=3, catchable=2, options=options)
    view = game.view(0)
    assert Catch(0, 2) in view.legal
    caught = {isinstance(decide(level, view, options=options, seed=s, iterations=8), Catch) for s in range(30)}
    assert caught == ({False} if teams else {True, False} if level is Level.EASY else {True})


@pytest.mark.parametrize("teams", [True, False], ids=["on", "off"])
def test_t1_a_seven_is_not_aimed_at_the_partner_while_another_play_exists(teams: bool) -> None:
    options = Options(teams=teams, target_score=0, seven_zero=True)
    # the partner (seat 2) holds one card: the best swap without teams, the worst one with them
    game = build("classic", ["R7 B7 G9 Y9 B1", "G5 G6 G7 G8", "Y7", "B2 B3 B4 B5"], "R3", options=options)
    action = decide(Level.NORMAL, game.view(0), options=options, seed=1)
    assert isinstance(action, Play) and format_face(game.faces[action.card]) == "R7"
    assert (action.target != 2) if teams else (action.target == 2)


@pytest.mark.parametrize("teams", [True, False], ids=["on", "off"])
def test_t1_a_draw_two_is_kept_from_the_partner_when_another_card_fits(teams: bool) -> None:
    options = Options(teams=teams, target_score=0)
    # six seats, seats 1 and 2 gone: the next player after seat 0 is seat 3, its partner with teams
    game = build(
        "classic",
        ["R+2 R4", "", "", "B2 B3", "G2 G3", "Y2 Y3"],
        "R3",
        active=[True, False, False, True, True, True],
        options=options,
    )
    action = decide(Level.NORMAL, game.view(0), options=options, seed=1)
    assert isinstance(action, Play)
    assert format_face(game.faces[action.card]) == ("R4" if teams else "R+2")
