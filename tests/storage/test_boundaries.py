"""bot/storage knows nothing above it (DESIGN "Layers", "Storage"; issue 17 point 6): the standard library, the two
database drivers, the rating library (``openskill``, issue 19 point 3), ``bot.limits`` and itself. Snapshots are the
adapter's JSON-able dicts, stored as they are, so it needs neither the engine nor the adapter; it never imports
discord or the Discord layer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import importgraph as ig

DRIVERS = ("aiosqlite", "asyncpg")
LIBRARIES = ("openskill",)


def test_storage_imports_only_the_standard_library_its_drivers_and_itself():
    wrong = [
        i
        for i in ig.imports_of("bot.storage")
        if not (i.stdlib or i.top in DRIVERS or i.top in LIBRARIES or i.within("bot.storage", "bot.limits"))
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


def _behaviours() -> set[str]:
    """The methods of the Store protocol (what callers may ask of the database), lifecycle included; not ``open``,
    which is each dialect's own (it connects)."""
    from bot.storage import Store

    names = {name for name, value in vars(Store).items() if callable(value) and not name.startswith("_")}
    return names - {"open"} | {
        "__aenter__",
        "__aexit__",
    }


def test_each_store_behaviour_is_written_once_and_no_dialect_defines_one():
    """Issue 17 point 5: one store behaviour, two dialects. Every method of the Store protocol is SqlStore's
    (bot/storage/_store.py); the dialect modules hold connections, errors and the SQL that must differ, and none of
    their classes defines (or overrides) a behaviour."""
    import inspect

    pytest.importorskip("asyncpg")
    from bot.storage import _postgres, _sqlite
    from bot.storage._store import SqlStore

    behaviours = _behaviours()
    assert behaviours <= set(vars(SqlStore)), f"not in SqlStore: {sorted(behaviours - set(vars(SqlStore)))}"
    for module in (_sqlite, _postgres):
        classes = [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == module.__name__]
        assert classes
        for cls in classes:
            # a dialect's own close() closes its connections; the store's waits for its saves first
            written_here = behaviours & set(vars(cls)) - (set() if issubclass(cls, SqlStore) else {"close"})
            assert not written_here, f"{module.__name__}.{cls.__name__} defines {sorted(written_here)}: write it once"
        functions = {n for n, f in inspect.getmembers(module, inspect.isfunction) if f.__module__ == module.__name__}
        assert not behaviours & functions, f"{module.__name__} defines {sorted(behaviours & functions)}"
