"""Engine benchmark (run by hand; never timed inside tests): random legal play, steps/s and rounds/s per game mode, side
by side in the same run with RLCard's UNO on the same workload (DESIGN "Benchmarks").

    .venv/bin/python benchmarks/engine.py [--rounds 2000] [--players 4] [--repeat 3] [--seed 1]

Workload: complete rounds of full-rules matches (default options: 500-point matches, challenges, UNO calls with the
next-to-last card, SPEC G4's optional play of a drawn card) with random legal actions. The main line uses
``random_step(game, agent, draw_rate=0.0, uno_rate=0.0, catch_rate=0.0)``: the mover picks uniformly among their plays
when they have any, else draws (RLCard's action space: RLCard only offers "draw" when nothing is playable); no separate
UNO calls or catches, which RLCard does not have. A second line, for information, picks uniformly among every legal
move including voluntary draws (``draw_rate=None``; its rounds are ~10x longer, so it plays --info-rounds rounds).

A *step* is one applied action, dealing the next round (``NextRound``) not counted (its time is). Our engine splits
"draw, then play the drawn card" into two actions where RLCard plays a playable drawn card within its draw step, so
compare rounds/s too.

RLCard (``pip install rlcard`` into the venv by hand; not a project dependency; skipped with a message when missing):
classic, same players and rounds, random legal actions, measured (a) on the game core ``rlcard.games.uno.game.UnoGame``
with ``init_game()`` / ``get_legal_actions()`` / ``step()`` and a uniform choice among the legal actions, and (b) on
the environment API (``rlcard.make("uno", ...)``, ``RandomAgent`` s, ``env.run()``), steps counted as actions taken.
An RLCard game is one round.

Times are the best of ``--repeat`` runs, interleaved, of CPU time of this process (the machine may be shared; wall time
is shown too).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.actions import NextRound
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.simulate import random_step
from bot.engine.view import Phase

Result = tuple[int, int, float, float]  # steps, rounds, cpu seconds, wall seconds


def measure(repeat: int, jobs: dict[str, Callable[[], tuple[int, int]]]) -> dict[str, Result]:
    """Run every job ``repeat`` times, interleaved (a round of all jobs, then the next round) so that a busy spell of a
    shared machine does not favour one of them; keep each job's fastest run (by CPU time)."""
    best: dict[str, Result] = {}
    for _ in range(repeat):
        for name, run in jobs.items():
            c0, w0 = time.process_time(), time.perf_counter()
            steps, rounds = run()
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            if name not in best or cpu < best[name][2]:
                best[name] = (steps, rounds, cpu, wall)
    return best


def ours(mode: str, players: int, rounds: int, seed: int, draw_rate: float | None) -> tuple[int, int]:
    """Play ``rounds`` complete rounds (as many 500-point matches as that takes)."""
    steps = done = 0
    match = 0
    while done < rounds:
        game, _ = Game.new(mode, players, seed=seed * 1_000_003 + match)
        agent = random.Random(seed * 1_000_003 + match)
        match += 1
        while True:
            phase = game.phase
            if phase is Phase.MATCH_OVER:
                done += 1
                break
            if phase is Phase.ROUND_OVER:
                done += 1
                if done >= rounds:
                    break
                game.apply(NextRound(game.current))
                continue
            random_step(game, agent, uno_rate=0.0, catch_rate=0.0, draw_rate=draw_rate)
            steps += 1
    return steps, done


def rlcard_core(players: int, rounds: int, seed: int) -> tuple[int, int]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    agent = random.Random(seed)
    steps = 0
    for _ in range(rounds):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[agent.randrange(len(legal))])
            steps += 1
    return steps, rounds


def rlcard_env(players: int, rounds: int, seed: int) -> tuple[int, int]:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])
    start = env.timestep
    for _ in range(rounds):
        env.run(is_training=False)
    return env.timestep - start, rounds


def snapshot_sizes() -> list[tuple[str, int, int]]:
    """Compact JSON size of a 10-player FLIP snapshot: just dealt, and the largest over one whole random match."""
    out = []
    for pairing in ("physical", "random"):
        options = Options(flip_pairing=pairing)
        game, _ = Game.new("flip", 10, seed=7, options=options)
        first = len(json.dumps(game.to_dict(), separators=(",", ":")))
        largest = first
        agent = random.Random(7)
        while game.phase is not Phase.MATCH_OVER:
            random_step(game, agent)
            largest = max(largest, len(json.dumps(game.to_dict(), separators=(",", ":"))))
        out.append((pairing, first, largest))
    return out


def line(label: str, r: Result) -> str:
    steps, rounds, cpu, wall = r
    return (
        f"  {label:<44} {steps / cpu:>10,.0f} steps/s {rounds / cpu:>9,.1f} rounds/s  "
        f"({steps:,} steps, {rounds:,} rounds, {steps / rounds:.1f} steps/round; cpu {cpu:.2f}s, wall {wall:.2f}s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per measurement (default 2000)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement; the fastest is kept (default 5)")
    parser.add_argument(
        "--info-rounds", type=int, default=None, help="rounds for the draw_rate=None line (default: --rounds / 10)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default="classic,flip,flex")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard even when installed")
    args = parser.parse_args()
    n, p, rep, seed = args.rounds, args.players, args.repeat, args.seed
    modes = args.modes.split(",")
    info = args.info_rounds if args.info_rounds is not None else max(1, n // 10)
    jobs: dict[str, Callable[[], tuple[int, int]]] = {}
    for mode in modes:
        jobs[mode] = lambda mode=mode: ours(mode, p, n, seed, 0.0)
    for mode in modes:
        jobs[f"{mode} any"] = lambda mode=mode: ours(mode, p, info, seed, None)
    rlcard_version = None
    try:
        if args.no_rlcard:
            raise ImportError("--no-rlcard")
        import importlib.metadata

        import rlcard  # noqa: F401

        rlcard_version = importlib.metadata.version("rlcard")
        jobs["rlcard core"] = lambda: rlcard_core(p, n, seed)
        jobs["rlcard env"] = lambda: rlcard_env(p, n, seed)
    except ImportError as exc:
        rlcard_skipped = (
            f"RLCard skipped ({exc}): `.venv/bin/pip install rlcard` to compare (not a project dependency)."
        )
    print(f"Python {sys.version.split()[0]}; {n:,} rounds, {p} players; best of {rep} interleaved runs (CPU time)")
    results = measure(rep, jobs)
    print("Our engine, full rules, default options; random_step(draw_rate=0.0, uno_rate=0, catch_rate=0):")
    print("  (the mover plays uniformly at random when they can, else draws, as in RLCard)")
    for mode in modes:
        print(line(mode, results[mode]))
    print(f"For information, draw_rate=None (uniform over every legal move, voluntary draws too; {info:,} rounds):")
    for mode in modes:
        print(line(mode, results[f"{mode} any"]))
    if rlcard_version is None:
        print(rlcard_skipped)
    else:
        print(f"RLCard {rlcard_version} UNO (classic, {p} players, one round per game, uniform random legal actions):")
        core, env = results["rlcard core"], results["rlcard env"]
        print(line("(a) game core UnoGame", core))
        print(line("(b) env API rlcard.make + RandomAgent + run()", env))
        if "classic" in results:
            c = results["classic"]
            for label, r in (("game core", core), ("env API", env)):
                print(
                    f"  classic ours / RLCard {label}: steps/s x{(c[0] / c[2]) / (r[0] / r[2]):.2f}, "
                    f"rounds/s x{(c[1] / c[2]) / (r[1] / r[2]):.2f}"
                )
    print("Snapshot size, 10-player FLIP, Game.to_dict() as compact JSON (target <= 4096 bytes):")
    for pairing, first, largest in snapshot_sizes():
        print(f"  flip_pairing={pairing:<9} just dealt {first:,} bytes; largest over a whole match {largest:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
