"""A heuristic AI player. It sees only its own :class:`~bot.engine.view.PlayerView` and picks one of
``view.legal``, so it can never cheat or make an illegal move.

How it plays: it calls UNO and catches whenever it can; it keeps wilds for later (plays a wild only when nothing else
fits, or when an opponent is about to go out); it prefers the colour it holds most, declares that colour, and aims
targeted cards at the opponent with the fewest cards; it saves its Power Card unless the flex side is the only play;
it never bluffs a restricted wild draw; and it challenges a wild draw when the odds favour it (SPEC G7).
With the house rules (SPEC H) it stacks whenever it can, swaps hands with a 7 with the opponent holding the fewest
cards (only when that leaves it better off), jumps in whenever it holds a card identical to the top, and with
``number_finish`` (SPEC H6) keeps a number for its last card rather than an action card or a wild; with
``multi_play`` (SPEC H8) it plays several cards of one number at once when that sheds more than its best single play,
the colour it holds most on top. In a partner game (SPEC T) it plays for its team: it never catches its partner, never
aims a targeted card at them while another play exists, avoids making them draw or lose their turn, and counts only
the opponents as about to go out.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from bot.engine.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    DeclareColour,
    Draw,
    Keep,
    NextRound,
    Play,
    PlayMany,
)
from bot.engine.cards import CHALLENGEABLE_KINDS, Colour, Kind, Mode
from bot.engine.rules import RULESETS, colour_held_most, holds_colour
from bot.engine.teams import partner_of
from bot.engine.view import Phase, PlayerView

#: Roughly the share of one colour among the cards in a hand.
_COLOUR_SHARE = 0.25
_ACTION_KINDS = frozenset(
    {
        Kind.SKIP,
        Kind.REVERSE,
        Kind.DRAW_TWO,
        Kind.DRAW_ONE,
        Kind.DRAW_FIVE,
        Kind.SKIP_EVERYONE,
        Kind.FLEX_DRAW_TWO,
        Kind.FLEX_SKIP,
        Kind.FLEX_REVERSE,
    }
)


#: Cards that make the next player draw or lose their turn: aimed at a partner only when nothing else fits (SPEC T).
_HURTS_NEXT = frozenset({Kind.SKIP, Kind.DRAW_TWO, Kind.DRAW_ONE, Kind.DRAW_FIVE, Kind.FLEX_SKIP, Kind.FLEX_DRAW_TWO})
_PARTNER_PENALTY = 40.0


def partner(view: PlayerView) -> int | None:
    """The seat's partner in a partner game (SPEC T1), else None."""
    return partner_of(view.me, view.teams) if view.teams and view.me is not None else None


def _next_seat(view: PlayerView) -> int | None:
    """The next active seat after the viewer in the direction of play."""
    me = view.me
    if me is None:
        return None
    for step in range(1, view.players):
        seat = (me + step * view.direction) % view.players
        if view.active[seat]:
            return seat
    return None


def choose(view: PlayerView, rnd: Random) -> Action | None:
    """The AI's action for ``view`` (None when it has nothing to do)."""
    legal = list(view.legal)
    if not legal:
        return None
    mate = partner(view)
    for a in legal:
        if isinstance(a, CallUno) or (isinstance(a, Catch) and a.target != mate):  # SPEC T: never the partner
            return a
    for a in legal:
        if isinstance(a, NextRound):
            return a
    if view.me != view.pending:  # out of turn: only a jump-in (house rule, SPEC H), and always
        jumps = [a for a in legal if isinstance(a, Play)]
        return max(jumps, key=lambda a: (_score(view, a), rnd.random())) if jumps else None
    if view.phase is Phase.STACK:  # house rule stacking (SPEC H): stack when it can, else challenge or take it
        stacks = [a for a in legal if isinstance(a, Play)]
        if stacks:
            return max(stacks, key=lambda a: (_score(view, a), rnd.random()))
        if any(isinstance(a, Challenge) for a in legal):
            return _challenge_or_accept(view)
        return next(a for a in legal if isinstance(a, Accept))
    if view.phase is Phase.CHALLENGE:
        return _challenge_or_accept(view)
    if view.phase is Phase.DECLARE_COLOUR:
        colour = favourite_colour(view)
        return next(a for a in legal if isinstance(a, DeclareColour) and a.colour is colour)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in legal if isinstance(a, Draw | Keep))
    best = max(plays, key=lambda a: (_score(view, a), rnd.random()))
    together = [a for a in legal if isinstance(a, PlayMany)]  # house rule multi_play (SPEC H8)
    if together:
        most = max(together, key=lambda a: (_many_score(view, a), rnd.random()))
        if _many_score(view, most) >= _score(view, best):
            return most
    if view.phase is Phase.PLAY and _score(view, best) < -50:
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        if draw is not None:
            return draw
    return best


def favourite_colour(view: PlayerView) -> Colour:
    """The colour of the side in play that the hand holds most (ties: the first colour): the engine's
    :func:`~bot.engine.rules.colour_held_most`, as the turn timer uses it."""
    return colour_held_most((c.face for c in view.hand), view.side)


def _challenge_or_accept(view: PlayerView) -> Action:
    """Challenge when the odds favour it (:func:`challenges`)."""
    me = view.me
    assert me is not None
    owner = view.challenge_player
    held = view.hand_counts[owner] if owner is not None else 7
    return Challenge(me) if challenges(view.mode, view.top.kind, held, view.stack) else Accept(me)


def challenges(mode: Mode, kind: Kind, held: int, stack: int | None = None) -> bool:
    """Whether *Normal* challenges a wild draw of ``kind`` played by a seat that holds ``held`` cards (``stack``: the
    stacked total it settles, house rule stacking, SPEC H): when P(guilty) > 2 / (N + 2), as accepting costs N cards
    and a failed challenge N + 2 (SPEC C5, F7, X7); P(guilty) is the chance that ``held`` cards hold the colour in
    play, each of one colour in four. Also the rule of *Hard*'s rollouts (:func:`bot.ai.rollout.quick`)."""
    wild_draw = RULESETS[mode].wild_draws[kind]
    accept = wild_draw.accept.expected(1.0 / _COLOUR_SHARE)  # Wild Draw Color: about 4 cards until the colour
    extra = wild_draw.innocent.expected(1.0 / _COLOUR_SHARE) - accept  # what a wrong challenge costs on top
    if stack is not None:  # a stacked wild draw: the challenge settles the whole total (SPEC H ruling)
        accept = float(stack)
    p_guilty = 1.0 - (1.0 - _COLOUR_SHARE) ** max(held, 0)
    return p_guilty > extra / (accept + extra)


def _score(view: PlayerView, play: Play) -> float:
    hand = {c.id: c.face for c in view.hand}
    face = hand[play.card]
    me = view.me
    assert me is not None
    mate = partner(view)
    active_opponents = [s for s in range(view.players) if s not in (me, mate) and view.active[s]]
    danger = min((view.hand_counts[s] for s in active_opponents), default=7) <= 2
    counts = Counter(f.colour for cid, f in hand.items() if cid != play.card and f.colour is not None)
    score = 0.0
    if face.is_wild:
        score -= 0 if danger or len(hand) <= 2 else 30
        if face.kind in CHALLENGEABLE_KINDS and _would_bluff(view, play.card):
            score -= 100
        if play.colour is not None:
            score += 3 * counts.get(play.colour, 0)
    else:
        score += 2 * counts.get(face.colour, 0) if face.colour is not None else 0
        if face.kind in _ACTION_KINDS:
            score += 8 if danger else 1
        score += (face.number or 0) * 0.1  # shed high numbers first
    if play.flex:
        score -= 6 if not danger else 0
    if mate is not None:  # SPEC T: a draw or a skip for the partner, a target that is the partner, only if it must
        if play.target == mate:
            score -= 2 * _PARTNER_PENALTY
        elif (face.kind in _HURTS_NEXT or face.kind in CHALLENGEABLE_KINDS) and _next_seat(view) == mate:
            score -= _PARTNER_PENALTY
    if play.target is not None:
        score -= view.hand_counts[play.target]
        if "seven_zero" in view.house_rules and face.number == 7:  # a swap: worth what the target has fewer
            score += 4 * (len(hand) - 1 - view.hand_counts[play.target])
    if play.uno:
        score += 50
    if "number_finish" in view.house_rules and len(hand) == 2:  # SPEC H6: a last card it may not play is worse
        rest = next(f for cid, f in hand.items() if cid != play.card)  # than a bluff (-100): it stays for turns
        score += 0 if rest.kind is Kind.NUMBER else -150
    return score


def _many_score(view: PlayerView, play: PlayMany) -> float:
    """Several cards of one number at once (house rule ``multi_play``, SPEC H8), scored like one play: the colour left
    on top among the cards kept, high numbers shed, 5 more per extra card shed (fewer cards, fewer turns)."""
    played = set(play.cards)
    rest = [c.face for c in view.hand if c.id not in played]
    top = next(c.face for c in view.hand if c.id == play.cards[-1])
    counts = Counter(f.colour for f in rest if f.colour is not None)
    n = len(play.cards)
    score = 2 * (counts.get(top.colour, 0) if top.colour is not None else 0) + 0.1 * (top.number or 0) * n + 5 * (n - 1)
    if play.uno:
        score += 50
    if "number_finish" in view.house_rules and len(rest) == 1 and rest[0].kind is not Kind.NUMBER:
        score -= 150  # SPEC H6: a last card it may not play
    return score


def _would_bluff(view: PlayerView, card: int) -> bool:
    """Would playing the wild draw ``card`` be guilty (SPEC G7, X7)? The engine's own test,
    :func:`~bot.engine.rules.holds_colour`, on the rest of the hand. (The flex side of a Flex Wild Draw Four is judged
    the same way: its target may challenge.)"""
    green = view.power is not None and view.me is not None and view.power[view.me]
    rest = (c.face for c in view.hand if c.id != card)
    return holds_colour(view.mode, rest, view.colour_in_play, green=green)
