"""Components V2 (issue 18 point 2): a :class:`~cogs.uno.screens.Screen` as one container of a
:class:`discord.ui.LayoutView`, tinted with the colour in play.

The screen's embed becomes text displays (its title as a heading over its description, its fields, its footer in
small print), its images one media gallery, and its controls action rows placed beside what they act on: under the
hand's cards and image, or under the table's players (``Screen.controls_after``). A text above the embed (the
table's "press Show my hand" line) is a text display of its own above the container.

Discord's limits (:data:`bot.limits.V2_COMPONENTS_MAX` components, :data:`bot.limits.V2_TEXT_MAX` characters of
text displays) hold at the worst case: past the characters, the card emojis' markup gives way to the Unicode marks
(:func:`unmark`), then the longest text is cut at a line's end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.engine.cards import NotationError, parse_face
from bot.limits import V2_TEXT_MAX
from bot.render.emoji import EMOJI_PREFIX

from .text import card_name

#: ``<:uno_R5_1a2b3c4d:123…>``: a card emoji in a text (:mod:`bot.card_emojis`); group 1 is the face's code.
_CARD_EMOJI = re.compile(rf"<:{EMOJI_PREFIX}([A-Za-z0-9_]+?)_[0-9a-f]{{8}}:\d+>")
_CODE = str.maketrans({"p": "+", "f": "*", "_": "/"})


def _marks(match: re.Match[str]) -> str:
    code = match.group(1)
    try:
        face = parse_face(code.removeprefix("d").translate(_CODE))  # "dW": the wild of FLIP's dark side
    except NotationError:
        return ""
    # the colour square and colour-blind mark card_name puts before a name, without the name
    return card_name(face, "en", custom=False).split(" ", 1)[0]


def unmark(text: str) -> str:
    """``text`` with every card emoji's markup replaced by the face's Unicode colour square and mark (about 30
    characters shorter each)."""
    return _CARD_EMOJI.sub(_marks, text)


def _field_text(fields: Sequence[Any]) -> str:
    lines = []
    for f in fields:
        name, value = str(f.name or ""), str(f.value or "")
        if name in ("", "\u200b"):
            lines.append(value)
        elif f.inline and "\n" not in value:
            lines.append(f"**{name}:** {value}")
        else:
            lines.append(f"**{name}**\n{value}")
    return "\n".join(lines)


def _rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow[Any]]:
    """The view's items as action rows, in the rows the view gave them (items without a row fill rows of 5)."""
    if view is None:
        return []
    by_row: dict[int, list[discord.ui.Item[Any]]] = {}
    loose: list[discord.ui.Item[Any]] = []
    for item in list(view.children):
        view.remove_item(item)
        number = getattr(item, "item", item).row  # a DynamicItem's own row may read None: its wrapped item's
        if number is None:
            loose.append(item)
        else:
            by_row.setdefault(number, []).append(item)
    groups = [by_row[r] for r in sorted(by_row)] + [loose[i : i + 5] for i in range(0, len(loose), 5)]
    rows = []
    for group in groups:
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for item in group:
            item.row = None
            row.add_item(item)
        rows.append(row)
    return rows


def _fit(texts: list[str], limit: int = V2_TEXT_MAX) -> list[str]:
    """``texts`` within ``limit`` characters together: card emojis give way to marks, then the longest is cut."""
    if sum(len(t) for t in texts) <= limit:
        return texts
    texts = [unmark(t) for t in texts]
    while (over := sum(len(t) for t in texts) - limit) > 0:
        i = max(range(len(texts)), key=lambda k: len(texts[k]))
        keep = max(0, len(texts[i]) - over - 1)
        cut = texts[i].rfind("\n", 0, keep)
        texts[i] = texts[i][: cut if cut > 0 else keep] + "…"
    return texts


def layout_of(
    embeds: Sequence[discord.Embed],
    view: discord.ui.View | None = None,
    *,
    content: str | None = None,
    accent: int | None = None,
    controls_after: int | None = None,
) -> discord.ui.LayoutView:
    """The V2 layout of a screen (:class:`cogs.uno.screens.Screen`: module docstring): its ``embeds`` (the first one's
    text, every one's image), ``view`` (which gives its items to the layout), the ``content`` above them, the
    container's ``accent`` (default: the embed's colour) and after how many fields the controls go."""
    embed = embeds[0] if embeds else None
    head = ""
    fields: list[Any] = []
    footer = ""
    if embed is not None:
        title = embed.title or ""
        head = (f"### {title}\n" if title else "") + (embed.description or "")
        fields = list(embed.fields)
        footer = embed.footer.text or "" if embed.footer else ""
        if accent is None and embed.colour is not None:
            accent = embed.colour.value
    cut = len(fields) if controls_after is None else min(controls_after, len(fields))
    before, after = _field_text(fields[:cut]), _field_text(fields[cut:])
    if footer:
        after = (after + "\n" if after else "") + f"-# {footer}"
    texts = _fit([content or "", head.strip(), before, after])
    top, head, before, after = texts
    images = [e.image.url for e in embeds if e.image and e.image.url]
    layout = discord.ui.LayoutView(timeout=None)
    if top:
        layout.add_item(discord.ui.TextDisplay(top))
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=accent)
    if head:
        box.add_item(discord.ui.TextDisplay(head))
    if images:
        box.add_item(discord.ui.MediaGallery(*(discord.MediaGalleryItem(url) for url in images)))
    rows = _rows(view)
    if before:
        box.add_item(discord.ui.TextDisplay(before))
    for row in rows:
        box.add_item(row)
    if after:
        if rows:
            box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(after))
    layout.add_item(box)
    return layout


def notice(text: str) -> discord.ui.LayoutView:
    """A V2 message of one text and no controls (an old table, a closed hand)."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(text[:V2_TEXT_MAX] or "\u200b"))
    return layout


def notice_kwargs(text: str) -> dict[str, Any]:
    """The edit that turns a table or hand message into ``text`` alone, without images or controls, as the message
    is: Components V2 (:func:`notice`) or not."""
    if ENABLED:
        return {"content": None, "embeds": [], "attachments": [], "view": notice(text)}
    return {"content": text, "embeds": [], "attachments": [], "view": discord.ui.View(timeout=None)}


def walk_components(components: Iterable[Any]) -> list[Any]:
    """Every component of a received message (discord.py's objects), nested ones too: Components V2 puts the action
    rows inside a container."""
    out: list[Any] = []
    for c in components:
        out.append(c)
        out += walk_components(getattr(c, "children", None) or [])
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            out.append(accessory)
    return out


def counts(components: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """``(components, characters of text displays)`` of a message's component payloads, nested ones included, as
    Discord counts them against :data:`bot.limits.V2_COMPONENTS_MAX` and :data:`bot.limits.V2_TEXT_MAX`."""
    n = chars = 0
    for c in components:
        n += 1
        if c.get("type") == 10:
            chars += len(c.get("content") or "")
        inner = list(c.get("components") or [])
        if c.get("accessory"):
            inner.append(c["accessory"])
        k, m = counts(inner)
        n, chars = n + k, chars + m
    return n, chars


ENABLED = True
"""Whether this process's screens are Components V2 messages (``UNO_COMPONENTS_V2``, default on; set when the cog
loads)."""

__all__ = ["ENABLED", "counts", "layout_of", "notice", "notice_kwargs", "unmark", "walk_components"]
