"""Sessions built directly, for tests of the bot's messages without Discord."""

from __future__ import annotations

from bot.adapter.session import Seat, Session, Status
from bot.engine.cards import Mode
from bot.engine.game import Game
from bot.engine.options import Options


def flip_session(players: int, seed: int = 3) -> Session:
    """A UNO FLIP match just dealt to ``players`` seats named ``Player00``, ``Player01``…"""
    game, _ = Game.new("flip", players, seed=seed)
    return Session(
        channel_id=1,
        guild_id=2,
        mode=Mode.FLIP,
        options=Options(),
        host_id=100,
        seats=[Seat(100 + i, f"Player{i:02d}") for i in range(players)],
        turn_timer=60,
        created_at=0.0,
        seed=seed,
        status=Status.PLAYING,
        game=game,
    )
