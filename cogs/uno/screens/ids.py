"""custom_id formats of every persistent component, and the fingerprints that make stale clicks harmless.

All ids start with ``uno:`` and stay far below Discord's 100 characters. They carry no card identity: a hand control
names a *play option* by its index in the player's current list of plays, checked against a fingerprint of what the
player saw, so a click on an out-of-date message is refused instead of doing something else (DESIGN "Discord layer").

- Lobby: ``uno:l:<verb>:<channel>`` (join, leave, ai, ai_easy, ai_hard, start, cancel, rules: ``ai`` adds a
  *Normal* AI seat, as it did before AI levels, so older lobby messages keep working), and
  ``uno:l:partners:<channel>:<fp>``: **Change partners** (SPEC T1), with the fingerprint of the lobby it was shown
  on (:func:`lobby_fingerprint`), so that a click on an older lobby message, or the second click of a double click,
  is refused instead of changing the partners again; the id of before (no ``:<fp>``) is refused the same way.
- The lobby's rule panel (issue 18 point 3): ``uno:r:<verb>:<channel>:<arg>`` (selects: preset, flags, pick, set;
  ``arg``: the option a ``set`` select changes).
- The server's default rules (the rule panel opened from ``/uno settings``): ``uno:sd:open:<guild>`` (its button),
  ``uno:sd:<verb>:<guild>:<arg>`` (its selects, as the lobby panel's).
- Table: ``uno:t:<verb>:<channel>`` (hand, uno, catch, next, again).
- Table decisions for one player: ``uno:d:<verb>:<channel>:<fp>:<arg>`` (challenge, accept, colour).
- Hand buttons: ``uno:h:<verb>:<channel>:<fp>:<arg>`` (draw, keep, uno, refresh, page, colour, back, challenge,
  accept, declare, jump); hand selects: ``uno:hs:<verb>:<channel>:<fp>:<arg>`` (play, target, jump, many: several
  cards of one number at once under house rule ``multi_play``, SPEC H8, by their place in :func:`many_options`). A
  jump-in (SPEC H) names a card by its place in the hand, with the fingerprint
  :func:`cogs.uno.screens.house.jump_fingerprint`.
- Leaderboard pages: ``uno:lb:<guild or 0>:<mode or all>:<page>:<p|n>``, by rating ``…:<p|n>:r``.
- Season board pages (issue 19 point 4): ``uno:ls:<guild or 0>:<mode or all>:<season>:<page>:<p|n>`` (``season``
  a key such as ``2026-12``, ``2026-W49``, ``2026-Q4``).
- History pages (issue 19 point 2): ``uno:hi:<user>:<guild or 0>:<page>:<p|n>``; its recap select
  ``uno:hr:<user>:<page>`` (the value is a match key); a match's recap button: ``uno:rc:<match key>`` (the match key is
  ``<channel>:<start in ms>:<seed>``, :attr:`bot.adapter.session.Session.match_key`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.actions import Play, PlayMany
from bot.engine.cards import Face, hand_sort_key
from bot.engine.view import HandCard, PlayerView

if TYPE_CHECKING:
    from bot.adapter import SessionView

LOBBY_VERBS = ("join", "leave", "ai", "ai_easy", "ai_hard", "start", "cancel", "rules", "partners")
RULES_VERBS = ("preset", "flags", "pick", "set")
DEFAULTS_VERBS = RULES_VERBS
TABLE_VERBS = ("hand", "uno", "catch", "next", "again")
DECISION_VERBS = ("challenge", "accept", "colour")
HAND_VERBS = ("draw", "keep", "uno", "refresh", "page", "colour", "back", "challenge", "accept", "declare", "jump")
HAND_SELECT_VERBS = ("play", "target", "jump", "many")

_CH = r"(?P<channel>[0-9]{1,20})"
_TAIL = r"(?P<fp>[0-9a-f]{8}):(?P<arg>[a-z0-9.]{0,24})"
LOBBY_RE = rf"uno:l:(?P<verb>{'|'.join(LOBBY_VERBS)}):{_CH}(?::(?P<fp>[0-9a-f]{{8}}))?"
TABLE_RE = rf"uno:t:(?P<verb>{'|'.join(TABLE_VERBS)}):{_CH}"
DECISION_RE = rf"uno:d:(?P<verb>{'|'.join(DECISION_VERBS)}):{_CH}:{_TAIL}"
HAND_RE = rf"uno:h:(?P<verb>{'|'.join(HAND_VERBS)}):{_CH}:{_TAIL}"
HAND_SELECT_RE = rf"uno:hs:(?P<verb>{'|'.join(HAND_SELECT_VERBS)}):{_CH}:{_TAIL}"
RULES_RE = rf"uno:r:(?P<verb>{'|'.join(RULES_VERBS)}):{_CH}:(?P<arg>[a-z_]{{0,40}})"
DEFAULTS_OPEN_RE = r"uno:sd:open:(?P<guild>[0-9]{1,20})"
DEFAULTS_RE = rf"uno:sd:(?P<verb>{'|'.join(DEFAULTS_VERBS)}):(?P<guild>[0-9]{{1,20}}):(?P<arg>[a-z_]{{0,40}})"
LEADERBOARD_RE = (
    r"uno:lb:(?P<guild>[0-9]{1,20}):(?P<mode>all|classic|flip|flex):(?P<page>[0-9]{1,4}):(?P<dir>[pn])"
    r"(?::(?P<order>r))?"  # by rating (issue 19 point 3); the ids of before end at the direction
)
SEASON_BOARD_RE = (
    r"uno:ls:(?P<guild>[0-9]{1,20}):(?P<mode>all|classic|flip|flex):(?P<season>[0-9]{4}-(?:W[0-9]{2}|Q[1-4]|[0-9]{2})):"
    r"(?P<page>[0-9]{1,4}):(?P<dir>[pn])"
)

HISTORY_RE = r"uno:hi:(?P<user>[0-9]{1,20}):(?P<guild>[0-9]{1,20}):(?P<page>[0-9]{1,5}):(?P<dir>[pn])"
HISTORY_RECAP_RE = r"uno:hr:(?P<user>[0-9]{1,20}):(?P<page>[0-9]{1,5})"
MATCH_KEY_RE = r"[0-9]{1,20}:[0-9]{1,16}:[0-9]{1,20}"
RECAP_RE = rf"uno:rc:(?P<key>{MATCH_KEY_RE})"


def lobby_id(verb: str, channel: int, fp: str | None = None) -> str:
    """A lobby button; ``fp``: the lobby's :func:`lobby_fingerprint` (the ``partners`` button carries it)."""
    return f"uno:l:{verb}:{channel}" + (f":{fp}" if fp is not None else "")


def rules_id(verb: str, channel: int, arg: str = "") -> str:
    return f"uno:r:{verb}:{channel}:{arg}"


def defaults_id(verb: str, guild: int, arg: str = "") -> str:
    """A component of the server's default-rules panel: ``open`` (the button of ``/uno settings``) or a select."""
    return f"uno:sd:open:{guild}" if verb == "open" else f"uno:sd:{verb}:{guild}:{arg}"


def table_id(verb: str, channel: int) -> str:
    return f"uno:t:{verb}:{channel}"


def decision_id(verb: str, channel: int, fp: str, arg: str = "") -> str:
    return f"uno:d:{verb}:{channel}:{fp}:{arg}"


def hand_id(verb: str, channel: int, fp: str, arg: str = "") -> str:
    return f"uno:h:{verb}:{channel}:{fp}:{arg}"


def hand_select_id(verb: str, channel: int, fp: str, arg: str = "") -> str:
    return f"uno:hs:{verb}:{channel}:{fp}:{arg}"


def season_board_id(guild: int | None, mode: str | None, season: str, page: int, direction: str) -> str:
    """A page button of season ``season``'s board (``None``: all servers / all games)."""
    return f"uno:ls:{guild or 0}:{mode or 'all'}:{season}:{page}:{direction}"


def leaderboard_id(guild: int | None, mode: str | None, page: int, direction: str, order: str = "wins") -> str:
    """``direction``: ``p`` (previous-page button) or ``n`` (next), so the two buttons never share an id; ``order``
    ``wins`` (the ids of before issue 19, which keep working) or ``rating`` (``:r``)."""
    return f"uno:lb:{guild or 0}:{mode or 'all'}:{page}:{direction}" + (":r" if order == "rating" else "")


def history_id(user: int, guild: int | None, page: int, direction: str) -> str:
    return f"uno:hi:{user}:{guild or 0}:{page}:{direction}"


def history_recap_id(user: int, page: int) -> str:
    return f"uno:hr:{user}:{page}"


def recap_id(match_key: str) -> str:
    return f"uno:rc:{match_key}"


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=4).hexdigest()


def lobby_fingerprint(session: SessionView) -> str:
    """What a lobby message showed: its session (``created_at``) at its change counter (``version``, which every
    committed change of the lobby moves on). 8 hex digits."""
    return _digest("lobby", session.created_at, session.version)


def hand_fingerprint(view: PlayerView) -> str:
    """What a player's hand controls depend on: their hand, the decision pending, the top card and colour, the side
    and their Power Card. UNO calls and catches by others do not change it."""
    me = view.me
    return _digest(
        tuple(c.id for c in view.hand),
        view.phase.value,
        view.pending,
        view.discard_pile_size,
        view.top,
        view.declared_colour,
        view.side.value,
        view.power[me] if view.power is not None and me is not None else None,
        view.drawn.id if view.drawn is not None else None,
        view.round,
        tuple(view.active),
    )


def decision_fingerprint(view: PlayerView) -> str:
    """What a table decision (challenge, accept, declare a colour) depends on."""
    return _digest(view.phase.value, view.pending, view.discard_pile_size, view.top, view.round, view.side.value)


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One entry of the hand's "Play a card" list: a card, on its flex side or not, with or without UNO. Wilds and
    targeted cards then ask for a colour / a target."""

    card: int
    flex: bool
    uno: bool
    wild: bool
    targeted: bool


def sorted_hand(view: PlayerView) -> list[HandCard]:
    """The viewer's hand in the order every screen shows it, image and text alike (colour, then value:
    :func:`bot.engine.cards.hand_sort_key` of the face on the side in play)."""
    return sorted(view.hand, key=lambda c: hand_sort_key(c.face))


def play_options(view: PlayerView) -> list[PlayOption]:
    """The distinct plays in ``view.legal`` (colour and target variants folded together, and two cards with the
    same face listed once: the player cannot tell them apart, SPEC F10), in the order of :func:`sorted_hand`, each
    card's plays in their legal order."""
    faces = {c.id: c.face for c in view.hand}
    seen: dict[tuple[Face | None, bool, bool], PlayOption] = {}
    for a in view.legal:
        if isinstance(a, Play):
            key = (faces.get(a.card), a.flex, a.uno)
            option = seen.get(key)
            if option is None:
                seen[key] = PlayOption(a.card, a.flex, a.uno, a.colour is not None, a.target is not None)
    position = {c.id: i for i, c in enumerate(sorted_hand(view))}
    return sorted(seen.values(), key=lambda o: position.get(o.card, len(position)))


#: The most entries of the hand's "Play several" list: one select (Discord allows 25 options).
MANY_LIMIT = 25


def many_options(view: PlayerView) -> list[PlayMany]:
    """House rule ``multi_play`` (SPEC H8): the plays of several cards at once in ``view.legal``, as the engine lists
    them (one per number and face left on top, with UNO when one card is left), two listing the same faces in the
    same order folded into one (SPEC F10: the player cannot tell identical cards apart), at most
    :data:`MANY_LIMIT`."""
    faces = {c.id: c.face for c in view.hand}
    seen: dict[tuple[tuple[Face | None, ...], bool], PlayMany] = {}
    for a in view.legal:
        if isinstance(a, PlayMany):
            seen.setdefault((tuple(faces.get(c) for c in a.cards), a.uno), a)
    return list(seen.values())[:MANY_LIMIT]
