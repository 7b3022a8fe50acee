"""Which implementation of the rules engine is imported: its Python source, or the same modules compiled by mypyc
(issue 21 point 5). Kept outside :mod:`bot.engine`, whose rules do no I/O: this reads the build's stamp and the
environment once, when :mod:`bot.engine` is first imported (its ``__init__``, never compiled, calls :func:`choose`).

``scripts/build_engine.py`` compiles every engine module but ``__init__``, ``options``, ``errors`` and ``frozen`` (those
stay Python: option checks and typed errors behave exactly as in the source; ``frozen`` only runs at import), and in
the same build the modules of :data:`BESIDE` (the *Hard* AI's search core, ``bot/ai/rollout.py``), and puts the
compiled modules (``*.so``) beside their sources with a stamp, :func:`sources_digest` of the sources they were built
from. ``scripts/test`` and ``scripts/run-bot`` run it whenever the stamp is stale and fall back to the source without a
C compiler. Both implementations behave the same — same games for the same seeds, same errors, same *Hard* decisions
— and the compiled one is faster.
:func:`choose` imports:

- the compiled modules, when the stamp matches the sources (an edited source makes them stale: stale code never runs);
- the sources, when it does not, or with ``UNO_ENGINE=pure`` in the environment (the engine's and :data:`BESIDE`'s
  alike: the two are always imported from the same build);
- ``UNO_ENGINE=compiled`` insists on the compiled engine: importing :mod:`bot.engine` raises ``ImportError`` when it
  is missing or stale. CI sets it, so that a broken build cannot pass for a compiled run.

:func:`bot.engine.compiled` says which one runs. Standard library only.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

_BOT = Path(__file__).resolve().parent
#: The engine's folder.
ENGINE = _BOT / "engine"
#: Written by scripts/build_engine.py next to the compiled modules: :func:`sources_digest` of what it compiled.
STAMP = ENGINE / "_native.stamp"
#: Engine modules left as Python source in a compiled build (see the module docstring).
PURE_MODULES = ("__init__", "options", "errors", "frozen")
#: Modules outside the engine compiled in the same build, by name, with their source: the hot core of the *Hard* AI's
#: search. Their sources are in the stamp, and they are imported compiled exactly when the engine is (they read its
#: native classes natively). They may import the engine, never the other way round; each one's package must import
#: :mod:`bot.engine` before it (``bot.ai`` does), so that :func:`choose` has chosen by then.
BESIDE: dict[str, Path] = {"bot.ai.rollout": _BOT / "ai" / "rollout.py"}
MODES = ("auto", "pure", "compiled")
_SO = importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_path(source: Path) -> Path:
    """Where the compiled module of ``source`` (a ``.py`` file) sits: beside it, named for this Python's ABI."""
    return source.with_name(source.stem + _SO)


def sources_digest() -> str:
    """A digest of the engine's sources (every module but ``__init__``), of the modules compiled :data:`BESIDE` it
    and of this Python's ABI: what a compiled build was made from."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in sorted(ENGINE.glob("*.py")):
        if path.name != "__init__.py":
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for name, path in sorted(BESIDE.items()):
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def built() -> bool:
    """Whether compiled modules built from the current sources are in the engine's folder and beside the sources of
    :data:`BESIDE`."""
    try:
        stamp = STAMP.read_text().strip()
    except OSError:
        return False
    compiled = [ENGINE / f"game{_SO}", *(compiled_path(p) for p in BESIDE.values())]
    return stamp == sources_digest() and all(p.exists() for p in compiled)


def _source_finder(folder: Path) -> importlib.machinery.FileFinder:
    return importlib.machinery.FileFinder(
        str(folder), (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
    )


class _SourceOnly(MetaPathFinder):
    """Imports the engine's modules, and those of :data:`BESIDE`, from their ``.py`` sources even when compiled
    modules sit beside them."""

    def __init__(self, package: str) -> None:
        self._package = package
        self._finder = _source_finder(ENGINE)
        self._beside = {name: _source_finder(path.parent) for name, path in BESIDE.items()}

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        beside = self._beside.get(fullname)
        if beside is not None:
            return beside.find_spec(fullname, target)
        if fullname.rpartition(".")[0] != self._package:
            return None
        return self._finder.find_spec(fullname, target)


def choose(package: str) -> None:
    """Called by the engine package ``package`` as it is first imported: import its modules and those of
    :data:`BESIDE` from the sources unless the compiled ones are up to date and wanted (module docstring). Raises
    ``ImportError`` for a wrong ``UNO_ENGINE``, or ``UNO_ENGINE=compiled`` without an up-to-date build."""
    mode = os.environ.get("UNO_ENGINE") or "auto"
    if mode not in MODES:
        raise ImportError(f"UNO_ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    if mode != "pure" and built():
        return
    if mode == "compiled":
        raise ImportError(
            "UNO_ENGINE=compiled, but the compiled engine is missing or stale: python scripts/build_engine.py"
        )
    if any(ENGINE.glob("*" + _SO)) or any(compiled_path(p).exists() for p in BESIDE.values()):
        sys.meta_path.insert(0, _SourceOnly(package))
