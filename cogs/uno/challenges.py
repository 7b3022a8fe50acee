"""What the challenger of a wild draw sees besides the challenged hand: the verdict and the colour that was in play
when the card was played (SPEC G7: the card was legal only if its player held no card of that colour).

The engine shows the challenger the challenged hand (``PlayerView.revealed``); the verdict is a public event
(:class:`~bot.engine.events.ChallengeResolved`) and the colour in play before the wild draw is no longer in any view
once the card is on the discard pile. :class:`Verdicts` follows the committed updates of every session to keep both
for the challenger's hand (:func:`verdict_for`). It lives in memory: after a restart the hand still shows the
challenged cards, without the verdict lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapter import Update, UpdateKind
from bot.engine.cards import Colour
from bot.engine.events import ChallengeResolved
from bot.engine.view import Phase, PlayerView


@dataclass(frozen=True, slots=True)
class Verdict:
    """A resolved challenge: ``challenger`` challenged ``player``'s wild draw; ``guilty`` or not; ``penalised`` drew
    ``count`` cards; ``colour``: the colour in play when the wild draw was played (None when not known)."""

    challenger: int
    player: int
    guilty: bool
    penalised: int
    count: int
    colour: Colour | None


def _committed_public_view(update: Update) -> PlayerView | None:
    """The public view as of ``update``'s commit (None in the lobby)."""
    return update.view.public


class Verdicts:
    """Follows committed updates (``await verdicts.on_update(update)``, subscribed before the publisher, so every
    hand drawn for an update already knows its verdict). Keys are ``(channel id, session seed)``: a new game in the
    channel starts afresh."""

    def __init__(self) -> None:
        self._colour: dict[tuple[int, int], Colour | None] = {}  # colour in play as of the last update
        self._before: dict[tuple[int, int], Colour | None] = {}  # while a challenge is pending: the colour before it
        self._verdicts: dict[tuple[int, int], Verdict] = {}
        self._version: dict[tuple[int, int], int] = {}

    async def on_update(self, update: Update) -> None:
        self.record(update)

    def record(self, update: Update) -> None:
        """Take in ``update`` (once: an update seen before, or older than one seen, is ignored)."""
        session = update.view
        key = (session.channel_id, session.seed)
        if update.version <= self._version.get(key, -1):
            return
        self._version[key] = update.version
        if update.kind is UpdateKind.CLOSED:
            self.forget(key)
            return
        for event in update.events:
            if isinstance(event, ChallengeResolved):
                colour = self._before.pop(key, None)
                self._verdicts[key] = Verdict(
                    event.challenger, event.player, event.guilty, event.penalised, event.count, colour
                )
        view = _committed_public_view(update)
        if view is None:
            self._colour[key] = None  # not known for sure: better no colour than a wrong one
            return
        if view.phase is Phase.CHALLENGE:
            self._before.setdefault(key, self._colour.get(key))
        else:
            self._before.pop(key, None)
        self._colour[key] = view.colour_in_play

    def forget(self, key: tuple[int, int]) -> None:
        for table in (self._colour, self._before, self._verdicts, self._version):
            table.pop(key, None)

    def verdict_for(self, channel_id: int, seed: int, view: PlayerView) -> Verdict | None:
        """The verdict of the challenge whose hand ``view`` (the challenger's own) reveals, if known."""
        if view.revealed is None or view.me is None:
            return None
        verdict = self._verdicts.get((channel_id, seed))
        if verdict is None or verdict.challenger != view.me or verdict.player != view.revealed[0]:
            return None
        return verdict


#: The one registry of the bot process (the screens read it when they draw a challenger's hand).
VERDICTS = Verdicts()


def verdict_for(channel_id: int, seed: int, view: PlayerView) -> Verdict | None:
    return VERDICTS.verdict_for(channel_id, seed, view)


__all__ = ["VERDICTS", "Verdict", "Verdicts", "verdict_for"]
