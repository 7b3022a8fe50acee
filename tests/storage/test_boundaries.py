"""bot/storage knows nothing above it (DESIGN "Layers", "Storage"; issue 17 point 6): the standard library, the two
database drivers, ``bot.limits`` and itself. Snapshots are the adapter's JSON-able dicts, stored as they are, so it
needs neither the engine nor the adapter; it never imports discord or the Discord layer."""

from __future__ import annotations

import subprocess
import sys

from tests import importgraph as ig

DRIVERS = ("aiosqlite", "asyncpg")


def test_storage_imports_only_the_standard_library_its_drivers_and_itself():
    wrong = [
        i
        for i in ig.imports_of("bot.storage")
        if not (i.stdlib or i.top in DRIVERS or i.within("bot.storage", "bot.limits"))
    ]
    assert not wrong, "bot/storage imports from a layer above it (or a new library):\n" + ig.show(wrong)


def test_importing_every_storage_module_loads_no_discord_engine_adapter_or_cogs():
    code = (
        "import importlib, sys\n"
        f"for m in {ig.under('bot.storage')!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs', 'PIL', 'babel')"
        " or m.startswith(('bot.engine', 'bot.adapter', 'bot.render', 'bot.i18n', 'bot.client'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ig.ROOT)
    assert out.stdout.strip() == "[]"
