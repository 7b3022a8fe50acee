"""The *Easy* AI level (issue 21 point 1): legal moves with deliberate, human-looking mistakes.

It plays like :mod:`bot.ai.normal` but, drawing on its seeded generator: it forgets to call UNO (:data:`FORGET_UNO`),
is slow to catch others (:data:`CATCH`), often plays the first playable card it sees instead of thinking
(:data:`FIRST_PLAYABLE`), often declares a colour without looking at its hand (:data:`ANY_COLOUR`), never jumps in
out of turn, and accepts a wild draw rather than challenge half the time. Every move is one of ``view.legal``.
"""

from __future__ import annotations

from random import Random

from bot.engine.actions import Accept, Action, CallUno, Catch, Challenge, DeclareColour, NextRound, Play
from bot.engine.view import Phase, PlayerView

from . import normal

#: Chance of not calling UNO (neither with the card nor afterwards) when it could.
FORGET_UNO = 0.4
#: Chance of catching a player who forgot UNO when it could.
CATCH = 0.3
#: Chance of playing the first playable card in hand order instead of the chosen one.
FIRST_PLAYABLE = 0.6
#: Chance of declaring a colour at random.
ANY_COLOUR = 0.5
#: Chance of accepting a wild draw without weighing a challenge.
ACCEPT = 0.5


def choose(view: PlayerView, rnd: Random) -> Action | None:
    """The *Easy* action for ``view`` (None when it has nothing to do); seeded by ``rnd``."""
    legal = list(view.legal)
    if not legal:
        return None
    if any(isinstance(a, CallUno) for a in legal):
        if rnd.random() >= FORGET_UNO:
            return next(a for a in legal if isinstance(a, CallUno))
        legal = [a for a in legal if not isinstance(a, CallUno)]
    mate = normal.partner(view)  # SPEC T: never catch the partner
    if any(isinstance(a, Catch) and a.target != mate for a in legal) and rnd.random() < CATCH:
        return next(a for a in legal if isinstance(a, Catch) and a.target != mate)
    legal = [a for a in legal if not isinstance(a, Catch)]
    if any(isinstance(a, NextRound) for a in legal):
        return next(a for a in legal if isinstance(a, NextRound))
    if view.me != view.pending:
        return None  # no jump-ins, no dealing: a human would be slower than the others
    if view.phase is Phase.DECLARE_COLOUR and rnd.random() < ANY_COLOUR:
        return rnd.choice([a for a in legal if isinstance(a, DeclareColour)])
    if any(isinstance(a, Challenge) for a in legal) and rnd.random() < ACCEPT:
        return next(a for a in legal if isinstance(a, Accept))
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and view.phase in (Phase.PLAY, Phase.PLAY_DRAWN) and rnd.random() < FIRST_PLAYABLE:
        first = plays[0].card
        options = [a for a in plays if a.card == first and not a.flex]
        pick = rnd.choice(options or [a for a in plays if a.card == first])
        return _maybe_forget(pick, plays, rnd)
    action = normal.choose(view, rnd)
    if isinstance(action, Play):
        return _maybe_forget(action, plays, rnd)
    return action


def _maybe_forget(play: Play, plays: list[Play], rnd: Random) -> Play:
    """``play`` without its UNO call (when that is legal too) with chance :data:`FORGET_UNO`."""
    if play.uno and rnd.random() < FORGET_UNO:
        quiet = Play(play.player, play.card, play.colour, play.target, play.flex, False)
        if quiet in plays:
            return quiet
    return play
