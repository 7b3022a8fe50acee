"""What a message shows, read the same way whether the bot sent it as an embed or as a Components V2 container
(issue 18 point 2): the one reader the end-to-end tests use instead of looking into ``embeds``.

:func:`cogs.uno.screens.layout.layout_of` turns a screen's embed into text displays: its title as a ``### `` heading
over its description, its fields as ``**name:** value`` (an inline field of one line) or ``**name**`` over the value,
its footer as ``-# `` small print, its images a media gallery; a text above the embed is a text display of its own above
the container. :func:`shown` reads either form back into the same :class:`Shown`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from cogs.uno.screens import Screen
from tests.discord_emulator.model import COMPONENTS_V2

_BLOCK = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*")  # a field's name on a line of its own, its value below
_INLINE = re.compile(r"\*\*(?P<name>[^*\n]+):\*\* (?P<value>.*)")  # an inline field of one line


class Shows(Protocol):
    """A message or one of its revisions (:class:`tests.discord_emulator.Message`, ``Revision``)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]


@dataclass
class Shown:
    """A message's text and images as its reader sees them: ``content`` (the text above the embed or container),
    ``title``, ``description``, ``fields`` (name → value, in order; a field without a name under ``""``),
    ``footer``, ``images`` (the URLs of the embeds' images or the media gallery's items), ``accent`` (the embed's
    colour or the container's tint) and ``v2`` (whether it is a Components V2 message)."""

    content: str = ""
    title: str = ""
    description: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    footer: str = ""
    images: list[str] = field(default_factory=list)
    accent: int | None = None
    v2: bool = False

    @property
    def body(self) -> str:
        """The title, description, fields (name, then value) and footer, one per line: what the embed or the
        container says, without the text above it."""
        parts = [self.title, self.description]
        for name, value in self.fields.items():
            parts += [name, value]
        parts.append(self.footer)
        return "\n".join(p for p in parts if p)

    @property
    def text(self) -> str:
        """Everything the message says: the text above it, then :attr:`body`."""
        return "\n".join(p for p in (self.content, self.body) if p)

    def field(self, name: str) -> str:
        """The value of the field called ``name``; ``AssertionError`` naming the fields if there is none."""
        if name not in self.fields:
            raise AssertionError(f"no field {name!r} in {list(self.fields)}")
        return self.fields[name]


def _add(fields: dict[str, str], name: str, value: str) -> None:
    fields[name] = f"{fields[name]}\n{value}" if fields.get(name) else value


def _read_fields(text: str, shown: Shown) -> None:
    name: str | None = None
    for line in text.split("\n"):
        if line.startswith("-# "):
            shown.footer = line[3:]
            name = None
        elif block := _BLOCK.fullmatch(line):
            name = block["name"]
            shown.fields.setdefault(name, "")
        elif inline := _INLINE.fullmatch(line):
            _add(shown.fields, inline["name"], inline["value"])
            name = None
        else:
            _add(shown.fields, name if name is not None else "", line)


def _from_v2(components: list[dict[str, Any]], shown: Shown) -> None:
    above = [c["content"] for c in components if c.get("type") == 10]
    shown.content = "\n".join(above)
    boxes = [c for c in components if c.get("type") == 17]
    if not boxes:
        return
    box = boxes[0]
    shown.accent = box.get("accent_color")
    head = True
    for c in box.get("components") or []:
        kind = c.get("type")
        if kind == 12:
            shown.images += [item["media"]["url"] for item in c.get("items") or []]
        elif kind == 10 and head:
            text = c.get("content") or ""
            if text.startswith("### "):
                title, _, text = text.partition("\n")
                shown.title = title[4:]
            shown.description = text
        elif kind == 10:
            _read_fields(c.get("content") or "", shown)
        head = head and kind != 10


def _from_embeds(content: str, embeds: list[dict[str, Any]], shown: Shown) -> None:
    shown.content = content
    for i, embed in enumerate(embeds):
        if i == 0:
            shown.title = embed.get("title") or ""
            shown.description = embed.get("description") or ""
            shown.footer = (embed.get("footer") or {}).get("text") or ""
            shown.accent = embed.get("color")
            for f in embed.get("fields") or []:
                name = f.get("name") or ""
                _add(shown.fields, "" if name == "\u200b" else name, f.get("value") or "")
        if (embed.get("image") or {}).get("url"):
            shown.images.append(embed["image"]["url"])


def shown(message: Shows) -> Shown:
    """What ``message`` (or one revision of it) shows, from its embeds or its Components V2 container."""
    flags = int(getattr(message, "flags", 0) or 0)
    out = Shown(v2=bool(flags & COMPONENTS_V2) or any(c.get("type") == 17 for c in message.components))
    if out.v2:
        _from_v2(message.components, out)
    else:
        _from_embeds(message.content or "", message.embeds, out)
    return out


@dataclass
class Sent:
    """A message body as the bot would send it (what :func:`as_sent` gives), readable by :func:`shown`."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int = 0


def as_sent(screen: Screen, *, v2: bool) -> Sent:
    """``screen`` as the bot sends it: a Components V2 container with ``v2`` (``UNO_COMPONENTS_V2=1``), else its
    content, embeds and rows. The screen's items move into the container: use a screen built for this.

    ``v2`` is given rather than read from :data:`cogs.uno.screens.layout.ENABLED`: discord.py imports the cog's modules
    anew with each bot it loads, so the module a test imported may not be the one the running bot set."""
    if v2:
        return Sent("", [], screen.layout().to_components(), COMPONENTS_V2)
    rows = screen.view.to_components() if screen.view is not None else []
    return Sent(screen.content or "", [e.to_dict() for e in screen.embeds()], list(rows))  # type: ignore[arg-type]


__all__ = ["Sent", "Shown", "as_sent", "shown"]
