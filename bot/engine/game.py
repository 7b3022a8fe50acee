"""The rules engine: one :class:`Game` holds a whole match (rounds, scores) of classic UNO, UNO FLIP or UNO Flex!.

Pure: no I/O, no clock, no asyncio; all randomness from the game's seeded :class:`~bot.engine.rng.Rng` (saved with it).

- :meth:`Game.new` deals a match; :meth:`Game.build` lays out any position for tests (see :mod:`bot.engine.builder`).
- :meth:`Game.legal_actions` lists what a player may do now; :meth:`Game.apply` validates an action and either raises a
  :class:`~bot.engine.errors.RuleError` with the game untouched, or applies it and returns its events.
- :meth:`Game.view` is what one player may see; :meth:`Game.to_dict` / :meth:`Game.from_dict` save and load losslessly.

Section numbers are those of the rules reference, docs/rules/ ("rules: SPEC F8").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from . import errors as E
from . import snapshot
from .actions import (
    ACTION_TYPES,
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
from .cards import (
    PASS_NUMBER,
    SWAP_NUMBER,
    Card,
    Colour,
    Face,
    Kind,
    Mode,
    Side,
    colours_of,
    format_face,
)
from .decks import deck_for, random_pairing, tables_for
from .effects import Played, carry_out
from .events import (
    CardKept,
    CardPlayed,
    ChallengeResolved,
    ColourDeclared,
    DealerChosen,
    DirectionChanged,
    Event,
    FalseCatch,
    HandRevealed,
    JumpedIn,
    MatchAbandoned,
    MatchEnded,
    OpeningCard,
    PenaltyAccepted,
    PlayerEliminated,
    PlayerRemoved,
    PowerCardsChanged,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
)
from .legal import (
    ACCEPTS,
    CHALLENGES,
    COLOUR_INDEX,
    DRAWS,
    KEEPS,
    NEXT_ROUNDS,
    NUMBER_KEY,
    UNO_CALLS,
    LegalActions,
)
from .options import Options
from .rng import RandomSource, Rng
from .rules import DEFLECTS, RULESETS, colour_held_most, stacks_on
from .scoring import match_winner, placement, round_points
from .state import _CHALLENGE, _DECLARE_COLOUR, _PLAY, _PLAY_DRAWN, _PLAYING, _STACK, GameState
from .teams import team_count, team_of
from .view import HandCard, Phase, PlayerView, RoundRecord

HAND_SIZE = 7  # SPEC G1
#: Seats per game (SPEC G1), from :data:`bot.limits.PLAYER_RANGE` through the rulesets.
PLAYER_RANGE: dict[Mode, tuple[int, int]] = {mode: rules.players for mode, rules in RULESETS.items()}
#: Card points per game (SPEC C6, F9, X8); numbers score their face value.
POINTS: dict[Mode, dict[Kind, int]] = {mode: dict(rules.points) for mode, rules in RULESETS.items()}

# Phases bound once for the hot paths (the others are :mod:`bot.engine.state`'s): reading a member off an Enum class is
# slow in Python 3.11, and a Final name is a C static in the compiled engine (any other module-level name is a
# dictionary lookup there).
_ROUND_OVER: Final = Phase.ROUND_OVER
_MATCH_OVER: Final = Phase.MATCH_OVER
_PLAY_PHASES: Final = (_PLAY, _PLAY_DRAWN, _STACK)
_PLAY_ONLY: Final = (_PLAY,)
_DRAWN_ONLY: Final = (_PLAY_DRAWN,)
_WILD_ALL_FLIP: Final = Kind.WILD_ALL_FLIP
#: The match keys (:class:`~bot.engine.legal.SideTables`) of the 7 and the 0: under house rule ``seven_zero`` they act
#: one card at a time, never played several at once (SPEC H4, H8).
_SEVEN_ZERO_KEYS: Final = frozenset({NUMBER_KEY + SWAP_NUMBER, NUMBER_KEY + PASS_NUMBER})


def points_of(mode: Mode, face: Face) -> int:
    """Points a face left in a hand is worth in ``mode`` (SPEC C6, F9, X8)."""
    return RULESETS[mode].points_of(face)


def _position(cards: list[int], card: int) -> int:
    """The index of ``card``'s first place in ``cards``, -1 if none: ``in`` and ``list.remove`` for a play's card,
    written as a loop that the compiled engine runs on native integers (``list``'s own compare objects)."""
    for i, c in enumerate(cards):
        if c == card:
            return i
    return -1


class Game(GameState):
    """A match in progress. Mutable; only :meth:`apply`, :meth:`remove_player` and the constructors change it.

    Its fields, and the primitives that the card effects and the snapshot also use (drawing, flipping, seats in turn
    order…), are those of :class:`~bot.engine.state.GameState` (piles with the top at the end, ``box``, seats,
    ``direction``; two games are equal when every rule-relevant field is equal); this class adds the rules of play.
    """

    # ------------------------------------------------------------------------------------------------------------
    # Creation

    @classmethod
    def new(
        cls,
        mode: Mode | str,
        players: int,
        *,
        seed: int = 0,
        rng: RandomSource | None = None,
        options: Options | None = None,
    ) -> tuple[Game, list[Event]]:
        """Start a match: choose the first dealer (SPEC G2), deal round 1 and turn the opening card.

        ``players``: 2–10 (classic, FLIP) or 2–8 (Flex) (SPEC G1). Randomness comes from ``rng`` (any
        :class:`~bot.engine.rng.RandomSource`) or ``Rng(seed)``.
        Returns the game and the events of the deal. Raises ``ValueError`` for a player count outside SPEC G1.
        """
        mode = Mode(mode)
        options = options or Options()
        rules = RULESETS[mode]
        rules.check_options(options)
        low, high = rules.players
        if not isinstance(players, int) or not low <= players <= high:
            raise ValueError(f"{mode.value} is for {low} to {high} players")
        team_count(mode, options, players)  # SPEC T1: a team game is for 4, 6 or 8 players
        rng = rng if rng is not None else Rng(seed)
        pairing = None
        if rules.two_sided and options.flip_pairing == "random":
            pairing = random_pairing(rng)
        deck = rules.deck(options, pairing)
        game = cls(
            mode=mode,
            options=options,
            players=players,
            rng=rng,
            pairing=pairing,
            step=0,
            round=0,
            dealer=0,
            active=[True] * players,
            scores=[0] * players,
            history=[],
            winner=None,
            abandoned=False,
            side=Side.LIGHT,
            hands=[[] for _ in range(players)],
            draw_pile=[],
            discard=[],
            current=0,
            direction=1,
            declared=None,
            phase=_PLAY,
            drawn=None,
            after=None,
            challenge=None,
            uno=[False] * players,
            catchable=None,
            power=[True] * players if rules.power_cards else None,
            revealed=None,
            box=[],
            stack=None,
            deck=deck,
            faces=deck.faces(Side.LIGHT),
            tables=tables_for(deck, Side.LIGHT),
        )
        events: list[Event] = []
        game.dealer = game._choose_dealer(events)
        game._deal_round(events)
        return game, events

    def _choose_dealer(self, events: list[Event]) -> int:
        """SPEC G2: each player draws; the highest number deals (symbols count 0); ties draw again in seat order."""
        pile = list(range(len(self.deck)))
        self.rng.shuffle(pile)
        contenders = [s for s in range(self.players) if self.active[s]]
        draws: list[tuple[int, Face]] = []
        while True:
            values: dict[int, int] = {}
            for seat in contenders:
                face = self.deck[pile.pop()].light
                draws.append((seat, face))
                values[seat] = face.number if face.kind is Kind.NUMBER and face.number is not None else 0
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                events.append(DealerChosen(tuple(draws), contenders[0]))
                return contenders[0]

    def _deal_round(self, events: list[Event]) -> None:
        """Deal a round: shuffle, 7 cards each one at a time from the dealer's left, opening card (SPEC G1, G2, C2)."""
        self.round += 1
        self._set_side(Side.LIGHT)
        pile = list(range(len(self.deck)))
        if self.box:  # cards in the box stay out of play
            boxed = set(self.box)
            pile = [c for c in pile if c not in boxed]
        self.rng.shuffle(pile)
        self.hands = [[] for _ in range(self.players)]
        self.direction = 1
        self.declared = None
        self.drawn = self.after = self.challenge = self.revealed = self.catchable = self.stack = None
        self.uno = [False] * self.players
        if self.power is not None and self.options.flex_reset_power:
            self.power = [True] * self.players
        seats = self._seats_from(self._next(self.dealer, 1))
        for _ in range(HAND_SIZE):
            for seat in seats:
                self.hands[seat].append(pile.pop())
        self.draw_pile = pile
        self.discard = []
        events.append(RoundStarted(self.round, self.dealer, HAND_SIZE))
        self._open(events)

    def open_round(self, events: list[Event]) -> None:
        """Turn the opening card from the draw pile and apply its effect (SPEC C2, F4, X2), appending its events. For
        :func:`bot.engine.builder.deal` (a laid-out deal); :meth:`new` and the next round call it themselves."""
        self._open(events)

    def _open(self, events: list[Event]) -> None:
        """Turn the opening card and apply its effect (SPEC C2, F4, X2)."""
        first = self._next(self.dealer, 1)
        rules = self.rules
        returned = rules.opening_returned
        if self.options.opening_flip == "redraw":
            returned = returned | {Kind.FLIP}
        while True:
            card = self.draw_pile.pop()
            face = self.faces[card]
            if rules.opening_numbers_only:
                # SPEC X2: any non-number card is ignored (it stays in the discard pile) and the next one turned.
                self.discard.append(card)
                events.append(OpeningCard(face, returned=face.kind is not Kind.NUMBER))
                if face.kind is Kind.NUMBER:
                    self.current = first
                    self.phase = _PLAY
                    return
                continue
            if face.kind in returned:
                self._return_opening_card(card, face, events)
                continue
            self.discard.append(card)
            events.append(OpeningCard(face, returned=False))
            if face.kind is Kind.FLIP:
                # opening_flip = "apply": the whole F8 procedure on the one-card pile, then the exposed face's opening
                # effect; a Flip or a wild draw exposed this way is returned like any other (ruling).
                face = self._flip(events)
                if face.kind is Kind.FLIP or face.kind in rules.opening_returned:
                    self.discard.pop()
                    self._return_opening_card(card, face, events)
                    continue
            self._opening_effect(face, first, events)
            return

    def _return_opening_card(self, card: int, face: Face, events: list[Event]) -> None:
        """Returned to the deck, the deck reshuffled, another card turned (SPEC C2, F4). The card goes to the bottom
        first so that a generator that does not reorder (tests) still makes progress."""
        events.append(OpeningCard(face, returned=True))
        self.draw_pile.insert(0, card)
        self.rng.shuffle(self.draw_pile)

    def _opening_effect(self, face: Face, first: int, events: list[Event]) -> None:
        self.phase = _PLAY
        kind = face.kind
        draw_cards = self.rules.draw_cards
        if kind in draw_cards:
            self._draw(first, draw_cards[kind], "penalty", events)
            events.append(TurnSkipped(first))
            self.current = self._next(first)
        elif kind is Kind.REVERSE:
            self.direction = -1
            events.append(DirectionChanged(-1))
            self.current = self.dealer
        elif kind in (Kind.SKIP, Kind.SKIP_EVERYONE):  # Skip Everyone at the opening acts as Skip (ruling)
            events.append(TurnSkipped(first))
            self.current = self._next(first)
        elif face.is_wild:
            self.phase = _DECLARE_COLOUR
            self.current = self.after = first
        else:
            self.current = first

    # ------------------------------------------------------------------------------------------------------------
    # Seats and turn order

    def next_seat(self, seat: int, direction: int | None = None) -> int:
        """The next seated player after ``seat`` (any seat, seated or not) in ``direction`` (+1 left/clockwise, -1
        right; default: the direction of play). Seat order helper for other layers (SPEC G2)."""
        return self._next(seat, direction)

    def _check_seat(self, player: object) -> int:
        if type(player) is not int or not 0 <= player < self.players or not self.active[player]:
            raise E.NotSeated(f"seat {player!r} is not playing in this match")
        return player

    # ------------------------------------------------------------------------------------------------------------
    # Matching

    @property
    def teams(self) -> int:
        """The number of teams (SPEC T1: seat ``s`` partners seat ``s + teams``); 0 without option ``teams``."""
        return team_count(self.mode, self.options, self.players)

    def colour_in_play(self) -> Colour | None:
        """The declared colour when a wild is on top, else the top card's colour (SPEC G3, X4)."""
        top = self.top
        return self.declared if top.is_wild else top.colour

    def _top_keys(self) -> tuple[int, int]:
        """(colour index in play, match key of the top card) for :class:`~bot.engine.legal.SideTables` matching."""
        t = self.tables
        top = self.discard[-1]
        if t.wild[top]:
            declared = self.declared
            return (COLOUR_INDEX[declared] if declared is not None else -2), -2
        return t.colour[top], t.key[top]

    def _restricted(self, card: int, flex: bool) -> bool:
        """Whether this play is restricted and judged by a challenge (SPEC G7, X7)."""
        if not self.tables.restricted[card]:
            return False
        if flex:
            return self.faces[card].kind is Kind.FLEX_WILD_DRAW_FOUR and self.options.flex_target_can_challenge
        return True

    def _holds_colour(self, player: int, colour: Colour | None, exclude: int) -> bool:
        """SPEC G7, X7: does ``player`` hold a card of the colour in play (besides ``exclude``)? The one test, in
        :meth:`~bot.engine.rules.Ruleset.holds_colour` (classic and FLIP: coloured cards only; Flex: wilds too, and a
        flex number by its flex colour while its owner's Power Card is green)."""
        faces = self.faces
        green = self.power is not None and self.power[player]
        return self.rules.holds_colour((faces[c] for c in self.hands[player] if c != exclude), colour, green=green)

    def _playable(self, player: int, card: int, flex: bool) -> bool:
        """Whether ``player`` may play ``card`` (its flex side if ``flex``) now: see :meth:`_plays_of`, the one
        matcher."""
        return any(f is flex for _, f, _, _ in self._plays_of(player, [card]))

    def _plays_of(self, player: int, cards: list[int]) -> list[tuple[int, bool, bool, bool]]:
        """The one matcher: of ``cards``, the plays ``player`` may make now, as ``(card, flex side, wild, targeted)``
        in order (each card's regular side, then its flex side).

        SPEC G3 (colour, number or symbol; wilds always); the flex side (SPEC X3, X4) needs a green Power Card and a
        card with a flex side, and a flex number also matches by its flex colour; with ``block_illegal_wild_draw`` a
        guilty wild draw is not playable (SPEC G7 option). House rules (SPEC H): while a stack is pending only the
        cards that stack on it (:func:`~bot.engine.rules.stacks_on`, regular sides); out of turn, with ``jump_in``,
        only a card identical to the top; with ``seven_zero`` a 7 names a target; with ``number_finish`` a last card
        that is not a number is never playable (SPEC H6)."""
        t = self.tables
        if self._number_finish and len(self.hands[player]) == 1:
            keys = t.key
            cards = [c for c in cards if keys[c] >= NUMBER_KEY]  # numbers only
        wild, colour, key, flex_side, flex_colour, swaps = t.wild, t.colour, t.key, t.flex_side, t.flex_colour, t.swaps
        block = self._block
        seven = self._seven_zero
        plays: list[tuple[int, bool, bool, bool]] = []
        if player != self.current or self.phase is _STACK:
            if player != self.current:
                if not self._may_jump_in(player):
                    return plays
                top_face = self.top
                faces = self.faces
                for card in cards:
                    if not wild[card] and faces[card] == top_face:
                        plays.append((card, False, False, seven and swaps[card]))
                return plays
            faces = self.faces
            stacking = self.options.stacking
            top_kind = self.stack_card().kind
            deflect = self._deflect
            if deflect:
                tc, tk = self._top_keys()
            for card in cards:
                kind = faces[card].kind
                if stacks_on(stacking, kind, top_kind) and not (
                    block and t.restricted[card] and self._guilty(player, card, False)
                ):
                    plays.append((card, False, wild[card], False))
                elif deflect and kind in DEFLECTS and (colour[card] == tc or key[card] == tk):
                    plays.append((card, False, False, False))  # SPEC H7: a Reverse or Skip sends the stack on
            return plays
        top = self.discard[-1]
        if wild[top]:
            tc, tk = (COLOUR_INDEX[self.declared] if self.declared is not None else -2), -2
        else:
            tc, tk = colour[top], key[top]
        green = self.power is not None and self.power[player]
        for card in cards:
            w = wild[card]
            matches = w or colour[card] == tc or key[card] == tk
            if matches and not (block and t.restricted[card] and self._guilty(player, card, False)):
                plays.append((card, False, w, seven and swaps[card]))
            if not green or not flex_side[card] or not (matches or flex_colour[card] == tc):
                continue
            if not (block and t.restricted[card] and self._guilty(player, card, True)):
                plays.append((card, True, w, t.targeted[card]))
        return plays

    def stack_card(self) -> Face:
        """The face of the draw card a pending stack is judged by (house rules ``stacking``, SPEC H1): the top of the
        discard pile, or under house rule ``stack_deflect`` (SPEC H7) the first card below the Reverses and Skips that
        sent the stack on. Outside a stack: the top."""
        faces = self.faces
        discard = self.discard
        i = len(discard) - 1
        if self.stack is not None:
            while i > 0 and faces[discard[i]].kind in DEFLECTS:
                i -= 1
        return faces[discard[i]]

    def _may_jump_in(self, player: int) -> bool:
        """House rule ``jump_in`` (SPEC H): may ``player`` (not the current player) jump in now? Only while the
        current player is to play or has just drawn — never over a pending challenge, colour or stack."""
        return (
            self._jump_in
            and player != self.current
            and (self.phase is _PLAY or self.phase is _PLAY_DRAWN)
            and self.active[player]
        )

    def _needs_target(self, card: int, flex: bool) -> bool:
        """A targeted Flex card's flex side (SPEC X5), or a 7 under house rule ``seven_zero`` (SPEC H)."""
        if flex:
            return self.faces[card].kind in self.rules.targeted
        return self._seven_zero and self.tables.swaps[card]

    def _guilty(self, player: int, card: int, flex: bool) -> bool:
        """Whether playing ``card`` now would be an illegal (guilty) wild draw (SPEC G7, X7)."""
        return self._restricted(card, flex) and self._holds_colour(player, self.colour_in_play(), card)

    def _must_play(self, player: int) -> bool:
        """House rule ``force_play`` (SPEC H): ``player`` holds a card they may play now (the drawn card while it
        waits to be played or kept)."""
        if not self._force_play:
            return False
        cards = [self.drawn] if self.phase is _PLAY_DRAWN and self.drawn is not None else self.hands[player]
        return bool(self._plays_of(player, cards))

    # ------------------------------------------------------------------------------------------------------------
    # Legal actions

    def legal_actions(self, player: int) -> LegalActions:
        """Every action ``player`` may take now (SPEC G4, G7, G8, F8, H), as a lazy sequence: plays with each
        colour/target/flex/UNO variant, draw, keep, declare, challenge, accept, UNO call, catch, next round; with
        house rule ``jump_in`` a player other than the current one may have jump-in plays. Empty for a seat not
        playing. A false catch (SPEC G8) is accepted by :meth:`apply` but not listed: it never helps. Under house rule
        ``multi_play`` (SPEC H8) the list holds one play of several cards per number and top card (all of that
        number); :meth:`apply` also takes any other two or more of them in any order (listing every subset and order
        would run to thousands)."""
        phase = self.phase
        if phase is _MATCH_OVER or type(player) is not int or not 0 <= player < self.players:
            return LegalActions(0, [], (), (), False, [], 0, 0)
        if not self.active[player]:
            return LegalActions(player, [], (), (), False, [], 0, 0)
        if phase is _ROUND_OVER:
            return LegalActions(player, [], (), (), False, [NEXT_ROUNDS[player]], 0, 1)
        simple: list[Action] = []
        plays: list[tuple[int, bool, bool, bool]] = []  # (card, flex side, wild, targeted)
        colours: tuple[Colour, ...] = ()
        targets: tuple[int, ...] = ()
        uno = False
        size = 0  # the number of play actions: a wild counts once per colour, a targeted play once per target
        hand = self.hands[player]
        mine = player == self.current
        if (mine and (phase is _PLAY or phase is _PLAY_DRAWN or phase is _STACK)) or (
            not mine and self._jump_in and self._may_jump_in(player)
        ):
            t = self.tables
            colours = t.colours
            n_colours = len(colours)
            if mine and phase is _PLAY_DRAWN:
                assert self.drawn is not None
                cards = [self.drawn]
            else:
                cards = hand
            plays = self._plays_of(player, cards)
            for _card, _flex, wild, targeted in plays:
                if targeted and not targets:
                    targets = tuple(s for s in range(self.players) if s != player and self.active[s])
                size += (n_colours if wild else 1) * (len(targets) if targeted else 1)
            if len(hand) == 2:
                uno = True
                size *= 2
            if mine:
                if self._multi and phase is _PLAY:
                    simple.extend(self._multi_plays(player, plays))
                if phase is _STACK:
                    if self.challenge is not None:
                        simple.append(CHALLENGES[player])
                    simple.append(ACCEPTS[player])
                elif not (self._force_play and plays):
                    simple.append(DRAWS[player] if phase is _PLAY else KEEPS[player])
        elif mine and phase is _DECLARE_COLOUR:
            simple.extend(DeclareColour(player, c) for c in colours_of(self.side))
        elif mine and phase is _CHALLENGE:
            simple.append(CHALLENGES[player])
            simple.append(ACCEPTS[player])
        decisions = len(simple)
        if len(hand) == 1 and not self.uno[player]:
            simple.append(UNO_CALLS[player])
        if self.catchable is not None and self.catchable != player:
            simple.append(Catch(player, self.catchable))
        return LegalActions(player, plays, colours, targets, uno, simple, size, decisions)

    def _multi_plays(self, player: int, plays: list[tuple[int, bool, bool, bool]]) -> list[Action]:
        """House rule ``multi_play`` (SPEC H8): the listed ways for ``player`` to play several cards of one number at
        once. For each number held twice or more with one of them playable, and each face that may end on top: every
        card of that number, a playable other one first, the others in hand order, that face last (both with and
        without UNO when one card is left). :meth:`apply` accepts any two or more of them in any order with a playable
        first card; this list is what the hand offers and the AI weighs (one entry per top face, so at most the hand's
        size, twice)."""
        hand = self.hands[player]
        keys = self.tables.key
        faces = self.faces
        seven = self._seven_zero
        groups: dict[int, list[int]] = {}
        for c in hand:
            k = keys[c]
            if k >= NUMBER_KEY and not (seven and k in _SEVEN_ZERO_KEYS):  # seven-zero: 7s and 0s go one at a time
                groups.setdefault(k, []).append(c)
        playable = {card for card, flex, _, _ in plays if not flex}
        out: list[Action] = []
        for cards in groups.values():
            if len(cards) < 2:
                continue
            firsts = [c for c in cards if c in playable]
            tops: list[Face] = []
            for top in cards:
                first = next((c for c in firsts if c != top), None)
                if first is None or faces[top] in tops:
                    continue
                tops.append(faces[top])
                group = (first, *[c for c in cards if c != first and c != top], top)
                out.append(PlayMany(player, group, False))
                if len(hand) - len(group) == 1:
                    out.append(PlayMany(player, group, True))
        return out

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` (false catches included)."""
        try:
            self._validate(action)
        except E.RuleError:
            return False
        return True

    # ------------------------------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, action: Action) -> list[Event]:
        """Validate and apply ``action``; return the events it caused, in order.

        Raises a :class:`~bot.engine.errors.RuleError` subclass (a ``ValueError``) naming the problem, with the game
        unchanged: every check runs before anything is changed."""
        self._validate(action)
        events: list[Event] = []
        # One branch per action type (exact types, as checked): direct calls, which the compiled engine makes natively.
        if type(action) is Play:
            self._do_play(action, events)
        elif type(action) is PlayMany:
            self._do_play_many(action, events)
        elif type(action) is Draw:
            self._do_draw(action, events)
        elif type(action) is Keep:
            self._do_keep(action, events)
        elif type(action) is NextRound:
            self._do_next_round(action, events)
        elif type(action) is Accept:
            self._do_accept(action, events)
        elif type(action) is Challenge:
            self._do_challenge(action, events)
        elif type(action) is DeclareColour:
            self._do_declare(action, events)
        elif type(action) is CallUno:
            self._do_call_uno(action, events)
        elif type(action) is Catch:
            self._do_catch(action, events)
        self.step += 1
        return events

    def _validate(self, action: object) -> None:
        if type(action) is Play:  # the most frequent action first: its player is read natively when compiled
            self._check_player(action.player)
            self._check_play(action)
            return
        if type(action) not in _ACTION_TYPES:
            raise E.UnknownAction(f"not an action: {action!r}")
        self._check_player(action.player)  # type: ignore[attr-defined]
        if type(action) is PlayMany:
            self._check_play_many(action)
        elif type(action) is Draw:
            self._check_draw(action)
        elif type(action) is Keep:
            self._check_keep(action)
        elif type(action) is NextRound:
            self._check_next_round(action)
        elif type(action) is Accept or type(action) is Challenge:
            self._check_challenge(action)
        elif type(action) is DeclareColour:
            self._check_declare(action)
        elif type(action) is CallUno:
            self._check_call_uno(action)
        elif type(action) is Catch:
            self._check_catch(action)

    def _check_player(self, player: object) -> None:
        """Checks common to every action, after its type: the match goes on and ``player`` is seated."""
        if self.phase is _MATCH_OVER:
            raise E.MatchOver("the match is over")
        if type(player) is not int or not 0 <= player < self.players or not self.active[player]:
            raise E.NotSeated(f"seat {player!r} is not playing in this match")  # as _check_seat

    def _check_turn(self, player: int, phases: tuple[Phase, ...]) -> None:
        if self.phase not in phases:
            if self.phase is _ROUND_OVER:
                raise E.WrongPhase("the round is over")
            if player != self.current:
                raise E.NotYourTurn(f"it is seat {self.current}'s decision")
            if self.phase is _CHALLENGE:
                raise E.WrongPhase("challenge or accept the draw first")
            if self.phase is _STACK:
                raise E.WrongPhase("stack a draw card or take the cards first")
            if self.phase is _DECLARE_COLOUR:
                raise E.WrongPhase("declare the colour first")
            if self.phase is _PLAY_DRAWN:
                raise E.WrongPhase("play the drawn card or keep it")
            raise E.WrongPhase(f"not possible now ({self.phase.value})")
        if player != self.current:
            if self.phase in (_CHALLENGE, _DECLARE_COLOUR, _STACK):
                raise E.NotYourDecision(f"this decision is seat {self.current}'s")
            raise E.NotYourTurn(f"it is seat {self.current}'s turn")

    # --- Play -------------------------------------------------------------------------------------------------------

    def _check_play(self, a: Play) -> None:
        p = a.player
        jump = False
        if p != self.current or self.phase not in _PLAY_PHASES:
            if self._may_jump_in(p):
                jump = True
            else:
                if self._jump_in and p != self.current and self._was_identical(a.card):
                    raise E.TooLate("too late: the top card has changed")
                self._check_turn(p, _PLAY_PHASES)  # raises
        hand = self.hands[p]
        if type(a.card) is not int or _position(hand, a.card) < 0:
            raise E.CardNotInHand(f"card {a.card!r} is not in seat {p}'s hand")
        if not jump and self.phase is _PLAY_DRAWN and a.card != self.drawn:
            raise E.OnlyDrawnCard("only the card just drawn may be played")
        face = self.faces[a.card]
        if a.flex is not False and a.flex is not True:
            raise E.FlexSideUnavailable("flex must be true or false")
        if a.flex and (self.power is None or not self.tables.flex_side[a.card]):
            raise E.FlexSideUnavailable(f"{format_face(face)} has no flex side")
        if a.flex and not self.power[p]:  # type: ignore[index]
            raise E.FlexSideUnavailable("your Power Card is red")
        if self._number_finish and len(hand) == 1 and self.tables.key[a.card] < NUMBER_KEY:
            raise E.LastCardNotNumber(f"{format_face(face)} is your last card: you may only go out on a number")
        if not self._playable(p, a.card, a.flex):
            if jump and self._was_identical(a.card):
                raise E.TooLate("too late: the top card has changed")
            if jump:
                raise E.NotYourTurn(f"it is seat {self.current}'s turn (only an identical card may jump in)")
            raise E.CardNotPlayable(f"{format_face(face)} cannot be played on {format_face(self.top)}")
        if self.tables.wild[a.card]:
            if a.colour is None:
                raise E.ColourRequired("a wild needs a declared colour")
            if not isinstance(a.colour, Colour) or a.colour not in colours_of(self.side):
                raise E.ColourNotOfThisSide(f"{a.colour} is not a colour of the {self.side.value} side")
        elif a.colour is not None:
            raise E.ColourNotAllowed("only wilds take a colour")
        if self._needs_target(a.card, a.flex):
            if a.target is None:
                raise E.TargetRequired("choose the other player")
            if a.target == p:
                raise E.TargetYourself("you cannot target yourself")
            if type(a.target) is not int or not 0 <= a.target < self.players or not self.active[a.target]:
                raise E.InvalidTarget(f"seat {a.target!r} is not playing")
        elif a.target is not None:
            raise E.TargetNotAllowed("this card takes no target")
        if a.uno is not False and (a.uno is not True or len(hand) != 2):
            raise E.UnoNotAllowed("UNO goes with your next-to-last card")

    def _was_identical(self, card: object) -> bool:
        """House rule ``jump_in``: was ``card`` identical to the card under the top — did someone else play first?"""
        if type(card) is not int or not 0 <= card < len(self.deck) or len(self.discard) < 2:
            return False
        below = self.faces[self.discard[-2]]
        return not below.is_wild and self.faces[card] == below

    def _do_play(self, a: Play, events: list[Event]) -> None:
        p, card, flex = a.player, a.card, a.flex
        face = self.faces[card]
        hand = self.hands[p]
        if p != self.current:  # a jump-in (SPEC H): play goes on from the jumper
            events.append(JumpedIn(p, self.current))
            self.current = p
            self.phase = _PLAY
        if self.phase is _STACK:
            self.challenge = None  # a card stacked on a wild draw: that card can no longer be challenged
        restricted = self.tables.restricted[card] and self._restricted(card, flex)
        judged = self.colour_in_play() if restricted else None  # the colour a challenge checks (SPEC G7)
        guilty = restricted and self._holds_colour(p, judged, card)
        hand.pop(_position(hand, card))  # hand.remove(card): in hand, as checked
        self.discard.append(card)
        self.declared = a.colour if self.tables.wild[card] else None
        self.drawn = None
        self.revealed = None
        if self.catchable is not None:
            self._close_catch_window(p)
        events.append(CardPlayed(p, face, flex, a.colour, a.target, judged))
        self._after_play(p, len(hand), a.uno, events)
        if self.power is not None:
            self._power_after_play(p, face, flex, events)
        went_out = not hand
        nxt = self._effect(p, card, face, flex, a.target, restricted, guilty, went_out, events)
        if went_out:
            self._end_round(p, events)
        elif nxt is not None:
            self.phase = _PLAY
            self.current = nxt

    def _check_play_many(self, a: PlayMany) -> None:
        """House rule ``multi_play`` (SPEC H8): on the player's own turn (not after a draw, not over a stack, never a
        jump-in), two or more different cards of their hand, numbers of the same number (with ``seven_zero`` not 7s or
        0s), the first playable as an ordinary play; UNO only when one card is left."""
        p = a.player
        if not self._multi:
            raise E.UnknownAction("playing several cards at once is house rule multi_play, not in force")
        if p != self.current or self.phase is not _PLAY:
            self._check_turn(p, _PLAY_ONLY)  # raises
        hand = self.hands[p]
        cards = a.cards
        if type(cards) is not tuple or len(cards) < 2 or len(set(cards)) != len(cards):
            raise E.NotSameNumber("play two or more different cards together")
        for c in cards:
            if type(c) is not int or c not in hand:
                raise E.CardNotInHand(f"card {c!r} is not in seat {p}'s hand")
        keys = self.tables.key
        k = keys[cards[0]]
        if k < NUMBER_KEY or any(keys[c] != k for c in cards) or (self._seven_zero and k in _SEVEN_ZERO_KEYS):
            raise E.NotSameNumber("only numbers of the same number go together (with seven-zero, not 7s or 0s)")
        if not self._playable(p, cards[0], False):
            first = self.faces[cards[0]]
            raise E.CardNotPlayable(f"{format_face(first)} cannot be played on {format_face(self.top)}")
        if a.uno is not False and (a.uno is not True or len(hand) - len(cards) != 1):
            raise E.UnoNotAllowed("UNO goes with the play that leaves you one card")

    def _do_play_many(self, a: PlayMany, events: list[Event]) -> None:
        """SPEC H8: the cards go on the discard pile in order, each one played (a Flex flip icon turns the Power Card
        each time, SPEC X3); numbers do nothing else; then as after any play (SPEC G8 UNO, G9 going out)."""
        p = a.player
        hand = self.hands[p]
        if self.catchable is not None:
            self._close_catch_window(p)
        self.revealed = None
        self.drawn = None
        self.declared = None
        faces = self.faces
        for card in a.cards:
            hand.remove(card)
            self.discard.append(card)
            face = faces[card]
            events.append(CardPlayed(p, face, False, None, None))
            if self.power is not None:
                self._power_after_play(p, face, False, events)
        self._after_play(p, len(hand), a.uno, events)
        if not hand:
            self._end_round(p, events)
        else:
            self.phase = _PLAY
            self.current = self._next(p)

    def _power_after_play(self, p: int, face: Face, flex: bool, events: list[Event]) -> None:
        """SPEC X3: a flex side spends the Power Card; a flip icon toggles it; Wild All Flip toggles all; all red →
        all green."""
        power = self.power
        assert power is not None
        before = power[:]
        if flex:
            power[p] = False
        if face.flip_icon:
            power[p] = not power[p]
        if face.kind is _WILD_ALL_FLIP:
            for s in range(self.players):
                power[s] = not power[s]
        active = self.active
        for s in range(self.players):
            if power[s] and active[s]:
                break
        else:  # all red (seated players) → all green
            for s in range(self.players):
                power[s] = True
        if power != before:
            events.append(PowerCardsChanged(tuple(power)))

    def _effect(
        self,
        p: int,
        card: int,
        face: Face,
        flex: bool,
        target: int | None,
        restricted: bool,
        guilty: bool,
        went_out: bool,
        events: list[Event],
    ) -> int | None:
        """Carry out a played card (SPEC C3, F5, F6, F8, X5) by the tables of :mod:`bot.engine.effects`. Returns who
        plays next, or None when a decision is now pending (challenge, colour)."""
        played = Played(p, card, face, flex, target, restricted, guilty, went_out, self._next(p), events)
        return carry_out(self, played)

    # --- Draw, keep -------------------------------------------------------------------------------------------------

    def _check_draw(self, a: Draw) -> None:
        if a.player != self.current or self.phase is not _PLAY:
            self._check_turn(a.player, _PLAY_ONLY)  # raises
        if self._force_play and self._must_play(a.player):
            raise E.MustPlay("you hold a playable card: play it (house rule force play)")

    def _do_draw(self, a: Draw, events: list[Event]) -> None:
        p = a.player
        if self.catchable is not None:
            self._close_catch_window(p)
        self.revealed = None
        got = self._draw_to_match(p, events) if self._draw_all else self._draw(p, 1, "draw", events)
        last = got[-1] if got else None
        if last is not None and self._plays_of(p, [last]):  # playable, on either side
            self.phase = _PLAY_DRAWN
            self.drawn = last
        else:
            self.current = self._next(p)

    def _draw_to_match(self, p: int, events: list[Event]) -> list[int]:
        """House rule ``draw_to_match`` (SPEC H): draw one at a time until a card ``p`` may play arrives (or both
        piles are exhausted, SPEC G5). One :class:`~bot.engine.events.CardsDrawn` says how many."""
        got: list[int] = []
        hand = self.hands[p]
        while self.draw_pile or self._reshuffle(events):
            card = self.draw_pile.pop()
            got.append(card)
            hand.append(card)  # in the hand while it is judged (a blocked wild draw looks at the whole hand)
            if self._plays_of(p, [card]):  # playable, on either side
                break
        del hand[len(hand) - len(got) :]
        self._receive(p, got, "draw", events)
        return got

    def _check_keep(self, a: Keep) -> None:
        self._check_turn(a.player, _DRAWN_ONLY)
        if self._force_play and self._must_play(a.player):
            raise E.MustPlay("the card you drew is playable: play it (house rule force play)")

    def _do_keep(self, a: Keep, events: list[Event]) -> None:
        events.append(CardKept(a.player))
        self.drawn = None
        self.phase = _PLAY
        self.current = self._next(a.player)

    # --- UNO call and catch (SPEC G8) ------------------------------------------------------------------------------

    def _after_play(self, p: int, left: int, uno: bool, events: list[Event]) -> None:
        """SPEC G8 after ``p``'s play left ``left`` cards: one card with UNO called is safe (:class:`UnoCalled`), one
        without it may be caught until the next move; any other count clears the call."""
        if left == 1:
            if uno:
                self.uno[p] = True
                events.append(UnoCalled(p))
            else:
                self.uno[p] = False
                self.catchable = p
        else:
            self.uno[p] = False

    def _close_catch_window(self, mover: int) -> None:
        """SPEC G8 ruling: the window closes at the first move of anyone other than the one-card player."""
        if self.catchable is not None and self.catchable != mover:
            self.catchable = None

    def _check_call_uno(self, a: CallUno) -> None:
        if self.phase not in _PLAYING:
            raise E.WrongPhase("the round is over")
        if len(self.hands[a.player]) != 1:
            raise E.UnoNotAllowed("call UNO when you hold exactly one card")
        if self.uno[a.player]:
            raise E.UnoNotAllowed("you already called UNO")

    def _do_call_uno(self, a: CallUno, events: list[Event]) -> None:
        self.uno[a.player] = True
        if self.catchable == a.player:
            self.catchable = None
        events.append(UnoCalled(a.player))

    def _check_catch(self, a: Catch) -> None:
        if self.phase not in _PLAYING:
            raise E.WrongPhase("the round is over")
        if type(a.target) is not int or not 0 <= a.target < self.players:
            raise E.InvalidTarget(f"seat {a.target!r} is not playing")
        if a.target == a.player:
            raise E.CatchYourself("you cannot catch yourself")

    def _do_catch(self, a: Catch, events: list[Event]) -> None:
        if self.catchable == a.target:
            self.catchable = None
            events.append(UnoCaught(a.player, a.target))
            self._draw(a.target, 2, "uno", events)
            return
        penalty = self.options.false_catch_penalty
        events.append(FalseCatch(a.player, a.target, penalty))
        if penalty:
            self._draw(a.player, penalty, "false_catch", events)

    # --- Colour, challenge ---------------------------------------------------------------------------------------

    def _check_declare(self, a: DeclareColour) -> None:
        self._check_turn(a.player, (_DECLARE_COLOUR,))
        if not isinstance(a.colour, Colour) or a.colour not in colours_of(self.side):
            raise E.ColourNotOfThisSide(f"{a.colour} is not a colour of the {self.side.value} side")

    def _do_declare(self, a: DeclareColour, events: list[Event]) -> None:
        self.declared = a.colour
        events.append(ColourDeclared(a.player, a.colour))
        assert self.after is not None
        self.current = self.after
        self.after = None
        self.phase = _PLAY

    def _check_challenge(self, a: Challenge | Accept) -> None:
        self._check_turn(a.player, (_CHALLENGE, _STACK))
        if self.phase is _STACK and type(a) is Challenge and self.challenge is None:
            raise E.WrongPhase("only a wild draw on top can be challenged: stack or take the cards")

    def _do_accept(self, a: Accept, events: list[Event]) -> None:
        if self.phase is _STACK:
            self._take_stack(a.player, events)
            return
        ch = self.challenge
        assert ch is not None
        victim = a.player
        self._close_catch_window(victim)
        events.append(PenaltyAccepted(victim))
        kind = self.faces[ch.card].kind
        self._wild_penalty(victim, kind, accepted=True, events=events)
        self.challenge = None
        self.phase = _PLAY
        if ch.flex:
            assert ch.resume is not None
            self.current = ch.resume
        else:
            events.append(TurnSkipped(victim))
            self.current = self._next(victim)

    def _take_stack(self, victim: int, events: list[Event]) -> None:
        """House rule ``stacking`` (SPEC H): the owner of a pending stack takes the total and loses their turn."""
        total = self.stack
        assert total is not None
        self._close_catch_window(victim)
        events.append(PenaltyAccepted(victim))
        self._draw(victim, total, "penalty", events)
        self.stack = None
        self.challenge = None
        self.phase = _PLAY
        events.append(TurnSkipped(victim))
        self.current = self._next(victim)

    def _do_challenge(self, a: Challenge, events: list[Event]) -> None:
        ch = self.challenge
        assert ch is not None
        victim = a.player
        self._close_catch_window(victim)
        kind = self.faces[ch.card].kind
        events.append(HandRevealed(victim, ch.player, tuple(self.faces[c] for c in ch.hand)))
        self.revealed = (victim, ch.player, ch.hand)
        self.challenge = None
        self.phase = _PLAY
        if self.stack is not None:
            # House rule stacking (SPEC H ruling): the challenge judges the wild draw on top and settles the whole
            # stack: guilty, its player takes the total; innocent, the challenger takes the total + the usual extra.
            total = self.stack
            self.stack = None
            wd = self.rules.wild_draws[kind]
            extra = (wd.innocent.count or 0) - (wd.accept.count or 0)
            loser = ch.player if ch.guilty else victim
            count = len(self._draw(loser, total if ch.guilty else total + extra, "challenge", events))
            events.append(ChallengeResolved(victim, ch.player, ch.guilty, loser, count))
            if ch.guilty:
                self.current = victim
            else:
                events.append(TurnSkipped(victim))
                self.current = self._next(victim)
            return
        if ch.guilty:
            count = self._wild_penalty(ch.player, kind, accepted=True, events=events, reason="challenge")
            events.append(ChallengeResolved(victim, ch.player, True, ch.player, count))
            self.current = ch.resume if ch.flex and ch.resume is not None else victim
        else:
            count = self._wild_penalty(victim, kind, accepted=False, events=events, reason="challenge")
            events.append(ChallengeResolved(victim, ch.player, False, victim, count))
            if ch.flex and ch.resume is not None:
                self.current = ch.resume
            else:
                events.append(TurnSkipped(victim))
                self.current = self._next(victim)

    # --- Rounds ------------------------------------------------------------------------------------------------------

    def _end_round(self, winner: int, events: list[Event]) -> None:
        """SPEC G9: score the round on the side in play; end the match at the target score."""
        points_of_face = self.rules.points_of
        values = [sum(points_of_face(self.faces[c]) for c in hand) for hand in self.hands]
        opts = self.options
        limit = opts.elimination
        teams = self.teams
        points = round_points(values, winner, "lowest" if limit else opts.scoring, teams)  # SPEC G9, T2
        for s in range(self.players):
            self.scores[s] += points[s]
        self.history.append(RoundRecord(winner, points))
        self.catchable = None
        self.challenge = None
        self.stack = None
        self.drawn = None
        self.after = None
        self.current = winner
        hands = tuple(tuple(self.faces[c] for c in hand) for hand in self.hands)
        events.append(RoundEnded(winner, points, tuple(self.scores), hands))
        seated = [s for s in range(self.players) if self.active[s]]
        if limit:  # house rule elimination (SPEC H9): past the limit, out; the last one in wins
            for s in seated:
                if s != winner and self.scores[s] > limit:
                    self.active[s] = False
                    self.uno[s] = False
                    events.append(PlayerEliminated(s, self.scores[s]))
            seated = [s for s in seated if self.active[s]]
            won: int | None = seated[0] if len(seated) == 1 else None
        else:
            won = match_winner(self.scores, seated, self.history, winner, opts.target_score, opts.scoring, teams)
        if won is None:
            self.phase = _ROUND_OVER
        else:
            self.phase = _MATCH_OVER
            self.winner = won
            events.append(MatchEnded(won, tuple(self.scores)))

    def placement(self) -> list[int]:
        """Seats from first to last place now (SPEC G9): the match winner first, then by score — highest first, or
        lowest first with ``scoring = "lowest"``; ties by seat; under house rule ``elimination`` (SPEC H9) the last
        out ranks higher and a player who left ranks after them; with teams (SPEC T4) team by team. The one ranking
        every layer shows."""
        opts = self.options
        return placement(
            self.scores, self.winner, opts.scoring, opts.elimination, self.history, self.active, self.teams
        )

    def _check_next_round(self, a: NextRound) -> None:
        if self.phase is not _ROUND_OVER:
            raise E.WrongPhase("the round is still being played")

    def _do_next_round(self, a: NextRound, events: list[Event]) -> None:
        self.dealer = self._next(self.dealer, 1)  # SPEC G2: the deal passes one seat to the left
        self._deal_round(events)

    # ------------------------------------------------------------------------------------------------------------
    # Leaving

    def remove_player(self, seat: int) -> list[Event]:
        """Take ``seat`` out of the match (left, kicked, or timed out): their cards go under the draw pile and play
        continues with the right player. With fewer than two players left the match ends without a winner.

        Raises :class:`~bot.engine.errors.NotSeated` / :class:`~bot.engine.errors.MatchOver` (game unchanged)."""
        if self.phase is _MATCH_OVER:
            raise E.MatchOver("the match is over")
        self._check_seat(seat)
        events: list[Event] = []
        returned = self.hands[seat]
        self.hands[seat] = []
        self.draw_pile[0:0] = returned
        self.active[seat] = False
        self.uno[seat] = False
        if self.catchable == seat:
            self.catchable = None
        if self.revealed is not None and seat in self.revealed[:2]:
            self.revealed = None
        events.append(PlayerRemoved(seat, len(returned)))
        self.step += 1
        if self.power is not None and not any(self.power[s] for s in range(self.players) if self.active[s]):
            # SPEC X3 ruling: the all-red check runs after every change, a player leaving included
            for s in range(self.players):
                self.power[s] = True
            events.append(PowerCardsChanged(tuple(self.power)))
        teams = self.teams
        if self._seated_count() < 2 or (
            teams > 0 and len({team_of(s, teams) for s in range(self.players) if self.active[s]}) < 2  # SPEC T5
        ):
            self.phase = _MATCH_OVER
            self.abandoned = True
            self.challenge = None
            events.append(MatchAbandoned())
            return events
        if self.phase in (_PLAY, _PLAY_DRAWN):
            if self.current == seat:
                self.current = self._next(seat)
                self.phase = _PLAY
                self.drawn = None
        elif self.phase is _DECLARE_COLOUR:
            assert self.after is not None
            if self.after == seat:
                self.after = self._next(seat)
            if self.current == seat:
                self.current = self.after
        elif self.phase is _CHALLENGE:
            ch = self.challenge
            assert ch is not None
            resume = ch.resume if ch.resume is None or self.active[ch.resume] else self._next(ch.resume)
            if ch.victim == seat or ch.player == seat:
                # The challenge lapses: with the victim gone play goes on past them; with the player gone the victim
                # simply takes their turn (the penalty cannot be judged any more).
                self.challenge = None
                self.phase = _PLAY
                if ch.flex:
                    assert resume is not None
                    self.current = resume
                elif ch.victim == seat:
                    self.current = self._next(seat)
            elif resume != ch.resume:
                self.challenge = replace(ch, resume=resume)
        elif self.phase is _STACK:
            ch = self.challenge
            if self.current == seat:  # the stack lapses with its owner: play goes on past them
                self.stack = None
                self.challenge = None
                self.phase = _PLAY
                self.current = self._next(seat)
            elif ch is not None and ch.player == seat:
                self.challenge = None  # nobody is left to judge: the stack stays, to stack on or take
        elif self.phase is _ROUND_OVER and self.current == seat:
            self.current = self._next(seat)
        return events

    # ------------------------------------------------------------------------------------------------------------
    # Views

    @property
    def pending(self) -> int | None:
        """The seat who owes the pending decision; None when the round or match is over."""
        return self.current if self.phase in _PLAYING else None

    def view(self, player: int | None) -> PlayerView:
        """What ``player`` may see (SPEC G11, F10, X9, G7); ``None`` for the public table (no hand at all)."""
        me = player if type(player) is int and 0 <= player < self.players else None
        faces = self.faces
        other: tuple[tuple[Face, ...] | None, ...] | None = None
        draw_top_other = None
        if self.rules.two_sided:
            other_faces = self.deck.faces(self.side.other)
            if me is not None:
                other = tuple(
                    None if s == me or not self.active[s] else tuple(other_faces[c] for c in self.hands[s])
                    for s in range(self.players)
                )
            if self.draw_pile:
                draw_top_other = other_faces[self.draw_pile[-1]]
        revealed = None
        if me is not None and self.revealed is not None and self.revealed[0] == me:
            revealed = (self.revealed[1], tuple(faces[c] for c in self.revealed[2]))
        hand = tuple(HandCard(c, faces[c]) for c in self.hands[me]) if me is not None else ()
        drawn = None
        if me is not None and me == self.current and self.phase is _PLAY_DRAWN and self.drawn is not None:
            drawn = HandCard(self.drawn, faces[self.drawn])
        legal = self.legal_actions(me if me is not None else -1)
        jump_ins: tuple[HandCard, ...] = ()
        if me is not None and me != self.current and legal.plays:
            jump_cards = {a.card for a in legal[: legal.plays] if isinstance(a, Play)}
            jump_ins = tuple(h for h in hand if h.id in jump_cards)
        return PlayerView(
            mode=self.mode,
            side=self.side,
            players=self.players,
            active=tuple(self.active),
            me=me,
            hand=hand,
            hand_counts=tuple(len(h) for h in self.hands),
            top=self.top,
            declared_colour=self.declared,
            colour_in_play=self.colour_in_play(),
            direction=self.direction,
            phase=self.phase,
            pending=self.pending,
            drawn=drawn,
            challenge_player=self.challenge.player if self.challenge is not None else None,
            draw_pile_size=len(self.draw_pile),
            discard_pile_size=len(self.discard),
            draw_top_other=draw_top_other,
            other_faces=other,
            power=tuple(self.power) if self.power is not None else None,
            uno_called=tuple(self.uno),
            catchable=self.catchable,
            scores=tuple(self.scores),
            target_score=self.options.target_score,
            round=self.round,
            dealer=self.dealer,
            history=tuple(self.history),
            winner=self.winner,
            abandoned=self.abandoned,
            revealed=revealed,
            legal=legal,
            stack=self.stack,
            jump_ins=jump_ins,
            house_rules=self.options.house_rules(),
            teams=self.teams,
        )

    def jump_ins(self, seat: int) -> list[int]:
        """House rule ``jump_in`` (SPEC H): the cards ``seat`` may jump in with right now (empty for the current
        player, when the rule is off, or while a challenge, colour or stack is pending)."""
        if type(seat) is not int or not 0 <= seat < self.players or not self._may_jump_in(seat):
            return []
        return [card for card, _, _, _ in self._plays_of(seat, self.hands[seat])]

    def default_action(self, seat: int) -> Action | None:
        """The default of ``seat``'s pending decision, for a turn timer (DESIGN "Adapter"): draw (then keep); keep;
        accept (a challenge or a stack: SPEC G7, H); declare the colour ``seat`` holds most. Under house rule
        ``force_play`` a player who must play plays their first playable card instead (a wild declares the colour
        held most; UNO is called with it). None when ``seat`` owes nothing."""
        if self.pending != seat:
            return None
        legal = self.legal_actions(seat)
        phase = self.phase
        if phase is _CHALLENGE or phase is _STACK:
            return ACCEPTS[seat]
        favourite = colour_held_most((self.faces[c] for c in self.hands[seat]), self.side)
        if phase is _DECLARE_COLOUR:
            return DeclareColour(seat, favourite)
        for action in legal[legal.plays : legal.moves]:
            if isinstance(action, Draw | Keep):
                return action
        plays = [a for a in legal[: legal.plays] if isinstance(a, Play) and not a.flex]
        preferred = [a for a in plays if a.colour in (None, favourite) and a.uno == (len(self.hands[seat]) == 2)]
        if preferred or plays:
            return (preferred or plays)[0]
        return legal[0] if legal.moves else None

    def card(self, card_id: int) -> Card:
        """The physical card ``card_id`` (both faces). For logs and tests: the UI reads games through :meth:`view`."""
        return self.deck[card_id]

    # ------------------------------------------------------------------------------------------------------------
    # Saving

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able snapshot; :meth:`from_dict` gives back an equal game (versioned: ``"v"``, see
        :mod:`bot.engine.snapshot`)."""
        return snapshot.dump(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Load a snapshot written by :meth:`to_dict` of this or any older release (upgraded first, SPEC-free: see
        :func:`bot.engine.snapshot.upgrade`). Raises :class:`~bot.engine.errors.SnapshotError` for an unknown version
        or a snapshot that is malformed or inconsistent (cards not conserved, seats out of range…), and its subclass
        :class:`~bot.engine.errors.SnapshotTooNew` for a snapshot newer than this code."""
        return snapshot.load(cls, data)


# Older names, kept for callers (tests, benchmarks).
_tables = tables_for
_deck_for = deck_for
SNAPSHOT_VERSION = snapshot.SNAPSHOT_VERSION


#: The engine's actions (:meth:`Game.apply` takes exactly these types).
_ACTION_TYPES: Final = frozenset(ACTION_TYPES)
