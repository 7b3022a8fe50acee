"""A seeded simulation of complete 500-point matches: 2,000 per game, 2–10 players (2–8 for Flex).

Every match must end with a winner at or above the target, with scores equal to the sum of its rounds (SPEC G9), and
with every card accounted for. Split into many small chunks (80 matches each) so that the test workers share the load
evenly and none is left finishing a long chunk alone.
"""

import pytest

from bot.engine.game import PLAYER_RANGE
from bot.engine.simulate import play_random_match
from bot.engine.view import Phase

MATCHES_PER_GAME = 2000
CHUNKS = 25


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
def test_seeded_500_point_matches_all_finish_correctly(mode, chunk):
    low, high = PLAYER_RANGE[mode]
    size = MATCHES_PER_GAME // CHUNKS
    winners_by_seat = {}
    for i in range(chunk * size, (chunk + 1) * size):
        players = low + i % (high - low + 1)
        result = play_random_match(mode, players, seed=i, max_steps=200_000)
        game = result.game
        assert game.phase is Phase.MATCH_OVER and game.winner is not None
        assert game.scores[game.winner] >= 500
        assert game.scores == [sum(r.points[s] for r in game.history) for s in range(players)]
        assert sorted([c for h in game.hands for c in h] + game.draw_pile + game.discard) == list(range(len(game.deck)))
        assert len(game.history) == result.rounds
        winners_by_seat[game.winner] = winners_by_seat.get(game.winner, 0) + 1
    # a fair shuffle: over a chunk's matches many different seats win
    assert len(winners_by_seat) >= 5
