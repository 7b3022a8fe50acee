"""Typed errors raised by the engine. Every one is a ``ValueError``; when one is raised the game is unchanged.

``code`` is a stable identifier the bot maps to a translated message (``error.<code>``); ``str(err)`` is an English
explanation for logs and tests.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Base class: an action refused by the rules (SPEC G4 ruling: a refused action changes nothing)."""

    code = "rule"


class NotSeated(RuleError):
    """The player is not (or no longer) seated in this match."""

    code = "not_seated"


class NotYourTurn(RuleError):
    """Someone else's turn (SPEC G4)."""

    code = "not_your_turn"


class NotYourDecision(RuleError):
    """A pending decision (challenge, colour) belongs to another player (SPEC G7, F8)."""

    code = "not_your_decision"


class WrongPhase(RuleError):
    """The action does not fit the pending decision (e.g. drawing while a challenge is pending, SPEC G7 ruling)."""

    code = "wrong_phase"


class MatchOver(WrongPhase):
    """The match has ended."""

    code = "match_over"


class CardNotInHand(RuleError):
    """The card is not in the player's hand."""

    code = "card_not_in_hand"


class CardNotPlayable(RuleError):
    """The card does not match the discard pile (SPEC G3), or is a blocked wild draw (SPEC G7 option)."""

    code = "card_not_playable"


class OnlyDrawnCard(CardNotPlayable):
    """After drawing, only the drawn card may be played (SPEC G4, C4, X6)."""

    code = "only_drawn_card"


class FlexSideUnavailable(RuleError):
    """The flex side needs a green Power Card and a card with a flex side (SPEC X3, X4)."""

    code = "flex_side_unavailable"


class ColourRequired(RuleError):
    """A wild must be played with its declared colour (SPEC G4 ruling)."""

    code = "colour_required"


class ColourNotOfThisSide(RuleError):
    """The declared colour is not one of the side in play (SPEC F5, F6)."""

    code = "colour_not_of_this_side"


class ColourNotAllowed(RuleError):
    """Only wilds take a declared colour."""

    code = "colour_not_allowed"


class TargetRequired(RuleError):
    """A targeted Flex card needs its target with the play (SPEC G4 ruling, X5)."""

    code = "target_required"


class TargetNotAllowed(RuleError):
    """This play takes no target."""

    code = "target_not_allowed"


class TargetYourself(RuleError):
    """You cannot target yourself (SPEC X5 ruling)."""

    code = "target_yourself"


class InvalidTarget(RuleError):
    """The target is not a seated player."""

    code = "invalid_target"


class UnoNotAllowed(RuleError):
    """UNO is called with the next-to-last card or while holding exactly one card (SPEC G8)."""

    code = "uno_not_allowed"


class TooLate(NotYourTurn):
    """House rule ``jump_in`` (SPEC H): someone else jumped in (or played) first; the card no longer matches."""

    code = "too_late"


class MustPlay(RuleError):
    """House rule ``force_play`` (SPEC H): holding a playable card, you must play it."""

    code = "must_play"


class LastCardNotNumber(CardNotPlayable):
    """House rule ``number_finish`` (SPEC H6): a last card that is an action card or a wild cannot be played."""

    code = "last_card_not_number"


class NotSameNumber(CardNotPlayable):
    """House rule ``multi_play`` (SPEC H8): cards played together must be two or more numbers of the same number (with
    ``seven_zero``, not 7s or 0s)."""

    code = "not_same_number"


class CatchYourself(RuleError):
    """Nobody can catch themselves (SPEC G8)."""

    code = "catch_yourself"


class UnknownAction(RuleError):
    """Not an action of this engine."""

    code = "unknown_action"


class SnapshotError(ValueError):
    """A saved game that cannot be loaded: unknown version, missing or inconsistent fields."""

    code = "snapshot"


class SnapshotTooNew(SnapshotError):
    """A snapshot written by a newer release than this code: it cannot be read here and must be kept (quarantined,
    never deleted). Never shown to a player: its ``code`` stays ``"snapshot"``."""
