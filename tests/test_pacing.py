"""The bot's own pacing within Discord's limits (:mod:`bot.pacing`, issue 20 points 1 and 4), on a fake clock: the
global limit's sliding window, the even spacing of a bucket's requests read from discord.py's bucket state, and the
global limit put in front of the HTTP client for the requests that count."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from discord.http import Route

from bot.limits import DISCORD_GLOBAL_RATE, GLOBAL_REQUESTS_PER_SECOND
from bot.pacing import GlobalLimit, Spacing, counts_globally, edit_route, install_global_limit, send_route


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.slept.append(round(delay, 6))
        self.now += delay


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(asyncio, "sleep", c.sleep)
    return c


def test_the_bot_keeps_a_margin_under_discords_global_limit() -> None:
    assert DISCORD_GLOBAL_RATE == 50
    assert 0 < GLOBAL_REQUESTS_PER_SECOND < DISCORD_GLOBAL_RATE


async def test_the_global_limit_lets_rate_requests_through_in_any_window(clock: Clock) -> None:
    limit = GlobalLimit(3, 1.0, clock=clock)
    for _ in range(3):
        await limit.acquire()
    assert clock.slept == []
    clock.now += 0.25
    await limit.acquire()  # the fourth waits until the first leaves the window
    assert clock.slept == [0.75] and limit.waited == 1
    await limit.acquire()
    await limit.acquire()  # the three first have left the window: two more go at once
    assert clock.slept == [0.75] and limit.delay() == pytest.approx(1.0)
    clock.now += 5
    assert limit.delay() == 0


def test_only_requests_with_the_bots_token_count_globally() -> None:
    callback = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback", interaction_id=1,
                     interaction_token="x")  # fmt: skip
    webhook = Route(
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        webhook_id=1,
        webhook_token="x",
    )
    assert not counts_globally(callback) and not counts_globally(webhook)
    assert counts_globally(edit_route(1, 2)) and counts_globally(send_route(1))


async def test_the_global_limit_sits_in_front_of_the_http_client(clock: Clock) -> None:
    sent: list[str] = []

    async def request(route: Route, **kwargs: Any) -> str:
        sent.append(route.method)
        return "ok"

    http: Any = SimpleNamespace(request=request)
    limit = GlobalLimit(2, 1.0, clock=clock)
    install_global_limit(http, limit)
    for _ in range(3):
        assert await http.request(send_route(1)) == "ok"
    assert sent == ["POST"] * 3 and clock.slept == [1.0]


def fake_http(route: Route, *, limit: int, remaining: int, reset_after: float, expires: float | None) -> Any:
    bucket = SimpleNamespace(limit=limit, remaining=remaining, reset_after=reset_after, expires=expires)
    return SimpleNamespace(
        _bucket_hashes={route.key: "edit-hash"}, _buckets={f"edit-hash:{route.major_parameters}": bucket}
    ), bucket


async def test_spacing_spreads_a_buckets_requests_over_its_window(clock: Clock) -> None:
    """5 edits per 5 s: one a second, instead of five at once and then nothing for the rest of the window."""
    route = edit_route(7, 8)
    http, bucket = fake_http(route, limit=5, remaining=4, reset_after=5.0, expires=clock.now + 5.0)
    spacing = Spacing(http, clock=clock)
    assert spacing.delay(route) == 0  # nothing sent through it yet
    spacing.sent(route)
    assert spacing.delay(route) == pytest.approx(1.0)
    clock.now += 0.4
    assert spacing.delay(route) == pytest.approx(0.6)
    assert spacing.delay(edit_route(8, 8)) == 0  # another channel: another bucket
    bucket.remaining, bucket.reset_after = 0, 2.0  # the bucket is spent: wait for its reset
    assert spacing.delay(route) == pytest.approx(bucket.expires - clock.now)


async def test_spacing_never_waits_on_a_bucket_discord_py_does_not_know() -> None:
    route = send_route(7)
    http: Any = SimpleNamespace(_bucket_hashes={}, _buckets={})
    spacing = Spacing(http)
    spacing.sent(route)
    assert spacing.delay(route) == 0
    assert Spacing(None).delay(route) == 0


async def test_spacing_waits_for_the_global_limit_too(clock: Clock) -> None:
    route = send_route(7)
    http: Any = SimpleNamespace(_bucket_hashes={}, _buckets={})
    limit = GlobalLimit(1, 1.0, clock=clock)
    await limit.acquire()
    await Spacing(http, clock=clock).wait(route, limit)
    assert clock.slept == [1.0]


async def test_a_ping_never_sent_because_its_turn_passed_does_not_hold_up_the_next_one(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20.3: a ping waits for room in the channel's bucket and is not sent when its turn passed meanwhile; that
    wait must not count as a request sent: the next turn's ping goes as soon as the bucket has room (here one second
    after the last ping really sent), not a whole spacing later."""
    from cogs.uno.output.pings import Turn, TurnPings

    route = send_route(7)
    http, _ = fake_http(route, limit=5, remaining=4, reset_after=5.0, expires=clock.now + 5.0)
    sent: list[tuple[float, str]] = []

    class Channel:
        id = 7

        async def send(self, content: str, **kwargs: Any) -> Any:
            sent.append((clock.now, content))
            return SimpleNamespace(id=len(sent))

        def get_partial_message(self, message_id: int) -> Any:
            return SimpleNamespace(delete=lambda: asyncio.sleep(0))

    bot: Any = SimpleNamespace(get_partial_messageable=lambda channel_id, guild_id=None: Channel())
    pings = TurnPings(bot, spacing=Spacing(http, clock=clock))
    session: Any = SimpleNamespace(channel_id=7, guild_id=1)
    pings.want(session, Turn(1, 0, 1), "en")
    await pings._workers[7]
    assert [at for at, _ in sent] == [1000.0]
    clock.now += 0.2
    real_sleep = clock.sleep

    async def turn_passes(delay: float) -> None:  # while the ping of user 2 waits, their turn passes to user 3
        await real_sleep(delay)
        pings.want(session, Turn(3, 2, 1), "en")

    monkeypatch.setattr(asyncio, "sleep", turn_passes)
    pings.want(session, Turn(2, 1, 1), "en")
    await pings._workers[7]
    assert pings.skipped == 1
    assert [(at, content.split(">")[0]) for at, content in sent] == [(1000.0, "<@1"), (1001.0, "<@3")]
