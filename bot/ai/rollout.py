"""The hot core of the *Hard* AI's search (issue 21 points 1 and 4): sampling the hidden cards (:class:`Sampler`) and
playing candidate moves on to the end of the round (:func:`outcomes`, with every seat following :func:`quick`).

:mod:`bot.ai.hard` decides what to search and which move to keep; this module does the simulations, which are
nearly all of a decision's CPU time. ``scripts/build_engine.py`` compiles it with mypyc in the same build as the rules
engine (one stamp: :mod:`bot.engine_native` imports both compiled or both as Python source), so that it reads the
engine's native games, actions and tables natively. Both builds make the same decisions: the same world for the same
seed (the same calls to :class:`random.Random`), the same rollouts, the same scores (tests/ai/test_rollout.py pins a
digest of *Hard*'s choices on both). Code written for the compiler, as in the engine: module-level names read in hot
paths are ``Final``, loops stand for lambdas and slices of :class:`~bot.engine.legal.LegalActions`, ``isinstance``
takes classes (not a union). Tunables (budget, rollout length) stay in :mod:`bot.ai.hard` and come in as arguments.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from random import Random
from typing import Final

from bot.engine.actions import Accept, Action, Challenge, DeclareColour, Draw, Keep, Play
from bot.engine.cards import Colour, Face, Mode, Side
from bot.engine.decks import deck_for, tables_for
from bot.engine.game import Game
from bot.engine.legal import COLOUR_INDEX, NUMBER_KEY, LegalActions
from bot.engine.options import Options
from bot.engine.rng import Rng
from bot.engine.rules import holds_colour
from bot.engine.teams import partner_of
from bot.engine.view import Phase, PlayerView

from . import normal
from .memory import Memory

# Bound once: a Final name is a C static in the compiled module, reading a member off an Enum class is slow.
_DECLARE: Final = Phase.DECLARE_COLOUR
_PLAY: Final = Phase.PLAY
_CHALLENGE: Final = Phase.CHALLENGE
_FLEX: Final = Mode.FLEX

#: A sampled world: the hands, the draw pile, the discard pile (card ids, top at the end) and the seed of the game's
#: generator.
World = tuple[list[list[int]], list[int], list[int], int]


def outcomes(
    sampler: Sampler, candidates: Sequence[Action], me: int, *, seed: int, worlds: int, steps: int, work: int
) -> list[list[float]]:
    """Each candidate played in the same sampled worlds (seeds ``seed``, ``seed + 1``…; common random numbers), then
    every seat's :func:`quick` move to the round's end: per candidate, per world, 1.0 if ``me`` (or its partner, SPEC
    T) won the round, else 0.0. A rollout stops after ``steps`` actions and is then scored by hand sizes. Each world
    is sampled once and every candidate plays in a fresh game of it (:meth:`Sampler.game`).

    At most ``worlds`` worlds, and no new world once the rollouts have done ``work`` units of work: a unit is one legal
    action listed for a rollout's action, each action counts :data:`WORK_PER_ACTION` units more and each rollout
    :data:`WORK_PER_GAME` more. Every candidate is played in every world begun, so the lists have one length, at least
    1, and with a smaller ``work`` they are a prefix of what a larger one gives."""
    results: list[list[float]] = [[] for _ in candidates]
    spent = 0
    for w in range(worlds):
        world = sampler.world(seed + w)
        for i, a in enumerate(candidates):
            won, cost = _play_out(sampler.game(world), a, me, steps)
            results[i].append(won)
            spent += cost
        if spent >= work:
            break
    return results


#: The work of one action of a rollout in :func:`outcomes`' unit (one legal action listed), on top of one unit per
#: legal action listed for it (the rollout policy scores every play, so a hand of many cards, or Flex's flex sides
#: and targets, cost more); each rollout counts :data:`WORK_PER_GAME` more. Fixed weights of a cost model, not
#: tunables (those stay in :mod:`bot.ai.hard`). On the compiled build a unit is 0.2–0.45 µs of CPU on a 2.4 GHz
#: AMD EPYC (fitted on the rollouts of every game, house rules off and on: about 37 µs per rollout, 3.3 µs per action
#: and 0.32 µs per legal action; Flex's actions cost the most).
WORK_PER_ACTION: Final = 10
#: The work of a rollout's game, in the same unit: copying the world into a game, and its share of sampling the world.
WORK_PER_GAME: Final = 110


def _play_out(game: Game, first: Action, me: int, steps: int) -> tuple[float, int]:
    """Play ``first`` then every seat's :func:`quick` move to the round's end: ``(won, work)``, ``won`` 1 if ``me``
    won the round, else 0 (a round cut short after ``steps`` actions scores by hand sizes), ``work`` in the unit of
    :func:`outcomes`."""
    teams = game.teams  # SPEC T: a round the partner wins is won
    mine = {me, partner_of(me, teams)} if teams else {me}
    game.apply(first)
    work = WORK_PER_GAME
    for _ in range(steps):
        seat = game.pending
        if seat is None:
            return (1.0 if game.history and game.history[-1].winner in mine else 0.0), work
        legal = game.legal_actions(seat)
        work += WORK_PER_ACTION + len(legal)
        action = _policy(game, seat, legal)
        if action is None:
            return 0.0, work
        game.apply(action)
    counts = [len(h) if game.active[s] else 999 for s, h in enumerate(game.hands)]
    return (1.0 if min(counts[s] for s in mine) == min(counts) else 0.0), work


def quick(game: Game, seat: int) -> Action | None:
    """A fast version of the *Normal* heuristic for the rollouts, reading the sampled game directly (it is a sample,
    not the real game): UNO called with the next-to-last card, wilds kept unless an opponent is close to going out,
    the colour held most, action cards against a short hand, high numbers first, the Power Card saved; never a guilty
    wild draw (drawing instead when it is the only play); a wild draw challenged exactly when Normal challenges it
    (:func:`bot.ai.normal.challenges`, SPEC G7); a stack taken when nothing stacks; with ``number_finish`` (SPEC H6)
    a number kept for the last card. Never a jump-in or a catch. One of ``game.legal_actions(seat)``, or None when
    that is empty."""
    return _policy(game, seat, game.legal_actions(seat))


def _policy(game: Game, seat: int, legal: LegalActions) -> Action | None:
    """:func:`quick` given ``legal``, ``game.legal_actions(seat)`` (the rollouts count its length as work)."""
    size = len(legal)
    phase = game.phase
    hand = game.hands[seat]
    t = game.tables
    counts = [0] * 8
    for c in hand:
        k = t.colour[c]
        if k >= 0:
            counts[k] += 1
    if phase is _DECLARE:  # the colour held most, the side's first on a tie (as max() keeps the first)
        colours = t.colours
        best_colour = colours[0]
        most = counts[COLOUR_INDEX[best_colour]]
        for col in colours:
            held = counts[COLOUR_INDEX[col]]
            if held > most:
                best_colour, most = col, held
        return DeclareColour(seat, best_colour)
    n = legal.plays
    if phase is _CHALLENGE:  # as Normal challenges (it nearly always does: a bluff is caught)
        ch = game.challenge
        held = len(game.hands[ch.player]) if ch is not None else 7
        kind = game.faces[game.discard[-1]].kind
        challenge = normal.challenges(game.mode, kind, held, game.stack)
        for i in range(size):
            a = legal[i]
            if isinstance(a, Challenge) if challenge else isinstance(a, Accept):
                return a
    if phase is _CHALLENGE or not n:
        for i in range(n, size):
            a = legal[i]
            if isinstance(a, (Draw, Keep, Accept)):
                return a
        return legal[0] if size else None
    danger = False
    active = game.active
    for s, h in enumerate(game.hands):
        if len(h) <= 2 and s != seat and active[s]:
            danger = True
            break
    two = len(hand) == 2
    stuck = two and game.options.number_finish  # SPEC H6: a last card that is not a number cannot be played
    best: Action | None = None
    best_score = -1e9
    for i in range(n):
        a = legal[i]
        assert isinstance(a, Play)
        if two and not a.uno:
            continue
        c = a.card
        if t.wild[c]:
            score = (0.0 if danger or len(hand) <= 2 else -30.0) - (20.0 if t.restricted[c] else 0.0)
            if t.restricted[c] and _bluff(game, seat, c, counts):
                score -= 100.0  # Normal never bluffs (and challenges nearly always)
            if a.colour is not None:
                score += 3 * counts[COLOUR_INDEX[a.colour]]
        else:
            score = 2.0 * counts[t.colour[c]]
            key = t.key[c]
            score += 0.1 * (key - NUMBER_KEY) if key >= NUMBER_KEY else (8.0 if danger else 1.0)
        if a.flex and not danger:
            score -= 6.0
        if a.target is not None:
            score -= len(game.hands[a.target])
        if stuck and t.key[hand[0] if hand[1] == c else hand[1]] < NUMBER_KEY:
            score -= 60.0
        if score > best_score:
            best, best_score = a, score
    if best_score < -50.0 and phase is _PLAY:  # only a bluff: draw instead, as Normal does
        for i in range(n, size):
            a = legal[i]
            if isinstance(a, Draw):
                return a
    return best


def _bluff(game: Game, seat: int, card: int, counts: list[int]) -> bool:
    """Whether ``seat`` playing the wild draw ``card`` now would be guilty (SPEC G7, X7): the engine's own test,
    :func:`~bot.engine.rules.holds_colour`, on the rest of the hand (``counts``: the hand's cards by colour index;
    enough in classic and FLIP, where only coloured cards count)."""
    colour = game.colour_in_play()
    if colour is None:
        return False
    if game.mode is not _FLEX:
        return counts[COLOUR_INDEX[colour]] > 0
    green = game.power is not None and game.power[seat]
    faces = game.faces
    rest = [faces[c] for c in game.hands[seat] if c != card]
    return holds_colour(game.mode, rest, colour, green=green)


class Sampler:
    """Complete games consistent with ``view``, ``options`` and ``memory`` (the seat's knowledge), drawn from
    ``rnd``. Card ids of other seats are drawn among the ids not in the seat's own hand, face by face: FLIP's other
    faces pin each opponent's cards to the cards with that other face (SPEC F10); a challenged hand it was shown
    (SPEC G7) puts those faces in that hand; the faces played since the last reshuffle (SPEC G5) are in the discard
    pile; a colour an opponent failed to follow is kept out of the cards it held then. ``view`` must be a seat's
    (``view.me`` not None)."""

    def __init__(self, view: PlayerView, options: Options, memory: Memory) -> None:
        me = view.me
        assert me is not None
        self.view, self.memory, self.me = view, memory, me
        self.deck = deck_for(view.mode, options, None)
        self.faces = self.deck.faces(view.side)
        self.other = self.deck.faces(view.side.other) if view.other_faces is not None else None
        self.mine = [h.id for h in view.hand]
        taken = set(self.mine)
        self.free = [c for c in range(len(self.deck)) if c not in taken]
        template, _ = Game.new(view.mode, view.players, seed=0, options=options)
        template.side = view.side
        template.faces = self.faces
        template.tables = tables_for(self.deck, view.side)
        template.current = me
        template.direction = view.direction
        template.declared = view.declared_colour
        template.phase = view.phase
        template.drawn = view.drawn.id if view.drawn is not None else None
        template.after = None
        template.challenge = None
        template.revealed = None
        template.box = []
        template.stack = view.stack
        template.catchable = view.catchable
        template.round = view.round
        template.dealer = view.dealer
        template.winner = None
        template.history = list(template.history)
        self.template = template
        self._by_side: dict[Side, tuple[dict[Face, int], list[int]]] = {}

    def _codes(self, side: Side) -> tuple[dict[Face, int], list[int]]:
        """Faces of ``side`` as small ints: ``(code of a face, code of each card id)`` (comparing ints is fast)."""
        got = self._by_side.get(side)
        if got is None:
            faces = self.deck.faces(side)
            index: dict[Face, int] = {}
            got = self._by_side[side] = (index, [index.setdefault(f, len(index)) for f in faces])
        return got

    def _take(self, pool: list[int], side: Side, face: Face) -> int | None:
        """Remove from ``pool`` and return a card showing ``face`` on ``side`` (None if there is none)."""
        index, codes = self._codes(side)
        return _remove(pool, codes, index.get(face, -1))

    def _take_other(self, pool: list[int], face: Face) -> int | None:
        """Remove from ``pool`` and return a card whose other side (FLIP) is ``face`` (None if there is none)."""
        return self._take(pool, self.view.side.other, face)

    def sample(self, seed: int) -> Game:
        """One game consistent with the seat's knowledge, drawn from ``seed`` (a fresh object each time: the same
        seed gives an equal game)."""
        return self.game(self.world(seed))

    def world(self, seed: int) -> World:
        """The hidden cards of :meth:`sample` ``(seed)``: the hands, the draw pile, the discard pile and the seed of
        the game's generator (build games from it with :meth:`game`: sampling once and playing each candidate in a
        copy costs less than sampling each time)."""
        view, rnd = self.view, Random(seed)
        pool = list(self.free)
        rnd.shuffle(pool)
        players = view.players
        hands: list[list[int]] = [[] for _ in range(players)]
        hands[self.me] = list(self.mine)
        top = self._take(pool, view.side, view.top)
        discard_known: list[int] = []
        # FLIP: the other face of every opponent card is public (SPEC F10).
        if view.other_faces is not None:
            for s, others in enumerate(view.other_faces):
                if others is None or s == self.me:
                    continue
                for f in others:
                    c = self._take_other(pool, f)
                    if c is not None:
                        hands[s].append(c)
        else:
            for s, known in self.memory.known.items():
                if s == self.me or not 0 <= s < players:
                    continue
                for side, f in known[: view.hand_counts[s]]:
                    c = self._take(pool, side, f)
                    if c is not None:
                        hands[s].append(c)
        room = max(view.discard_pile_size - 1, 0)
        if room:
            for side, f in self.memory.played[-room:]:
                c = self._take(pool, side, f)
                if c is not None:
                    discard_known.append(c)
        # Opponents' unknown cards: colours they failed to follow stay out of the cards they held then.
        for s in range(players):
            if s == self.me:
                continue
            need = view.hand_counts[s] - len(hands[s])
            if need <= 0:
                continue
            voids = self.memory.voids.get(s, [])
            banned = {c for c, since in voids if view.hand_counts[s] - since > 0}
            strict = max((view.hand_counts[s] - since for _, since in voids), default=0)
            if banned and strict > 0:
                picked = _pick(pool, min(strict, need), self.faces, banned)
                hands[s].extend(picked)
                need -= len(picked)
            if need > 0:
                hands[s].extend(pool[-need:])
                del pool[-need:]
        draw: list[int] = []
        if view.draw_pile_size:
            top_draw = None
            if view.draw_top_other is not None and self.other is not None:
                top_draw = self._take_other(pool, view.draw_top_other)
            n = view.draw_pile_size - (1 if top_draw is not None else 0)
            draw = pool[-n:] if n > 0 else []
            del pool[len(pool) - len(draw) :]
            if top_draw is not None:
                draw.append(top_draw)
        discard = pool + discard_known
        if top is not None:
            discard.append(top)
        return hands, draw, discard, rnd.getrandbits(64)

    def game(self, world: World) -> Game:
        """A fresh game of ``world`` (its lists copied: playing it on leaves ``world`` as it was)."""
        hands, draw, discard, seed = world
        view = self.view
        game = copy.copy(self.template)
        game.hands = [list(h) for h in hands]
        game.draw_pile = list(draw)
        game.discard = list(discard)
        game.rng = Rng(seed)
        game.active = list(view.active)
        game.scores = list(view.scores)
        game.uno = list(view.uno_called)
        game.power = list(view.power) if view.power is not None else None
        game.history = list(self.template.history)
        return game


def _remove(pool: list[int], codes: list[int], code: int) -> int | None:
    """Remove from ``pool`` and return its first card whose ``codes[card]`` is ``code`` (the last card takes its
    place), None if there is none."""
    for i, c in enumerate(pool):
        if codes[c] == code:
            pool[i] = pool[-1]
            pool.pop()
            return c
    return None


def _pick(pool: list[int], n: int, faces: Sequence[Face], banned: set[Colour]) -> list[int]:
    """Up to ``n`` ids from the end of ``pool`` (already shuffled) whose colour is not ``banned``, removed from it."""
    out: list[int] = []
    i = len(pool) - 1
    while i >= 0 and len(out) < n:
        if faces[pool[i]].colour not in banned:
            out.append(pool[i])
            pool[i] = pool[-1]
            pool.pop()
        i -= 1
    return out


__all__ = ["WORK_PER_ACTION", "WORK_PER_GAME", "Sampler", "World", "outcomes", "quick"]
