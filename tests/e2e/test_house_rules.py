"""The house rules of SPEC H end to end: the real discord.py client against the loopback emulator.

Each match is one round (target score 0) from a laid-out deal (:func:`bot.engine.builder.deal`, put in place of the
shuffled deal the bot would make), so every step is known: stacking with three players passing a +6 on, draw to match
with force play, a 7 swap and a 0 rotation, and a jump-in race between two players clicking at once. The players
read only what Discord shows them; the test looks at the engine only to know whose turn it is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.session import Status
from bot.engine.builder import deal
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import Options
from tests.discord_emulator import DiscordEmulator, Message, User

from .server_defaults import set_default_rules
from .shown import shown
from .uno_driver import Table, make_bot, uno_world

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="matches played through the hands")


@pytest.fixture
def world(emulator: DiscordEmulator) -> dict[str, Any]:
    return uno_world(emulator)


def lay_out(monkeypatch: pytest.MonkeyPatch, hands: list[str], draw: str, rest: str = "box") -> None:
    """The next match the bot starts is dealt ``hands`` with the draw pile ``draw`` (top first; its first card
    opens the round), the last seat dealing; the other cards stay in the box (``rest="bottom"``: under the draw
    pile)."""

    def new(
        cls: type[Game], mode: Any, players: int, *, seed: int = 0, rng: Any = None, options: Options | None = None
    ) -> tuple[Game, list[Event]]:
        assert players == len(hands)
        return deal(mode, hands, draw, options=options, dealer=players - 1, rest=rest)

    monkeypatch.setattr(Game, "new", classmethod(new))


async def open_table(emulator: DiscordEmulator, world: dict[str, Any], bot: Any, players: int, **options: Any) -> Table:
    """Text-only cards; alice opens a one-round classic table with ``options``, the others join, alice starts."""
    users: list[User] = world["users"][:players]
    channel = world["channel"]
    await emulator.slash(world["users"][2], channel, "uno settings", card_images=False)
    await emulator.slash(users[0], channel, "uno new", game="classic", target=0, **options)
    table = Table(emulator, bot, channel, users)
    lobby = table.public_message()
    rules = lobby.text
    for user in users[1:]:
        await emulator.click(user, lobby, label="Join")
    await emulator.click(users[0], lobby, label="Start")
    await emulator.settle()
    assert table.session.status == Status.PLAYING
    table.lobby_text = rules  # type: ignore[attr-defined]
    return table


def option_value(hand: Message, text: str, *, uno: bool = False) -> tuple[str, str]:
    """(select id, value) of the "Play a card" option whose label holds ``text`` (with or without UNO)."""
    (select,) = [s for s in hand.selects() if s.custom_id and s.custom_id.startswith("uno:hs:play")]
    for option in select.options:
        if text in option.label and ("UNO!" in option.label) == uno:
            return select.custom_id, option.value
    raise AssertionError(f"no option {text!r} (uno={uno}) in {[o.label for o in select.options]}")


async def play(table: Table, user: User, hand: Message, text: str, *, uno: bool = False) -> None:
    custom_id, value = option_value(hand, text, uno=uno)
    await table.emulator.select(user, hand, custom_id, [value])


def button(hand: Message, verb: str) -> Any:
    found = [b for b in hand.buttons() if b.custom_id and b.custom_id.startswith(f"uno:h:{verb}:")]
    return found[0] if found else None


async def finish(table: Table, hands: dict[int, Message]) -> None:
    """Play the round out from the hands (each pending player decides from what their hand shows)."""
    for _step in range(1000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        pending = session.game.pending
        assert pending is not None, "a one-round match ends with its round"
        user = table.user_of(pending)
        assert user is not None
        if user.id not in hands:
            hands[user.id] = await table.open_hand(user)
        await table.take_turn(user, hands[user.id])
        await table.emulator.settle()
    assert table.session.status == Status.FINISHED
    assert table.session.result.status == "completed"


def log_text(table: Table) -> str:
    """The public table's moves, over every revision of the table message (the log keeps its last lines)."""
    message = table.public_message()
    return "\n".join([shown(message).text, *(shown(r).text for r in message.history)])


# --------------------------------------------------------------------------------------------------------------------


async def test_stacking_three_players_pass_a_plus_six_on(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC H stacking (same kind): +2, +2, +2 — the third player passes 6 on to the first, who may only stack or
    take 6; the lobby and /uno rules name the rule."""
    lay_out(monkeypatch, ["R+2 R1", "B+2 G7", "G+2 Y9"], "R5 B1 B3 B4 Y1 Y2 Y3 Y4")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(emulator, world, bot, 3, stacking="same_kind")
    alice, bob, carol = world["users"]
    assert "House rules" in table.lobby_text and "Stacking" in table.lobby_text  # type: ignore[attr-defined]
    res = await emulator.slash(bob, world["channel"], "uno rules")
    (rules,) = res.ephemeral_messages
    assert "House rule: stacking" in rules.text and "Draw Two, Wild Draw Four" in rules.text

    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    await play(table, alice, hands[alice.id], "Red Draw Two")
    bob_hand = hands[bob.id]
    assert "+2 on you" in bob_hand.text and "stack or take 2" in bob_hand.text  # refreshed at once
    assert button(bob_hand, "accept").label == "Take 2 cards" and button(bob_hand, "draw") is None
    assert [o.label for o in bob_hand.select(option_value(bob_hand, "Blue Draw Two")[0]).options] == [
        "🟦▲▲▲ Blue Draw Two",
        "🟦▲▲▲ Blue Draw Two + UNO!",
    ], "only the cards that stack are offered"
    await play(table, bob, bob_hand, "Blue Draw Two", uno=True)
    await play(table, carol, hands[carol.id], "Green Draw Two", uno=True)
    alice_hand = hands[alice.id]
    assert "+6 on you" in alice_hand.text and "stack or take 6" in alice_hand.text
    assert not [s for s in alice_hand.selects() if s.custom_id.startswith("uno:hs:play")], "Red 1 does not stack"
    assert "+6** on" in table.public_message().text
    await emulator.click(alice, alice_hand, button(alice_hand, "accept").custom_id)
    assert "Alice drew 6 cards" in log_text(table)
    await play(table, bob, hands[bob.id], "Green 7")  # bob goes out
    assert table.session.status == Status.FINISHED and table.session.result.winner == 1
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_draw_to_match_and_force_play(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC H force_play: holding a playable card there is no Draw (nor Keep for a playable drawn card);
    draw_to_match: one draw brings cards until a playable one, and says how many."""
    lay_out(monkeypatch, ["R1 R2", "B3 Y4"], "R5 B6 Y7 G8 R9 G1 G2")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(emulator, world, bot, 2, draw_to_match=True, force_play=True)
    alice, bob, _ = world["users"]
    assert "Draw to match" in table.lobby_text and "Force play" in table.lobby_text  # type: ignore[attr-defined]
    alice_hand = await table.open_hand(alice)
    assert button(alice_hand, "draw") is None and "you may not draw" in alice_hand.text
    assert "or draw" not in alice_hand.text  # one hint, as the controls are (issue 18 point 5)
    await play(table, alice, alice_hand, "Red 1", uno=True)
    bob_hand = await table.open_hand(bob)
    assert button(bob_hand, "draw") is not None, "nothing playable: drawing is allowed"
    await emulator.click(bob, bob_hand, button(bob_hand, "draw").custom_id)
    assert "Draw to match: you drew 4 cards." in bob_hand.text
    assert button(bob_hand, "keep") is None, "force play: the playable card drawn must be played"
    # and the hint says so: no "play it or keep it" beside a hand without Keep (issue 18 point 5: one coherent hint)
    assert "or keep it" not in bob_hand.text
    assert "play it (force play: you may not keep a playable card)" in bob_hand.text
    log = log_text(table)
    assert "Bob drew 4 cards" in log and "Bob drew 1 card" not in log
    await play(table, bob, bob_hand, "Red 9")
    await play(table, alice, alice_hand, "Red 2")
    assert table.session.status == Status.FINISHED and table.session.result.winner == 0
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_seven_swaps_with_a_chosen_player_and_zero_passes_every_hand_on(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC H seven_zero: the 7 opens a target picker before anything is sent; each player is told privately whose
    hand they received; the public log says who swapped and that the hands passed on."""
    lay_out(monkeypatch, ["R7 B1 B2", "R0 G0", "Y3 Y4 Y5"], "R5 B7 B8 B9")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(emulator, world, bot, 3, seven_zero=True)
    alice, bob, carol = world["users"]
    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    version = table.session.version
    await play(table, alice, hands[alice.id], "Red 7")
    alice_hand = hands[alice.id]
    assert "swap hands with whom?" in alice_hand.text and table.session.version == version, "nothing sent yet"
    (picker,) = [s for s in alice_hand.selects() if s.custom_id.startswith("uno:hs:target")]
    assert sorted(o.label for o in picker.options) == ["Bob · 2 cards", "Carol · 3 cards"]
    await emulator.select(alice, alice_hand, picker.custom_id, ["2"])
    assert "You now hold Carol's hand (3 cards)." in alice_hand.text and "Yellow 3" in alice_hand.text
    assert "You now hold Alice's hand (2 cards)." in hands[carol.id].text and "Blue 1" in hands[carol.id].text
    assert "You now hold" not in hands[bob.id].text
    assert "Alice swapped hands with Carol" in log_text(table)
    for message in emulator.public_messages(world["channel"]):
        assert "You now hold" not in message.text
    await play(table, bob, hands[bob.id], "Red 0", uno=True)
    assert "Every hand passed one seat on, clockwise" in log_text(table)
    assert "You now hold Alice's hand (3 cards)." in hands[bob.id].text
    assert "You now hold Bob's hand (1 card)." in hands[carol.id].text and "Green 0" in hands[carol.id].text
    assert "You now hold Carol's hand (2 cards)." in hands[alice.id].text
    await play(table, carol, hands[carol.id], "Green 0")
    assert table.session.status == Status.FINISHED and table.session.result.winner == 2
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


@pytest.mark.parametrize(("images", "jumper_first"), [(False, True), (False, False), (True, True)])
async def test_jump_in_race_first_accepted_wins_the_other_is_too_late(
    emulator: DiscordEmulator,
    world: dict[str, Any],
    bot_starter: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    images: bool,
    jumper_first: bool,
) -> None:
    """SPEC H jump_in: the Jump in! control appears at once on the hand of the player holding a card identical to
    the top, and only while they can; the current player and the jumper click at the same moment: the first accepted
    plays, the other is told "too late" (only them), and the match goes on from the winner."""
    lay_out(monkeypatch, ["R3 G7 G8", "R8 B2 B4", "R3 Y6 Y7"], "R5 G1 G2 B1 B3 Y1 Y2 G4 B5 Y8")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(emulator, world, bot, 3, jump_in=True)
    if images:
        await emulator.slash(world["users"][2], world["channel"], "uno settings", card_images=True)
    alice, bob, carol = world["users"]
    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    assert button(hands[carol.id], "jump") is None, "nothing identical to the opening Red 5"
    await play(table, alice, hands[alice.id], "Red 3")
    carol_hand, bob_hand = hands[carol.id], hands[bob.id]
    jump = button(carol_hand, "jump")
    assert jump is not None and jump.label.startswith("Jump in!"), "shown at once, without a click"
    assert button(bob_hand, "jump") is None and button(hands[alice.id], "jump") is None
    custom_id, value = option_value(bob_hand, "Red 8")
    clicks = [
        emulator.click(carol, carol_hand, jump.custom_id, settle=False),
        emulator.select(bob, bob_hand, custom_id, [value], settle=False),
    ]
    await asyncio.gather(*(clicks if jumper_first else clicks[::-1]))  # both sent before either is answered
    await emulator.settle()
    game = table.session.game
    log = log_text(table)
    if game.top.number == 3:  # Carol's jump was accepted first: play goes on from her (Alice next)
        assert "Carol jumped in!" in log and "Bob played" not in log
        assert "Too late" in bob_hand.text and "Too late" not in carol_hand.text
        assert game.pending == 0
    else:  # Bob's play was first: the Red 3 is no longer on top
        assert game.top.number == 8 and "jumped in" not in log
        assert "Too late" in carol_hand.text and "Too late" not in bob_hand.text
    assert button(carol_hand, "jump") is None, "the control goes as soon as it cannot be used"
    for message in emulator.public_messages(world["channel"]):
        assert "Too late" not in message.text
    await finish(table, hands)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_jumping_in_with_a_seven_picks_whom_to_swap_with_first(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC H jump_in with seven_zero: a 7 that jumps in asks for the player to swap hands with before it is sent."""
    lay_out(monkeypatch, ["R7 G1 G2", "B5 B6", "R7 Y2 Y3 Y4"], "R4", rest="bottom")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(emulator, world, bot, 3, seven_zero=True, jump_in=True)
    alice, bob, carol = world["users"]
    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}
    await play(table, alice, hands[alice.id], "Red 7")
    (picker,) = [s for s in hands[alice.id].selects() if s.custom_id.startswith("uno:hs:target")]
    await emulator.select(alice, hands[alice.id], picker.custom_id, ["1"])
    carol_hand = hands[carol.id]
    version = table.session.version
    await emulator.click(carol, carol_hand, button(carol_hand, "jump").custom_id)
    assert "swap hands with whom?" in carol_hand.text and table.session.version == version, "nothing sent yet"
    (picker,) = [s for s in carol_hand.selects() if s.custom_id.startswith("uno:hs:jump")]
    await emulator.select(carol, carol_hand, picker.custom_id, ["0"])
    log = log_text(table)
    assert "Carol jumped in!" in log and "Carol swapped hands with Alice" in log
    assert "You now hold Alice's hand (2 cards)." in carol_hand.text and "Blue 5" in carol_hand.text
    assert "You now hold Carol's hand (3 cards)." in hands[alice.id].text
    assert table.session.game.pending == 0, "play goes on from the jumper"
    await finish(table, hands)
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_a_match_with_every_house_rule_on_and_an_ai_seat(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every house rule at once, with an AI seat playing by them (it stacks, swaps, jumps in): a seeded one-round
    match played out through the hands."""
    original = Game.new  # bound to Game: the compiled engine's classmethods have no __func__

    def new(cls: type[Game], mode: Any, players: int, **kw: Any) -> tuple[Game, list[Event]]:
        kw["seed"] = 20261201
        return original(mode, players, **kw)

    monkeypatch.setattr(Game, "new", classmethod(new))
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, bob, carol = world["users"]
    channel = world["channel"]
    await emulator.slash(carol, channel, "uno settings", card_images=False)
    await emulator.slash(
        alice,
        channel,
        "uno new",
        game="classic",
        target=0,
        stacking="any_draw",
        draw_to_match=True,
        force_play=True,
        seven_zero=True,
        jump_in=True,
    )
    table = Table(emulator, bot, channel, [alice, bob])
    lobby = table.public_message()
    await emulator.click(bob, lobby, label="Join")
    await emulator.click(alice, lobby, label="Add AI")
    await emulator.click(alice, lobby, label="Start")
    await emulator.settle()
    await finish(table, {})
    emulator.assert_all_interactions_answered_once(max_latency=3.0)


async def test_seven_zero_is_refused_outside_classic(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """SPEC H: seven_zero is a classic rule; asking for it in UNO FLIP opens nothing and says so, only to the host."""
    await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    res = await emulator.slash(alice, world["channel"], "uno new", game="flip", seven_zero=True)
    (answer,) = res.ephemeral_messages
    assert answer.visible_to == alice.id and not emulator.public_messages(world["channel"])


async def test_a_servers_saved_house_rules_are_the_defaults_of_uno_new(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path
) -> None:
    """/uno settings (its Default rules panel) saves house rules as the defaults of /uno new (SPEC H, issue 9); a saved
    classic-only rule is left out of a UNO FLIP table instead of refusing it."""
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice, _, carol = world["users"]
    channel = world["channel"]
    await set_default_rules(emulator, carol, channel, stacking="any_draw", seven_zero=True)
    res = await emulator.slash(carol, channel, "uno settings")
    (saved,) = res.ephemeral_messages
    assert "Stacking: any draw card on any" in saved.text and "Seven-zero" in saved.text
    await emulator.slash(alice, channel, "uno new", game="classic")
    session = bot.manager.sessions[channel.id]
    assert session.options.stacking == "any_draw" and session.options.seven_zero
    assert "Seven-zero" in emulator.message(session.ui.message).text
    await emulator.slash(alice, channel, "uno end")
    await emulator.slash(alice, channel, "uno new", game="flip", jump_in=True)
    session = bot.manager.sessions[channel.id]
    assert session.options.stacking == "any_draw" and session.options.jump_in and not session.options.seven_zero


async def test_h6_h7_h8_several_fives_a_deflected_stack_and_a_wild_that_cannot_be_the_last_card(
    emulator: DiscordEmulator, world: dict[str, Any], bot_starter: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC H8 multi_play: Alice plays three 5s from **Play several…**, the green one on top; H7 stack_deflect: Bob's
    +2 is sent back by Carol's Green Reverse and Bob takes it; H6 number_finish: Alice, down to a Wild, is told to
    draw and offered no play. The players read only what Discord shows them."""
    lay_out(monkeypatch, ["R5 B5 G5 G9 W", "G+2 RR B1", "GR G3 Y1"], "R3 Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    table = await open_table(
        emulator, world, bot, 3, multi_play=True, stacking="same_kind", stack_deflect=True, number_finish=True
    )
    alice, bob, carol = world["users"]
    lobby = table.lobby_text  # type: ignore[attr-defined]
    assert "Multi-play" in lobby and "Stack deflect" in lobby and "Number finish" in lobby
    hands = {u.id: await table.open_hand(u) for u in (alice, bob, carol)}

    alice_hand = hands[alice.id]
    (several,) = [s for s in alice_hand.selects() if s.custom_id.startswith("uno:hs:many:")]
    assert several.placeholder == "Play several…"
    choice = next(o for o in several.options if o.label.endswith("Green 5 on top"))
    await emulator.select(alice, alice_hand, several.custom_id, [choice.value])
    log = table.public_message().text
    played = [line.rsplit(" ", 2)[-2:] for line in log.splitlines() if line.startswith("Alice played")]
    assert played == [["Red", "5"], ["Blue", "5"], ["Green", "5"]], log
    assert table.session.game.top.colour.value == "green"

    await play(table, bob, hands[bob.id], "Green Draw Two")
    carol_hand = hands[carol.id]
    assert "+2 on you" in carol_hand.text and "send it on with a Reverse or Skip" in carol_hand.text
    await play(table, carol, carol_hand, "Green Reverse")
    bob_hand = hands[bob.id]
    assert "+2 on you" in bob_hand.text and "+2** on" in table.public_message().text
    await emulator.click(bob, bob_hand, button(bob_hand, "accept").custom_id)
    assert "Bob drew 2 cards" in log_text(table) and "Carol drew" not in log_text(table)

    await play(table, alice, alice_hand, "Green 9", uno=True)  # the direction was turned: Carol is next
    await play(table, carol, carol_hand, "Green 3", uno=True)
    await emulator.click(bob, bob_hand, button(bob_hand, "draw").custom_id)  # Yellow 4: nothing to play
    await emulator.settle()
    assert table.session.game.pending == 0
    alice_hand = await table.open_hand(alice)
    assert "Wild is your last card and not a number: you may not go out on it, so draw." in alice_hand.text
    assert not [s for s in alice_hand.selects() if s.custom_id.startswith("uno:hs:play")]
    assert button(alice_hand, "draw") is not None
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
