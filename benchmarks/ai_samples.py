"""How close *Hard*'s sampled worlds are to the real game (issue 21 points 1 and 3): what its inference about the
hidden hands is worth, measured in seconds rather than in thousands of rounds.

It plays seeded single rounds of *Normal* seats (out-of-turn moves first, as :mod:`benchmarks.ai` plays them), seat
0's memory fed only what it was shown. At each of seat 0's turns (SPEC G4: play or draw) it samples worlds as *Hard*
does (:class:`~bot.ai.rollout.Sampler`) and compares each opponent's sampled hand with its real one: the cards of the
wrong colour (:func:`distance`; wilds count as a colour), summed over the opponents, averaged over the worlds and the
turns. It prints that for worlds sampled with the seat's memory (the colours each opponent failed to follow, a hand
it was shown) and with only the cards played (the discard pile; the hidden cards drawn uniformly). 0 is a *Hard*
that knew every hand: with the real hands in its worlds *Hard* wins 48.6 % of the rounds in which it wins 29.6 %
(README "AI levels"), so the figure says how much of what the hidden cards hide an inference recovers before a
strength run says whether it plays better. In FLIP the public other faces already fix which cards each opponent
holds (the memory is not consulted): both figures are alike.

Run::

    .venv/bin/python -m benchmarks.ai_samples --rounds 30 --worlds 20 --games classic --players 4
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from random import Random

from benchmarks.ai import options_for, out_of_turn
from bot.ai import Memory, normal
from bot.ai.rollout import Sampler
from bot.engine.cards import colours_of
from bot.engine.events import visible_to
from bot.engine.game import Game
from bot.engine.view import Phase


def distance(game: Game, sampled: Sequence[int], real: Sequence[int]) -> int:
    """How many cards of ``sampled`` would have to change colour for it to hold as many cards of each colour as
    ``real`` (card ids of two hands of one size; wilds count as a colour; the side in play's colours)."""
    colours = list(colours_of(game.side))
    faces = game.faces

    def counts(hand: Sequence[int]) -> list[int]:
        out = [0] * (len(colours) + 1)
        for c in hand:
            colour = faces[c].colour
            out[len(colours) if colour is None else colours.index(colour)] += 1
        return out

    return sum(max(a - b, 0) for a, b in zip(counts(sampled), counts(real), strict=True))


def measure(mode: str, players: int, house: bool, rounds: int, worlds: int, seed: int) -> tuple[int, float, float]:
    """``(turns, distance with memory, distance with no memory)`` over ``rounds`` seeded rounds (see the module
    docstring)."""
    options = options_for(mode, house)
    turns = 0
    total = {True: 0.0, False: 0.0}
    for r in range(rounds):
        game, events = Game.new(mode, players, seed=seed * 100_000 + r, options=options)
        memory = Memory(0)
        memory.observe(visible_to(events, 0))
        rnd = Random(seed * 100_000 + r)
        for _ in range(3000):
            if game.phase is Phase.ROUND_OVER or game.phase is Phase.MATCH_OVER:
                break
            seat = game.pending
            assert seat is not None
            view = game.view(seat)
            if seat == 0 and view.phase is Phase.PLAY:
                turns += 1
                blank = Memory(0)
                blank.played = list(memory.played)  # the discard pile is public: only the hands' clues are left out
                for remembered, m in ((True, memory), (False, blank)):
                    sampler = Sampler(view, options, m)
                    d = 0
                    for w in range(worlds):
                        hands = sampler.world(w)[0]
                        d += sum(distance(game, hands[s], game.hands[s]) for s in range(1, players))
                    total[remembered] += d / worlds
            action = out_of_turn(game, options, lambda _, seen, r=rnd: normal.choose(seen, r))
            if action is None:
                action = normal.choose(view, rnd) or game.default_action(seat)
            assert action is not None
            memory.observe(visible_to(game.apply(action), 0))
    return turns, total[True] / max(turns, 1), total[False] / max(turns, 1)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--worlds", type=int, default=20, help="worlds sampled per turn")
    p.add_argument("--games", nargs="+", default=["classic", "flip", "flex"])
    p.add_argument("--house", nargs="+", default=["off"], choices=["off", "on"])
    p.add_argument("--players", nargs="+", type=int, default=[4])
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(f"benchmarks/ai_samples.py: seed {args.seed}, {args.rounds} rounds, {args.worlds} worlds per turn")
    print("cards of the wrong colour in the opponents' sampled hands, summed over the opponents (0: the real hands)")
    for mode in args.games:
        for house in args.house:
            for players in args.players:
                turns, remembered, blank = measure(mode, players, house == "on", args.rounds, args.worlds, args.seed)
                print(
                    f"  {mode:8} house rules {house:3} {players} players: with memory {remembered:6.2f}"
                    f"   no memory {blank:6.2f}   ({turns} turns)"
                )


if __name__ == "__main__":
    main()
