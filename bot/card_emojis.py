"""Card faces as application emojis, kept in sync at start-up and used wherever a card is named (issue 18 point 1).

:func:`sync_card_emojis` runs once per start, in the background: it draws every face (:mod:`bot.render.emoji`, in a
worker thread), lists the application's emojis (``Client.fetch_application_emojis``) and compares names, which carry
each face's content hash: a face whose name is there is used as it is; a face whose art changed has its old emoji
deleted and the new one uploaded (``Client.create_application_emoji``); emojis of faces that no longer exist are
deleted; emojis not named ``uno_…`` are never touched. When nothing changed nothing is uploaded.

:data:`CARD_EMOJIS` answers the text code (:func:`cogs.uno.screens.text.card_name`, select options, buttons) with a
face's ``<:name:id>`` markup or :class:`discord.PartialEmoji`, or None for a face without an emoji: before the sync
ended, after it failed, or past Discord's 2,000 emojis per application. Then the Unicode colour squares and colour-blind
marks are shown, as before. It lives outside the cog's package, which discord.py unloads and imports anew with
each bot: the sync and the texts must share one registry.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine.cards import Face, Side
from bot.render.emoji import EMOJI_LIMIT, EMOJI_PREFIX, FaceEmoji, all_face_emojis, face_code

log = logging.getLogger(__name__)


@dataclass
class CardEmojis:
    """The uploaded card emojis of this process, by face code (:func:`bot.render.emoji.face_code`)."""

    by_code: dict[str, discord.PartialEmoji] = field(default_factory=dict)

    def _get(self, face: Face, side: Side | None) -> discord.PartialEmoji | None:
        if not self.by_code:
            return None
        if side is None:
            side = Side.LIGHT  # only the plain Wild is on both sides; elsewhere the face says its side
        return self.by_code.get(face_code(face, side)) or self.by_code.get(face_code(face, Side.LIGHT))

    def mention(self, face: Face, side: Side | None = None) -> str | None:
        """``"<:uno_R5_1a2b3c4d:123…>"`` for ``face``, or None when it has no emoji (use the Unicode marks)."""
        emoji = self._get(face, side)
        return None if emoji is None else str(emoji)

    def partial(self, face: Face, side: Side | None = None) -> discord.PartialEmoji | None:
        """The emoji of ``face`` for a component (select option, button), or None."""
        return self._get(face, side)

    def use(self, emojis: dict[str, discord.PartialEmoji]) -> None:
        self.by_code = dict(emojis)

    def clear(self) -> None:
        self.by_code = {}


CARD_EMOJIS = CardEmojis()
"""This process's card emojis (empty until :func:`sync_card_emojis` has run)."""


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What a sync did: emojis ``kept`` as they were, ``uploaded``, ``deleted`` (replaced or of faces gone), and
    ``missing``: faces left without an emoji (an error, or the application's limit)."""

    kept: int
    uploaded: int
    deleted: int
    missing: int


async def sync_card_emojis(client: Any, registry: CardEmojis = CARD_EMOJIS) -> SyncReport:
    """Bring the application's card emojis in line with the faces we draw, then let ``registry`` use them (see the
    module docstring). ``client``: a :class:`discord.Client` (``fetch_application_emojis``,
    ``create_application_emoji``; an emoji's ``delete``). A failure to list the emojis leaves ``registry`` as it was
    (the Unicode marks) and is logged, never raised; a failure to upload one face leaves that face without an emoji,
    unless the list read again at the end has it (another process of the bot, starting at the same moment, uploaded
    it: its name was taken).
    """
    wanted: list[FaceEmoji] = await asyncio.to_thread(all_face_emojis)
    try:
        existing = await client.fetch_application_emojis()
    except (discord.HTTPException, discord.ClientException) as exc:
        log.warning("card emojis: cannot list the application's emojis (%s); cards keep their Unicode marks", exc)
        return SyncReport(0, 0, 0, len(wanted))
    by_name = {e.name: e for e in existing}
    names = {w.name for w in wanted}
    found: dict[str, discord.PartialEmoji] = {}
    kept = uploaded = deleted = 0
    for old in existing:  # replaced art and faces that no longer exist: only our own emojis
        if old.name.startswith(EMOJI_PREFIX) and old.name not in names:
            try:
                await old.delete()
                deleted += 1
            except discord.HTTPException as exc:
                log.warning("card emojis: cannot delete %s (%s)", old.name, exc)
    room = EMOJI_LIMIT - (len(existing) - deleted)
    for w in wanted:
        emoji = by_name.get(w.name)
        if emoji is not None:
            kept += 1
        elif room <= 0:
            continue
        else:
            try:
                emoji = await client.create_application_emoji(name=w.name, image=w.png)
            except discord.HTTPException as exc:
                log.warning("card emojis: cannot upload %s (%s); it keeps its Unicode marks", w.name, exc)
                continue
            uploaded += 1
            room -= 1
        found[w.code] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
    if len(found) < len(wanted):  # another process of the bot may have uploaded them meanwhile (its name taken)
        try:
            now = {e.name: e for e in await client.fetch_application_emojis()}
        except (discord.HTTPException, discord.ClientException):
            now = {}
        for w in wanted:
            if w.code not in found and w.name in now:
                found[w.code] = discord.PartialEmoji(name=w.name, id=now[w.name].id)
                kept += 1
    registry.use(found)
    report = SyncReport(kept, uploaded, deleted, len(wanted) - len(found))
    log.info(
        "card emojis: %d kept, %d uploaded, %d deleted, %d without an emoji",
        report.kept,
        report.uploaded,
        report.deleted,
        report.missing,
    )
    return report
