"""Cards, events and statuses as text, in the reader's language (every string comes from :mod:`bot.i18n`).

Every card carries its colour emoji and its colour-blind mark (▲… for the light colours, ●… for the FLIP dark colours),
so text-only mode is fully playable.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

import discord

from bot.card_emojis import CARD_EMOJIS
from bot.engine.cards import Colour, Face, Kind
from bot.engine.events import (
    CardKept,
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    ChallengeResolved,
    ColourDeclared,
    DealerChosen,
    DirectionChanged,
    Event,
    FalseCatch,
    Flipped,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    JumpedIn,
    MatchAbandoned,
    MatchEnded,
    OpeningCard,
    PenaltyAccepted,
    PlayerEliminated,
    PlayerRemoved,
    PowerCardsChanged,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    StackPending,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
)
from bot.i18n import t, tn
from bot.render import colour_emoji, colour_mark
from bot.storage import LeaderboardRow

WILD_EMOJI = "🌈"
#: What a turn timer can do for a player (:func:`timeout_outcome`); texts ``ev.timeout.*`` and ``hand.timeout.*``
#: (``drew_many`` has plural forms: house rule draw to match).
TIMEOUT_OUTCOMES = ("drew", "drew_many", "kept", "accepted", "declared", "played")


#: Put after every ``<`` of a name: Discord then reads no markup there (mentions, channels, commands, timestamps,
#: custom emoji) and shows the name as typed; the character itself is invisible.
ZERO_WIDTH = "\u200b"


def shown_name(name: str) -> str:
    """A name a user chose (nickname, display name), as it goes into any message text: escaped for markdown
    (``discord.utils.escape_markdown``) and for mentions (``discord.utils.escape_mentions``: ``@everyone``, ``@here``,
    ``<@id>``, ``<@&id>``), and every ``<`` followed by :data:`ZERO_WIDTH` so no other ``<…>`` markup (``<#id>``,
    ``</cmd:id>``, ``<t:…>``, ``<:emoji:id>``) is read either. A nickname ``<@123…>`` shows as typed, never as an
    @-chip of another user (issue 20, point 8). The one place names are escaped: lobby, table, moves log, summaries,
    leaderboards, stats and link lines all go through it."""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    return text.replace("<", "<" + ZERO_WIDTH)


def board_lines(rows: Iterable[LeaderboardRow], lang: str) -> list[str]:
    """One line per row of a board by wins (all time or a season): rank, name, wins, matches, win rate in %, rounds
    and points, in ``lang``."""
    return [
        t(
            "lb.row",
            lang,
            rank=r.rank,
            name=shown_name(r.display_name),
            wins=r.wins,
            played=r.played,
            rate=round(r.win_rate * 100),
            rounds=r.rounds_won,
            points=r.points,
        )
        for r in rows
    ]


#: Letters whose stroke or bar is part of the letter (Unicode gives them no decomposition into a letter and a mark),
#: as a search without accents reads them: Polish Ł, Croatian Đ, Danish Ø, Maltese Ħ, Sami Ŧ (lower case: after
#: case folding).
_STROKES = str.maketrans({"ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ŧ": "t", "ı": "i"})


def folded(text: str) -> str:
    """``text`` for a search: case-folded, accents and other combining marks dropped (Unicode NFKD) and strokes too
    (:data:`_STROKES`), so that "lub" is found in "Ľubomír", "ZOE" in "Zoë" and "lukasz" in "Łukasz" (issue 18 point
    5: ``/uno kick``'s search)."""
    marks = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return marks.casefold().translate(_STROKES)


def colour_name(colour: Colour, lang: str, *, emoji: bool = True) -> str:
    """``"🟥▲ Red"``: emoji, colour-blind mark and the colour's name."""
    name = t(f"colour.{colour.value}", lang)
    return f"{colour_emoji(colour)}{colour_mark(colour)} {name}" if emoji else name


def card_name(face: Face, lang: str, *, emoji: bool = True, flex: bool = True, custom: bool = True) -> str:
    """A face in words, e.g. ``"🟥▲ Red 5"``, ``"🌈 Wild Draw Four"``, ``"🟥▲ Red 3 (flex: 🟦▲▲▲ Blue)"``
    (``flex=False`` leaves out a flex number's flex colour). With ``emoji``, the face's own card emoji
    (``"<:uno_R5_…:id> Red 5"``, issue 18 point 1: :data:`bot.card_emojis.CARD_EMOJIS`) comes first when it has one
    and ``custom`` allows it (not where Discord shows no custom emoji: embed titles, labels), else the colour square
    and colour-blind mark."""
    prefix = ""
    mention = CARD_EMOJIS.mention(face) if emoji and custom else None
    if mention is not None:
        prefix = mention + " "
    elif emoji:
        prefix = WILD_EMOJI + " " if face.colour is None else f"{colour_emoji(face.colour)}{colour_mark(face.colour)} "
    if face.colour is None:
        return prefix + t(f"kind.{face.kind.value}", lang)
    colour = t(f"colour.{face.colour.value}", lang)
    if face.kind is Kind.NUMBER:
        text = t("card.number", lang, colour=colour, number=face.number)
        if face.flex_colour is not None and flex:
            text = t("card.flex_number", lang, card=text, flex=colour_name(face.flex_colour, lang, emoji=emoji))
        elif face.flip_icon:
            text += " 🔄"
        return prefix + text
    return prefix + t("card.action", lang, colour=colour, kind=t(f"kind.{face.kind.value}", lang))


_SHORT = {
    Kind.SKIP: "⊘",
    Kind.REVERSE: "⇄",
    Kind.DRAW_TWO: "+2",
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_FIVE: "+5",
    Kind.FLIP: "↻",
    Kind.SKIP_EVERYONE: "⊘⊘",
    Kind.FLEX_DRAW_TWO: "+2*",
    Kind.FLEX_SKIP: "⊘*",
    Kind.FLEX_REVERSE: "⇄*",
    Kind.WILD: "W",
    Kind.WILD_DRAW_FOUR: "W+4",
    Kind.WILD_SHUFFLE_HANDS: "W⇆",
    Kind.WILD_CUSTOMIZABLE: "W✎",
    Kind.WILD_DRAW_TWO: "W+2",
    Kind.WILD_DRAW_COLOUR: "W+?",
    Kind.WILD_ALL_FLIP: "W↻",
    Kind.FLEX_WILD_DRAW_FOUR: "W+4*",
    Kind.FLEX_WILD_TARGET_DRAW_TWO: "W+2→",
    Kind.FLEX_WILD_ALL_DRAW: "W+2∀",
}


def short_card(face: Face) -> str:
    """A compact face for long lists (the other faces of ten hands must fit one message): ``"🩷●5"``, ``"🌈W+4"``."""
    if face.colour is None:
        return WILD_EMOJI + _SHORT[face.kind]
    symbol = str(face.number) if face.kind is Kind.NUMBER else _SHORT[face.kind]
    return f"{colour_emoji(face.colour)}{colour_mark(face.colour)}{symbol}"


def cards_line(faces: Iterable[Face], lang: str, *, custom: bool = True) -> str:
    """Faces joined with commas (``"—"`` when there are none); ``custom``: as for :func:`card_name`."""
    names = [card_name(f, lang, custom=custom) for f in faces]
    return ", ".join(names) if names else "—"


def within(limit: int, build: Callable[[bool], str]) -> str:
    """``build(True)`` (with the card emojis) if it is at most ``limit`` characters, else ``build(False)`` (the
    Unicode marks, about 30 characters shorter a card) cut to ``limit``: a long list of cards (a summary of ten hands,
    a challenged hand of 30 cards) stays whole instead of losing its end, or an emoji's markup cut in half."""
    text = build(True)
    return text if len(text) <= limit else build(False)[:limit]


def last_lines(lines: Sequence[str], limit: int) -> str:
    """The last of ``lines`` that fit in ``limit`` characters together, joined by newlines (a line longer than the
    limit alone is cut): the log never shows a line, or an emoji's markup, cut at its start."""
    kept: list[str] = []
    size = -1
    for line in reversed(lines):
        if size + 1 + len(line) > limit:
            break
        kept.append(line)
        size += 1 + len(line)
    return "\n".join(reversed(kept)) if kept else (lines[-1][:limit] if lines else "")


def event_lines(
    events: Sequence[Event],
    name: Callable[[int], str],
    lang: str,
    *,
    timed_out: int | None = None,
    next_clock: int | None = None,
    dropped: Mapping[int, int] | None = None,
    kicked: Collection[int] = (),
) -> list[str]:
    """Public log lines for ``events`` (private events are skipped). ``name(seat)`` gives a player's name.
    ``timed_out``: the seat whose turn timer ran out and whose decision the events took by default; one line says
    what the timer did ("Time's up: Alice drew a card and passed") instead of the lines of that default, and, when
    ``next_clock`` (seconds) is given, the seat's shorter clock for its next decision ("(next turn: 30 s)",
    issue 10.4). ``dropped``: seat → the consecutive timeouts after which the turn timer removed it; such a seat's
    removal says so ("Milan was removed from the game after 3 timeouts in a row") instead of "Milan left the game";
    ``kicked``: seats the host or a server manager removed ("Milan was removed from the game", issue 18 point 5)."""
    out: list[str] = []
    skip: set[int] = set()
    if timed_out is not None:
        _, skip_events, _ = timeout_outcome(events, timed_out)
        skip = {id(events[i]) for i in skip_events}
        line = timeout_text(events, timed_out, lang, player=name(timed_out))
        if line is not None:
            if next_clock is not None:
                line += " " + t("ev.next_clock", lang, seconds=next_clock)
            out.append(line)
    for e in _told_in_order(events):
        if id(e) in skip:
            continue
        if isinstance(e, PlayerRemoved) and dropped and e.player in dropped:
            line = tn("ev.removed_timeouts", dropped[e.player], lang, player=name(e.player))
        elif isinstance(e, PlayerRemoved) and e.player in kicked:
            line = t("ev.kicked", lang, player=name(e.player))
        else:
            line = _event_line(e, name, lang)
        if line:
            out.append(line)
    return out


def timeout_text(events: Sequence[Event], seat: int, lang: str, *, player: str | None = None) -> str | None:
    """What the turn timer did for ``seat`` in words: for the public log when ``player`` (the seat's name) is given
    ("⏰ Time's up: Alice drew a card and passed"), else for the seat's own hand ("⏰ Time's up: you drew a card and
    passed."). None when the events show no default (:func:`timeout_outcome`)."""
    key, told, colour = timeout_outcome(events, seat)
    if key is None:
        return None
    params = {} if player is None else {"player": player}
    if colour is not None:
        params["colour"] = colour_name(colour, lang)
    if key == "drew_many":
        n = next(e.count for e in (events[i] for i in told) if isinstance(e, CardsDrawn))
        return tn("ev.timeout.drew_many" if player is not None else "hand.timeout.drew_many", n, lang, **params)
    return t(f"ev.timeout.{key}", lang, **params) if player is not None else t(f"hand.timeout.{key}", lang, **params)


def timeout_outcome(events: Sequence[Event], seat: int) -> tuple[str | None, set[int], Colour | None]:
    """What the turn timer did for ``seat`` (the default of its pending decision,
    :func:`bot.adapter.timers.default_action`), read from the events it caused: ``(key, indexes, colour)`` where
    ``key`` is ``drew`` (drew a card and passed), ``drew_many`` (drew several, house rule draw to match, and passed),
    ``kept`` (kept the drawn card), ``accepted`` (took the wild draw penalty, or a stack: SPEC G7, H), ``declared``
    (declared ``colour``), ``played`` (house rule force play: a card was played for them; the draw before it and the
    play are told by their own lines) or None, and ``indexes`` the events that key already tells."""
    drew = next(
        (i for i, e in enumerate(events) if isinstance(e, CardsDrawn) and e.player == seat and e.reason == "draw"),
        None,
    )
    kept = next((i for i, e in enumerate(events) if isinstance(e, CardKept) and e.player == seat), None)
    accepted = next((i for i, e in enumerate(events) if isinstance(e, PenaltyAccepted) and e.player == seat), None)
    declared = next((i for i, e in enumerate(events) if isinstance(e, ColourDeclared) and e.player == seat), None)
    played = next((i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.player == seat), None)
    if accepted is not None:
        return "accepted", {accepted}, None
    if declared is not None:
        event = events[declared]
        assert isinstance(event, ColourDeclared)
        return "declared", {declared}, event.colour
    if played is not None:
        return "played", set(), None
    if drew is not None:
        drawn = events[drew]
        assert isinstance(drawn, CardsDrawn)
        return "drew" if drawn.count == 1 else "drew_many", {drew} | ({kept} if kept is not None else set()), None
    if kept is not None:
        return "kept", {kept}, None
    return None, set(), None


def _told_in_order(events: Sequence[Event]) -> list[Event]:
    """``events`` in the order a reader follows them: a challenge's verdict before the cards its penalty drew (the
    engine reports the draw first, as it happens: SPEC G7)."""
    out = list(events)
    for i, e in enumerate(out):
        if isinstance(e, ChallengeResolved):
            j = i
            while j > 0 and isinstance(out[j - 1], CardsDrawn | CardsReceived | Reshuffled):
                j -= 1
            out.insert(j, out.pop(i))
    return out


def power_line(power: Sequence[bool], name: Callable[[int], str], lang: str) -> str:
    """Every seat's Power Card, named: ``"Alice 🟢 · Bob 🔴"`` (SPEC X3)."""
    return " · ".join(f"{name(seat)} {'🟢' if green else '🔴'}" for seat, green in enumerate(power))


def _event_line(e: Event, name: Callable[[int], str], lang: str) -> str | None:
    match e:
        case CardPlayed(player=p, face=face, flex=flex, colour=colour, target=target):
            key = "ev.played_flex" if flex else "ev.played"
            line = t(key, lang, player=name(p), card=card_name(face, lang))
            if target is not None:
                line += " " + t("ev.targeting", lang, target=name(target))
            if colour is not None:
                line += " " + t("ev.choosing", lang, colour=colour_name(colour, lang))
            return line
        case CardsDrawn(player=p, count=n, reason=reason):
            if n == 0:
                return t("ev.drew_none", lang, player=name(p))
            if reason in ("uno", "challenge", "false_catch"):
                return None  # said by UnoCaught, ChallengeResolved, FalseCatch ("… draws 6"): once (issue 18 point 5)
            return tn("ev.drew", n, lang, player=name(p))
        case TurnSkipped(player=p):
            return t("ev.skipped", lang, player=name(p))
        case DirectionChanged(direction=d):
            return t("ev.direction_cw" if d == 1 else "ev.direction_ccw", lang)
        case CardKept(player=p):
            return t("ev.kept", lang, player=name(p))
        case Flipped(side=side, top=top):
            return t("ev.flipped", lang, side=t(f"side.{side.value}", lang), card=card_name(top, lang))
        case ColourDeclared(player=p, colour=colour):
            return t("ev.colour_declared", lang, player=name(p), colour=colour_name(colour, lang))
        case PowerCardsChanged(power=power):
            return t("ev.power", lang, states=power_line(power, name, lang))
        case ChallengeResolved(challenger=c, player=p, guilty=guilty, penalised=who, count=n):
            key = "ev.challenge_guilty" if guilty else "ev.challenge_innocent"
            return t(key, lang, challenger=name(c), player=name(p), penalised=name(who), n=n)
        case PenaltyAccepted(player=p):
            return t("ev.accepted", lang, player=name(p))
        case UnoCalled(player=p):
            return t("ev.uno", lang, player=name(p))
        case UnoCaught(catcher=c, target=p):
            return t("ev.caught", lang, catcher=name(c), target=name(p))
        case FalseCatch(catcher=c, target=p, penalty=n):
            return t("ev.false_catch", lang, catcher=name(c), target=name(p), n=n)
        case Reshuffled(count=n):
            return tn("ev.reshuffled", n, lang)
        case HandsShuffled():
            return t("ev.hands_shuffled", lang)
        case DealerChosen(dealer=d):
            return t("ev.dealer", lang, player=name(d))
        case RoundStarted(round=r, dealer=d):
            return t("ev.round_started", lang, round=r, player=name(d))
        case OpeningCard(face=face, returned=returned):
            return t("ev.opening_returned" if returned else "ev.opening", lang, card=card_name(face, lang))
        case RoundEnded(winner=w, points=points):
            return t("ev.round_ended", lang, player=name(w), points=sum(points))
        case MatchEnded(winner=w, scores=scores):
            return t("ev.match_ended", lang, player=name(w), score=scores[w])
        case PlayerRemoved(player=p):
            return t("ev.removed", lang, player=name(p))
        case MatchAbandoned():
            return t("ev.abandoned", lang)
        case PlayerEliminated(player=p, score=n):
            return t("ev.eliminated", lang, player=name(p), n=n)
        case StackPending(player=p, total=n):
            return t("ev.stack", lang, player=name(p), n=n)
        case JumpedIn(player=p):
            return t("ev.jumped_in", lang, player=name(p))
        case HandsSwapped(player=p, target=target):
            return t("ev.hands_swapped", lang, player=name(p), target=name(target))
        case HandsPassed(direction=d):
            return t("ev.hands_passed_cw" if d == 1 else "ev.hands_passed_ccw", lang)
    return None
