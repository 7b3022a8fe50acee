"""The publisher's parts that need no Discord: pacing, what a timeout says, what a hand's player sees, the clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapter import SessionView
from bot.engine.cards import Colour, Side
from bot.engine.events import CardKept, CardsDrawn, ColourDeclared, PenaltyAccepted, PlayerRemoved, Reshuffled
from bot.engine.view import Phase
from bot.i18n import LANGUAGES
from cogs.uno import screens
from cogs.uno.output.hands import seen_key
from cogs.uno.output.publisher import Pacer
from cogs.uno.screens.text import event_lines, timeout_outcome

from .sessions import flip_session


def names(seat: int) -> str:
    return ["Alice", "Bob", "Carol"][seat]


async def test_the_pacer_spaces_its_calls_by_its_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    loop = asyncio.get_running_loop()
    now = [1000.0]
    monkeypatch.setattr(loop, "time", lambda: now[0])

    async def sleep(delay: float) -> None:
        slept.append(round(delay, 6))
        now[0] += delay

    monkeypatch.setattr(asyncio, "sleep", sleep)
    pacer = Pacer(rate=4.0)
    for _ in range(4):
        async with pacer:
            pass
    assert slept == [0.25, 0.25, 0.25]  # the first goes at once, each next a quarter second later
    now[0] += 10  # after a quiet spell the next one goes at once again
    async with pacer:
        pass
    assert len(slept) == 3


def test_a_timeout_that_drew_and_passed_is_one_line() -> None:
    events = [Reshuffled(30), CardsDrawn(0, 1, "draw"), CardKept(0)]
    assert timeout_outcome(events, 0) == ("drew", {1, 2}, None)
    lines = event_lines(events, names, "en", timed_out=0)
    assert lines[0] == "⏰ Time's up: Alice drew a card and passed"
    assert not any("drew 1 card" in line or "kept" in line for line in lines)
    assert len(lines) == 2  # the reshuffle is still told


@pytest.mark.parametrize(
    ("events", "key", "text"),
    [
        ([PenaltyAccepted(1), CardsDrawn(1, 4, "penalty")], "accepted", "⏰ Time's up: Bob accepted the penalty"),
        ([ColourDeclared(1, Colour.RED)], "declared", "⏰ Time's up: Bob declared"),
        ([CardKept(1)], "kept", "⏰ Time's up: Bob kept the drawn card and passed"),
    ],
)
def test_each_default_the_timer_takes_is_told(events: list, key: str, text: str) -> None:
    assert timeout_outcome(events, 1)[0] == key
    assert event_lines(events, names, "en", timed_out=1)[0].startswith(text)


def test_a_timeout_that_removed_the_player_says_so_too() -> None:
    events = [CardsDrawn(2, 1, "draw"), CardKept(2), PlayerRemoved(2, 8)]
    lines = event_lines(events, names, "en", timed_out=2)
    assert lines[0].startswith("⏰ Time's up: Carol") and len(lines) == 2


def test_without_a_timeout_the_lines_are_the_events_lines() -> None:
    events = [CardsDrawn(0, 1, "draw"), CardKept(0)]
    assert event_lines(events, names, "en") == ["Alice drew 1 card", "Alice kept the drawn card"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_timeout_texts_exist_in_every_language(lang: str) -> None:
    for events in ([CardsDrawn(0, 1, "draw")], [CardKept(0)], [PenaltyAccepted(0)], [ColourDeclared(0, Colour.RED)]):
        (line,) = event_lines(events, names, lang, timed_out=0)
        assert line.startswith("⏰") and "Alice" in line


def test_what_a_player_not_to_move_sees_changes_with_a_flip_but_not_with_a_plain_move() -> None:
    session = flip_session(3)
    game = session.game
    assert game is not None
    waiting = next(s for s in range(3) if s != game.pending)
    before = seen_key(game.view(waiting))
    assert seen_key(game.view(waiting)) == before
    game.side = Side.DARK if game.side is Side.LIGHT else Side.LIGHT  # a Flip, as the engine records it
    assert seen_key(game.view(waiting)) != before


def test_the_clock_is_on_the_table_and_in_the_hand_of_the_player_to_move_only() -> None:
    session = flip_session(2)
    game = session.game
    assert game is not None and game.phase is Phase.PLAY
    session.deadline = 1_800_000_042.7
    public = game.view(None)
    view = SessionView.of(session)  # what the screens draw from
    assert "<t:1800000042:R>" in screens.status_line(view, public, "en")
    mover = game.pending
    assert mover is not None
    assert "<t:1800000042:R>" in screens.hand_status(view, game.view(mover), "en")
    assert "<t:" not in screens.hand_status(view, game.view(1 - mover), "en")
    session.deadline = None
    assert "<t:" not in screens.status_line(SessionView.of(session), public, "en")


async def test_the_publishers_deletes_take_their_turn_in_the_channels_delete_bucket() -> None:
    """Issue 18 point 5 (a clean channel) within issue 20's limits: the round summary and the old table the
    publisher deletes share the channel's delete bucket (5 per 5 s) with the turn pings' deletes, so each goes
    through the same :class:`~bot.pacing.Spacing` (it waited in discord.py, unseen by the pings' pacing, holding
    the channel's worker); a message already gone is gone, a refused delete says so."""
    from types import SimpleNamespace

    import discord

    from bot.pacing import delete_route
    from cogs.uno.output.publisher import Publisher

    waited: list[tuple[str, dict[str, object]]] = []
    deleted: list[int] = []

    async def wait(route: object, limit: object = None) -> None:
        waited.append((route.key, route.major_parameters))  # type: ignore[attr-defined]

    class Gone(discord.NotFound):
        def __init__(self) -> None:
            Exception.__init__(self, "gone")

    class Partial:
        def __init__(self, message_id: int) -> None:
            self.id = message_id

        async def delete(self) -> None:
            if self.id == 2:
                raise Gone()
            deleted.append(self.id)

    channel = SimpleNamespace(id=7, get_partial_message=Partial)
    publisher = Publisher(SimpleNamespace(http=None, global_limit=None), images=None, hands=SimpleNamespace())  # type: ignore[arg-type]
    publisher.spacing.wait = wait  # type: ignore[method-assign]
    assert await publisher.delete(channel, 1) and await publisher.delete(channel, 2)  # type: ignore[arg-type]
    route = delete_route(7, 1)
    assert waited == [(route.key, route.major_parameters)] * 2 and deleted == [1]
