"""``mypy --strict`` is the configuration for all of bot and cogs (issue 17 point 6): ``./scripts/test`` runs plain
``mypy``, so what pyproject.toml says is what is checked. No override may loosen it for part of the code."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
#: Settings that would turn part of strict mode off, or skip checking.
LOOSENING = {
    "ignore_errors": True,
    "strict": False,
    "disallow_untyped_defs": False,
    "disallow_incomplete_defs": False,
    "disallow_any_generics": False,
    "check_untyped_defs": False,
    "warn_return_any": False,
    "follow_imports": "skip",
}


def test_mypy_is_strict_for_bot_and_cogs():
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy.get("strict") is True
    assert set(mypy["files"]) >= {"bot", "cogs"}
    loosened = [
        (override.get("module"), key)
        for override in [mypy, *mypy.get("overrides", [])]
        for key, value in LOOSENING.items()
        if override.get(key) == value
    ]
    assert not loosened, f"strict mode loosened for: {loosened}"


def test_a_missing_module_of_the_project_is_an_error():
    """``ignore_missing_imports`` only for named third-party packages: set for everything, it would also let an import
    of a project module that no longer exists (a rename that missed one import) pass the type check."""
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert not mypy.get("ignore_missing_imports")
    for override in mypy.get("overrides", []):
        if override.get("ignore_missing_imports"):
            modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
            assert not [m for m in modules if m.split(".")[0] in {"bot", "cogs", "tests"}], modules
