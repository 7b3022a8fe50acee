"""Set or add messages in the gettext catalogues, keeping order, comments and headers.

Usage (from Python): ``edit({"en": {"key": "text"}, "it": {...}})``; a tuple value sets plural forms. Keys missing from
a catalogue are appended. Run ``python scripts/po_edit.py`` only through code that imports :func:`edit`.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po, write_po

LOCALES = Path(__file__).resolve().parents[1] / "bot" / "i18n" / "locales"


def edit(changes: dict[str, dict[str, str | tuple[str, ...]]]) -> None:
    for lang, messages in changes.items():
        path = LOCALES / f"{lang}.po"
        with path.open("rb") as fp:
            catalog = read_po(fp, locale=lang)
        header = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
        header_lines: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            header_lines.append(line)
        for key, text in messages.items():
            message = catalog.get(key)
            if isinstance(text, tuple):
                if message is None:
                    catalog.add((key, key + ".plural"), text)
                else:
                    message.string = text
            elif message is None:
                catalog.add(key, text)
            else:
                message.string = text
        with path.open("wb") as fp:
            write_po(fp, catalog, width=120, omit_header=False, sort_output=False)
        if header_lines:
            body = path.read_text(encoding="utf-8").splitlines()
            while body and body[0].startswith("#"):
                body.pop(0)
            path.write_text("\n".join(header_lines + body) + "\n", encoding="utf-8")
        del header
