# The UNO bot as a container (README "Deploying"): the bot and its PostgreSQL driver, run as a non-root user.
#   docker build -t uno-bot .
#   docker run --env-file .env -v uno-data:/data uno-bot              # SQLite in the /data volume
#   docker compose up -d                                               # PostgreSQL + two shard processes
# Stage 1 compiles the rules engine, and the Hard AI's search core with it, with mypyc (README "Performance";
# scripts/build_engine.py): the same engine, several times faster. --strict fails the build rather than ship the slower
# source engine unnoticed. The compiler stays in this stage: the image that runs the bot has none.
FROM python:3.11-slim AS engine
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY scripts/build_engine.py ./scripts/
# The dev extra brings mypy (with mypyc) and setuptools at the versions pyproject.toml bounds.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir ".[dev]" \
    && python scripts/build_engine.py --strict

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin uno \
    && mkdir /data \
    && chown uno:uno /data

# The bot with its dependencies (versions bounded in pyproject.toml; DL3013 is about pinning named packages).
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
# hadolint ignore=DL3013
RUN pip install ".[postgres]"
# The compiled engine and its stamp beside the sources it was built from (bot/engine_native.py uses it only while the
# stamp matches them; the bot runs from /app, so these are the modules it imports), and the Hard AI's search core
# compiled in the same build. Same base image, same Python ABI.
COPY --from=engine /src/bot/engine/*.so /src/bot/engine/_native.stamp ./bot/engine/
COPY --from=engine /src/bot/ai/*.so ./bot/ai/

USER 10001:10001
# SQLite by default (a file in the volume); set UNO_DATABASE=postgresql://… for PostgreSQL.
ENV UNO_DATABASE=/data/uno.sqlite3
VOLUME ["/data"]
# SIGTERM is a clean stop: interactions finish, the games' leases are released, the database is closed.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
