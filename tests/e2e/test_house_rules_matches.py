"""Whole matches through Discord where house rules H6-H9, match records, ratings, recaps, card emojis and Components
V2 meet (found in review 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.card_emojis import CARD_EMOJIS


@pytest.fixture(autouse=True)
def _no_emojis_left() -> Any:
    """A bot started with card emojis fills the process's :data:`~bot.card_emojis.CARD_EMOJIS` with its emulator's
    ids: the next test (in this process, after any of these) starts without them, as in
    tests/e2e/test_components_v2.py."""
    CARD_EMOJIS.clear()
    yield
    CARD_EMOJIS.clear()


@pytest.mark.rate_limit_scale(0.02, reason="a whole match played through the hands")
@pytest.mark.parametrize("v2", [False, True], ids=["embeds", "v2"])
async def test_a_rated_elimination_match_with_multi_play_and_deflection_then_its_recap_history_replay_and_stats(
    emulator: Any, bot_starter: Any, tmp_path: Path, v2: bool
) -> None:
    """Three humans play a whole match under elimination (SPEC H9) with multi_play (H8), stack_deflect (H7) and
    stacking through Discord (embeds, or Components V2), choosing **Play several…** when offered; then the stored
    record replays to the same result, the recap and /uno history open, and /uno stats shows a rating."""
    from bot.adapter import records
    from bot.adapter.session import Status
    from tests.e2e.uno_driver import Table, make_bot, uno_world

    world = uno_world(emulator)
    alice, bob, carol = world["users"]
    channel = world["channel"]
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=v2))
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    await emulator.slash(
        alice, channel, "uno new", game="classic", elimination=60, multi_play=True, stack_deflect=True,
        stacking="any_draw",
    )  # fmt: skip
    table = Table(emulator, bot, channel, [alice, bob, carol])
    for user in (bob, carol):
        await emulator.click(user, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    many_played = 0
    for _ in range(5000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        pending = session.game.pending
        if pending is None:
            await emulator.click(alice, table.public_message(), label="Next round")
            continue
        user = table.user_of(pending)
        assert user is not None
        hand = await table.open_hand(user)
        several = [s for s in hand.selects() if s.custom_id and s.custom_id.startswith("uno:hs:many:")]
        if several and table.rng.random() < 0.7:
            await emulator.select(user, hand, several[0].custom_id, [table.rng.choice(several[0].options).value])
            many_played += 1
        else:
            await table.take_turn(user, hand)
        await emulator.settle()
    session = table.session
    assert session.status == Status.FINISHED and session.result is not None and session.result.completed
    assert many_played > 0
    refused = [e for e in emulator.error_responses if e.code == 50035]
    assert not refused, refused

    entries = await bot.store.match_record(session.match_key)
    game = records.replay(entries)
    assert game.winner == session.game.winner and game.scores == session.game.scores
    assert game.placement() == list(session.result.placement)
    check = await bot.store.rebuild_ratings(replace=False)  # python -m bot.storage.ratings
    assert check.ok and check.matches == 1, check

    summary = next(
        m for m in reversed(emulator.public_messages(channel)) if any(b.label == "Recap" for b in m.buttons())
    )
    res = await emulator.click(bob, summary, label="Recap")
    (told,) = res.ephemeral_messages
    assert "Recap" in told.text and "won the match" in told.text
    res = await emulator.slash(alice, channel, "uno history")
    (page,) = res.public_messages
    assert "rating" in page.text
    res = await emulator.slash(bob, channel, "uno stats", player=alice)
    (stats,) = res.public_messages
    assert "Skill rating" in stats.text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.rate_limit_scale(0.02, reason="ten players join")
@pytest.mark.parametrize("locale", ["pl", "de"])
async def test_v2_worst_case_with_every_new_house_rule_in_polish_and_german(
    emulator: Any, bot_starter: Any, tmp_path: Path, locale: str
) -> None:
    """Issue 18 point 2 at the worst case with the house rules of SPEC H6-H9 on (a "Play several…" menu beside "Play
    a card…"), ten players, 30 cards, card emojis, a long log, in Polish or German: the table and the hand stay
    within Discord's 40 components and 4,000 characters, and no message is refused."""
    from bot.engine.cards import Kind
    from bot.limits import V2_COMPONENTS_MAX, V2_TEXT_MAX
    from cogs.uno.screens.layout import counts
    from tests.e2e.test_commands import give, playing
    from tests.e2e.uno_driver import Table, make_bot, uno_world

    world = uno_world(emulator)
    bot = await bot_starter(
        make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], components_v2=True, card_emojis=True)
    )
    await bot.emoji_sync
    users = [emulator.add_user(f"gracz_z_długim_imieniem_{i}"[:32], locale=locale, guild=world["guild"])
             for i in range(10)]  # fmt: skip
    channel = world["channel"]
    await emulator.slash(
        users[0], channel, "uno new", game="classic", target=0, multi_play=True, stack_deflect=True,
        number_finish=True, elimination=200, stacking="any_draw", jump_in=True,
    )  # fmt: skip
    table = Table(emulator, bot, channel, users)
    for user in users[1:]:
        await emulator.click(user, table.public_message(), f"uno:l:join:{channel.id}")
    assert len(table.session.seats) == 10
    await emulator.click(users[0], table.public_message(), f"uno:l:start:{channel.id}")
    await emulator.settle()
    game = await playing(table)
    seat = game.pending
    player = table.user_of(seat)
    numbers = [c for c in game.draw_pile if game.faces[c].kind is Kind.NUMBER]
    give(game, seat, [*game.hands[seat], *numbers[: 30 - len(game.hands[seat])]])
    assert len(game.hands[seat]) == 30
    table.session.log[:] = ["**gracz_z_długim_imieniem_1** zagrywa Czerwona Dobierz dwie i woła UNO! " * 3] * 8
    table.republish()
    res = await emulator.click(player, table.public_message(), f"uno:t:hand:{channel.id}")
    (hand,) = res.ephemeral_messages
    await emulator.settle()
    for message in (hand, table.public_message()):
        n, chars = counts(message.components)
        assert n <= V2_COMPONENTS_MAX and chars <= V2_TEXT_MAX, (n, chars)
    several = [s for s in hand.selects() if s.custom_id.startswith("uno:hs:many:")]
    assert several and all(1 <= len(o.label) <= 100 and "<:" not in o.label for o in several[0].options)
    refused = [e for e in emulator.error_responses if e.code == 50035]
    assert not refused, refused


async def test_a_match_begun_before_records_and_finished_after_says_it_has_no_record(
    emulator: Any, bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 19 point 1: a match in play when the bot was upgraded has the record entries of its moves since, but no
    start entry (seed, options, seats). Its summary's **Recap** must say it was played before records were kept,
    not that this version of the bot cannot replay it."""
    from bot.adapter.clock import ManualClock
    from bot.adapter.session import Status
    from tests.e2e.uno_driver import Table, make_bot, uno_world

    world = uno_world(emulator)
    alice, bob, _ = world["users"]
    channel = world["channel"]
    clock = ManualClock()
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"], clock=clock, max_timeouts=999))
    await emulator.slash(alice, channel, "uno new", game="classic", target=0)
    table = Table(emulator, bot, channel, [alice])
    await emulator.click(alice, table.public_message(), label="Add AI")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    session = table.session
    await bot.store._db.write("DELETE FROM match_records WHERE seq = 0")  # as if begun before the upgrade
    for _ in range(300):
        if session.status == Status.FINISHED:
            break
        clock.advance(session.turn_timer + 1)
        await emulator.settle()
    assert session.status == Status.FINISHED
    entries = await bot.store.match_record(session.match_key)
    assert entries and entries[0][0] != 0
    summary = next(
        m for m in reversed(emulator.public_messages(channel)) if any(b.label == "Recap" for b in m.buttons())
    )
    res = await emulator.click(bob, summary, label="Recap")
    (told,) = res.ephemeral_messages
    assert told.text == "This match has no record: it was played before records were kept."
