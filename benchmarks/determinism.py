"""Determinism check for engine refactors: digests of seeded random matches (run by hand; not a test).

Plays seeded random matches in every mode (default options, several option sets, every house rule on; several draw
rates), hashing every step's events, the full legal-action lists of every seat at sampled steps, and each final
``to_dict()``. Record the digests with the engine before a change, then compare after it: any difference means the
change altered behaviour.

    python benchmarks/determinism.py --record /tmp/digests.json     # before
    python benchmarks/determinism.py --compare /tmp/digests.json    # after (exit 1 on a difference)

The compiled engine and its Python source must give the same digests (issue 21 point 5; tests/engine/test_compiled.py):

    UNO_ENGINE=pure python benchmarks/determinism.py --record /tmp/pure.json
    UNO_ENGINE=compiled python benchmarks/determinism.py --compare /tmp/pure.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.game import PLAYER_RANGE, Game
from bot.engine.options import Options, preset
from bot.engine.simulate import random_step
from bot.engine.view import Phase

OPTION_SETS: dict[str, Options] = {
    "default": Options(),
    "block": Options(block_illegal_wild_draw=True, false_catch_penalty=2, target_score=200),
    "lowest": Options(scoring="lowest", target_score=100, classic_deck="112", flip_pairing="random"),
    "flipopts": Options(
        opening_flip="apply",
        exposed_wild_chooser="flipper",
        flip_invert_piles=False,
        flex_reset_power=False,
        flex_target_can_challenge=False,
        target_score=200,
        classic_deck="112",
    ),
}
#: Every house rule fully on (SPEC H), for each game those it has (``preset("chaos", …)``).
CHAOS = "chaos"
DRAW_RATES: tuple[float | None, ...] = (0.05, 0.0, None)


def digest_match(mode: str, players: int, seed: int, options: Options, draw_rate: float | None) -> str:
    h = hashlib.sha256()
    game, events = Game.new(mode, players, seed=seed, options=options)
    h.update(repr(events).encode())
    agent = Random(seed)
    step = 0
    while game.phase is not Phase.MATCH_OVER:
        if step % 7 == 0:  # the full legal lists of every seat (order and contents), at a sample of steps
            for s in range(-1, game.players + 1):
                h.update(repr(list(game.legal_actions(s))).encode())
        events = random_step(game, agent, draw_rate=draw_rate)
        h.update(repr(events).encode())
        step += 1
        if step > 200_000:
            raise RuntimeError("match too long")
    h.update(json.dumps(game.to_dict(), sort_keys=True).encode())
    return h.hexdigest()


def run(matches: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for mode in ("classic", "flip", "flex"):
        low, high = PLAYER_RANGE[mode]  # type: ignore[index]
        sets = {**OPTION_SETS, CHAOS: preset(CHAOS, mode, Options(target_score=200))}
        for opt_name, options in sets.items():
            n = matches if opt_name == "default" else max(1, matches // 4)
            for i in range(n):
                players = low + i % (high - low + 1)
                draw_rate = DRAW_RATES[i % len(DRAW_RATES)]
                out[f"{mode}/{opt_name}/{i}"] = digest_match(mode, players, i, options, draw_rate)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path)
    group.add_argument("--compare", type=Path)
    parser.add_argument("--matches", type=int, default=200, help="matches per mode with default options")
    args = parser.parse_args()
    digests = run(args.matches)
    if args.record:
        args.record.write_text(json.dumps(digests, indent=0))
        print(f"recorded {len(digests)} digests to {args.record}")
        return 0
    want = json.loads(args.compare.read_text())
    diff = [k for k in want if digests.get(k) != want[k]]
    if set(want) != set(digests):
        print("different match sets: re-record with the same --matches")
        return 1
    if diff:
        print(f"{len(diff)} of {len(want)} matches differ, e.g. {diff[:5]}")
        return 1
    print(f"all {len(want)} digests identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
