# Sourced by scripts/test and scripts/run-bot: create .venv and install the project (with the dev and postgres extras,
# so that the tests run against PostgreSQL too) when needed; then compile the rules engine with mypyc when its sources
# changed since the last build (scripts/build_engine.py: about a minute; without a C compiler it says so in one line
# and the engine runs as Python source; UNO_ENGINE=pure skips it).
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev,postgres]"
  rm -f .venv/.installed-*; touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
if [ "${UNO_ENGINE:-auto}" = compiled ]; then
  .venv/bin/python scripts/build_engine.py --if-stale --strict
else
  .venv/bin/python scripts/build_engine.py --if-stale
fi
