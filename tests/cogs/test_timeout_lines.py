"""What the log and the hand say when a turn timer runs out, for every pending decision (issue 10, point 4), with
the seat's shorter next clock (the shrinking timer, :func:`bot.limits.turn_clock`). A real session manager on the
controllable clock writes the log with the publisher's own writer; positions are laid out (SPEC sections named)."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import ManualClock, SessionManager, Update, UpdateKind
from bot.adapter.manager import Limits
from bot.adapter.session import Session
from bot.engine.actions import Draw, Play
from bot.engine.builder import build
from bot.engine.cards import Colour, parse_face
from bot.engine.events import CardKept, CardPlayed, CardsDrawn, ColourDeclared, Event, PenaltyAccepted
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.i18n import LANGUAGES
from bot.storage import Store, open_store
from cogs.uno.output.publisher import log_lines, timeout_note
from cogs.uno.screens import DECISIONS
from cogs.uno.screens.text import TIMEOUT_OUTCOMES, event_lines, timeout_outcome, timeout_text

ALICE, BOB, CAROL = 101, 102, 103
CHANNEL, GUILD = 5000, 9000


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    s = await open_store(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


class Table:
    """A 3-player table (Alice, Bob, Carol) whose log is written by the publisher's writer; ``timeouts`` keeps each
    timeout's update and log lines."""

    def __init__(self, store: Store, turn_timer: int, mode: str, options: Options) -> None:
        self.clock = ManualClock()
        self.m = SessionManager(store, clock=self.clock, limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
        self.turn_timer, self.mode, self.options = turn_timer, mode, options
        self.timeouts: list[tuple[Update, list[str]]] = []
        self._lines: list[list[str]] = []

        def writer(update: Update) -> list[str]:
            lines = log_lines(update)
            if update.kind is UpdateKind.TIMEOUT:
                self._lines.append(lines)
            return lines

        async def record(update: Update) -> None:
            if update.kind is UpdateKind.TIMEOUT:
                self.timeouts.append((update, self._lines[len(self.timeouts)]))

        self.m.set_log_writer(writer)
        self.m.subscribe(record)

    async def start(self) -> Session:
        session = await self.m.open_lobby(
            channel_id=CHANNEL,
            guild_id=GUILD,
            host_id=ALICE,
            host_name="Alice",
            mode=self.mode,
            turn_timer=self.turn_timer,
            options=self.options.to_dict(),
        )
        await self.m.join(CHANNEL, BOB, "Bob")
        await self.m.join(CHANNEL, CAROL, "Carol")
        await self.m.start_game(CHANNEL, ALICE)
        return session

    async def time_out(self, session: Session) -> tuple[Update, list[str]]:
        assert session.deadline is not None
        self.clock.advance(session.deadline - self.clock.now() + 0.5)
        await self.m.idle()
        return self.timeouts[-1]


def play(game: Any, seat: int, card: str) -> Any:
    """``seat``'s legal play of the card named ``card`` (its first, for a wild)."""
    return next(a for a in game.legal_actions(seat) if isinstance(a, Play) and str(game.faces[a.card]) == card)


#: name: (SPEC, mode, options, hands, discard, draw, current, first action by ``current`` ("draw" or a card), the
#: phase the seat timing out is then in, the seat timing out, the first log line, more lines expected after it)
CASES: dict[str, tuple[Any, ...]] = {
    "play": (
        "G4",
        "classic",
        Options(),
        ["B1 G1", "Y1 Y2", "R6 Y3"],
        "R5",
        "B2 B3",
        2,
        "R6",
        Phase.PLAY,
        0,
        "⏰ Time's up: Alice drew a card and passed (next turn: 30 s)",
        [],
    ),
    "play_drawn": (
        "G4",
        "classic",
        Options(),
        ["B1 G1", "Y1 Y2", "Y3 Y4"],
        "R5",
        "R7 B3",
        0,
        "draw",
        Phase.PLAY_DRAWN,
        0,
        "⏰ Time's up: Alice kept the drawn card and passed (next turn: 30 s)",
        [],
    ),
    "declare_colour": (
        "F8",
        "flip",
        Options(),
        ["BF|U6 B3 B4", "G7 G8", "Y1 Y2"],
        "BR|W",
        "",
        0,
        "BF",
        Phase.DECLARE_COLOUR,
        1,
        "⏰ Time's up: Bob declared ",
        [],
    ),
    "challenge": (
        "G7",
        "classic",
        Options(),
        ["W+4 B1 B2", "G7 G8", "Y1 Y2"],
        "R5",
        "",
        0,
        "W+4",
        Phase.CHALLENGE,
        1,
        "⏰ Time's up: Bob accepted the penalty (next turn: 30 s)",
        ["Bob drew 4 cards", "Bob loses their turn"],
    ),
    "stack": (
        "H",
        "classic",
        Options(stacking="same_kind"),
        ["R+2 B1 B2", "G+2 G8", "Y1 Y2"],
        "R5",
        "",
        0,
        "R+2",
        Phase.STACK,
        1,
        "⏰ Time's up: Bob accepted the penalty (next turn: 30 s)",
        ["Bob drew 2 cards", "Bob loses their turn"],
    ),
    "force_play": (
        "H",
        "classic",
        Options(force_play=True),
        ["W G1 B5", "Y1 Y2", "R6 Y3"],
        "R5",
        "",
        2,
        "R6",
        Phase.PLAY,
        0,
        "⏰ Time's up: a card was played for Alice (next turn: 30 s)",
        ["Alice played 🌈 Wild and chose "],
    ),
    "force_play_drawn": (
        "H",
        "classic",
        Options(force_play=True),
        ["B1 G1", "Y1 Y2", "R6 Y3"],
        "R5",
        "R7 B3",
        2,
        "R6",
        Phase.PLAY,
        0,
        "⏰ Time's up: a card was played for Alice (next turn: 30 s)",
        ["Alice drew 1 card", "Alice played 🟥▲▲▲▲ Red 7"],
    ),
    "draw_to_match": (
        "H",
        "classic",
        Options(draw_to_match=True),
        ["B1 G1", "Y1 Y2", "R6 Y3"],
        "R5",
        "B2 G3 R7 B3",
        2,
        "R6",
        Phase.PLAY,
        0,
        "⏰ Time's up: Alice drew 3 cards and passed (next turn: 30 s)",
        [],
    ),
}


@pytest.mark.parametrize("name", CASES)
async def test_issue_10_4_each_pending_decisions_timeout_has_a_time_is_up_line_with_the_next_clock(
    store: Store, name: str
) -> None:
    spec, mode, options, hands, discard, draw, current, first, phase, seat, line, more = CASES[name]
    table = Table(store, 60, mode, options)
    session = await table.start()
    session.game = game = build(mode, hands, discard, draw, current=current, options=options)
    user = session.seats[current].user_id
    assert user is not None
    action = Draw(current) if first == "draw" else play(game, current, first)
    await table.m.act(CHANNEL, user, lambda v: action)
    assert game.phase is phase and game.pending == seat, spec
    update, lines = await table.time_out(session)
    assert update.actor == seat and session.seats[seat].timeouts == 1
    assert lines[0].startswith(line) and lines[0].endswith("(next turn: 30 s)"), lines
    assert sum("Time's up" in x for x in lines) == 1
    for expected in more:
        assert any(x.startswith(expected) for x in lines[1:]), (expected, lines)
    assert list(session.log[-len(lines) :]) == lines  # what the table shows
    note = timeout_note(update.view, update.events, seat)
    assert note is not None
    text = note("en")
    assert text.startswith("⏰ Time's up: ") and text.endswith(" Your next turn: 30 s."), text
    await table.m.close()


def test_issue_10_4_every_decision_the_table_waits_for_has_a_timeout_case_here() -> None:
    """The 7-0 swap's target is chosen with the play (SPEC H, as SPEC G4's targeted cards), so it is no decision of
    its own; the pause after a round needs no line. A new pending decision must get a case in :data:`CASES`."""
    assert {case[8] for case in CASES.values()} == set(DECISIONS)
    assert set(Phase) - set(DECISIONS) == {Phase.ROUND_OVER, Phase.MATCH_OVER}


async def test_issue_10_4_a_table_at_the_minimum_names_no_next_clock(store: Store) -> None:
    table = Table(store, 15, "classic", Options())
    session = await table.start()
    update, lines = await table.time_out(session)
    assert lines[0].startswith("⏰ Time's up: ") and "next turn" not in lines[0]  # 15 s does not shrink
    assert session.seats[update.actor].timeouts == 1 and session.deadline == table.clock.now() + 15
    note = timeout_note(update.view, update.events, update.actor)
    assert note is not None and "next turn" not in note("en")
    await table.m.close()


async def test_issue_10_4_the_third_timeout_in_a_row_removes_the_player_and_names_no_next_clock(
    store: Store,
) -> None:
    table = Table(store, 60, "classic", Options())
    session = await table.start()
    game = session.game
    assert game is not None
    idle = game.pending
    assert idle is not None
    clocks = []
    for _ in range(3):
        while game.pending != idle:  # the others time out too, once each round: their clocks shrink alike
            await table.time_out(session)
        update, lines = await table.time_out(session)
        assert update.actor == idle
        clocks.append(lines[0].rsplit("(", 1)[-1] if "(next turn" in lines[0] else None)
    assert clocks == ["next turn: 30 s)", "next turn: 15 s)", None]
    assert session.seats[idle].left
    await table.m.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue_10_4_every_timeout_text_and_the_next_clock_exist_in_every_language(lang: str) -> None:
    cases: dict[str, list[Event]] = {
        "drew": [CardsDrawn(0, 1, "draw")],
        "drew_many": [CardsDrawn(0, 3, "draw"), CardKept(0)],
        "kept": [CardKept(0)],
        "accepted": [PenaltyAccepted(0), CardsDrawn(0, 4, "penalty")],
        "declared": [ColourDeclared(0, Colour.RED)],
        "played": [CardPlayed(0, parse_face("R7"))],
    }
    assert set(cases) == set(TIMEOUT_OUTCOMES)
    for key, events in cases.items():
        assert timeout_outcome(events, 0)[0] == key
        line = event_lines(events, lambda s: "Alice", lang, timed_out=0, next_clock=30)[0]
        assert line.startswith("⏰") and "Alice" in line and line.endswith(" s)") and "30" in line, line
        hand = timeout_text(events, 0, lang)
        assert hand is not None and hand.startswith("⏰") and "Alice" not in hand and "{" not in hand, hand
    assert "3" in event_lines(cases["drew_many"], lambda s: "Alice", lang, timed_out=0)[0]


def test_a_removal_says_timeouts_only_for_a_seat_the_turn_timer_removed() -> None:
    """The log of a removal: "left the game" for a player who left or was kicked, the count of timeouts in a row for
    one the turn timer removed (in every catalogue, with its plural)."""
    from bot.engine.events import PlayerRemoved

    def name(seat: int) -> str:
        return ["Ann", "Milan"][seat]

    removed = [PlayerRemoved(player=1, returned=5)]
    assert event_lines(removed, name, "en") == ["Milan left the game"]
    assert event_lines(removed, name, "en", dropped={0: 3}) == ["Milan left the game"]
    assert event_lines(removed, name, "en", dropped={1: 3}) == [
        "Milan was removed from the game after 3 timeouts in a row"
    ]
    assert event_lines(removed, name, "it", dropped={1: 3}) == [
        "Milan è fuori dalla partita: tempo scaduto 3 volte di fila"
    ]
    assert event_lines(removed, name, "es", dropped={1: 3}) == [
        "Milan queda fuera de la partida: se le acabó el tiempo 3 veces seguidas"
    ]
    assert event_lines(removed, name, "sk", dropped={1: 3}) == ["Milan je mimo hry: čas na ťah vypršal 3-krát za sebou"]
