# The UNO bot as a container (README "Deploying"): the bot and its PostgreSQL driver, run as a non-root user.
#   docker build -t uno-bot .
#   docker run --env-file .env -v uno-data:/data uno-bot              # SQLite in the /data volume
#   docker compose up -d                                               # PostgreSQL + two shard processes
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

USER 10001:10001
# SQLite by default (a file in the volume); set UNO_DATABASE=postgresql://… for PostgreSQL.
ENV UNO_DATABASE=/data/uno.sqlite3
VOLUME ["/data"]
# SIGTERM is a clean stop: interactions finish, the games' leases are released, the database is closed.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
