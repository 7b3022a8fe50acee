"""Names that say where things are (issue 17 point 6; DESIGN "Layers", "Glossary", "Tests").

- One name per module: no two modules of ``bot/`` and ``cogs/`` share a file name (``__init__`` and ``__main__``
  aside), so a name in a traceback, an import or a review names one file.
- Tests laid out like the packages: every folder of ``tests/`` is named after a package of ``bot/`` (its tests) or
  ``cogs`` (the Discord layer's), or is one of :data:`CROSS_CUTTING`, each with its reason. Tests of ``bot/``'s own
  top-level modules (``bot/config.py``, ``bot/pacing.py``…) are files at the top of ``tests/``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

#: Folders of tests/ that test no one package, and why.
CROSS_CUTTING = {
    "e2e": "the whole bot through the real discord.py client and the loopback Discord emulator",
    "chaos": "the bot killed at seeded moments: every layer together",
    "discord_emulator": "the loopback Discord the end-to-end tests run against (no tests of its own package)",
    "docs": "the rules reference and the architecture guide against the code (citations, paths)",
    "fixtures": "committed data of older versions (snapshots, databases) that the upgrade tests load",
}


def test_every_module_name_is_used_once_in_bot_and_cogs():
    where: dict[str, list[str]] = defaultdict(list)
    for package in ("bot", "cogs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.stem not in {"__init__", "__main__"} and ".venv" not in path.parts:
                where[path.stem].append(str(path.relative_to(ROOT)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not twice, f"module names used more than once (rename the one outside bot/engine): {twice}"


def test_every_test_folder_mirrors_a_package_or_is_declared_cross_cutting():
    packages = {p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").is_file()} | {"cogs"}
    # a folder left with only a __pycache__ (after a checkout that moved its files) holds no tests
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and any(c.name != "__pycache__" for c in p.iterdir())}
    stray = sorted(folders - packages - set(CROSS_CUTTING))
    assert not stray, (
        f"tests/ folders that mirror no package of bot/ or cogs/: {stray}; move their tests to the folder of the "
        "package each tests, or declare the folder in CROSS_CUTTING with its reason"
    )
    assert all(CROSS_CUTTING.values())
    gone = sorted(set(CROSS_CUTTING) - folders)
    assert not gone, f"declared cross-cutting folders that no longer exist: {gone}"
