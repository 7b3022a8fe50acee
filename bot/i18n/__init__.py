"""Message catalogues: every user-facing text of the bot, in English, Italian, Spanish, Slovak, German, French, Polish
and Brazilian Portuguese (issue 18.4).

Catalogues are gettext ``.po`` files in ``locales/`` (one per language), read with Babel and used through the standard
library's :mod:`gettext` (plural forms included). Message ids are stable keys such as ``"lobby.title"``; texts use
``str.format`` placeholders (``"{player} draws {count}"``).

- :func:`t` — the text of a key in a language, formatted.
- :func:`tn` — the same with a plural form chosen by ``n`` (the key's ``msgid_plural`` is ``key + ".plural"``).
- :func:`language_for` — the language of a message: the server's setting if set, else the user's Discord locale,
  else English.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.limits import LANGUAGES

#: The bot's languages, English first (the fallback), each named in itself (as ``/uno settings language`` lists them).
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "es": "Español",
    "sk": "Slovenčina",
    "de": "Deutsch",
    "fr": "Français",
    "pl": "Polski",
    "pt_BR": "Português (Brasil)",
}
#: Discord client locales that map to one of our languages (Slovak is not a Discord locale: servers choose it).
DISCORD_LOCALES = {
    "en-US": "en",
    "en-GB": "en",
    "it": "it",
    "es-ES": "es",
    "es-419": "es",
    "de": "de",
    "fr": "fr",
    "pl": "pl",
    "pt-BR": "pt_BR",
}


@cache
def _translations(lang: str) -> gettext.GNUTranslations:
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}")
    with resources.files(__package__).joinpath("locales", f"{lang}.po").open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


def t(key: str, lang: str | None = "en", /, **params: Any) -> str:
    """The text of ``key`` in ``lang`` (English when the language lacks it), formatted with ``params``.

    Raises ``KeyError`` when not even English has the key (a bug: every key must be in ``en.po``)."""
    text = _translations(_lang(lang)).gettext(key)
    if text == key:
        text = _translations("en").gettext(key)
        if text == key:
            raise KeyError(f"message {key!r} is not in the catalogue")
    return text.format(**params) if params else text


def tn(key: str, n: int, lang: str | None = "en", /, **params: Any) -> str:
    """The plural form of ``key`` for ``n`` in ``lang`` (``n`` is also passed to the text as ``{n}``)."""
    plural = key + ".plural"
    text = _translations(_lang(lang)).ngettext(key, plural, n)
    if text in (key, plural):
        text = _translations("en").ngettext(key, plural, n)
        if text in (key, plural):
            raise KeyError(f"message {key!r} is not in the catalogue")
    return text.format(n=n, **params)


def language_for(setting: str | None, locale: str | None) -> str:
    """SPEC of issue 5: the server's ``language`` setting if set, else the user's Discord ``locale``, else English."""
    if setting in LANGUAGES:
        return setting
    if locale is not None:
        lang = DISCORD_LOCALES.get(str(locale))
        if lang is None:
            lang = str(locale).split("-")[0]
        if lang in LANGUAGES:
            return lang
    return "en"


def has(key: str) -> bool:
    """Whether the English catalogue has ``key``."""
    return _translations("en").gettext(key) != key


__all__ = ["DISCORD_LOCALES", "LANGUAGES", "LANGUAGE_NAMES", "has", "language_for", "t", "tn"]
