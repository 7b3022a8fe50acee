"""Partner games (SPEC T) through the adapter: the seat count at the start, the result crediting both partners."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import refusals as AE
from bot.adapter.session import Status
from bot.storage import Store, open_store

from .test_manager import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, lobby, manager_for


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


# --- T1 Teams and seats ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["classic", "flip"])
async def test_t1_a_partner_game_starts_with_4_6_or_8_players_only(store: Store, mode: str) -> None:
    m = manager_for(store)
    session = await lobby(m, mode, options={"teams": True})
    for _ in range(4):
        await m.add_ai(CHANNEL, ALICE)
    with pytest.raises(AE.TeamPlayers):  # 5 players: refused, nothing changes
        await m.start_game(CHANNEL, ALICE)
    assert session.status is Status.LOBBY and session.game is None
    await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    assert session.game is not None and session.game.teams == 3


async def test_t1_without_teams_five_players_start(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic")
    for _ in range(4):
        await m.add_ai(CHANNEL, ALICE)
    await m.start_game(CHANNEL, ALICE)
    assert session.game is not None and session.game.teams == 0


# --- T4 Placement: the result, the leaderboards and the ratings credit both partners --------------------------------
async def _play_out(m: Any, session: Any, seed: int) -> None:
    """Play the match to its end through the adapter, every move a seeded random legal one of the player to move."""
    rng = Random(seed)
    for _ in range(3000):
        game = session.game
        if session.status is Status.FINISHED or game is None:
            return
        seat = game.pending
        if seat is None:  # between rounds: anyone seated moves on
            seat = next(s for s in range(game.players) if game.active[s])
        legal = game.legal_actions(seat)
        choice = rng.randrange(len(legal))
        await m.act(CHANNEL, session.seats[seat].user_id, lambda v, k=choice: v.legal[k])
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("mode", ["classic", "flip"])
async def test_t4_both_partners_win_the_match_and_are_rated_as_a_team(store: Store, mode: str) -> None:
    m = manager_for(store)
    session = await lobby(m, mode, options={"teams": True, "target_score": 0})
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]:
        await m.join(CHANNEL, uid, name)
    await m.start_game(CHANNEL, ALICE)
    await _play_out(m, session, seed=7)
    assert session.result is not None and session.result.completed
    winner = session.result.winner
    assert winner is not None
    partner = (winner + 2) % 4
    users = [ALICE, BOB, CAROL, DAVE]
    assert set(session.result.placement[:2]) == {winner, partner}
    for seat, uid in enumerate(users):
        stats = await store.player_stats(uid, guild_id=GUILD, mode=mode)
        assert stats is not None and stats.played == 1
        assert stats.wins == (1 if seat in (winner, partner) else 0), seat
    ratings = {uid: r for uid in users for r in await store.player_ratings(uid, guild_id=GUILD, mode=mode)}
    won = {users[winner], users[partner]}
    assert {round(ratings[u].mu, 9) for u in won} == {round(ratings[users[winner]].mu, 9)}  # partners move together
    assert all(ratings[u].mu > ratings[v].mu for u in won for v in set(users) - won)
    check = await store.rebuild_ratings()  # recomputed from the stored placements: the same team ratings
    assert check.ok and check.matches == 1
    await store.rebuild_aggregates()  # a rebuild from the stored matches gives the same wins
    for seat, uid in enumerate(users):
        stats = await store.player_stats(uid, guild_id=GUILD, mode=mode)
        assert stats is not None and stats.wins == (1 if seat in (winner, partner) else 0)


async def test_t1_the_host_changes_partners_through_every_pairing_of_four(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic", options={"teams": True})
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]:
        await m.join(CHANNEL, uid, name)

    def pairs() -> set[frozenset[str]]:
        names = [s.name for s in session.seats]
        return {frozenset((names[0], names[2])), frozenset((names[1], names[3]))}

    seen = [pairs()]
    with pytest.raises(AE.NotHost):
        await m.change_partners(CHANNEL, BOB)
    for _ in range(3):
        await m.change_partners(CHANNEL, ALICE)
        seen.append(pairs())
    assert session.seats[0].name == "Alice"  # the host's seat stays
    assert len({frozenset(p) for p in seen[:3]}) == 3 and seen[3] == seen[0]  # three pairings, then round again
    await m.start_game(CHANNEL, ALICE)
    assert session.game is not None and session.game.teams == 2


async def test_t1_partners_cannot_be_changed_without_teams_or_at_five(store: Store) -> None:
    m = manager_for(store)
    session = await lobby(m, "classic")
    for _ in range(3):
        await m.add_ai(CHANNEL, ALICE)
    with pytest.raises(AE.BadRequest):
        await m.change_partners(CHANNEL, ALICE)
    await m.set_options(CHANNEL, ALICE, {"teams": True})
    await m.add_ai(CHANNEL, ALICE)
    before = [s.name for s in session.seats]
    with pytest.raises(AE.TeamPlayers):
        await m.change_partners(CHANNEL, ALICE)
    assert [s.name for s in session.seats] == before


# --- T5 Leaving a team game -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("how", "seed", "partner_wins"), [("leave", 0, True), ("kick", 5, True), ("leave", 7, False)])
async def test_t5_a_player_who_left_shares_neither_the_teams_win_nor_its_place(
    store: Store, how: str, seed: int, partner_wins: bool
) -> None:
    # review8: the partner of a player who left played on alone, and when they won the match the one who left was
    # credited a match win and the team's rating gain too (join, leave, and let the partner win for you)
    m = manager_for(store)
    session = await lobby(m, "classic", options={"teams": True, "target_score": 0})
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]:
        await m.join(CHANNEL, uid, name)
    await m.start_game(CHANNEL, ALICE)
    if how == "leave":
        await m.leave(CHANNEL, DAVE)  # seat 3, partner of seat 1 (Bob)
    else:
        await m.kick(CHANNEL, ALICE, 3)
    await _play_out(m, session, seed=seed)
    assert session.result is not None and session.result.completed
    winner = session.result.winner
    assert winner is not None and (winner == 1) == partner_wins
    users = [ALICE, BOB, CAROL, DAVE]
    won = {winner, (winner + 2) % 4} - {3}
    for seat, uid in enumerate(users):
        stats = await store.player_stats(uid, guild_id=GUILD, mode="classic")
        assert stats is not None and stats.played == 1
        assert stats.wins == (1 if seat in won else 0), seat
    ratings = {uid: r.mu for uid in users for r in await store.player_ratings(uid, guild_id=GUILD, mode="classic")}
    assert ratings[DAVE] < 25.0 and ratings[DAVE] < ratings[BOB], ratings  # ranked after both teams: he loses
    rows = await store.match_history(DAVE, guild_id=GUILD)
    assert [r.placement for r in rows] == [3]
    check = await store.rebuild_ratings()
    assert check.ok
    await store.rebuild_aggregates()
    stats = await store.player_stats(DAVE, guild_id=GUILD, mode="classic")
    assert stats is not None and stats.wins == 0


async def test_t1_play_again_after_a_partner_left_seats_them_back_with_the_same_partner(store: Store) -> None:
    # review8: Bob (seat 1) left a 4-player partner game and pressed Play again; he was seated after the others, so
    # the rematch paired Alice with Dave and Bob with Carol instead of Alice-Carol and Bob-Dave (SPEC T1)
    m = manager_for(store)
    session = await lobby(m, "classic", options={"teams": True, "target_score": 0})
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]:
        await m.join(CHANNEL, uid, name)
    await m.start_game(CHANNEL, ALICE)
    await m.leave(CHANNEL, BOB)
    await _play_out(m, session, seed=1)
    assert session.status is Status.FINISHED
    rematch = await m.rematch(CHANNEL, BOB, "Bob")
    assert [s.user_id for s in rematch.seats] == [ALICE, BOB, CAROL, DAVE]


# --- T6 Other options -----------------------------------------------------------------------------------------------
async def test_t6_teams_with_elimination_is_refused_with_its_own_reason(store: Store) -> None:
    # review8: the host turning elimination on at a partner table (or /uno new teams + elimination) was answered
    # "That request is not valid." (issue 18 point 5: say what was wrong)
    m = manager_for(store)
    session = await lobby(m, "classic", options={"teams": True})
    with pytest.raises(AE.TeamsElimination):
        await m.set_options(CHANNEL, ALICE, {"elimination": 200})
    assert session.options.teams and session.options.elimination == 0
    with pytest.raises(AE.TeamsElimination):
        m.check_lobby(guild_id=GUILD, mode="flip", options={"teams": True, "elimination": 100})
