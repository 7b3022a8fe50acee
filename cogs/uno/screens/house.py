"""The house rules of SPEC H in Discord: how the lobby and ``/uno rules`` name them, the **Jump in!** control, and
the private notes a hand shows after a draw to match or a hand swap.

- :func:`option_lines` / :func:`rules_lines`: the house rules in force, one line each (lobby) or explained
  (``/uno rules`` for the table's own options), from the option table (:mod:`cogs.uno.screens.rule_lines`).
- :func:`jump_fingerprint` / :func:`jump_cards`: a jump-in button names a card by its place in the hand and carries
  a fingerprint of the hand and the top of the discard pile only, so a click made on the same top is still that card
  when it arrives, and a click that lost the race (the top changed) is answered "too late" (SPEC H ``jump_in``).
- :func:`action_note`: what the player's own hand says after their action (the cards drawn to match, the hand
  received by a 7 or a 0); :func:`received_note` for the others' hands after a 7 or a 0.
- :class:`JumpWatch`: whose open hands to bring up to date after a change so that a **Jump in!** control is shown
  at once, and only while it can be used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

from bot.engine.actions import Play, PlayMany
from bot.engine.cards import Kind, swaps_hands
from bot.engine.events import CardsDrawn, CardsReceived, Event, HandReceived
from bot.engine.options import Options
from bot.engine.rules import DEFLECTS
from bot.engine.view import HandCard, Phase, PlayerView
from bot.i18n import t, tn

from .rule_lines import house_explanations, house_lines, stack_kinds
from .text import card_name, short_card

#: The house rules in force, one line each (lobby), and explained (``/uno rules``): derived from the option table
#: (:mod:`cogs.uno.screens.rule_lines`).
option_lines = house_lines
rules_lines = house_explanations


# --------------------------------------------------------------------------------------------------------------------
# Jump in (SPEC H jump_in)


def jump_fingerprint(view: PlayerView) -> str:
    """What a jump-in click depends on: the player's own hand (the card is named by its place in it), the top of the
    discard pile, the side and the round. Anything else may change (the current player drawing, an UNO call) without
    making the jump a different one."""
    parts = (tuple(c.id for c in view.hand), view.discard_pile_size, view.top, view.side.value, view.round)
    return hashlib.blake2b(repr(parts).encode(), digest_size=4).hexdigest()


def jump_cards(view: PlayerView) -> list[tuple[int, HandCard]]:
    """The cards the viewer may jump in with now, with their place in ``view.hand`` (SPEC H ``jump_in``); none while
    it is the viewer's own turn (then they simply play)."""
    if not view.jump_ins or view.pending == view.me:
        return []
    ids = {c.id for c in view.jump_ins}
    return [(i, c) for i, c in enumerate(view.hand) if c.id in ids]


def stuck_last_card(view: PlayerView) -> HandCard | None:
    """House rule ``number_finish`` (SPEC H6): the viewer's last card when it is theirs to play and, not being a number,
    may not be played (then they draw); else None."""
    if "number_finish" not in view.house_rules or len(view.hand) != 1 or view.pending != view.me:
        return None
    last = view.hand[0]
    return last if view.phase is Phase.PLAY and last.face.kind is not Kind.NUMBER else None


def deflects(view: PlayerView) -> bool:
    """House rule ``stack_deflect`` (SPEC H7): the viewer owes a pending stack and holds a Reverse or Skip that may
    send it on (one of their legal plays)."""
    if "stack_deflect" not in view.house_rules or view.phase is not Phase.STACK or view.pending != view.me:
        return False
    faces = {c.id: c.face for c in view.hand}
    return any(isinstance(a, Play) and faces[a.card].kind in DEFLECTS for a in view.legal[: view.legal.plays])


def many_label(play: PlayMany, view: PlayerView, lang: str) -> str:
    """A line of the hand's "Play several" list (house rule ``multi_play``, SPEC H8): the cards in the order they go
    down and the one left on top ("Red 5 + Blue 5 + Green 5 · Green 5 on top", "… · UNO!"); a label shows no custom
    emoji, so never a card emoji's markup (issue 18 point 1)."""
    faces = {c.id: c.face for c in view.hand}
    names = [short_card(faces[c]) for c in play.cards]
    label = t(
        "hand.option_many", lang, cards=" + ".join(names), card=card_name(faces[play.cards[-1]], lang, custom=False)
    )
    return (t("hand.option_uno", lang, card=label) if play.uno else label)[:100]


def needs_target(view: PlayerView, card: HandCard) -> bool:
    """A 7 under house rule ``seven_zero`` names the player to swap hands with (SPEC H)."""
    return "seven_zero" in view.house_rules and swaps_hands(card.face)


class JumpWatch:
    """Remembers, per channel, the seats that could jump in after the last change: their hands show (or may show) a
    **Jump in!** control. After each change the hands to bring up to date are those seats and the seats that can
    jump in now (:meth:`changed`)."""

    def __init__(self) -> None:
        self._seats: dict[int, frozenset[int]] = {}

    def changed(self, channel_id: int, views: Sequence[PlayerView | None]) -> list[int]:
        """The seats whose open hand to refresh after a change whose committed seat ``views`` are given (None: a
        seat without a view); remembers who can jump in now."""
        now = frozenset(seat for seat, v in enumerate(views) if v is not None and jump_cards(v))
        before = self._seats.get(channel_id, frozenset())
        if now:
            self._seats[channel_id] = now
        else:
            self._seats.pop(channel_id, None)
        return sorted(now | before)

    def forget(self, channel_id: int) -> None:
        self._seats.pop(channel_id, None)


# --------------------------------------------------------------------------------------------------------------------
# Private notes


def received_note(events: Iterable[Event], seat: int, name: Callable[[int], str], lang: str) -> str | None:
    """``seat``'s private note after a 7 or a 0 (SPEC H ``seven_zero``): whose hand they now hold, None if none."""
    for e in events:
        if isinstance(e, HandReceived) and e.to == seat:
            return tn("hand.received", len(e.faces), lang, player=name(e.giver))
    return None


def action_note(
    events: Sequence[Event], seat: int, options: Options, name: Callable[[int], str], lang: str
) -> str | None:
    """What ``seat``'s own hand says after their action: the hand they received (SPEC H ``seven_zero``), or with
    ``draw_to_match`` how many cards they drew to find a playable one (SPEC H). None when there is nothing to say."""
    received = received_note(events, seat, name, lang)
    if received is not None:
        return received
    if not options.draw_to_match:
        return None
    drawn = next((e for e in events if isinstance(e, CardsDrawn) and e.player == seat and e.reason == "draw"), None)
    if drawn is None:
        return None
    got = next((e for e in events if isinstance(e, CardsReceived) and e.to == seat), None)
    if got is None or not got.faces:
        return t("hand.drew_none", lang)
    return tn("hand.drew_to_match", drawn.count, lang)


__all__ = [
    "JumpWatch",
    "action_note",
    "jump_cards",
    "jump_fingerprint",
    "needs_target",
    "option_lines",
    "received_note",
    "rules_lines",
    "stack_kinds",
]
