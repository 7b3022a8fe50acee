"""Slash-command names and descriptions in the Discord client locales we speak (Italian, Spanish ×2, German, French,
Polish, Brazilian Portuguese).

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
    discord.Locale.german: "de",
    discord.Locale.french: "fr",
    discord.Locale.polish: "pl",
    discord.Locale.brazil_portuguese: "pt_BR",
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
