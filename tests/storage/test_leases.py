"""Leases of live games (issue 11, sharding): one owner at a time, renewal, release on a clean stop, expiry after a
crash so that another process takes the game over; owners racing on several stores. Times come from a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import InvalidInputError, Store

from .conftest import Backend


async def test_one_owner_at_a_time_until_the_lease_expires(store: Store, backend: Backend):
    clock = backend.clock
    assert await store.acquire_lease(100, "host-a:1", 30) is True
    assert await store.acquire_lease(100, "host-b:2", 30) is False
    assert await store.lease_owner(100) == "host-a:1"
    assert await store.acquire_lease(100, "host-a:1", 30) is True  # the owner may take it again (extends it)
    assert await store.renew_lease(100, "host-b:2", 30) is False
    assert await store.lease_owner(100) == "host-a:1"

    clock.advance(20)
    assert await store.renew_lease(100, "host-a:1", 30) is True  # now until +50
    clock.advance(29.5)
    assert await store.acquire_lease(100, "host-b:2", 30) is False
    assert await store.lease_owner(100) == "host-a:1"

    clock.advance(0.5)  # expired: host-a crashed or hung; host-b takes the game over
    assert await store.lease_owner(100) is None
    assert await store.acquire_lease(100, "host-b:2", 30) is True
    assert await store.lease_owner(100) == "host-b:2"
    assert await store.renew_lease(100, "host-a:1", 30) is False  # the old owner learns it lost the game
    assert await store.acquire_lease(100, "host-a:1", 30) is False
    assert await store.release_lease(100, "host-a:1") is False
    assert await store.release_lease(100, "host-b:2") is True
    assert await store.lease_owner(100) is None
    assert await store.acquire_lease(100, "host-a:1", 30) is True  # free again


async def test_a_clean_stop_releases_all_of_an_owners_leases(store: Store):
    for channel in range(1, 6):
        assert await store.acquire_lease(channel, "a", 60)
    for channel in range(6, 9):
        assert await store.acquire_lease(channel, "b", 60)
    assert await store.release_leases("a") == 5
    assert await store.release_leases("a") == 0
    assert [await store.lease_owner(c) for c in range(1, 9)] == [None] * 5 + ["b"] * 3
    assert all([await store.acquire_lease(c, "c", 60) for c in range(1, 6)])


async def test_after_a_crash_the_replacement_takes_over_once_the_ttl_has_passed(backend: Backend):
    crashed = await backend.open()
    for channel in (10, 11, 12):
        assert await crashed.acquire_lease(channel, "shard-0:old", 15)
    await crashed.close()  # never released: a kill -9

    replacement = await backend.open()
    try:
        assert [await replacement.acquire_lease(c, "shard-0:new", 15) for c in (10, 11, 12)] == [False] * 3
        backend.clock.advance(15)
        assert [await replacement.acquire_lease(c, "shard-0:new", 15) for c in (10, 11, 12)] == [True] * 3
        assert await replacement.lease_owner(11) == "shard-0:new"
    finally:
        await replacement.close()


async def test_owners_racing_on_two_stores_get_each_lease_exactly_once(backend: Backend):
    one, two = await backend.open(), await backend.open()
    try:
        channels = range(1000, 1040)
        for _ in range(2):  # a second round: the leases are held, nobody else gets any
            wins = await asyncio.gather(
                *(s.acquire_lease(c, owner, 60) for c in channels for s, owner in ((one, "p1"), (two, "p2")))
            )
            pairs = list(zip(wins[0::2], wins[1::2], strict=True))
            assert all(a != b for a, b in pairs), pairs  # exactly one of the two, for every channel
            owners = [await one.lease_owner(c) for c in channels]
            assert owners == ["p1" if a else "p2" for a, _ in pairs]
        assert {await two.lease_owner(c) for c in channels} <= {"p1", "p2"}
    finally:
        await one.close()
        await two.close()


@pytest.mark.parametrize(
    "args",
    [
        (0, "a", 30),
        (5, "", 30),
        (5, " ", 30),
        (5, "x" * 201, 30),
        (5, "a", 0),
        (5, "a", -1),
        (5, "a", float("inf")),
        (5, "a", 86401),
        (5, "a", "30"),
        (5, 7, 30),
    ],
)
async def test_bad_lease_arguments_are_refused(store: Store, args):
    with pytest.raises(InvalidInputError):
        await store.acquire_lease(*args)
    assert await store.lease_owner(5) is None
