"""Slash-command names and descriptions in the Discord client locales we speak (Italian, Spanish ×2).

Slovak is not a Discord client locale, so Slovak servers see English command names; their messages follow the
server's ``language`` setting.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import _translations

_LOCALES = {
    discord.Locale.italian: "it",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
}


class UnoTranslator(app_commands.Translator):
    """Translates ``locale_str`` whose ``extras["key"]`` names a catalogue entry (``cmd.…``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = _LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or not key:
            return None
        text = _translations(lang).gettext(key)
        return None if text == key else text
