"""Persistent components: ``discord.ui.DynamicItem`` subclasses whose custom_id carries everything needed, so they
keep working after a restart. Each parses and validates its id (see :mod:`cogs.uno.screens.ids`) and hands the click to
the cog's handlers (found through ``interaction.client.get_cog("Uno")``); nothing else happens here.

What the components need of the cog is written here as protocols (:class:`Handlers`), which
:class:`~cogs.uno.cog.UnoCog` meets (mypy checks it there): this module imports nothing of the cog, so the modules
that build components (the screens) do not depend on the cog that holds everything (issue 17 point 4)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar, cast

import discord

from . import ids

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]


class PanelHandlers(Protocol):
    """The lobby's rule panel (:class:`~cogs.uno.input.panel.RulesPanel`): its menus."""

    async def on_select(
        self, interaction: Interaction, verb: str, channel: int, arg: str, values: list[str]
    ) -> None: ...


class DefaultsHandlers(Protocol):
    """The server's default-rules panel of ``/uno settings`` (:class:`~cogs.uno.input.defaults.DefaultsPanel`)."""

    async def open(self, interaction: Interaction, guild: int) -> None: ...

    async def on_select(self, interaction: Interaction, verb: str, guild: int, arg: str, values: list[str]) -> None: ...


class ClickHandlers(Protocol):
    """The handlers of the game's clicks (:class:`~cogs.uno.input.clicks.Clicks`)."""

    @property
    def panel(self) -> PanelHandlers: ...

    async def on_lobby(self, interaction: Interaction, verb: str, channel: int, fp: str | None = None) -> None: ...

    async def on_table(self, interaction: Interaction, verb: str, channel: int) -> None: ...

    async def on_decision(self, interaction: Interaction, verb: str, channel: int, fp: str, arg: str) -> None: ...

    async def on_hand(
        self, interaction: Interaction, verb: str, channel: int, fp: str, arg: str, values: list[str]
    ) -> None: ...


class Handlers(Protocol):
    """What the persistent components call (:class:`~cogs.uno.cog.UnoCog`): the clicks of a game, and the pages of
    the leaderboard, of a player's history and of a match's recap."""

    @property
    def clicks(self) -> ClickHandlers: ...

    @property
    def defaults(self) -> DefaultsHandlers: ...

    async def on_leaderboard_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, page: int, order: str = "wins"
    ) -> None: ...

    async def on_history_page(self, interaction: Interaction, user: int, guild: int | None, page: int) -> None: ...

    async def on_recap(self, interaction: Interaction, match_key: str) -> None: ...

    async def on_season_page(
        self, interaction: Interaction, guild: int | None, mode: str | None, season: str, page: int
    ) -> None: ...


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


def _values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a select's interaction carries (none when Discord sent none)."""
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values", [])]


def _panel_select(
    custom_id: str,
    placeholder: str,
    options: list[discord.SelectOption] | None,
    row: int | None,
    min_values: int,
    max_values: int,
) -> discord.ui.Select[Any]:
    """A select of a rule panel (the lobby's or the server's defaults): Discord's 150-character placeholder, and one
    stand-in option when rebuilt from a custom_id alone."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150],
        options=options or [discord.SelectOption(label="-", value="-")],
        row=row,
        min_values=min_values,
        max_values=max_values,
    )


def _cog(interaction: discord.Interaction[Any]) -> Handlers:
    """The loaded UNO cog's handlers. Raises ``RuntimeError`` when the cog is not loaded."""
    cog = interaction.client.get_cog("Uno")
    if cog is None:
        raise RuntimeError("the UNO cog is not loaded")
    return cast("Handlers", cog)


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class UnoItem(discord.ui.DynamicItem[ItemT], template=r"uno:(?!)"):
    """The base of every persistent component (never registered itself: its template matches nothing). A subclass
    gives its ``template=``, :meth:`from_match` (rebuild the item from a matched custom_id) and :meth:`handle`."""

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls.from_match(match)

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py's entry point (typed for any client); this bot's interactions carry an :class:`UnoBot`."""
        with _handling(self):
            await self.handle(_cog(interaction), interaction)


class LobbyButton(UnoItem[discord.ui.Button[Any]], template=ids.LOBBY_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
        row: int | None = None,
        fp: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=ids.lobby_id(verb, channel, fp), disabled=disabled, row=row
            )
        )
        self.verb = verb
        self.channel = channel
        self.fp = fp

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]), fp=match["fp"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.clicks.on_lobby(interaction, self.verb, self.channel, self.fp)


class TableButton(UnoItem[discord.ui.Button[Any]], template=ids.TABLE_RE):
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
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]))

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.clicks.on_table(interaction, self.verb, self.channel)


class DecisionButton(UnoItem[discord.ui.Button[Any]], template=ids.DECISION_RE):
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
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.clicks.on_decision(interaction, self.verb, self.channel, self.fp, self.arg)


class HandButton(UnoItem[discord.ui.Button[Any]], template=ids.HAND_RE):
    def __init__(
        self,
        verb: str,
        channel: int,
        fp: str,
        arg: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | discord.PartialEmoji | None = None,
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
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.clicks.on_hand(interaction, self.verb, self.channel, self.fp, self.arg, [])


class HandSelect(UnoItem[discord.ui.Select[Any]], template=ids.HAND_SELECT_RE):
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
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]), match["fp"], match["arg"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        values = _values(interaction)
        await cog.clicks.on_hand(interaction, self.verb, self.channel, self.fp, self.arg, values)


class RuleSelect(UnoItem[discord.ui.Select[Any]], template=ids.RULES_RE):
    """A select of the lobby's rule panel (:mod:`cogs.uno.input.panel`)."""

    def __init__(
        self,
        verb: str,
        channel: int,
        arg: str = "",
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        *,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            _panel_select(ids.rules_id(verb, channel, arg), placeholder, options, row, min_values, max_values)
        )
        self.verb, self.channel, self.arg = verb, channel, arg

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["channel"]), match["arg"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        values = _values(interaction)
        await cog.clicks.panel.on_select(interaction, self.verb, self.channel, self.arg, values)


class DefaultsButton(UnoItem[discord.ui.Button[Any]], template=ids.DEFAULTS_OPEN_RE):
    """**Default rules** under ``/uno settings``: opens the server's default-rules panel
    (:mod:`cogs.uno.input.defaults`)."""

    def __init__(self, guild: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "-", style=discord.ButtonStyle.secondary, custom_id=ids.defaults_id("open", guild)
            )
        )
        self.guild = guild

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["guild"]))

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.defaults.open(interaction, self.guild)


class DefaultsSelect(UnoItem[discord.ui.Select[Any]], template=ids.DEFAULTS_RE):
    """A select of the server's default-rules panel (:mod:`cogs.uno.input.defaults`)."""

    def __init__(
        self,
        verb: str,
        guild: int,
        arg: str = "",
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        *,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            _panel_select(ids.defaults_id(verb, guild, arg), placeholder, options, row, min_values, max_values)
        )
        self.verb, self.guild, self.arg = verb, guild, arg

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["verb"], int(match["guild"]), match["arg"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        values = _values(interaction)
        await cog.defaults.on_select(interaction, self.verb, self.guild, self.arg, values)


class LeaderboardButton(UnoItem[discord.ui.Button[Any]], template=ids.LEADERBOARD_RE):
    def __init__(
        self,
        guild: int | None,
        mode: str | None,
        page: int,
        direction: str,
        label: str = "",
        *,
        disabled: bool = False,
        order: str = "wins",
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=ids.leaderboard_id(guild, mode, page, direction, order),
                disabled=disabled,
            )
        )
        self.guild, self.mode, self.page, self.order = guild, mode, page, order

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        guild = int(match["guild"]) or None
        mode = None if match["mode"] == "all" else match["mode"]
        order = "rating" if match["order"] else "wins"
        return cls(guild, mode, int(match["page"]), match["dir"], order=order)

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.on_leaderboard_page(interaction, self.guild, self.mode, self.page, self.order)


class SeasonBoardButton(UnoItem[discord.ui.Button[Any]], template=ids.SEASON_BOARD_RE):
    """A page button of a season's board (``/uno leaderboard season:``, issue 19 point 4)."""

    def __init__(
        self,
        guild: int | None,
        mode: str | None,
        season: str,
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
                custom_id=ids.season_board_id(guild, mode, season, page, direction),
                disabled=disabled,
            )
        )
        self.guild, self.mode, self.season, self.page = guild, mode, season, page

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        mode = None if match["mode"] == "all" else match["mode"]
        return cls(int(match["guild"]) or None, mode, match["season"], int(match["page"]), match["dir"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.on_season_page(interaction, self.guild, self.mode, self.season, self.page)


class HistoryButton(UnoItem[discord.ui.Button[Any]], template=ids.HISTORY_RE):
    """A page button of ``/uno history`` (issue 19 point 2)."""

    def __init__(
        self, user: int, guild: int | None, page: int, direction: str, label: str = "", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=ids.history_id(user, guild, page, direction),
                disabled=disabled,
            )
        )
        self.user, self.guild, self.page = user, guild, page

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["user"]), int(match["guild"]) or None, int(match["page"]), match["dir"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.on_history_page(interaction, self.user, self.guild, self.page)


class HistoryRecapSelect(UnoItem[discord.ui.Select[Any]], template=ids.HISTORY_RECAP_RE):
    """The "recap of a match" select under a page of ``/uno history``: its values are match keys."""

    def __init__(
        self, user: int, page: int, placeholder: str = "", options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=ids.history_recap_id(user, page),
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.user, self.page = user, page

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["user"]), int(match["page"]))

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        values = _values(interaction)
        await cog.on_recap(interaction, values[0] if values else "")


class RecapButton(UnoItem[discord.ui.Button[Any]], template=ids.RECAP_RE):
    """**Recap** under a match's summary: the match told round by round, to the one who asks (issue 19 point 2)."""

    def __init__(self, match_key: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=ids.recap_id(match_key))
        )
        self.match_key = match_key

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["key"])

    async def handle(self, cog: Handlers, interaction: discord.Interaction[UnoBot]) -> None:
        await cog.on_recap(interaction, self.match_key)


DYNAMIC_ITEMS: tuple[type[UnoItem[Any]], ...] = (
    LobbyButton,
    TableButton,
    DecisionButton,
    HandButton,
    HandSelect,
    RuleSelect,
    LeaderboardButton,
    HistoryButton,
    HistoryRecapSelect,
    RecapButton,
    SeasonBoardButton,
    DefaultsButton,
    DefaultsSelect,
)
