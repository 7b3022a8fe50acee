"""The AI levels' published strength (issue 21 point 3) and time per decision (point 4).

For each game (classic, FLIP, Flex) and house rules off/on, it plays seeded single rounds: heads-up, each level
(easy, normal, hard) against each opponent (random, easy, normal, hard), the seats rotated; and at 4 players one seat
of the level against three of the opponent. A cell prints the subject's round win rate and its 95 % Wilson interval,
its wins and the rounds played. Every seat decides only from its own view and what it was shown (:mod:`bot.ai`).
*Random* plays a uniformly random legal move but always calls UNO and catches (the issue's baseline). The time per
decision is CPU time of the process that decided (``time.process_time``, one core), p50/p95/p99, per level.

Run (reproducible: everything is seeded)::

    .venv/bin/python -m benchmarks.ai --rounds 10000 --hard-rounds 10000        # the full run (days of CPU)
    .venv/bin/python -m benchmarks.ai --rounds 400 --hard-rounds 40             # a quick look
    .venv/bin/python -m benchmarks.ai --levels hard --opponents normal --games classic --house off --players 4 \
        --hard-rounds 10000 --jobs 2                                           # one cell on two cores

``--jobs N`` plays each cell's rounds in N processes (one per core); every round is dealt and played from its own
seed, so the wins printed (``wins/rounds``) are the same for any N. ``--first-round K`` plays rounds ``K`` to
``K + rounds - 1`` of the seed, so a cell can be played in parts (on different days or machines) whose wins add up to
what one run of all its rounds prints: ``--hard-rounds 5000`` and then ``--hard-rounds 5000 --first-round 5000`` are
the 10,000 rounds of ``--hard-rounds 10000``.

``--hard-rounds`` caps the rounds of the cells with a *Hard* seat (a search per decision); ``--games``, ``--house``,
``--players`` and ``--levels`` pick the cells; ``--iterations`` sets *Hard*'s budget (default
:data:`bot.ai.hard.ITERATIONS`).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random

from bot.ai import Level, Memory, decide
from bot.ai import hard as hard_level
from bot.engine.actions import Action, CallUno, Catch, Play
from bot.engine.events import visible_to
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase, PlayerView

OPPONENTS = ("random", "easy", "normal", "hard")
SUBJECTS = ("easy", "normal", "hard")
HOUSE_ON = {"classic": {"stacking": "any_draw", "draw_to_match": True, "seven_zero": True, "jump_in": True}}
HOUSE_ON_OTHER = {"stacking": "any_draw", "draw_to_match": True, "jump_in": True}
MAX_STEPS = 3000


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins`` out of ``n`` (0..1)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def random_move(view: PlayerView, rnd: Random) -> Action | None:
    """Uniformly random legal play, but UNO is always called and a catch always made (the issue's baseline)."""
    legal = list(view.legal)
    if not legal:
        return None
    for a in legal:
        if isinstance(a, CallUno | Catch):
            return a
    if view.me != view.pending:
        return None  # no jump-ins
    moves = [a for a in legal if not isinstance(a, CallUno | Catch)]
    if any(isinstance(a, Play) and a.uno for a in moves):  # UNO is called with the next-to-last card
        moves = [a for a in moves if not isinstance(a, Play) or a.uno]
    return rnd.choice(moves) if moves else None


class Timer:
    """CPU time per decision, by level."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)

    def report(self) -> list[str]:
        lines = []
        for level in (*OPPONENTS,):
            xs = sorted(self.samples.get(level, []))
            if not xs:
                continue

            def q(f: float, xs: list[float] = xs) -> float:
                return xs[min(len(xs) - 1, int(f * len(xs)))] * 1000

            lines.append(
                f"  {level:<7} decisions {len(xs):>8}   p50 {q(0.5):8.2f} ms   p95 {q(0.95):8.2f} ms   "
                f"p99 {q(0.99):8.2f} ms   max {xs[-1] * 1000:8.2f} ms"
            )
        return lines


def play_round(
    mode: str, levels: Sequence[str], seed: int, options: Options, timer: Timer, iterations: int | None
) -> int:
    """One seeded round with ``levels[s]`` at seat ``s``; returns the winner's seat (-1: the round was not over after
    :data:`MAX_STEPS` actions, which counts as a loss for the row's level)."""
    players = len(levels)
    game, events = Game.new(mode, players, seed=seed, options=options)
    memories = [Memory(s) for s in range(players)]
    for s in range(players):
        memories[s].observe(visible_to(events, s))
    rnd = Random(seed ^ 0x5EED)
    for _ in range(MAX_STEPS):
        if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return game.history[-1].winner
        action = out_of_turn(
            game, options, lambda s, view: _decide(levels[s], view, options, memories[s], rnd, timer, iterations)
        )
        if action is None:
            seat = game.pending
            assert seat is not None
            action = _decide(levels[seat], game.view(seat), options, memories[seat], rnd, timer, iterations)
            if action is None:
                action = game.default_action(seat)
                assert action is not None
        events = game.apply(action)
        for s in range(players):
            memories[s].observe(visible_to(events, s))
    return -1  # not over after MAX_STEPS actions (e.g. both piles empty and nobody can play): nobody's win


def out_of_turn(game: Game, options: Options, move: Callable[[int, PlayerView], Action | None]) -> Action | None:
    """The first out-of-turn move of the round's seats, before the pending seat's: a catch, then a jump-in (each seat
    other than the pending one, active and with a legal action, in seat order, asked ``move(seat, its view)``); None
    when no seat makes one."""
    if game.catchable is None and not options.jump_in:
        return None
    for s in range(game.players):
        if s == game.pending or not game.active[s]:
            continue
        view = game.view(s)
        if view.legal:
            got = move(s, view)
            if got is not None:
                return got
    return None


def _decide(
    level: str, view: PlayerView, options: Options, memory: Memory, rnd: Random, timer: Timer, iterations: int | None
) -> Action | None:
    seed = rnd.getrandbits(32)
    start = time.process_time()
    if level == "random":
        move = random_move(view, Random(seed))
    else:
        move = decide(level, view, options=options, memory=memory, seed=seed, iterations=iterations)
    if view.pending == view.me:
        timer.samples[level].append(time.process_time() - start)
    return move


def cell(
    mode: str,
    subject: str,
    opponent: str,
    players: int,
    rounds: int,
    options: Options,
    timer: Timer,
    iterations: int | None,
    seed: int,
    jobs: int = 1,
    first: int = 0,
) -> tuple[int, int]:
    """Rounds won by the one ``subject`` seat among ``players - 1`` ``opponent`` seats (its seat rotated), and the
    rounds played: rounds ``first`` to ``first + rounds - 1``. Round ``r`` is dealt from ``seed + r`` and plays alike
    wherever it runs, so ``jobs`` processes (each a contiguous share of the rounds, its decision times added to
    ``timer``) give the same wins as one, and parts of a cell (``first``) add up to the whole."""
    jobs = max(jobs, 1)
    shares = [range(first + rounds * j // jobs, first + rounds * (j + 1) // jobs) for j in range(jobs)]
    args = (mode, subject, opponent, players)
    if jobs == 1:
        results = [_rounds(*args, shares[0], options, iterations, seed)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(_rounds, *args, share, options, iterations, seed) for share in shares]
            results = [future.result() for future in futures]
    for _, samples in results:
        for level, xs in samples.items():
            timer.samples[level].extend(xs)
    return sum(won for won, _ in results), rounds


def _rounds(
    mode: str,
    subject: str,
    opponent: str,
    players: int,
    rounds: range,
    options: Options,
    iterations: int | None,
    seed: int,
) -> tuple[int, dict[str, list[float]]]:
    """The ``rounds`` of :func:`cell` (in this process or a worker): the subject's wins, and the decision times
    measured, by level."""
    timer = Timer()
    wins = 0
    for r in rounds:
        seat = r % players
        levels = [opponent] * players
        levels[seat] = subject
        wins += play_round(mode, levels, seed + r, options, timer, iterations) == seat
    return wins, dict(timer.samples)


def options_for(mode: str, house: bool) -> Options:
    extra = (HOUSE_ON.get(mode, HOUSE_ON_OTHER)) if house else {}
    return Options(target_score=0, **extra)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=400, help="rounds per cell without a Hard seat")
    p.add_argument("--hard-rounds", type=int, default=40, help="rounds per cell with a Hard seat")
    p.add_argument("--games", nargs="+", default=["classic", "flip", "flex"])
    p.add_argument("--house", nargs="+", default=["off", "on"], choices=["off", "on"])
    p.add_argument("--players", nargs="+", type=int, default=[2, 4])
    p.add_argument("--levels", nargs="+", default=list(SUBJECTS), choices=SUBJECTS)
    p.add_argument("--opponents", nargs="+", default=list(OPPONENTS), choices=OPPONENTS)
    p.add_argument("--iterations", type=int, default=None, help=f"Hard's budget (default {hard_level.ITERATIONS})")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--first-round",
        type=int,
        default=0,
        help="the cells' first round (rounds K.. of the seed: a cell played in parts adds up to the whole)",
    )
    p.add_argument(
        "--jobs", type=int, default=1, help="processes per cell (one per core; the same wins as one process)"
    )
    args = p.parse_args(argv)
    if args.first_round < 0:
        p.error("--first-round must be 0 or more")
    timer = Timer()
    budget = args.iterations if args.iterations is not None else hard_level.ITERATIONS
    first = f", rounds from {args.first_round}" if args.first_round else ""
    print(f"benchmarks/ai.py: seed {args.seed}{first}, Hard budget {budget} simulations per decision")
    for mode in args.games:
        for house in args.house:
            options = options_for(mode, house == "on")
            for players in args.players:
                print(
                    f"\n{mode}, house rules {house}, {players} players (one seat of the row's level; parity "
                    f"{100 / players:.0f} %): win % [95 % Wilson interval] (wins/rounds)"
                )
                print("  " + f"{'':<8}" + "".join(f"{o:>34}" for o in args.opponents))
                for subject in args.levels:
                    row = f"  {subject:<8}"
                    for opponent in args.opponents:
                        hard = Level.HARD.value in (subject, opponent)
                        rounds = args.hard_rounds if hard else args.rounds
                        wins, n = cell(
                            mode,
                            subject,
                            opponent,
                            players,
                            rounds,
                            options,
                            timer,
                            args.iterations,
                            args.seed * 1_000_003,
                            args.jobs,
                            args.first_round,
                        )
                        lo, hi = wilson(wins, n)
                        got = f"{100 * wins / max(n, 1):5.1f} [{100 * lo:4.1f}, {100 * hi:4.1f}] ({wins}/{n})"
                        row += f"{got:>34}"
                    print(row, flush=True)
    print("\nCPU time per own-turn decision (one core):")
    for line in timer.report():
        print(line)


if __name__ == "__main__":
    main()
