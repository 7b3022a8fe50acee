"""Persistent components: ``discord.ui.DynamicItem`` subclasses whose custom_id carries everything needed, so they
keep working after a restart. Each parses and validates its id (see :mod:`cogs.uno.ids`) and hands the click to the
cog (``interaction.client.get_cog("Uno")``); nothing else happens here."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord

from . import ids

if TYPE_CHECKING:
    from .cog import UnoCog


def release(view: discord.ui.View | None) -> None:
    """Detach a view's items from it, breaking the view ↔ item reference cycle (see
    :meth:`cogs.uno.screens.Screen.dispose`)."""
    if view is not None:
        view.clear_items()


@contextlib.contextmanager
def _handling(item: discord.ui.Item[Any]) -> Iterator[None]:
    """Around a callback: afterwards, detach the view discord.py rebuilt from the clicked message (it holds a cycle
    with its items, left to the cyclic garbage collector otherwise; see :meth:`cogs.uno.screens.Screen.dispose`)."""
    try:
        yield
    finally:
        release(item.view)


def _cog(interaction: discord.Interaction[Any]) -> UnoCog:
    from .cog import UnoCog

    cog = interaction.client.get_cog("Uno")
    assert isinstance(cog, UnoCog)
    return cog


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=ids.lobby_id(verb, channel), disabled=disabled)
        )
        self.verb = verb
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["verb"], int(match["channel"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            await _cog(interaction).on_lobby(interaction, self.verb, self.channel)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.TABLE_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=ids.table_id(verb, channel), emoji=emoji, disabled=disabled, row=row
            )
        )
        self.verb = verb
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(match["verb"], int(match["channel"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            await _cog(interaction).on_table(interaction, self.verb, self.channel)


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.DECISION_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        fp: str,
        arg: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=ids.decision_id(verb, channel, fp, arg), emoji=emoji, row=row
            )
        )
        self.verb, self.channel, self.fp, self.arg = verb, channel, fp, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DecisionButton:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            await _cog(interaction).on_decision(interaction, self.verb, self.channel, self.fp, self.arg)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.HAND_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        fp: str,
        arg: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=ids.hand_id(verb, channel, fp, arg),
                emoji=emoji,
                row=row,
                disabled=disabled,
            )
        )
        self.verb, self.channel, self.fp, self.arg = verb, channel, fp, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            await _cog(interaction).on_hand(interaction, self.verb, self.channel, self.fp, self.arg, [])


class HandSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.HAND_SELECT_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        fp: str,
        arg: str,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        *,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=ids.hand_select_id(verb, channel, fp, arg),
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-", value="0")],
                row=row,
            )
        )
        self.verb, self.channel, self.fp, self.arg = verb, channel, fp, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandSelect:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            data: Any = interaction.data or {}
            values = [str(v) for v in data.get("values", [])]
            await _cog(interaction).on_hand(interaction, self.verb, self.channel, self.fp, self.arg, values)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LEADERBOARD_RE):
    def __init__(
        self,
        guild: int | None,
        mode: str | None,
        page: int,
        direction: str,
        label: str = "",
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=ids.leaderboard_id(guild, mode, page, direction),
                disabled=disabled,
            )
        )
        self.guild, self.mode, self.page = guild, mode, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardButton:
        guild = int(match["guild"]) or None
        mode = None if match["mode"] == "all" else match["mode"]
        return cls(guild, mode, int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with _handling(self):
            await _cog(interaction).on_leaderboard_page(interaction, self.guild, self.mode, self.page)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TableButton,
    DecisionButton,
    HandButton,
    HandSelect,
    LeaderboardButton,
)
