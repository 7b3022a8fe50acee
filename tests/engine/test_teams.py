"""Partners, 2v2 teams (SPEC T): each rule with option ``teams`` on and off, in classic UNO and UNO FLIP.

Positions are laid out with :func:`bot.engine.builder.build`; whole matches are seeded random legal play."""

from __future__ import annotations

from random import Random

import pytest

from bot.engine.builder import build
from bot.engine.events import MatchAbandoned, MatchEnded, RoundEnded
from bot.engine.game import Game
from bot.engine.options import RULE_OPTIONS, OptionError, Options, preset
from bot.engine.scoring import match_winner, placement, round_points
from bot.engine.simulate import random_step
from bot.engine.teams import TEAM_PLAYERS, members, partner_of, team_count, team_of, team_totals
from bot.engine.view import Phase, RoundRecord

from .helpers import play

TEAMS = Options(teams=True)
GAMES = ("classic", "flip")


# --- T1 Teams and seats ---------------------------------------------------------------------------------------------
def test_t1_teams_is_off_by_default_for_classic_and_flip_only() -> None:
    row = RULE_OPTIONS["teams"]
    assert row.default is False and not row.house and row.section == "T1"
    assert {m.value for m in row.games} == {"classic", "flip"}
    assert Options().teams is False


@pytest.mark.parametrize("players", TEAM_PLAYERS)
def test_t1_partners_sit_opposite(players: int) -> None:
    teams = players // 2
    for seat in range(players):
        partner = partner_of(seat, teams)
        assert partner == (seat + players // 2) % players and partner_of(partner, teams) == seat
        assert team_of(seat, teams) == team_of(partner, teams)
        assert seat in members(team_of(seat, teams), teams)
    assert [team_of(s, teams) for s in range(players)] == list(range(teams)) * 2  # the teams alternate round the table


@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("players", [4, 6, 8])
def test_t1_a_team_game_deals_as_usual_with_teams_on_and_off(mode: str, players: int) -> None:
    on, _ = Game.new(mode, players, seed=players, options=TEAMS)
    off, _ = Game.new(mode, players, seed=players)
    assert on.teams == players // 2 and off.teams == 0
    assert on.view(0).teams == players // 2 and off.view(None).teams == 0
    assert on.hands == off.hands and on.current == off.current  # the teams change no card of the deal


@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("players", [2, 3, 5, 7, 9, 10])
def test_t1_a_team_game_of_another_player_count_is_refused(mode: str, players: int) -> None:
    with pytest.raises(ValueError, match="4, 6, 8"):
        Game.new(mode, players, options=TEAMS)
    Game.new(mode, players)  # without teams, as before


def test_t1_flex_has_no_teams() -> None:
    game, _ = Game.new("flex", 5, options=TEAMS)
    assert game.teams == 0 and team_count(game.mode, TEAMS, 5) == 0


def test_t1_a_preset_keeps_the_teams() -> None:
    assert preset("party", "classic", TEAMS).teams and preset("chaos", "flip", TEAMS).teams


# --- T2 The end of a round ------------------------------------------------------------------------------------------
def _last_card(mode: str, options: Options, scores: list[int] | None = None) -> Game:
    """Seat 0 holds its last card, R5 on R3; the others hold 11 (seat 1), 7 (seat 2, the partner) and 4 (seat 3)."""
    return build(mode, ["R5", "B9 G2", "Y7", "G4"], "R3", scores=scores, options=options)


@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("teams", [True, False], ids=["on", "off"])
def test_t2_the_player_who_goes_out_scores_the_opponents_cards_only(mode: str, teams: bool) -> None:
    game = _last_card(mode, Options(teams=teams))
    events = play(game, 0, "R5")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == 0
    assert ended.points == ((15 if teams else 22), 0, 0, 0)  # with teams, the partner's Y7 counts for nothing
    assert game.phase is Phase.ROUND_OVER


@pytest.mark.parametrize("mode", GAMES)
def test_t2_either_partner_going_out_wins_the_round_for_the_team(mode: str) -> None:
    game = build(mode, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, options=TEAMS)
    events = play(game, 2, "R5")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == 2 and ended.points == (0, 0, 7 + 4, 0)  # seat 0's 11 is the partner's: not counted


def test_t2_round_points_with_teams_and_lowest_scoring() -> None:
    values = [0, 11, 7, 4]
    assert round_points(values, 0, "winner", 2) == (15, 0, 0, 0)
    assert round_points(values, 0, "winner") == (22, 0, 0, 0)
    assert round_points(values, 0, "lowest", 2) == (0, 11, 7, 4)  # each keeps their own; the team adds them up
    assert round_points([0, 1, 2, 3, 4, 5], 3, "winner", 3) == (0, 0, 0, 12, 0, 0)  # seat 3's partner: seat 0


# --- T3 The match ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("teams", [True, False], ids=["on", "off"])
def test_t3_the_team_total_reaches_the_target(mode: str, teams: bool) -> None:
    game = _last_card(mode, Options(teams=teams), scores=[100, 0, 390, 0])
    events = play(game, 0, "R5")
    if teams:  # 100 + 15 + 390 = 505: the team wins the match; the winner is the player who went out
        assert game.phase is Phase.MATCH_OVER and game.winner == 0
        assert any(isinstance(e, MatchEnded) and e.winner == 0 for e in events)
        assert team_totals(game.scores, game.teams) == [505, 0]
    else:
        assert game.phase is Phase.ROUND_OVER and game.winner is None


@pytest.mark.parametrize("mode", GAMES)
def test_t3_a_partner_s_points_count_toward_the_match_on_the_default_target(mode: str) -> None:
    game = build(mode, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, scores=[490, 0, 0, 480], options=TEAMS)
    play(game, 2, "R5")
    assert game.phase is Phase.MATCH_OVER and game.winner == 2 and game.scores == [490, 0, 11, 480]


def test_t3_a_single_round_match_with_teams() -> None:
    game = _last_card("classic", Options(teams=True, target_score=0))
    play(game, 0, "R5")
    assert game.phase is Phase.MATCH_OVER and game.winner == 0


def test_t3_lowest_scoring_by_team_totals() -> None:
    history = [RoundRecord(1, (10, 0, 95, 0))]
    # team 0 (seats 0, 2) has 105, team 1 (seats 1, 3) 60 + 40 = 100: target 100 reached, the lowest team wins
    assert match_winner([10, 60, 95, 40], [0, 1, 2, 3], history, 1, 100, "lowest", 2) == 1
    assert match_winner([10, 60, 95, 40], [0, 1, 2, 3], history, 0, 100, "lowest", 2) == 1  # a seat of that team
    assert match_winner([10, 60, 95, 40], [0, 2, 3], history, 0, 100, "lowest", 2) == 3  # seat 1 has left
    assert match_winner([10, 20, 30, 40], [0, 1, 2, 3], history, 0, 100, "lowest", 2) is None
    assert match_winner([10, 60, 95, 40], [0, 1, 2, 3], history, 1, 100, "lowest") is None  # no seat at 100


@pytest.mark.parametrize("mode", GAMES)
def test_t3_lowest_scoring_in_a_team_game(mode: str) -> None:
    game = _last_card(mode, Options(teams=True, scoring="lowest", target_score=10), scores=[0, 0, 0, 0])
    play(game, 0, "R5")
    # seats keep their own cards: team 0 = 0 + 7, team 1 = 11 + 4 = 15 ≥ 10: the lowest team (0) wins
    assert game.phase is Phase.MATCH_OVER and game.winner == 0 and game.scores == [0, 11, 7, 4]


# --- T4 Placement ---------------------------------------------------------------------------------------------------
def test_t4_placement_ranks_teams_then_partners() -> None:
    scores = [100, 300, 420, 50, 10, 30]  # teams: (0, 3) 150, (1, 4) 310, (2, 5) 450
    assert placement(scores, 5, "winner", teams=3) == [5, 2, 1, 4, 0, 3]  # the winner first in the winning team
    assert placement(scores, None, "winner", teams=3) == [2, 5, 1, 4, 0, 3]
    assert placement(scores, None, "lowest", teams=3) == [3, 0, 4, 1, 5, 2]
    assert placement(scores, 5, "winner") == [5, 2, 1, 0, 3, 4]  # without teams


def test_t4_the_game_s_placement_puts_the_winning_team_first() -> None:
    game = _last_card("classic", Options(teams=True, target_score=0), scores=[0, 50, 40, 0])
    play(game, 0, "R5")
    assert game.placement() == [0, 2, 1, 3]  # team 0: 40 + 15 = 55 ahead of 50; the winner first, then the partner
    assert set(game.placement()[:2]) == {0, 2}


# --- T5 Leaving a team game -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", GAMES)
def test_t5_a_partner_plays_on_alone_and_one_team_left_ends_the_match(mode: str) -> None:
    game, _ = Game.new(mode, 4, seed=11, options=TEAMS)
    game.remove_player(1)
    assert game.phase is not Phase.MATCH_OVER  # seat 3 plays on for team 2
    events = game.remove_player(3)
    assert game.phase is Phase.MATCH_OVER and game.abandoned and game.winner is None
    assert any(isinstance(e, MatchAbandoned) for e in events)


@pytest.mark.parametrize("mode", GAMES)
def test_t5_without_teams_two_players_left_play_on(mode: str) -> None:
    game, _ = Game.new(mode, 4, seed=11)
    game.remove_player(1)
    game.remove_player(3)
    assert game.phase is not Phase.MATCH_OVER


# --- T6 Other options -----------------------------------------------------------------------------------------------
def test_t6_teams_and_elimination_are_refused_together() -> None:
    with pytest.raises(OptionError):
        Options(teams=True, elimination=100)
    Options(teams=True, stacking="any_draw", seven_zero=True, jump_in=True, multi_play=True)


# --- Whole matches --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("players", TEAM_PLAYERS)
def test_t2_t3_seeded_team_matches_score_and_end_by_team(mode: str, players: int) -> None:
    game, _ = Game.new(mode, players, seed=100 + players, options=Options(teams=True, target_score=200))
    teams = game.teams
    agent = Random(players)
    for _ in range(20000):
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent)
    assert game.phase is Phase.MATCH_OVER and game.winner is not None
    for record in game.history:
        assert record.points[partner_of(record.winner, teams)] == 0
        assert sum(record.points) == record.points[record.winner]
    totals = team_totals(game.scores, teams)
    winning = team_of(game.winner, teams)
    assert totals[winning] >= 200 and all(t < 200 for i, t in enumerate(totals) if i != winning)
    assert set(game.placement()[:2]) == set(members(winning, teams))
    game.check_consistency()


@pytest.mark.parametrize("mode", GAMES)
def test_t3_t5_seeded_lowest_scoring_team_matches_with_house_rules_and_a_player_leaving(mode: str) -> None:
    options = Options(teams=True, scoring="lowest", target_score=150, stacking="any_draw", jump_in=True)
    for seed in range(3):
        game, _ = Game.new(mode, 6, seed=seed, options=options)
        agent = Random(seed)
        for step in range(20000):
            if game.phase is Phase.MATCH_OVER:
                break
            if step == 40:
                game.remove_player(4)  # team 2 plays on with seat 1 alone
            random_step(game, agent)
        assert game.phase is Phase.MATCH_OVER and game.winner is not None and game.active[game.winner]
        totals = team_totals(game.scores, 3)
        assert max(totals) >= 150 and totals[team_of(game.winner, 3)] == min(totals)
        game.check_consistency()
