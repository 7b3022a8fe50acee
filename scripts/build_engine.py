"""Compile the rules engine with mypyc, in place (issue 21 point 5; bot/engine_native.py says how it is chosen).

    python scripts/build_engine.py [--if-stale] [--strict] [--clean]

Compiles every module of bot/engine but those of ``bot.engine_native.PURE_MODULES``, and with them the modules of
``bot.engine_native.BESIDE`` (the *Hard* AI's search core, bot/ai/rollout.py: it reads the engine's native classes
natively), into one extension (the ``*.so`` files beside the sources, C and objects under build/engine/), then writes
the stamp that makes them used; the stamp covers every source compiled, so an edit to any of them makes the build
stale.
``--if-stale`` does nothing when the stamp matches the sources. Without a C compiler, or when anything else goes
wrong, it removes what it built, says so in one line and exits 0: the engine then runs as Python source, only
slower. ``--strict`` (CI) exits 1 instead. ``--clean`` only removes a build. ``UNO_ENGINE=pure`` skips the build.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot import engine_native as native  # noqa: E402  (standard library only; imports no engine module)

GROUP = "bot.engine._native"  # the shared library: bot/engine/_native__mypyc*.so


def clean() -> None:
    native.STAMP.unlink(missing_ok=True)
    for path in native.ENGINE.glob("*.so"):
        path.unlink()
    for source in native.BESIDE.values():
        for path in source.parent.glob(source.stem + ".*.so"):
            path.unlink()


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)  # mypyc names modules from paths relative to the project
    sources = sorted(f"bot/engine/{p.name}" for p in native.ENGINE.glob("*.py"))
    compiled = [s for s in sources if Path(s).stem not in native.PURE_MODULES]
    beside = [str(p.relative_to(ROOT)) for p in native.BESIDE.values()]
    sources += beside
    compiled += beside
    digest = native.sources_digest()
    extensions = mypycify(
        sources, only_compile_paths=compiled, opt_level="3", group_name=GROUP, target_dir="build/engine"
    )
    dist = Distribution({"name": "uno-engine", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.inplace = True  # type: ignore[attr-defined]
    command.build_temp = "build/engine/temp"  # type: ignore[attr-defined]
    dist.run_command("build_ext")
    if native.sources_digest() != digest:
        raise RuntimeError("the compiled sources changed during the build")
    native.STAMP.write_text(digest + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--if-stale", action="store_true", help="do nothing when the build matches the sources")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the engine cannot be compiled")
    parser.add_argument("--clean", action="store_true", help="remove the compiled engine, and build nothing")
    args = parser.parse_args()
    if args.clean:
        clean()
        return 0
    if os.environ.get("UNO_ENGINE") == "pure":
        print("engine: UNO_ENGINE=pure, not compiled", file=sys.stderr)
        return 0
    if args.if_stale and native.built():
        return 0
    clean()
    start = time.monotonic()
    print("engine: compiling with mypyc (once per change of the engine; about a minute)…", file=sys.stderr)
    log = ROOT / "build" / "engine" / "build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(log, "w") as out:
            # the compiler's chatter goes to the log, file descriptors and all (gcc writes to them directly)
            saved = os.dup(1), os.dup(2)
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            try:
                build()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
    except (Exception, SystemExit) as exc:  # setuptools reports a failed compile as SystemExit
        clean()
        shutil.rmtree(ROOT / "build" / "engine" / "temp", ignore_errors=True)
        reason = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:160]
        print(
            f"engine: not compiled ({reason}; see {log.relative_to(ROOT)}); it runs as Python source", file=sys.stderr
        )
        return 1 if args.strict else 0
    print(f"engine: compiled in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
