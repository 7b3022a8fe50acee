"""What a session keeps of its match's challenges (SPEC G7, issue 17 point 3): the verdict of the last challenge of a
wild draw, for the challenger's hand, which shows it beside the challenged cards.

Every fact comes from the engine's events, as :meth:`bot.adapter.session.Session.apply` receives them: the colour a
challengeable wild draw was played on (:attr:`bot.engine.events.CardPlayed.judged`) and the verdict
(:class:`~bot.engine.events.ChallengeResolved`). They are saved with the session snapshot (since v7), so a restart
loses none of them, and the Discord layer reads the verdict from the committed
:class:`~bot.adapter.session_view.SessionView` (``verdict``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Colour
from bot.engine.events import CardPlayed, ChallengeResolved, Event, PenaltyAccepted


def _colour(value: Any) -> Colour | None:
    return None if value is None else Colour(value)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A resolved challenge: ``challenger`` challenged ``player``'s wild draw; ``guilty`` or not; ``penalised`` drew
    ``count`` cards; ``colour``: the colour in play the card was played on, which its player must not have held (None
    when the card was played before the session kept it: session format v6 and older)."""

    challenger: int
    player: int
    guilty: bool
    penalised: int
    count: int
    colour: Colour | None

    def to_dict(self) -> dict[str, Any]:
        """The snapshot form: every field by its name (the colour by its value)."""
        return {
            "challenger": self.challenger,
            "player": self.player,
            "guilty": self.guilty,
            "penalised": self.penalised,
            "count": self.count,
            "colour": None if self.colour is None else self.colour.value,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Verdict:
        """Read the snapshot form. Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a malformed one."""
        return cls(
            int(d["challenger"]),
            int(d["player"]),
            bool(d["guilty"]),
            int(d["penalised"]),
            int(d["count"]),
            _colour(d["colour"]),
        )


@dataclass(frozen=True, slots=True)
class Challenges:
    """A session's challenge facts: ``judged``, the colour in play the challengeable wild draw just played was played
    on (kept until it is challenged or accepted, which may come after a restart, or another card is played);
    ``verdict``, the last challenge resolved (None before the first)."""

    judged: Colour | None = None
    verdict: Verdict | None = None

    def after(self, events: Iterable[Event]) -> Challenges:
        """These facts once ``events`` (of one applied action, in order) happened."""
        judged, verdict = self.judged, self.verdict
        for event in events:
            if type(event) is CardPlayed:  # a card played after a wild draw leaves nothing of it to challenge
                judged = event.judged
            elif type(event) is ChallengeResolved:
                verdict = Verdict(event.challenger, event.player, event.guilty, event.penalised, event.count, judged)
                judged = None
            elif type(event) is PenaltyAccepted:  # the draw was accepted: nothing is left to judge
                judged = None
        if judged is self.judged and verdict is self.verdict:
            return self
        return Challenges(judged, verdict)

    def to_dict(self) -> dict[str, Any]:
        """The snapshot form: ``{"judged": colour value or None, "verdict": Verdict.to_dict() or None}``."""
        return {
            "judged": None if self.judged is None else self.judged.value,
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Challenges:
        """Read the snapshot form. Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a malformed one."""
        verdict = d["verdict"]
        return cls(_colour(d["judged"]), None if verdict is None else Verdict.from_dict(verdict))


__all__ = ["Challenges", "Verdict"]
