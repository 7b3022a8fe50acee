"""Write a gettext catalogue from a Python dict of messages (``key -> text`` or ``key -> (one, other)`` for plurals).

Used once to create ``bot/i18n/locales/en.po``; the .po files are the source of truth afterwards.
Usage: python scripts/write_po.py messages.py en bot/i18n/locales/en.po
"""

import runpy
import sys

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po


def main() -> None:
    source, lang, out = sys.argv[1:4]
    messages = runpy.run_path(source)["M"]
    catalog = Catalog(locale=lang, project="uno-discord-bot", fuzzy=False)
    for key, text in messages.items():
        if isinstance(text, tuple):
            catalog.add((key, key + ".plural"), text)
        else:
            catalog.add(key, text)
    with open(out, "wb") as fp:
        write_po(fp, catalog, width=0, omit_header=False, sort_output=False)


if __name__ == "__main__":
    main()
