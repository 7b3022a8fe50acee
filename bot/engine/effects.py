"""What a played card does, by kind (SPEC C3, F5, F6, F8, X5, G9, G10): one small function per kind, in two
tables — :data:`REGULAR` for a card's regular side and :data:`FLEX` for a Flex card's flex side.

Each effect gets the game's state (:class:`~bot.engine.state.GameState`, never the game itself: this module is
imported by :mod:`bot.engine.game`) and a :class:`Played` record and returns the seat who plays next, or ``None`` when a
decision is now pending (a challenge, a colour) or nothing follows. When the player went out (``went_out``), only
draws (and a Flip) are still carried out (SPEC G9). The effects change the game only through the state's primitives
(``_draw``, ``_flip``, ``_start_challenge``…); :meth:`bot.engine.game.Game._do_play` calls :func:`carry_out`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from .cards import Face, Kind, passes_hands, swaps_hands
from .events import (
    DirectionChanged,
    Event,
    HandReceived,
    HandsPassed,
    HandsSwapped,
    StackPending,
    TurnSkipped,
)
from .pending import PendingChallenge
from .rules import DEFLECTS, DEFLECTS_BACK, STACK_DRAWS
from .view import Phase

if TYPE_CHECKING:
    from .state import GameState


@dataclass(slots=True)
class Played:
    """A card just played: by ``player``, card id ``card`` showing ``face``, its ``flex`` side or not, its ``target``;
    ``restricted`` (a challengeable wild draw) and ``guilty`` (SPEC G7) as judged before it left the hand;
    ``went_out``: it was the player's last card; ``next``: the next seat in the direction of play; ``events``: where
    the effect appends what it causes."""

    player: int
    card: int
    face: Face
    flex: bool
    target: int | None
    restricted: bool
    guilty: bool
    went_out: bool
    next: int
    events: list[Event]

    def __init__(
        self,
        player: int,
        card: int,
        face: Face,
        flex: bool,
        target: int | None,
        restricted: bool,
        guilty: bool,
        went_out: bool,
        next: int,
        events: list[Event],
    ) -> None:
        # written out (not left to dataclasses) so that the compiled engine builds the record natively
        self.player = player
        self.card = card
        self.face = face
        self.flex = flex
        self.target = target
        self.restricted = restricted
        self.guilty = guilty
        self.went_out = went_out
        self.next = next
        self.events = events


Effect = Callable[["GameState", Played], "int | None"]


def carry_out(game: GameState, played: Played) -> int | None:
    """Carry out ``played`` by the table of its side; a kind with no entry has no effect (the next player plays)."""
    kind = played.face.kind
    if game.stack is not None and not played.flex and kind in DEFLECTS:
        return _deflect(game, played)
    if kind is _NUMBER and not game._seven_zero:
        return played.next  # the most played kind, looked up in no table: a number has no effect (either side)
    table = _FLEX if played.flex else _REGULAR
    effect = table.get(kind)
    if effect is not None:
        return effect(game, played)
    if not played.flex:
        rules = game.rules
        if kind in rules.draw_cards:
            return _draw_card(game, played, rules.draw_cards[kind])
        if kind in rules.wild_draws:
            return _wild_draw(game, played)
        if kind is _NUMBER and game._seven_zero and not played.went_out:
            if swaps_hands(played.face):
                return _seven(game, played)
            if passes_hands(played.face):
                return _zero(game, played)
    return played.next  # numbers, Wild, Wild Customizable, Wild All Flip, regular sides of the flex wilds


# --- regular side ---------------------------------------------------------------------------------------------------


def _skip(game: GameState, x: Played) -> int | None:
    """Skip (SPEC C3): the next player loses their turn."""
    if not x.went_out:
        x.events.append(TurnSkipped(x.next))
    return game._next(x.next)


def _reverse(game: GameState, x: Played) -> int | None:
    """Reverse (SPEC C3): the direction changes; with two players it acts as Skip (SPEC G10)."""
    if x.went_out:
        return None
    game.direction = -game.direction
    x.events.append(DirectionChanged(game.direction))
    if game._seated_count() == 2:
        x.events.append(TurnSkipped(x.next))
        return x.player
    return game._next(x.player)


def _draw_card(game: GameState, x: Played, count: int) -> int | None:
    """Draw One / Two / Five (SPEC C3, F5, F6, G6): the next player draws ``count`` and loses their turn; with house
    rule ``stacking`` they decide first (:func:`_stack`)."""
    if game.options.stacking != "off" and x.face.kind in STACK_DRAWS:
        return _stack(game, x, count, challengeable=False)
    game._draw(x.next, count, "penalty", x.events)
    if not x.went_out:
        x.events.append(TurnSkipped(x.next))
    return game._next(x.next)


def _skip_everyone(game: GameState, x: Played) -> int | None:
    """Skip Everyone (SPEC F6): the player takes another turn."""
    return x.player


def _flip_card(game: GameState, x: Played) -> int | None:
    """Flip (SPEC F8): the game turns over; an exposed wild asks for a colour."""
    top = game._flip(x.events)
    if top.is_wild and not x.went_out:
        game.phase = Phase.DECLARE_COLOUR
        game.current = x.player if game.options.exposed_wild_chooser == "flipper" else x.next
        game.after = x.next
        return None
    return x.next


def _shuffle_hands(game: GameState, x: Played) -> int | None:
    """Wild Shuffle Hands (SPEC C1): every hand is gathered, shuffled and dealt from the next player."""
    if not x.went_out:
        game._shuffle_hands(x.next, x.events)
    return x.next


def _wild_draw(game: GameState, x: Played) -> int | None:
    """Wild Draw Four / Two / Color (SPEC G7, C3, F5, F6): the next player challenges or accepts; a last card, or
    ``block_illegal_wild_draw``, draws at once (nothing to judge)."""
    kind = x.face.kind
    if game.options.stacking != "off" and kind in STACK_DRAWS:
        accept = game.rules.wild_draws[kind].accept.count
        assert accept is not None
        return _stack(game, x, accept, challengeable=not game._block)
    if x.went_out or game._block:
        game._wild_penalty(x.next, kind, accepted=True, events=x.events)
        if not x.went_out:
            x.events.append(TurnSkipped(x.next))
        return game._next(x.next)
    game._start_challenge(x.player, x.next, x.card, x.guilty, flex=False, resume=None)
    return None


def _stack(game: GameState, x: Played, count: int, *, challengeable: bool) -> int | None:
    """House rule ``stacking`` (SPEC H): the card adds ``count`` to the pending total (a new stack starts at
    ``count``) and the next player decides: stack a card that stacks on it, or take the total and lose the turn
    (and, for a wild draw on top, challenge it: SPEC G7, see :meth:`bot.engine.game.Game._do_challenge`). A last card
    makes the next player take the total at once (SPEC G9)."""
    total = count + (game.stack or 0)
    if x.went_out:
        game.stack = None
        game._draw(x.next, total, "penalty", x.events)
        return game._next(x.next)
    game.stack = total
    if challengeable:
        game.challenge = PendingChallenge(x.player, x.next, x.card, x.guilty, tuple(game.hands[x.player]))
    game.phase = Phase.STACK
    game.current = x.next
    x.events.append(StackPending(x.next, total))
    return None


def _deflect(game: GameState, x: Played) -> int | None:
    """House rule ``stack_deflect`` (SPEC H7): a Reverse or a Skip played on a pending stack sends the whole total on,
    unchanged — a Reverse turns the direction of play and sends it back (to the next player in the new direction),
    a Skip to the next player. Played as a last card, the player it goes to takes the total at once (SPEC G9)."""
    total = game.stack
    assert total is not None
    if x.face.kind in DEFLECTS_BACK:
        game.direction = -game.direction
        x.events.append(DirectionChanged(game.direction))
    to = game._next(x.player)
    if x.went_out:
        game.stack = None
        game._draw(to, total, "penalty", x.events)
        return None
    game.challenge = None
    game.phase = Phase.STACK
    game.current = to
    x.events.append(StackPending(to, total))
    return None


def _seven(game: GameState, x: Played) -> int | None:
    """House rule ``seven_zero`` (SPEC H): a 7 swaps hands with the chosen other player (``target``)."""
    target = x.target
    assert target is not None and target != x.player
    hands = game.hands
    hands[x.player], hands[target] = hands[target], hands[x.player]
    x.events.append(HandsSwapped(x.player, target))
    faces = game.faces
    x.events.append(HandReceived(x.player, target, tuple(faces[c] for c in hands[x.player])))
    x.events.append(HandReceived(target, x.player, tuple(faces[c] for c in hands[target])))
    _after_hands_moved(game)
    return x.next


def _zero(game: GameState, x: Played) -> int | None:
    """House rule ``seven_zero`` (SPEC H): a 0 passes every hand one seat on in the direction of play."""
    seats = game.turn_order(x.player)
    old = {s: game.hands[s] for s in seats}
    for s in seats:
        game.hands[game._next(s)] = old[s]
    x.events.append(HandsPassed(x.player, game.direction))
    faces = game.faces
    for s in seats:
        to = game._next(s)
        x.events.append(HandReceived(to, s, tuple(faces[c] for c in game.hands[to])))
    _after_hands_moved(game)
    return x.next


def _after_hands_moved(game: GameState) -> None:
    """Hands changed owners: every UNO call lapses and nobody can be caught (SPEC G8 ruling for house rule
    ``seven_zero``: a player left with one card may call UNO, and is not catchable until they play again)."""
    game.uno = [False] * game.players
    game.catchable = None


# --- flex side (SPEC X5) ---------------------------------------------------------------------------------------------


def _flex_draw_two(game: GameState, x: Played) -> int | None:
    """Every other player draws 1; nobody is skipped."""
    for seat in game._others_in_turn_order(x.player):
        game._draw(seat, 1, "penalty", x.events)
    return x.next


def _flex_skip(game: GameState, x: Played) -> int | None:
    """Every other player is skipped: the player takes another turn."""
    return x.player


def _flex_reverse(game: GameState, x: Played) -> int | None:
    """Reverse, and the first player in the new direction is skipped."""
    if x.went_out:
        return None
    game.direction = -game.direction
    x.events.append(DirectionChanged(game.direction))
    skipped = game._next(x.player)
    x.events.append(TurnSkipped(skipped))
    return game._next(skipped)


def _flex_target_draw_two(game: GameState, x: Played) -> int | None:
    """The target draws 2; play continues with the next player (nobody loses a turn)."""
    assert x.target is not None
    game._draw(x.target, 2, "penalty", x.events)
    return x.next


def _flex_all_draw(game: GameState, x: Played) -> int | None:
    """Every other player draws 2; the next player does not lose their turn."""
    for seat in game._others_in_turn_order(x.player):
        game._draw(seat, 2, "penalty", x.events)
    return x.next


def _flex_wild_draw_four(game: GameState, x: Played) -> int | None:
    """The target draws 4, or challenges (SPEC X7, ``flex_target_can_challenge``); play then resumes with the next
    player in order."""
    assert x.target is not None
    if x.restricted and not x.went_out and not game._block:
        game._start_challenge(x.player, x.target, x.card, x.guilty, flex=True, resume=x.next)
        return None
    game._draw(x.target, 4, "penalty", x.events)
    return x.next


#: Regular-side effects by kind; the draw cards and wild draws of each game come from its ruleset.
REGULAR: Mapping[Kind, Effect] = MappingProxyType(
    {
        Kind.SKIP: _skip,
        Kind.FLEX_SKIP: _skip,
        Kind.REVERSE: _reverse,
        Kind.FLEX_REVERSE: _reverse,
        Kind.SKIP_EVERYONE: _skip_everyone,
        Kind.FLIP: _flip_card,
        Kind.WILD_SHUFFLE_HANDS: _shuffle_hands,
    }
)
#: Flex-side effects by kind (SPEC X5); a flex number has none (the next player matches its regular colour, X4).
FLEX: Mapping[Kind, Effect] = MappingProxyType(
    {
        Kind.FLEX_DRAW_TWO: _flex_draw_two,
        Kind.FLEX_SKIP: _flex_skip,
        Kind.FLEX_REVERSE: _flex_reverse,
        Kind.FLEX_WILD_TARGET_DRAW_TWO: _flex_target_draw_two,
        Kind.FLEX_WILD_ALL_DRAW: _flex_all_draw,
        Kind.FLEX_WILD_DRAW_FOUR: _flex_wild_draw_four,
    }
)

_NUMBER: Final = Kind.NUMBER  # bound once: an Enum member read is slow in Python 3.11 (a C static compiled)

# Plain dictionaries bound as Final names for carry_out: C statics and direct lookups in the compiled engine.
_REGULAR: Final[dict[Kind, Effect]] = dict(REGULAR)
_FLEX: Final[dict[Kind, Effect]] = dict(FLEX)

__all__ = ["FLEX", "REGULAR", "Effect", "Played", "carry_out"]
