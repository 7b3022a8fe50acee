"""review7 (int9): where house rules H6-H9, match records/ratings/recaps and card emojis / Components V2 meet."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import discord
import pytest

from bot.card_emojis import CARD_EMOJIS
from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.i18n import LANGUAGES
from bot.render.emoji import all_face_emojis


@pytest.fixture
def synced_emojis() -> Iterator[None]:
    CARD_EMOJIS.use({e.code: discord.PartialEmoji(name=e.name, id=10_000 + n) for n, e in enumerate(all_face_emojis())})
    yield
    CARD_EMOJIS.clear()


@pytest.mark.usefixtures("synced_emojis")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_several_labels_never_carry_custom_emoji_markup(lang: str) -> None:
    """SPEC H8 multi_play with the card emojis synced (issue 18 point 1): a select option's label shows no custom
    emoji, so the "Play several…" entries must name the top card in words, not as ``<:uno_…:id>`` markup (which
    Discord shows as raw text and which the 100-character cut may break in half)."""
    from cogs.uno import house, ids

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 G5 Y5 R5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    view = game.view(0)
    labels = [house.many_label(a, view, lang) for a in ids.many_options(view)]
    assert labels
    assert not any("<:" in label for label in labels), labels


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    from bot.storage import Store

    s = await Store.open(tmp_path / "uno.sqlite3")
    yield s
    await s.close()


async def _eliminated_ann(store: Any) -> tuple[Any, Any]:
    """Ann (seat 0) goes out of the match past the limit at the end of round 1 (SPEC H9); Bob and Cid play on."""
    from bot.adapter import ManualClock, SessionManager
    from bot.adapter.manager import Limits
    from bot.engine.actions import Play
    from bot.engine.view import Phase

    m = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=0.0, ai_catch_delay=0.0), rng=Random(1))
    session = await m.open_lobby(
        channel_id=1, guild_id=2, host_id=101, host_name="Ann", mode="classic", options={"elimination": 100}
    )
    await m.join(1, 102, "Bob")
    await m.join(1, 103, "Cid")
    await m.start_game(1, 101)
    options = Options(elimination=100)
    session.game = build("classic", ["B9 G9 R+2", "R5", "B1 B2"], "R3", current=1, scores=[80, 0, 50], options=options)
    card = session.game.hands[1][0]
    await m.act(1, 102, lambda v: Play(1, card))
    assert session.game.phase is Phase.ROUND_OVER and session.game.active == [False, True, True]
    return m, session


@pytest.mark.parametrize("how", ["leave", "kick"])
async def test_h9_a_player_out_of_the_match_may_leave_or_be_kicked(store: Any, how: str) -> None:
    """SPEC H9 elimination: Ann is out of the match but still sits at the table (she watches). /uno leave (or the
    host's /uno kick of her seat) must either take her seat away cleanly or be refused with the session unchanged;
    the engine's NotSeated must not escape with her seat half marked as left."""
    from bot.adapter import errors as AE
    from bot.engine import errors as EE

    m, session = await _eliminated_ann(store)
    try:
        if how == "leave":
            await m.leave(1, 101)
        else:
            await m.kick(1, 102 if session.host_id == 102 else session.host_id or 0, 0)
    except EE.NotSeated:
        pytest.fail("the engine's NotSeated escaped: an out player could not leave")
    except AE.AdapterError:
        assert not session.seats[0].left, "refused, yet her seat was marked as left"
    else:
        assert session.seats[0].left
    assert session.game is not None and session.game.active == [False, True, True]
    await m.close()


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_history_page_of_ten_full_tables_with_long_names_fits_an_embed(lang: str) -> None:
    """Issue 19 point 2 at the worst case: a page of 10 matches of 10 seats whose players have 32-character display
    names (Discord's longest; with Markdown characters that shown_name escapes) must fit an embed's description
    (4,096 characters) and its whole size (6,000), or Discord refuses the page."""
    from bot.storage import HistoryRow
    from cogs.uno.recap import history_embed

    names = tuple(f"{'_' * 31}{i}" for i in range(9))
    row = HistoryRow(1, "1:2:3", "flip", 2, 1_799_999_999.0, "completed", 10, 10, 1234, 1234, names, -123, True)
    embed = history_embed("x" * 32, [row] * 10, lang, 9, 10, "this server")
    assert len(embed.description or "") <= 4096 and len(embed) <= 6000, len(embed.description or "")


@pytest.mark.parametrize("mode", ["classic", "flip", "flex"])
async def test_a_match_with_the_new_house_rules_restarted_twice_replays_from_its_record(store: Any, mode: str) -> None:
    """Issue 19 point 1 with SPEC H7-H9: an AI-only match under elimination, multi_play and stack_deflect is stopped
    twice mid-match (the bot restarts from its saved snapshot); its record goes on and replays to the same result."""
    from bot.adapter import ManualClock, SessionManager
    from bot.adapter.manager import Limits
    from bot.adapter.records import replay
    from bot.adapter.session import Status

    opts = {"elimination": 80, "multi_play": True, "stack_deflect": True, "stacking": "any_draw"}
    limits = Limits(ai_delay=1.0, ai_catch_delay=1.0)
    clock = ManualClock()
    m = SessionManager(store, clock=clock, limits=limits, rng=Random(7))
    session = await m.open_lobby(channel_id=1, guild_id=2, host_id=5, host_name="A", mode=mode, options=opts,
                                 seat_host=False)  # fmt: skip
    for _ in range(4):
        await m.add_ai(1, 5)
    await m.start_game(1, 5)
    key = session.match_key
    restarts = 0
    for stop in (15, 40, 10_000):
        for _ in range(stop):
            clock.advance(1.5)
            await m.idle()
            if session.status == Status.FINISHED:
                break
        if session.status == Status.FINISHED:
            break
        await m.close()
        clock = ManualClock(clock.now())
        m = SessionManager(store, clock=clock, limits=limits, rng=Random(8))
        (session,) = await m.start()
        assert session.match_key == key
        restarts += 1
    assert session.status == Status.FINISHED and session.game is not None
    assert restarts == 2
    game = replay(await store.match_record(key))
    assert (game.winner, game.scores, game.placement()) == (session.game.winner, session.game.scores,
                                                            session.game.placement())  # fmt: skip
    await m.close()


def test_h9_a_player_who_left_ranks_after_those_who_played_on_until_they_were_out() -> None:
    """SPEC H9 placement (and so the ratings of issue 19 point 3): Cid leaves the match in round 1 with no points;
    Bob plays on and goes out of the match past the limit; Ann wins. Leaving must not rank Cid above Bob, or quitting
    before one's total passes the limit would always earn second place and a better rating."""
    from bot.engine.actions import Play

    options = Options(elimination=30)
    game = build(Mode.CLASSIC, ["R5", "B9 G9 R+2", "B1 B2"], "R3", options=options)
    game.remove_player(2)  # Cid leaves
    game.apply(Play(0, game.hands[0][0]))  # Ann goes out; Bob's 9 + 9 + 20 take him past 30: out
    assert game.winner == 0
    assert game.placement() == [0, 1, 2]


@pytest.mark.parametrize("values", [("2",), ("-1",), ("0", "1"), (), ("１",), ("0x1",)])
def test_h8_a_forged_play_several_value_is_refused(values: tuple[str, ...]) -> None:
    """SPEC H8: a "Play several…" select sends exactly one index of the list the player saw; anything else is
    forged and refused before any action is built."""
    from bot.adapter.session_view import SessionView
    from cogs.uno.clicks import HAND_ACTIONS, HandClick
    from cogs.uno.inputs import BadInput
    from tests.bot.sessions import flip_session

    options = Options(multi_play=True, target_score=0)
    game = build(Mode.CLASSIC, ["R5 B5 B5 Y2", "B3 B4", "B6 B7"], "R3", options=options)
    session = flip_session(3)
    session.mode, session.options, session.game = Mode.CLASSIC, options, game
    with pytest.raises(BadInput):
        HAND_ACTIONS["many"](HandClick(SessionView.of(session), game.view(0), "en", "", values))


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
    from cogs.uno.layout import counts
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


@pytest.mark.parametrize(
    "opts", [{"elimination": 100}, {"scoring": "lowest"}, {}], ids=["elimination", "lowest", "winner"]
)
def test_a_recap_gives_the_round_winner_the_points_they_scored(opts: dict[str, Any]) -> None:
    """Issue 19 point 2 with SPEC G9 "lowest" and H9: the player who goes out adds nothing to their own total (each
    other player adds their own hand), so "went out with … (+N)" must say what the winner scored — not the sum of
    everyone's points, which under those rules counted against the others."""
    from bot.adapter import records
    from bot.engine.events import RoundEnded
    from bot.engine.game import Game

    options = Options.from_dict(opts)
    game, _ = Game.new(Mode.CLASSIC, 3, seed=4, options=options)
    entries: list[tuple[int, dict[str, Any]]] = [
        (0, records.start_entry("classic", 3, 4, options, [(1, "A", None), (2, "B", None), (3, "C", None)]))
    ]
    ended = None
    while ended is None:
        seat = game.pending
        assert seat is not None
        action = game.legal_actions(seat)[0]
        events = game.apply(action)
        entries.append((game.step, {"a": records.encode(action)}))
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
    (first, *_) = records.recap(entries).rounds
    assert first.winner == ended.winner and first.scored == ended.points[ended.winner]
    assert first.points == sum(ended.points)  # the round's, as the match's stored rounds


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
