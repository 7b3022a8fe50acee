"""The engine is pure (DESIGN "Layers", "Engine contract"; issue 17 point 6): standard library only, and none of it
that does I/O or reads a clock; from the project only ``bot.engine`` itself and the leaf ``bot.limits``. The package's
``__init__`` also calls :mod:`bot.engine_native` (standard library only), which chooses between the compiled engine
and its source as it is imported (issue 21 point 5): packaging, not rules, so its file reads are outside the engine."""

from __future__ import annotations

import subprocess
import sys

from tests import importgraph as ig

#: Standard-library modules that do I/O, read a clock or run concurrently: none of them belongs in the rules.
NOT_PURE = {
    "asyncio",
    "concurrent",
    "datetime",
    "http",
    "io",
    "logging",
    "multiprocessing",
    "os",
    "pathlib",
    "select",
    "selectors",
    "shutil",
    "socket",
    "sqlite3",
    "ssl",
    "subprocess",
    "tempfile",
    "threading",
    "time",
    "urllib",
}


_CHOOSER = ("bot.engine", "bot.engine_native")


def test_the_engine_imports_only_the_standard_library_and_itself():
    wrong = [
        i
        for i in ig.imports_of("bot.engine")
        if not (i.stdlib or i.within("bot.engine", "bot.limits") or (i.importer, i.name) == _CHOOSER)
        or i.within("bot.storage", "bot.adapter", "bot.render", "bot.i18n", "cogs")
    ]
    assert not wrong, "the engine imports outside itself:\n" + ig.show(wrong)


def test_the_chooser_of_the_compiled_engine_imports_only_the_standard_library():
    wrong = [i for i in ig.imports("bot.engine_native") if not i.stdlib]
    assert not wrong, "bot.engine_native imports outside the standard library:\n" + ig.show(wrong)


def test_the_engine_does_no_io_and_reads_no_clock():
    wrong = [i for i in ig.imports_of("bot.engine") if i.stdlib and i.top in NOT_PURE]
    assert not wrong, "the engine imports I/O, clock or concurrency modules:\n" + ig.show(wrong)


def test_the_check_sees_relative_and_type_only_imports():
    """The reader resolves ``from .state import GameState`` under ``if TYPE_CHECKING:`` (bot/engine/effects.py), so a
    forbidden import cannot hide behind a relative or a type-only import."""
    names = {i.name for i in ig.imports("bot.engine.effects")}
    assert "bot.engine.state" in names
    assert {i.name for i in ig.imports("bot.engine.rules")} >= {"bot.limits"}  # ``from bot import limits``


def test_importing_every_engine_module_loads_nothing_outside_the_standard_library():
    code = (
        "import importlib, sys\n"
        f"for m in {ig.under('bot.engine')!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('discord', 'asyncio', 'aiosqlite', 'asyncpg', 'PIL', 'babel', 'cogs')"
        " or m.startswith(('bot.storage', 'bot.adapter', 'bot.render', 'bot.i18n'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ig.ROOT)
    assert out.stdout.strip() == "[]"
