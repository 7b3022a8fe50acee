"""End to end (the real discord.py client against the emulator): skill ratings in ``/uno leaderboard`` and
``/uno stats`` (issue 19 point 3). The matches are recorded through the bot's own store, as a finished match is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.limits import RATING_MIN_MATCHES
from bot.storage import MatchPlayer, MatchResult, RoundResult
from tests.discord_emulator import DiscordEmulator

from .uno_driver import make_bot, uno_world


def result(key: str, guild: int, mode: str, order: list[tuple[int, str]], at: float = 1_700_000_000.0) -> MatchResult:
    """A completed match of the humans in ``order``, the first the winner (one round of 500 points)."""
    players = tuple(
        MatchPlayer(seat, user, name, False, 500 if seat == 0 else 0, seat + 1, int(seat == 0), 500 if seat == 0 else 0)
        for seat, (user, name) in enumerate(order)
    )
    return MatchResult(key, mode, guild, 77, "completed", 500, at, at + 600, 0, players, (RoundResult(1, 0, 500),))


async def test_the_leaderboard_by_rating_pages_and_stats_show_rating_rank_and_trend(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path
) -> None:
    world = uno_world(emulator)
    alice, bob, carol = world["users"]
    guild, channel = world["guild"], world["channel"]
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", guild))
    store = bot.store
    # alice beats bob and carol six times; twelve others play five matches each among themselves
    for i in range(6):
        people = [(alice.id, "alice"), (bob.id, "bob"), (carol.id, "carol")]
        assert await store.finish_match(result(f"a{i}", guild.id, "classic", people, 1_700_000_000.0 + i))
    others = [(9000 + k, f"player{k}") for k in range(12)]
    for i in range(RATING_MIN_MATCHES):
        for k in range(0, 12, 2):
            pair = [others[k], others[k + 1]] if i % 2 == 0 else [others[k + 1], others[k]]
            assert await store.finish_match(result(f"o{i}-{k}", guild.id, "classic", pair))
    assert await store.finish_match(result("flip", guild.id, "flip", [(bob.id, "bob"), (alice.id, "alice")]))

    res = await emulator.slash(alice, channel, "uno leaderboard", order="rating")
    (board,) = res.public_messages
    best = (await store.rating_leaderboard(guild_id=guild.id, mode="classic"))[0]
    assert best.user_id == alice.id
    assert "Skill rating · this server · Classic UNO" in board.text
    assert f"**1.** alice: **{best.rating}** · rated matches 6 · wins 6/6" in board.text
    assert "Page 1/2 · openskill ratings (Plackett–Luce) of players with at least 5 rated matches" in board.text
    assert board.find_button(label="▶").custom_id == f"uno:lb:{guild.id}:classic:1:n:r"  # the page keeps the order
    await emulator.click(alice, board, label="▶")
    page2 = emulator.message(board.id)
    assert "Page 2/2" in page2.text and "**11.**" in page2.text and "wins" in page2.text

    res = await emulator.slash(alice, channel, "uno leaderboard", order="rating", game="flip")
    (empty,) = res.public_messages
    assert "Nobody has 5 rated matches in this game yet." in empty.text

    res = await emulator.slash(bob, channel, "uno stats", player=alice)
    (stats,) = res.public_messages
    (classic, flip) = await store.player_ratings(alice.id, guild_id=guild.id, mode=None)
    assert "Skill rating" in stats.text
    assert f"Classic UNO: **{classic.rating}** · #1 of 15 · ▲ +{classic.trend} over the last 6 rated matches" in (
        stats.text
    )
    assert f"UNO FLIP: **{flip.rating}** · ranked after 5 rated matches · ▼ {flip.trend} over 1 rated match" in (
        stats.text
    )
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_history_lists_the_match_and_its_summary_and_history_open_the_same_recap(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path
) -> None:
    """Issue 19 point 2: a one-round match of alice (whose turn timer plays for her) against an AI seat, played
    through Discord; its summary's **Recap** and ``/uno history``'s select both show the match round by round (who
    went out with which card), only to the one who asked."""
    from bot.adapter.clock import ManualClock
    from bot.adapter.session import Status

    from .uno_driver import Table

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
    for _ in range(300):
        if session.status == Status.FINISHED:
            break
        clock.advance(session.turn_timer + 1)
        await emulator.settle()
    assert session.status == Status.FINISHED and session.result is not None and session.result.completed
    winner = session.seats[session.result.winner or 0].name
    summary = next(
        m for m in reversed(emulator.public_messages(channel)) if any(b.label == "Recap" for b in m.buttons())
    )
    res = await emulator.click(bob, summary, label="Recap")
    (told,) = res.ephemeral_messages
    assert "Recap · Classic UNO" in told.text
    assert f"Round 1: **{winner}** went out with " in told.text and f"🏆 {winner} won the match" in told.text

    res = await emulator.slash(alice, channel, "uno history")
    (page,) = res.public_messages
    place = 1 if session.result.winner == 0 else 2
    assert "Alice's matches" in page.text and f"Classic UNO · place **{place}** of 2" in page.text
    assert f"against {session.seats[1].name}" in page.text and "Page 1/1 · this server" in page.text
    assert "rating" not in page.text  # a match against an AI seat is not rated
    (option,) = page.select().options
    res = await emulator.select(alice, page, None, [option.value])
    (again,) = res.ephemeral_messages
    assert again.text == told.text
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
