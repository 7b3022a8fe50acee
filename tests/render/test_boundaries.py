"""bot/render stays a leaf: no discord, asyncio or storage; only bot.engine.cards from the engine (DESIGN "Layers")."""

import ast
import subprocess
import sys
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "bot" / "render"


def test_render_imports_only_allowed_modules():
    for path in RENDER.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"discord", "asyncio", "aiosqlite"}, (path.name, name)
                assert not name.startswith(("bot.storage", "bot.adapter", "cogs")), (path.name, name)
                if name.startswith("bot.engine"):
                    assert name == "bot.engine.cards", (path.name, name)


def test_importing_render_loads_no_discord_or_asyncio():
    code = (
        "import sys, bot.render; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'asyncio', 'aiosqlite')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
