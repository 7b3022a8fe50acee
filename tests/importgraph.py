"""Who imports whom in ``bot/`` and ``cogs/``, read from the source, for the layer tests and the import-cycle test
(DESIGN "Layers").

Every ``import`` statement counts: at module level, inside functions and under ``if TYPE_CHECKING:`` (a type-only
import still ties two modules together for a reader and for mypy). Relative imports are resolved. ``from p import x``
names the module ``p.x`` when that is a module of the project, else ``p`` itself.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The project's packages whose imports are read.
PACKAGES = ("bot", "cogs")


@dataclass(frozen=True)
class Import:
    """One imported name: ``importer`` (a module of the project) imports ``name`` (absolute, dotted) at ``line``."""

    importer: str
    name: str
    line: int

    @property
    def top(self) -> str:
        """The top-level package of the imported name (``"discord"``, ``"bot"``, ``"asyncio"``…)."""
        return self.name.split(".")[0]

    @property
    def stdlib(self) -> bool:
        return self.top in sys.stdlib_module_names or self.top == "__future__"

    def within(self, *prefixes: str) -> bool:
        """Whether the imported name is one of ``prefixes`` or inside one of them (``"bot.engine"`` holds
        ``"bot.engine.cards"``, not ``"bot.engineering"``)."""
        return any(self.name == p or self.name.startswith(p + ".") for p in prefixes)

    def __str__(self) -> str:
        return f"{modules()[self.importer].relative_to(ROOT)}:{self.line} imports {self.name}"


@cache
def modules() -> dict[str, Path]:
    """Every module of :data:`PACKAGES` by dotted name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _base(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = importer.split(".")
    if modules()[importer].name != "__init__.py":
        parts.pop()  # a module's relative imports start from its package
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, node.module] if node.module else parts)


@cache
def imports(importer: str) -> tuple[Import, ...]:
    """Every import of module ``importer``, in source order."""
    tree = ast.parse(modules()[importer].read_text(encoding="utf-8"))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(importer, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(importer, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append(Import(importer, full if full in modules() else base, node.lineno))
    return tuple(sorted(found, key=lambda i: i.line))


def under(package: str) -> list[str]:
    """The modules of ``package`` (``"bot.engine"``), the package itself included."""
    return [m for m in modules() if m == package or m.startswith(package + ".")]


def imports_of(package: str) -> Iterator[Import]:
    """Every import made by a module of ``package``."""
    for module in under(package):
        yield from imports(module)


def project_module(name: str) -> str | None:
    """The module of the project that importing ``name`` loads last (its longest known prefix), or None."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module → the project modules it imports (itself excluded)."""
    edges: dict[str, frozenset[str]] = {}
    for module in modules():
        targets = {project_module(i.name) for i in imports(module)}
        edges[module] = frozenset(t for t in targets if t is not None and t != module)
    return edges


def cycles(edges: dict[str, frozenset[str]] | None = None) -> list[frozenset[str]]:
    """The import cycles: every strongly connected set of two or more modules (Tarjan's algorithm), sorted."""
    edges = graph() if edges is None else edges
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found, key=sorted)


def show(found: Iterable[Import]) -> str:
    return "\n".join(str(i) for i in found)
