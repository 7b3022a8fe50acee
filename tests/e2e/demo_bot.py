"""A tiny sample bot (not the UNO bot) that exercises what the emulator must support.

``/demo`` subcommands: ``panel`` (ephemeral view: buttons + string select), ``counter`` (public DynamicItem
button that edits its message), ``picture`` (defer, then edit ``@original`` with a PNG), ``echo`` (options of
every common type, followups), ``settings`` (needs Manage Server), ``double`` (acknowledges twice, racing),
``post`` (channel message, survives 403), ``later`` (keeps its interaction to edit after the token expired),
``slow`` (waits for ``gate``), ``find`` (autocomplete), ``feedback`` (modal), ``edit`` (posts a channel message,
then edits it), ``v2`` (a deferred ephemeral answer made Components V2 by its edit, then edits that try to take
V2 off); and ``/config`` (top level, default permission Manage Server). ``ShardedDemoBot`` is the same bot
on ``commands.AutoShardedBot``.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
COLOURS = ["red", "green", "blue", "yellow"]


@dataclass
class Seen:
    """What the bot observed, for the tests to check."""

    interactions: list[dict[str, Any]] = field(default_factory=list)
    clicks: list[tuple[str, int, list[str]]] = field(default_factory=list)
    errors: list[Exception] = field(default_factory=list)
    kept: discord.Interaction | None = None


def describe(interaction: discord.Interaction, **extra: Any) -> dict[str, Any]:
    return {
        "user_id": interaction.user.id,
        "is_member": isinstance(interaction.user, discord.Member),
        "locale": interaction.locale,
        "guild_locale": interaction.guild_locale,
        "guild_id": interaction.guild_id,
        "guild_name": interaction.guild.name if interaction.guild else None,
        "channel_id": interaction.channel_id,
        "channel_name": getattr(interaction.channel, "name", None),
        "permissions": interaction.permissions,
        "app_permissions": interaction.app_permissions,
        "command": interaction.command.qualified_name if interaction.command else None,
        **extra,
    }


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<count>\d+)"):
    """Persistent across restarts: the count lives in the custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count: {count}", custom_id=f"demo:count:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> CounterButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: DemoBot = interaction.client  # type: ignore[assignment]
        bot.seen.clicks.append((self.custom_id, interaction.user.id, []))
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.count + 1))
        await interaction.response.edit_message(content=f"Counter: {self.count + 1}", view=view)


class PanelView(discord.ui.View):
    def __init__(self, seen: Seen) -> None:
        super().__init__(timeout=60)
        self.seen = seen

    @discord.ui.button(label="Ping", custom_id="panel:ping", style=discord.ButtonStyle.success, emoji="🏓")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.seen.clicks.append(("panel:ping", interaction.user.id, []))
        await interaction.response.send_message("Pong!", ephemeral=True)

    @discord.ui.button(label="Refresh", custom_id="panel:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # type 6: deferred update of the panel
        await interaction.edit_original_response(content="Refreshed", view=self)

    @discord.ui.select(
        custom_id="panel:colour",
        placeholder="Pick colours",
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in COLOURS],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        self.seen.clicks.append(("panel:colour", interaction.user.id, list(select.values)))
        await interaction.response.edit_message(content=f"Picked {', '.join(select.values)}", view=self)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Your feedback", custom_id="feedback:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


class Demo(commands.GroupCog, group_name="demo", group_description="Emulator demo"):
    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @app_commands.command(description="An ephemeral panel with a button and a select")
    async def panel(self, interaction: discord.Interaction) -> None:
        self.bot.seen.interactions.append(describe(interaction))
        await interaction.response.send_message("Your panel", view=PanelView(self.bot.seen), ephemeral=True)

    @app_commands.command(description="A public counter that survives restarts")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("Counter: 0", view=view)

    @app_commands.command(description="Defers, then sends a picture")
    async def picture(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)  # "rendering"
        file = discord.File(io.BytesIO(PNG), filename="card.png", description="a card")
        embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
        await interaction.edit_original_response(content="Here it is", embed=embed, attachments=[file])

    @app_commands.command(description="Echoes text")
    @app_commands.describe(text="What to say", times="How often", loud="Shout", target="Who to mention")
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        times: app_commands.Range[int, 1, 3] = 1,
        loud: bool = False,
        target: discord.Member | None = None,
        mood: Literal["happy", "sad"] = "happy",
    ) -> None:
        self.bot.seen.interactions.append(
            describe(interaction, text=text, times=times, loud=loud, target=target, mood=mood)
        )
        said = text.upper() if loud else text
        await interaction.response.send_message(said)
        for _ in range(times - 1):
            await interaction.followup.send(said)
        if target is not None:
            await interaction.followup.send(f"Psst {target.mention}", ephemeral=True)

    @app_commands.command(description="Server settings")
    @app_commands.checks.has_permissions(manage_guild=True)  # default_permissions only work on top-level commands
    async def settings(self, interaction: discord.Interaction) -> None:
        self.bot.seen.interactions.append(describe(interaction))
        await interaction.response.send_message("Settings", ephemeral=True)

    @app_commands.command(description="Acknowledges twice (a bug)")
    async def double(self, interaction: discord.Interaction) -> None:
        results = await asyncio.gather(
            interaction.response.send_message("one"), interaction.response.send_message("two"), return_exceptions=True
        )
        self.bot.seen.errors += [r for r in results if isinstance(r, Exception)]

    @app_commands.command(description="Posts in the channel")
    async def post(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send("posted")
        except discord.HTTPException as e:
            self.bot.seen.errors.append(e)
            await interaction.response.send_message("I cannot post here", ephemeral=True)
        else:
            await interaction.response.send_message("done", ephemeral=True)

    @app_commands.command(description="Posts a channel message, then edits it")
    async def edit(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await interaction.channel.send("draft")
        await message.edit(content="final")
        await interaction.edit_original_response(content="edited")

    @app_commands.command(description="Answers now, edits later")
    async def later(self, interaction: discord.Interaction) -> None:
        self.bot.seen.kept = interaction
        await interaction.response.send_message("soon", ephemeral=True)

    @app_commands.command(description="Waits for the test to open the gate")
    async def slow(self, interaction: discord.Interaction) -> None:
        await self.bot.gate.wait()
        await interaction.response.send_message("slow")

    @app_commands.command(description="Finds a colour")
    async def find(self, interaction: discord.Interaction, colour: str) -> None:
        await interaction.response.send_message(f"Found {colour}")

    @find.autocomplete("colour")
    async def find_colour(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c.title(), value=c) for c in COLOURS if c.startswith(current)]

    @app_commands.command(description="A deferred ephemeral answer that becomes Components V2")
    async def v2(self, interaction: discord.Interaction) -> None:
        """Tries the IS_COMPONENTS_V2 flag on the deferred ack (refused), defers as discord.py does (EPHEMERAL only),
        fills @original with a LayoutView (discord.py sets the flag on that edit), then tries to downgrade it: an
        edit with content, one with an embed, one that drops the flag (all refused)."""
        http = interaction.client.http
        callback = discord.http.Route(
            "POST", "/interactions/{i_id}/{i_token}/callback", i_id=interaction.id, i_token=interaction.token
        )
        original = discord.http.Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=interaction.application_id,
            webhook_token=interaction.token,
        )
        try:
            await http.request(callback, json={"type": 5, "data": {"flags": 64 | 32768}}, params={"with_response": 1})
        except discord.HTTPException as e:
            self.bot.seen.errors.append(e)
        await interaction.response.defer(ephemeral=True, thinking=True)
        layout = discord.ui.LayoutView()
        layout.add_item(discord.ui.Container(discord.ui.TextDisplay("### Your hand\n5 cards"), accent_colour=0xE53935))
        await interaction.edit_original_response(view=layout)
        for downgrade in (
            interaction.edit_original_response(content="plain"),
            interaction.edit_original_response(embed=discord.Embed(title="old")),
            http.request(original, json={"flags": 64, "content": "plain", "components": []}),
        ):
            try:
                await downgrade
            except discord.HTTPException as e:
                self.bot.seen.errors.append(e)

    @app_commands.command(description="Opens a feedback form")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())


@app_commands.command(description="Top-level command hidden from members without Manage Server")
@app_commands.default_permissions(manage_guild=True)
async def config(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Config", ephemeral=True)


class DemoBot(commands.Bot):
    """Syncs ``/demo`` to ``dev_guild_id`` (guild commands) or globally. ``options`` go to discord.py (e.g.
    ``shard_id``, ``shard_count``).

    ``identify_delay``: seconds to wait before each IDENTIFY but a shard's first (None: discord.py's own
    ``before_identify_hook``, 5 s, Discord's identify rate limit, which the emulator does not enforce).
    ``identified`` records each call: ``(shard_id, initial)``.
    """

    def __init__(self, dev_guild_id: int | None = None, *, identify_delay: float | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,
        )
        self.dev_guild_id = dev_guild_id
        self.identify_delay = identify_delay
        self.identified: list[tuple[int | None, bool]] = []
        self.seen = Seen()
        self.gate = asyncio.Event()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        self.identified.append((shard_id, initial))
        if self.identify_delay is None:
            await super().before_identify_hook(shard_id, initial=initial)
        elif not initial:
            await asyncio.sleep(self.identify_delay)

    async def setup_hook(self) -> None:
        await self.add_cog(Demo(self))
        self.tree.add_command(config)
        self.add_dynamic_items(CounterButton)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.seen.errors.append(error)
        if not interaction.response.is_done():
            await interaction.response.send_message(f"Error: {type(error).__name__}", ephemeral=True)


class ShardedDemoBot(DemoBot, commands.AutoShardedBot):
    """``DemoBot`` on ``commands.AutoShardedBot``: without ``shard_count`` it runs every shard ``GET /gateway/bot``
    recommends, in one process."""
