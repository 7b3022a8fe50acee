"""Discord's documented limits on messages and application commands.

Each check returns a list of ``(path, message)`` problems; the REST layer turns a non-empty list into Discord's
``400 {"code": 50035, "message": "Invalid Form Body", "errors": ...}``, so a bot that breaks a limit fails in
tests as it would in production (a hand of more than 25 cards in one select, a 101-character custom_id, a
translated description longer than 100 characters...).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

import discord

Problems = list[tuple[str, str]]

_LOCALES = {locale.value for locale in discord.Locale}
_NAME = re.compile(r"^[-_'\w]{1,32}$")
_EMBED_LIMITS = {"title": 256, "description": 4096}


def _too_long(problems: Problems, path: str, value: Any, limit: int, minimum: int = 0) -> None:
    if isinstance(value, str) and not minimum <= len(value) <= limit:
        problems.append((path, f"Must be between {minimum} and {limit} in length."))


def check_message(
    body: dict[str, Any],
    *,
    creating: bool,
    has_files: bool,
    emojis: Collection[int] | None = None,
    was_v2: bool = False,
) -> Problems:
    """Limits on a message create/edit body (content, embeds, components). ``emojis``: the ids of the custom emojis
    the bot may use (its application's); a component naming another custom emoji is refused, as Discord refuses it
    ("Invalid emoji"); None checks no emoji. ``was_v2``: the edited message has the IS_COMPONENTS_V2 flag already
    (:func:`check_v2`)."""
    problems: Problems = []
    flags = body.get("flags")
    # A message sent with IS_COMPONENTS_V2 cannot be downgraded: an edit may not take the flag off, nor give it content
    # or embeds (discord-api-docs PR #7560, "Components V2 message and followup clarifications", after issue #7515:
    # https://github.com/discord/discord-api-docs/pull/7560). An edit without flags keeps the flag and is checked as V2.
    if was_v2 and not creating and flags is not None and not int(flags) & V2_FLAG:
        problems.append(("flags", "The IS_COMPONENTS_V2 flag cannot be removed from a message."))
    if (flags is not None and int(flags) & V2_FLAG) or (was_v2 and not creating):
        problems += check_v2(body)
    _too_long(problems, "content", body.get("content"), 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(("embeds", "Must be 10 or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            _too_long(problems, f"embeds.{i}.{key}", embed.get(key), limit)
        fields = embed.get("fields", [])
        if len(fields) > 25:
            problems.append((f"embeds.{i}.fields", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            _too_long(problems, f"embeds.{i}.fields.{j}.name", f.get("name"), 256, 1)
            _too_long(problems, f"embeds.{i}.fields.{j}.value", f.get("value"), 1024, 1)
        _too_long(problems, f"embeds.{i}.footer.text", embed.get("footer", {}).get("text"), 2048)
        texts = [embed.get("title"), embed.get("description"), embed.get("footer", {}).get("text")]
        texts += [embed.get("author", {}).get("name")] + [f.get(k) for f in fields for k in ("name", "value")]
        total += sum(len(t) for t in texts if isinstance(t, str))
    if total > 6000:
        problems.append(("embeds", "Embed size exceeds maximum size of 6000"))
    components = body.get("components") or []
    v2 = bool(int(body.get("flags") or 0) & V2_FLAG) or (was_v2 and not creating)
    if not v2 and len(components) > 5:
        problems.append(("components", "Must be 5 or fewer in length."))
    if not v2 and any(c.get("type") != 1 for c in components):
        problems.append(("components", "Components V2 types need the IS_COMPONENTS_V2 flag."))
    custom_ids: set[str] = set()
    _check_components(problems, "components", components, custom_ids)
    if emojis is not None:
        _check_emojis(problems, "components", components, emojis)
    if creating and not (body.get("content") or embeds or components or has_files or body.get("poll")):
        problems.append(("content", "Cannot send an empty message"))
    return problems


def _check_components(problems: Problems, path: str, components: list[Any], custom_ids: set[str]) -> None:
    for i, comp in enumerate(components):
        where, kind = f"{path}.{i}", comp.get("type")
        children = comp.get("components", [])
        if kind == 1:
            selects = sum(1 for c in children if c.get("type") in (3, 5, 6, 7, 8))
            if not 1 <= len(children) <= 5 or (selects and len(children) > 1):
                problems.append((where, "An action row holds 1 to 5 buttons or exactly one select."))
        if kind in (2, 3, 5, 6, 7, 8):
            custom_id = comp.get("custom_id")
            if kind == 2 and comp.get("style") in (5, 6):
                if custom_id is not None:
                    problems.append((f"{where}.custom_id", "A link or premium button cannot have a custom_id."))
            elif not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
                problems.append((f"{where}.custom_id", "Must be between 1 and 100 in length."))
            elif custom_id in custom_ids:
                problems.append((f"{where}.custom_id", "Component custom id cannot be duplicated"))
            else:
                custom_ids.add(custom_id)
        if kind == 2:
            _too_long(problems, f"{where}.label", comp.get("label"), 80)
        if kind == 3:
            options = comp.get("options", [])
            if not 1 <= len(options) <= 25:
                problems.append((f"{where}.options", "Must be between 1 and 25 in length."))
            if len({o.get("value") for o in options}) != len(options):
                problems.append((f"{where}.options", "Select option values must be unique."))
            for j, option in enumerate(options):
                for key in ("label", "value", "description"):
                    _too_long(problems, f"{where}.options.{j}.{key}", option.get(key), 100, key != "description")
            if comp.get("max_values", 1) > max(len(options), 1):
                problems.append((f"{where}.max_values", "Must be less than or equal to the number of options."))
        if kind in (3, 5, 6, 7, 8):
            _too_long(problems, f"{where}.placeholder", comp.get("placeholder"), 150)
        _check_components(problems, f"{where}.components", children, custom_ids)
        if comp.get("accessory"):
            _check_components(problems, f"{where}.accessory", [comp["accessory"]], custom_ids)


V2_FLAG = 1 << 15
#: Discord's Components V2 types: 1 action row, 9 section, 10 text display, 11 thumbnail, 12 media gallery, 13 file,
#: 14 separator, 17 container; and which may stand at the top of a message or inside a container.
_V2_TOP = {1, 9, 10, 12, 13, 14, 17}
_V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000


def v2_counts(components: list[Any]) -> tuple[int, int]:
    """``(components, characters of text displays)``, nested ones included, as Discord counts them."""
    n = chars = 0
    for c in components:
        n += 1
        if c.get("type") == 10:
            chars += len(c.get("content") or "")
        inner = list(c.get("components") or []) + ([c["accessory"]] if c.get("accessory") else [])
        k, m = v2_counts(inner)
        n, chars = n + k, chars + m
    return n, chars


def attachment_refs(components: list[Any]) -> list[str]:
    """The file names a V2 message's media galleries, thumbnails and files show (``attachment://name``)."""
    refs: list[str] = []
    for c in components:
        medias = [item.get("media") or {} for item in c.get("items") or []] + [
            c.get("media") or {},
            c.get("file") or {},
        ]
        refs += [
            m["url"].removeprefix("attachment://") for m in medias if str(m.get("url", "")).startswith("attachment://")
        ]
        refs += attachment_refs(list(c.get("components") or []) + ([c["accessory"]] if c.get("accessory") else []))
    return refs


def check_v2(body: dict[str, Any]) -> Problems:
    """A message with the IS_COMPONENTS_V2 flag (Discord's developer documentation, components/reference: "Using
    Message Components" and each component's limits): no content, embeds, poll or stickers; only V2 types at the top
    and in containers (no container in a container); at most 40 components in all, nested ones included, and 4,000
    characters across text displays; a text display of 1 to 4,000 characters; a media gallery of 1 to 10 items; a
    container's accent colour 0x000000-0xFFFFFF."""
    problems: Problems = []
    if body.get("content"):
        problems.append(("content", "A message with the IS_COMPONENTS_V2 flag cannot have content."))
    if body.get("embeds"):
        problems.append(("embeds", "A message with the IS_COMPONENTS_V2 flag cannot have embeds."))
    if body.get("poll") or body.get("sticker_ids"):
        problems.append(("poll", "A message with the IS_COMPONENTS_V2 flag cannot have a poll or stickers."))
    components = body.get("components") or []

    def walk(items: list[Any], path: str, allowed: set[int]) -> None:
        for i, c in enumerate(items):
            where, kind = f"{path}.{i}", c.get("type")
            if kind not in allowed:
                problems.append((f"{where}.type", f"Component type {kind} is not allowed here."))
            if kind == 10 and not 1 <= len(c.get("content") or "") <= V2_TEXT_MAX:
                problems.append((f"{where}.content", f"Must be between 1 and {V2_TEXT_MAX} in length."))
            if kind == 12 and not 1 <= len(c.get("items") or []) <= 10:
                problems.append((f"{where}.items", "Must be between 1 and 10 in length."))
            if kind == 17:
                accent = c.get("accent_color")
                if accent is not None and not 0 <= int(accent) <= 0xFFFFFF:
                    problems.append((f"{where}.accent_color", "Must be between 0 and 16777215."))
                walk(c.get("components") or [], f"{where}.components", _V2_IN_CONTAINER)

    walk(components, "components", _V2_TOP)
    count, chars = v2_counts(components)
    if count > V2_COMPONENTS_MAX:
        problems.append(("components", f"A message holds at most {V2_COMPONENTS_MAX} components, not {count}."))
    if chars > V2_TEXT_MAX:
        problems.append(("components", f"Text displays hold at most {V2_TEXT_MAX} characters in all, not {chars}."))
    return problems


def _check_emojis(problems: Problems, path: str, components: list[Any], known: Collection[int]) -> None:
    for i, comp in enumerate(components):
        where = f"{path}.{i}"
        marks = [(f"{where}.emoji", comp.get("emoji"))]
        marks += [(f"{where}.options.{j}.emoji", o.get("emoji")) for j, o in enumerate(comp.get("options") or [])]
        for at, emoji in marks:
            if isinstance(emoji, dict) and emoji.get("id") is not None and int(emoji["id"]) not in known:
                problems.append((at, "Invalid emoji"))
        _check_emojis(problems, f"{where}.components", comp.get("components") or [], known)
        if comp.get("accessory"):
            _check_emojis(problems, f"{where}.accessory", [comp["accessory"]], known)


def check_commands(commands: list[dict[str, Any]]) -> Problems:
    """Limits on a bulk overwrite of application commands (names, descriptions, localisations, options)."""
    problems: Problems = []
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        key = (command.get("name", ""), kind)
        if key in seen:
            problems.append((f"{i}.name", "Application command names must be unique"))
        seen.add(key)
        if kind == 1:
            _check_named(problems, str(i), command)
            _check_options(problems, f"{i}.options", command.get("options", []), depth=0)
        else:
            _too_long(problems, f"{i}.name", command.get("name"), 32, 1)
    return problems


def _check_named(problems: Problems, path: str, item: dict[str, Any]) -> None:
    names = {"": item.get("name", "")} | (item.get("name_localizations") or {})
    for locale, name in names.items():
        where = f"{path}.name_localizations.{locale}" if locale else f"{path}.name"
        if locale and locale not in _LOCALES:
            problems.append((where, f"Invalid locale {locale!r}"))
        if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
            problems.append((where, f"Invalid command name {name!r}: 1-32 lowercase letters, digits, - or _"))
    descriptions = {"": item.get("description", "")} | (item.get("description_localizations") or {})
    for locale, description in descriptions.items():
        where = f"{path}.description_localizations.{locale}" if locale else f"{path}.description"
        if locale and locale not in _LOCALES:
            problems.append((where, f"Invalid locale {locale!r}"))
        _too_long(problems, where, description, 100, 1)


def _check_options(problems: Problems, path: str, options: list[dict[str, Any]], depth: int) -> None:
    if len(options) > 25:
        problems.append((path, "Must be 25 or fewer in length."))
    if len({o.get("name") for o in options}) != len(options):
        problems.append((path, "Option names must be unique"))
    optional_seen = False
    for i, option in enumerate(options):
        where, kind = f"{path}.{i}", option.get("type")
        _check_named(problems, where, option)
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                problems.append((where, "Subcommands nest at most two levels deep."))
            _check_options(problems, f"{where}.options", option.get("options", []), depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append((where, "Required options must be placed before non-required options"))
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append((f"{where}.choices", "Must be 25 or fewer in length."))
        for j, choice in enumerate(choices):
            _too_long(problems, f"{where}.choices.{j}.name", choice.get("name"), 100, 1)
            _too_long(problems, f"{where}.choices.{j}.value", choice.get("value"), 100, 1)
