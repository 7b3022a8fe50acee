"""The AI levels (issue 21 points 1 and 2): legal moves only, reproducible by seed, Easy's mistakes, Hard's samples
consistent with what the seat knows, and fair play — decisions depend only on what the seat may know."""

from __future__ import annotations

from random import Random

import pytest

from bot.ai import Level, Memory, decide
from bot.ai.hard import Sampler
from bot.engine.actions import CallUno, Play, PlayMany
from bot.engine.builder import build
from bot.engine.cards import Colour, Side
from bot.engine.events import CardsDrawn, ColourDeclared, HandRevealed, visible_to
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.view import Phase

LEVELS = list(Level)


def _play(mode: str, players: int, seed: int, levels: list[Level], options: Options, *, budget: int = 8) -> Game:
    """A seeded round where each seat plays its level (Hard with a small budget), fed only what it may see."""
    game, events = Game.new(mode, players, seed=seed, options=options)
    memories = [Memory(s) for s in range(players)]
    for s in range(players):
        memories[s].observe(visible_to(events, s))
    rnd = Random(seed)
    for _ in range(2000):
        if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return game
        seat = game.pending
        assert seat is not None
        view = game.view(seat)
        action = decide(
            levels[seat], view, options=options, memory=memories[seat], seed=rnd.getrandbits(32), iterations=budget
        )
        assert action is not None
        assert action in view.legal, f"{levels[seat]} chose an illegal {action}"
        events = game.apply(action)
        for s in range(players):
            memories[s].observe(visible_to(events, s))
    raise AssertionError("round did not end")


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
@pytest.mark.parametrize("house", [False, True])
def test_every_level_plays_only_legal_moves(mode: str, house: bool) -> None:
    """Issue 21 pt 1: each level picks one of ``view.legal`` (house rules on and off), to the end of a round."""
    extra: dict[str, object] = {"stacking": "any_draw", "draw_to_match": True, "jump_in": True, "number_finish": True}
    extra = {**extra, "stack_deflect": True, "multi_play": True, "elimination": 60} if house else {}
    if house and mode == "classic":
        extra["seven_zero"] = True
    options = Options(target_score=0, **extra)  # type: ignore[arg-type]
    for seed in range(2):
        game = _play(mode, 3, seed, [Level.EASY, Level.NORMAL, Level.HARD], options)
        assert game.history


def _position(other: str, draw: str) -> Game:
    return build("classic", ["R5 G3 W+4 B7 Y2 R9", other], discard="B1 R2", draw=draw, options=Options(target_score=0))


def test_same_knowledge_same_decision() -> None:
    """Issue 21 pt 2 (fair play): two games identical in everything seat 0 may know (its hand, the top, every
    count, the pile sizes, its memory) but with other opponent hands and another draw pile order give the same
    decision at every level for the same seed — the AI never reads hidden cards."""
    a = _position("Y9 B9 G7 R8 Y1", "G1 G2 G4")
    b = _position("R1 W B3 R+2 Y4", "Y7 GS Y5")
    view_a, view_b = a.view(0), b.view(0)
    assert [h.id for h in view_a.hand] == [h.id for h in view_b.hand]
    assert a.hands[1] != b.hands[1] and a.draw_pile != b.draw_pile
    memory = Memory(0)
    memory.observe([CardsDrawn(1, 1, "draw"), ColourDeclared(1, Colour.GREEN)])
    for level in LEVELS:
        for seed in range(6):
            got_a = decide(level, view_a, options=a.options, memory=memory, seed=seed, iterations=60)
            got_b = decide(level, view_b, options=b.options, memory=memory, seed=seed, iterations=60)
            assert got_a == got_b, (level, seed)


def test_hard_is_reproducible_by_seed() -> None:
    """Issue 21 pt 4: the budget is iterations, so a decision is the same for the same seed."""
    game = _position("Y9 B9 G7 R8 Y1", "G1 G2 G4")
    view = game.view(0)
    first = [decide(Level.HARD, view, options=game.options, seed=s, iterations=80) for s in range(4)]
    again = [decide(Level.HARD, view, options=game.options, seed=s, iterations=80) for s in range(4)]
    assert first == again


def test_easy_forgets_uno_sometimes() -> None:
    """Issue 21 pt 1: Easy sometimes forgets UNO, which Normal never does."""
    game = build("classic", ["R5 G3", "Y9 B9 G7"], discard="R2", options=Options(target_score=0))
    view = game.view(0)
    easy = [decide(Level.EASY, view, options=game.options, seed=s) for s in range(200)]
    normal = [decide(Level.NORMAL, view, options=game.options, seed=s) for s in range(50)]
    assert all(isinstance(a, Play) and a.uno for a in normal)
    forgot = sum(isinstance(a, Play) and not a.uno for a in easy)
    assert 20 < forgot < 180
    called = build("classic", ["R5", "Y9 B9 G7"], discard="R2", current=1, options=Options(target_score=0))
    easy_calls = [decide(Level.EASY, called.view(0), options=called.options, seed=s) for s in range(200)]
    assert 20 < sum(isinstance(a, CallUno) for a in easy_calls) < 200


def test_sampled_games_agree_with_what_the_seat_knows() -> None:
    """Issue 21 pt 1: Hard's samples keep the seat's hand, every count, the pile sizes and the top; a colour an
    opponent failed to follow is not in the cards it held then; a hand it was shown stays in that hand."""
    game = build(
        "classic",
        ["R5 G3 W+4", "Y9 B9 G7 R8 Y1", "G1 B2 Y3 Y4"],
        discard="B1 R2",
        options=Options(target_score=0),
    )
    view = game.view(0)
    memory = Memory(0)
    memory.observe([ColourDeclared(1, Colour.RED), CardsDrawn(1, 1, "draw")])  # seat 1 had no red then
    shown = tuple(game.faces[c] for c in game.hands[2][:2])
    memory.observe([HandRevealed(0, 2, shown)])
    sampler = Sampler(view, game.options, memory)
    for seed in range(50):
        g = sampler.sample(seed)
        g.check_consistency()
        assert g.hands[0] == game.hands[0]
        assert [len(h) for h in g.hands] == [len(h) for h in game.hands]
        assert len(g.draw_pile) == len(game.draw_pile) and len(g.discard) == len(game.discard)
        assert g.top == game.top and g.side is Side.LIGHT
        assert sum(g.faces[c].colour is Colour.RED for c in g.hands[1]) <= 1  # 4 old cards had no red
        assert [g.faces[c] for c in g.hands[2][:2]] == list(shown)
        assert g == sampler.sample(seed)  # the same seed, the same world


@pytest.mark.parametrize("level", LEVELS)
def test_h6_number_finish_normal_keeps_a_number_for_its_last_card(level: Level) -> None:
    """SPEC H6: holding a number and a Wild Draw Four it would bluff, Normal plays the number without the rule (it
    never bluffs) and with it the Wild Draw Four: left alone, that card could not be played for turns. Every level
    plays a legal move either way (Easy often plays the first playable card; Hard's search may weigh it otherwise)."""
    for rule in (False, True):
        options = Options(target_score=0, number_finish=rule)
        game = build("classic", ["R9 W+4", "G1 G2 G3", "B1 B2 B3"], "R5", options=options)
        view = game.view(0)
        action = decide(level, view, options=options, memory=Memory(0), seed=1, iterations=8)
        assert isinstance(action, Play) and action in view.legal
        if level is Level.NORMAL:
            assert game.faces[action.card].kind.value == ("wild_draw_four" if rule else "number"), (level, rule)


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_h7_stack_deflect_normal_and_hard_send_a_stack_on_rather_than_take_it(level: Level) -> None:
    """SPEC H7: owing +2 with a red Reverse in hand, Normal (and Hard, whose stack decisions are Normal's) sends it
    back; without the rule it can only take it."""
    for rule in (False, True):
        options = Options(target_score=0, stacking="same_kind", stack_deflect=rule)
        game = build("classic", ["R+2 B1 B2", "RR G7 G8", "B3 B4"], "R5", options=options)
        game.apply(game.legal_actions(0)[0])
        view = game.view(1)
        action = decide(level, view, options=options, memory=Memory(1), seed=1, iterations=8)
        assert action in view.legal
        assert isinstance(action, Play) is rule


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_h8_multi_play_normal_and_hard_shed_several_cards_of_one_number(level: Level) -> None:
    """SPEC H8: with three 5s, one playable, Normal plays them all at once (Hard keeps that unless its search finds
    better, and its moves are legal); without the rule one card."""
    for rule in (False, True):
        options = Options(target_score=0, multi_play=rule)
        game = build("classic", ["R5 B5 G5 Y2 Y4", "B1 B2 B3", "B6 B7 B8"], "R3", options=options)
        view = game.view(0)
        action = decide(level, view, options=options, memory=Memory(0), seed=1, iterations=8)
        assert action in view.legal
        if level is Level.NORMAL:
            assert isinstance(action, PlayMany) is rule and (not rule or len(action.cards) == 3)
