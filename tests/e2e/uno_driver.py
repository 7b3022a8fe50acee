"""Drive the real UNO bot through the emulator like players would: slash commands, buttons and selects only.

The simulated humans read only what Discord shows them (their ephemeral hand, the public table); they choose moves
with a seeded random generator. The test may peek at the engine state solely to know whose turn it is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.adapter.clock import Clock
from bot.adapter.manager import Limits
from bot.client import UnoBot
from bot.config import Settings
from tests.discord_emulator import Channel, DiscordEmulator, Guild, Message, User

from .seeding import current_seed


def make_bot(
    emulator: DiscordEmulator,
    db: Path,
    guild: Guild,
    *,
    seed: int | None = None,
    clock: Clock | None = None,
    card_emojis: bool = False,
    components_v2: bool = True,
    **limits: Any,
) -> UnoBot:
    """The real bot, talking to ``emulator``, its deals seeded with ``seed`` (default: the test's seed); with
    ``card_emojis`` it syncs and shows the card emojis (issue 18 point 1; off by default: the other tests read the
    Unicode marks); its messages are Components V2 (issue 18 point 2) unless ``components_v2=False`` (embeds)."""
    settings = Settings(
        token=emulator.token,
        database=db,
        dev_guild_id=guild.id,
        card_emojis=card_emojis,
        components_v2=components_v2,
    )
    defaults = {"ai_delay": 0.0, "ai_catch_delay": 0.0, "round_pause": 3600.0}
    defaults.update(limits)
    rng = random.Random(current_seed() if seed is None else seed)
    return UnoBot(settings, clock=clock, limits=Limits(**defaults), rng=rng, guild_ready_timeout=0.05)


#: The name prefix of every task the adapter and the publisher start (timers and AI moves, fan-out, the publisher's
#: channel and hand workers).
ADAPTER_TASKS = "uno-adapter"


def settle_waits_for_the_adapter(emulator: DiscordEmulator) -> None:
    """Make ``emulator.settle()`` wait for the adapter's tasks too, not only discord.py's handlers: the publisher edits
    the table and the channel's line after the command was answered (issue 20 point 1)."""
    if ADAPTER_TASKS not in emulator.settle_task_prefixes:
        emulator.settle_task_prefixes = (*emulator.settle_task_prefixes, ADAPTER_TASKS)


@dataclass
class Table:
    emulator: DiscordEmulator
    bot: UnoBot
    channel: Channel
    users: list[User]
    rng: random.Random = field(default_factory=lambda: random.Random(current_seed() + 1))
    settle: bool = True  # wait for the whole bot to go quiet after each click (False: only for the acknowledgement)
    poll: float = 0.001  # without settling: how often to look for the bot's update of a message
    #: How often a hand with a playable card plays one rather than drawing (or keeping a drawn card): the rest of the
    #: time it draws, as a player may. A test that needs rounds to end soon plays always (1.0).
    play_rate: float = 0.9

    def __post_init__(self) -> None:
        settle_waits_for_the_adapter(self.emulator)

    @property
    def session(self) -> Any:
        return self.bot.manager.sessions.get(self.channel.id)

    @property
    def view(self) -> Any:
        """The session as last committed (what the bot shows)."""
        return self.bot.manager.snapshot(self.channel.id)

    def republish(self) -> None:
        """The test changed the live game directly (to lay out a position): let the bot show it as committed."""
        from bot.adapter import SessionView

        self.bot.manager.published[self.channel.id] = SessionView.of(self.session)

    def public_message(self) -> Message:
        """The lobby/table message of the session."""
        mid = self.session.ui.message
        return self.emulator.message(int(mid))

    def user_of(self, seat: int) -> User | None:
        uid = self.session.seats[seat].user_id
        return next((u for u in self.users if u.id == uid), None)

    async def open_hand(self, user: User) -> Message:
        res = await self.emulator.click(user, self.public_message(), label="Show my hand", settle=self.settle)
        (hand,) = res.ephemeral_messages
        if not self.settle:  # a hand with a card image is deferred first, then filled in
            await self.emulator.wait_until(
                lambda: not hand.loading, what="the hand to be filled in", interval=self.poll
            )
        return hand

    async def _on_hand(self, user: User, hand: Message, custom_id: str, values: list[str] | None = None) -> None:
        """Click (or select ``values`` in) ``custom_id`` on the hand; without settling, wait for the hand's update."""
        revisions = len(hand.history)
        if values is None:
            await self.emulator.click(user, hand, custom_id, settle=self.settle)
        else:
            await self.emulator.select(user, hand, custom_id, values, settle=self.settle)
        if not self.settle:
            await self.emulator.wait_until(
                lambda: len(hand.history) > revisions, what="the hand to be updated", interval=self.poll
            )

    async def take_turn(self, user: User, hand: Message) -> Message:
        """One decision from ``user``'s ephemeral hand (play, draw, keep, challenge…). Returns the hand message."""
        buttons = {
            b.custom_id.split(":")[2]: b for b in hand.buttons() if b.custom_id and b.custom_id.startswith("uno:h:")
        }
        selects = [s for s in hand.selects() if s.custom_id and s.custom_id.startswith("uno:hs:play")]
        if "declare" in buttons or any(b.custom_id.startswith("uno:h:declare") for b in hand.buttons()):
            declare = [b for b in hand.buttons() if b.custom_id.startswith("uno:h:declare")]
            await self._on_hand(user, hand, self.rng.choice(declare).custom_id)
            return hand
        if "challenge" in buttons:
            verb = "challenge" if self.rng.random() < 0.5 else "accept"
            await self._on_hand(user, hand, buttons[verb].custom_id)
            return hand
        if "accept" in buttons and (not selects or self.rng.random() < 0.5):  # a stack: take it (SPEC H)
            await self._on_hand(user, hand, buttons["accept"].custom_id)
            return hand
        if selects and self.rng.random() < self.play_rate:
            select = selects[0]
            option = self.rng.choice(select.options)
            await self._on_hand(user, hand, select.custom_id, [option.value])
            return await self.finish_pickers(user, hand)
        if "draw" in buttons:
            await self._on_hand(user, hand, buttons["draw"].custom_id)
        elif "keep" in buttons:
            await self._on_hand(user, hand, buttons["keep"].custom_id)
        elif "refresh" in buttons:
            await self._on_hand(user, hand, buttons["refresh"].custom_id)
        return hand

    async def finish_pickers(self, user: User, hand: Message) -> Message:
        for _ in range(3):
            targets = [s for s in hand.selects() if s.custom_id and s.custom_id.startswith("uno:hs:target")]
            if targets:
                option = self.rng.choice(targets[0].options)
                await self._on_hand(user, hand, targets[0].custom_id, [option.value])
                continue
            colours = [b for b in hand.buttons() if b.custom_id and b.custom_id.startswith("uno:h:colour")]
            if colours:
                await self._on_hand(user, hand, self.rng.choice(colours).custom_id)
                continue
            break
        return hand


def uno_world(emulator: DiscordEmulator) -> dict[str, Any]:
    """A server "UNO Club" with a channel #uno and three players: alice, bob and carol (carol may manage the server)."""
    guild = emulator.add_guild("UNO Club", locale="en-US", channels=("general", "uno"))
    users = [
        emulator.add_user("alice", locale="en-US", guild=guild),
        emulator.add_user("bob", locale="en-GB", guild=guild),
        emulator.add_user("carol", locale="en-US", guild=guild, manage_guild=True),
    ]
    return {"guild": guild, "channel": guild.channel("uno"), "users": users}


async def start_two_player_game(
    emulator: DiscordEmulator, world: dict[str, Any], bot: Any, game: str = "classic"
) -> Table:
    """alice opens a game in #uno, bob joins, alice starts it; returns the table once the bot is quiet."""
    alice, bob, _ = world["users"]
    channel = world["channel"]
    await emulator.slash(alice, channel, "uno new", game=game)
    table = Table(emulator, bot, channel, [alice, bob])
    await emulator.click(bob, table.public_message(), label="Join")
    await emulator.click(alice, table.public_message(), label="Start")
    await emulator.settle()
    return table
