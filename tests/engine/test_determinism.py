"""Pinned seeded matches: the same seed and the same actions must keep giving the same game (DESIGN "Engine
contract"), and an engine refactoring (e.g. for speed) must not change behaviour.

Each case plays one whole seeded random match and compares the SHA-256 of its final ``to_dict()`` (as sorted compact
JSON) with a pinned digest. A difference means the engine's behaviour changed: the cards dealt, the legal actions or
their order, an effect, the scoring, the random stream…

**A deliberate rule change or rule fix also changes these digests.** Then check that the change is intended, and re-pin
by running ``python -m tests.engine.test_determinism``, which prints the new ``PINNED`` table to paste below. For a
wider check while refactoring, see ``benchmarks/determinism.py``.

The digests were pinned on snapshot format v1. A *format* change alone must not move them, so :func:`state_v1` hashes
the snapshot as v1 wrote it: without ``"v"`` and without the fields added since, which a game that never uses them
leaves at their empty value (a game that does use them cannot match a v1 digest anyway).
"""

import hashlib
import json
from random import Random

import pytest

from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.simulate import random_step
from bot.engine.view import Phase

DEFAULT, SHORT = Options(), Options(target_score=150)
CASES: dict[str, tuple[str, int, int, Options, float | None]] = {
    # name: (mode, players, seed, options, draw_rate)
    "classic-4": ("classic", 4, 11, DEFAULT, 0.05),
    "classic-2-any-draw": ("classic", 2, 12, SHORT, None),
    "classic-7-112-block": (
        "classic",
        7,
        13,
        Options(target_score=150, classic_deck="112", block_illegal_wild_draw=True, false_catch_penalty=2),
        0.05,
    ),
    "flip-5": ("flip", 5, 21, DEFAULT, 0.05),
    "flip-3-random-apply": (
        "flip",
        3,
        22,
        Options(target_score=150, flip_pairing="random", opening_flip="apply", exposed_wild_chooser="flipper"),
        None,
    ),
    "flip-10-lowest": ("flip", 10, 23, Options(target_score=60, scoring="lowest", flip_invert_piles=False), 0.0),
    "flex-4": ("flex", 4, 31, DEFAULT, 0.05),
    "flex-8-keep-power": (
        "flex",
        8,
        32,
        Options(target_score=150, flex_reset_power=False, flex_target_can_challenge=False),
        None,
    ),
}

#: Pinned with the engine as first written (commit b9778a5): the speed-ups since have not changed behaviour.
PINNED = {
    "classic-4": "a83a2644ef693e86bcf847fcc218a1a66ab6194717df1f5703ae655b9775c068",
    "classic-2-any-draw": "0e866cb87036044484019730f732980ee8d33c682cbd0d069f119240c1a1f1c7",
    "classic-7-112-block": "a6a8c31442e6ed3265d326e68d189b42cf868d20ee5a6392bde6d4816d1d8655",
    "flip-5": "5e4afb2f1b3e19fa6303b45385937ec814ed916f028a27e750759b2b0c8a0d24",
    "flip-3-random-apply": "c02ca43f7c77bfa2561cd04c86be6d58f7966330fd2ff7156f3499915f555c4d",
    "flip-10-lowest": "d121e7639b855d13839eb3d7e29a764be55d27368386f9046638c24dbd1e09a3",
    "flex-4": "a2ec886390d059c35cbd47f34e15a861ba88042a2caaf0ec6d98f6230611fb9a",
    "flex-8-keep-power": "cf222e4053e8a54342cf25768c059064242ccc9b2d75ce0cfc76037f47313e51",
}


#: Fields added to the snapshot since v1, with the value a game that does not use them keeps.
ADDED_SINCE_V1: dict[str, object] = {"box": [], "stack": None}


def state_v1(game: Game) -> dict[str, object]:
    """``game.to_dict()`` without its version and without the fields added since v1 (they must be at their empty
    value: otherwise the game uses something v1 could not hold)."""
    state = game.to_dict()
    del state["v"]
    for name, empty in ADDED_SINCE_V1.items():
        assert state.pop(name) == empty, f"{name} is in use"
    state["v"] = 1
    return state


def digest(name: str) -> str:
    mode, players, seed, options, draw_rate = CASES[name]
    game, _ = Game.new(mode, players, seed=seed, options=options)
    agent = Random(seed)
    for _ in range(100_000):
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent, draw_rate=draw_rate)
    assert game.phase is Phase.MATCH_OVER
    text = json.dumps(state_v1(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("name", CASES)
def test_seeded_match_ends_exactly_as_pinned(name):
    assert digest(name) == PINNED[name], f"{name}: behaviour changed (see the module docstring to re-pin)"


if __name__ == "__main__":
    print("PINNED = {")
    for case in CASES:
        print(f'    "{case}": "{digest(case)}",')
    print("}")
