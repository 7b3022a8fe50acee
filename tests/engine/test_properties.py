"""Property tests over random seeded games in all three modes (Hypothesis), house rules (SPEC H) included.

At every step: cards are conserved; the owner of a pending decision has a legal action; every listed action is
accepted; save → load gives an equal game; an invalid action is refused with the game untouched; and a round's points
are the value of the cards left in the losers' hands on the side in play (SPEC G9). Whole matches end within a bound.
"""

import json
import os
from dataclasses import replace
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import errors as E
from bot.engine.actions import Accept, CallUno, Catch, Challenge, DeclareColour, Draw, Keep, NextRound, Play, PlayMany
from bot.engine.cards import Colour
from bot.engine.events import RoundEnded
from bot.engine.game import PLAYER_RANGE, Game, points_of
from bot.engine.options import Options
from bot.engine.simulate import play_random_match, random_step
from bot.engine.view import Phase

MODES = ["classic", "flip", "flex"]
#: Examples per property; raise it for a longer hunt, e.g. ``UNO_PROPERTY_EXAMPLES=1000 pytest tests/engine``.
EXAMPLES = int(os.environ.get("UNO_PROPERTY_EXAMPLES", "60"))

options_st = st.builds(
    Options,
    target_score=st.sampled_from([0, 100, 500]),
    scoring=st.sampled_from(["winner", "lowest"]),
    block_illegal_wild_draw=st.booleans(),
    false_catch_penalty=st.sampled_from([0, 2]),
    classic_deck=st.sampled_from(["108", "112"]),
    flip_pairing=st.sampled_from(["physical", "random"]),
    opening_flip=st.sampled_from(["redraw", "apply"]),
    exposed_wild_chooser=st.sampled_from(["next", "flipper"]),
    flip_invert_piles=st.booleans(),
    flex_reset_power=st.booleans(),
    flex_target_can_challenge=st.booleans(),
    stacking=st.sampled_from(["off", "same_kind", "any_draw"]),
    draw_to_match=st.booleans(),
    force_play=st.booleans(),
    seven_zero=st.booleans(),
    jump_in=st.booleans(),
    number_finish=st.booleans(),
    stack_deflect=st.booleans(),
    multi_play=st.booleans(),
    elimination=st.sampled_from([0, 0, 100]),
)


@st.composite
def games(draw):
    mode = draw(st.sampled_from(MODES))
    low, high = PLAYER_RANGE[Game.new(mode, 2)[0].mode]
    players = draw(st.integers(low, high))
    seed = draw(st.integers(0, 2**32))
    options = draw(options_st)
    if mode != "classic":
        options = replace(options, seven_zero=False)  # SPEC H: classic only
    return mode, players, seed, options


def random_action(game: Game, rnd: Random):
    """Any action at all, legal or not: random seat, random card of the deck, random colour/target/flags."""
    seat = rnd.randrange(-1, game.players + 1)
    kind = rnd.randrange(10)
    if kind == 9:  # several cards at once (SPEC H8): any cards of the deck, or of one number from a hand, any order
        hand = game.hands[seat] if 0 <= seat < game.players else []
        numbers = [c for c in hand if game.faces[c].number is not None]
        if numbers and rnd.random() < 0.5:
            number = game.faces[rnd.choice(numbers)].number
            cards = [c for c in numbers if game.faces[c].number == number]
            rnd.shuffle(cards)
            cards = cards[: rnd.randrange(1, len(cards) + 1)]
        else:
            cards = [rnd.randrange(-1, len(game.deck) + 1) for _ in range(rnd.randrange(0, 4))]
        return PlayMany(seat, tuple(cards), rnd.random() < 0.2)
    if kind == 0:
        return Play(
            seat,
            rnd.randrange(-2, len(game.deck) + 2),
            rnd.choice([None, *Colour]),
            rnd.choice([None, -1, *range(game.players)]),
            rnd.random() < 0.3,
            rnd.random() < 0.2,
        )
    return [
        Draw(seat),
        Keep(seat),
        DeclareColour(seat, rnd.choice(list(Colour))),
        Challenge(seat),
        Accept(seat),
        CallUno(seat),
        Catch(seat, rnd.randrange(game.players)),
        NextRound(seat),
    ][kind - 1]


def check_invariants(game: Game) -> None:
    cards = sorted([c for h in game.hands for c in h] + game.draw_pile + game.discard)
    assert cards == list(range(len(game.deck))), "cards not conserved"
    if game.phase in (Phase.PLAY, Phase.PLAY_DRAWN, Phase.DECLARE_COLOUR, Phase.CHALLENGE):
        owner = game.pending
        assert owner is not None and game.active[owner]
        legal = game.legal_actions(owner)
        assert legal.moves >= 1, "a pending decision without a legal action"
    for seat in range(game.players):
        for action in game.legal_actions(seat):
            assert game.is_legal(action), action
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


def check_round_points(game: Game, events) -> None:
    for e in events:
        if isinstance(e, RoundEnded):
            values = [sum(points_of(game.mode, f) for f in hand) for hand in e.hands]
            if game.options.scoring == "lowest" or game.options.elimination:  # SPEC G9, H9: each keeps their own
                assert e.points == tuple(values)
            else:
                assert e.points[e.winner] == sum(values) and sum(e.points) == sum(values)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_invariants_hold_at_every_step_and_invalid_actions_change_nothing(spec, agent_seed):
    mode, players, seed, options = spec
    game, _ = Game.new(mode, players, seed=seed, options=options)
    agent = Random(agent_seed)
    for _ in range(150):
        check_invariants(game)
        if game.phase is Phase.MATCH_OVER:
            break
        for _ in range(3):
            action = random_action(game, agent)
            before = game.to_dict()
            legal = game.is_legal(action)
            try:
                game.apply(action)
            except E.RuleError:
                assert not legal
                assert game.to_dict() == before, f"{action} changed the game"
            else:
                assert legal
        if game.phase is Phase.MATCH_OVER:
            break
        events = random_step(game, agent, draw_rate=None)
        check_round_points(game, events)


@settings(max_examples=max(1, EXAMPLES * 2 // 3), deadline=None)
@given(games())
def test_every_match_ends_within_a_bound_and_scores_add_up(spec):
    mode, players, seed, options = spec
    options = replace(options, target_score=min(options.target_score, 200))
    result = play_random_match(mode, players, seed, options, max_steps=50_000, on_step=check_round_points)
    game = result.game
    assert game.phase is Phase.MATCH_OVER and game.winner is not None
    assert sum(sum(r.points) for r in game.history) == sum(game.scores)


def candidate_actions(game: Game, seat: int):
    """The actions ``seat`` could try now: each card of the hand on each side, with no colour or a light or a dark one,
    no target, themselves, the next seat or a seat that does not exist, each UNO flag; the other decisions; UNO
    calls; catches of everyone."""
    colours = [None, Colour.RED, Colour.BLUE, Colour.TEAL]
    targets = [None, seat, (seat + 1) % game.players, game.players]
    for card in game.hands[seat]:
        for flex in (False, True):
            for colour in colours:
                for target in targets:
                    for uno in (False, True):
                        yield Play(seat, card, colour, target, flex, uno)
    yield from (Draw(seat), Keep(seat), Challenge(seat), Accept(seat), CallUno(seat), NextRound(seat))
    yield from (DeclareColour(seat, c) for c in Colour)
    yield from (Catch(seat, t) for t in range(game.players) if t != seat)


def check_accepted_iff_listed(game: Game) -> None:
    """DESIGN "Engine contract": ``apply`` accepts an action exactly when ``legal_actions`` lists it — except a false
    catch (SPEC G8), which is accepted but never listed (it never helps)."""
    for seat in range(game.players):
        listed = set(game.legal_actions(seat))
        for action in candidate_actions(game, seat):
            accepted = game.is_legal(action)
            false_catch = isinstance(action, Catch) and action.target != game.catchable
            if false_catch:
                assert action not in listed
                continue
            assert accepted == (action in listed), (action, accepted)


@settings(max_examples=max(1, EXAMPLES // 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_an_action_is_accepted_exactly_when_it_is_listed(spec, agent_seed):
    mode, players, seed, options = spec
    game, _ = Game.new(mode, players, seed=seed, options=options)
    agent = Random(agent_seed)
    for _ in range(40):
        check_accepted_iff_listed(game)
        if game.phase is Phase.MATCH_OVER:
            break
        random_step(game, agent, draw_rate=0.2)
