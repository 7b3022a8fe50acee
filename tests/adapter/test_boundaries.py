"""The adapter sits between the Discord layer and the rules (DESIGN "Layers", "Adapter"; issue 17 point 6): it uses
the engine, storage and ``bot.limits``, and never discord, the Discord layer (``cogs``, ``bot.client``), images or
message catalogues: what a player is shown, and in which language, is decided above it."""

from __future__ import annotations

import subprocess
import sys

from tests import importgraph as ig

#: ``bot.ai``: the AI players (issue 21), a package of their own that reads only the engine. ``bot.workers``: the
#: worker process the AI searches run in (standard library only; tested below).
ALLOWED = ("bot.adapter", "bot.ai", "bot.engine", "bot.storage", "bot.limits", "bot.workers")


def test_the_adapter_imports_only_the_standard_library_the_engine_and_storage():
    wrong = [i for i in ig.imports_of("bot.adapter") if not (i.stdlib or i.within(*ALLOWED))]
    assert not wrong, "bot/adapter imports from a layer above it (or a new library):\n" + ig.show(wrong)


def test_importing_every_adapter_module_loads_no_discord_or_cogs():
    code = (
        "import importlib, sys\n"
        f"for m in {ig.under('bot.adapter')!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs', 'PIL', 'babel')"
        " or m.startswith(('bot.render', 'bot.i18n', 'bot.client'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ig.ROOT)
    assert out.stdout.strip() == "[]"


def test_the_worker_pool_imports_only_the_standard_library():
    wrong = [i for i in ig.imports_of("bot.workers") if not i.stdlib]
    assert not wrong, wrong
