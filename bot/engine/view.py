"""What one player may see of a game (SPEC G11, F10, X9, G7): the only way the UI reads a game.

Built by :meth:`bot.engine.game.Game.view`. A player's view holds their own hand (card ids are server-side handles:
never put them in a Discord payload), every player's card count, and public information. UNO FLIP adds the *other
face* of every opponent's hand and of the draw-pile top; Flex adds the Power Cards. The public view (``me is None``,
for the table message) holds no hand at all (SPEC F10: no player sees the other face of their own hand, so a public
message may not show any hand's other faces).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Colour, Face, Mode, Side
from .frozen import picklable
from .legal import LegalActions


class Phase(StrEnum):
    """The pending decision (DESIGN "Engine contract").

    - ``play``: the player to move plays a card or draws (SPEC G4).
    - ``play_drawn``: the player may play the card just drawn, or keep it (SPEC G4).
    - ``declare_colour``: a colour is owed for an opening wild or a wild exposed by a Flip (SPEC C2, F4, F8).
    - ``challenge``: the player who must draw from a wild draw challenges or accepts (SPEC G7).
    - ``stack``: house rule ``stacking`` (SPEC H): the player who must draw stacks a draw card or takes the total
      (and, when a wild draw is on top, may challenge it).
    - ``round_over``: any seated player deals the next round (SPEC G9).
    - ``match_over``: nothing more to do.

    A targeted card's target is chosen with the play itself (SPEC G4 ruling), so there is no separate target decision.
    """

    PLAY = "play"
    PLAY_DRAWN = "play_drawn"
    DECLARE_COLOUR = "declare_colour"
    CHALLENGE = "challenge"
    STACK = "stack"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card in the viewer's own hand: ``id`` (for actions) and its ``face`` on the side in play."""

    id: int
    face: Face

    def __init__(self, id: int, face: Face) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "face", face)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: its ``winner`` and the ``points`` each seat scored in it (SPEC G9)."""

    winner: int
    points: tuple[int, ...]

    def __init__(self, winner: int, points: tuple[int, ...]) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "points", points)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's (or the public table's) view of a game.

    Seats are 0..players-1; tuples indexed by seat. ``direction`` is +1 (left/clockwise) or -1.
    ``pending`` is the seat who owes the pending decision (None when the round or match is over).
    ``other_faces`` (FLIP, player views only): for each opponent the other faces of their hand in hand order; None for
    the viewer's own seat and for removed players. ``draw_top_other`` (FLIP): the other face of the draw-pile top.
    ``revealed``: for the challenger only, ``(owner, faces)`` of the challenged hand (SPEC G7).
    ``legal``: the viewer's legal actions now, a lazy sequence (empty for the public view).

    House rules (SPEC H): ``stack`` is the total the owner of a pending stack decision (``phase == "stack"``,
    ``pending``) takes if they do not stack — public ("+6 on you: stack or take 6"); ``jump_ins`` the viewer's cards
    that may jump in right now (only while the viewer is not the current player; never in the public view: it would
    tell what a hand holds); ``house_rules`` the house rules in force, by option name.
    ``teams``: the number of teams of a partner game (SPEC T1: seat ``s`` partners seat ``s + teams``), 0 without.
    """

    mode: Mode
    side: Side
    players: int
    active: tuple[bool, ...]
    me: int | None
    hand: tuple[HandCard, ...]
    hand_counts: tuple[int, ...]
    top: Face
    declared_colour: Colour | None
    colour_in_play: Colour | None
    direction: int
    phase: Phase
    pending: int | None
    drawn: HandCard | None
    challenge_player: int | None
    draw_pile_size: int
    discard_pile_size: int
    draw_top_other: Face | None
    other_faces: tuple[tuple[Face, ...] | None, ...] | None
    power: tuple[bool, ...] | None
    uno_called: tuple[bool, ...]
    catchable: int | None
    scores: tuple[int, ...]
    target_score: int
    round: int
    dealer: int
    history: tuple[RoundRecord, ...]
    winner: int | None
    abandoned: bool
    revealed: tuple[int, tuple[Face, ...]] | None
    legal: LegalActions
    stack: int | None = None
    jump_ins: tuple[HandCard, ...] = ()
    house_rules: tuple[str, ...] = ()
    teams: int = 0

    def __init__(
        self,
        mode: Mode,
        side: Side,
        players: int,
        active: tuple[bool, ...],
        me: int | None,
        hand: tuple[HandCard, ...],
        hand_counts: tuple[int, ...],
        top: Face,
        declared_colour: Colour | None,
        colour_in_play: Colour | None,
        direction: int,
        phase: Phase,
        pending: int | None,
        drawn: HandCard | None,
        challenge_player: int | None,
        draw_pile_size: int,
        discard_pile_size: int,
        draw_top_other: Face | None,
        other_faces: tuple[tuple[Face, ...] | None, ...] | None,
        power: tuple[bool, ...] | None,
        uno_called: tuple[bool, ...],
        catchable: int | None,
        scores: tuple[int, ...],
        target_score: int,
        round: int,
        dealer: int,
        history: tuple[RoundRecord, ...],
        winner: int | None,
        abandoned: bool,
        revealed: tuple[int, tuple[Face, ...]] | None,
        legal: LegalActions,
        stack: int | None = None,
        jump_ins: tuple[HandCard, ...] = (),
        house_rules: tuple[str, ...] = (),
        teams: int = 0,
    ) -> None:
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "active", active)
        object.__setattr__(self, "me", me)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_counts", hand_counts)
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "declared_colour", declared_colour)
        object.__setattr__(self, "colour_in_play", colour_in_play)
        object.__setattr__(self, "direction", direction)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "challenge_player", challenge_player)
        object.__setattr__(self, "draw_pile_size", draw_pile_size)
        object.__setattr__(self, "discard_pile_size", discard_pile_size)
        object.__setattr__(self, "draw_top_other", draw_top_other)
        object.__setattr__(self, "other_faces", other_faces)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "uno_called", uno_called)
        object.__setattr__(self, "catchable", catchable)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "target_score", target_score)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "abandoned", abandoned)
        object.__setattr__(self, "revealed", revealed)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "stack", stack)
        object.__setattr__(self, "jump_ins", jump_ins)
        object.__setattr__(self, "house_rules", house_rules)
        object.__setattr__(self, "teams", teams)


picklable(HandCard, RoundRecord, PlayerView)  # copy and pickle work on the compiled engine too (bot.engine.frozen)
