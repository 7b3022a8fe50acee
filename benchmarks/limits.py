"""Rate-limited benchmark (run by hand, not a test; issue 20, point 4): the bot against the emulator with Discord's
rate limits on (per-route buckets per channel and per interaction token, the global 50 requests/s, the headers, 429s)
and, to compare, off.

    .venv/bin/python benchmarks/limits.py [pace] [lag] [start] [--decisions 150] [--seconds 60] [--tables 50]
        [--bot-root PATH]

Scenarios (each prints its figures; all by default):

- ``pace``: 5 players at one table who act as soon as their own hand shows that it is their decision (they read only
  their ephemeral hand), one round per match, matches one after another until ``--decisions`` decisions were made;
  run once with the limits off and once on. Prints decisions/s of each and the ratio (target ≥ 0.8), and what a
  decision costs in the channel (table edits, messages posted — pings, summaries —, deletes) with the limits on.
- ``lag``: 6 players at one table who each look at their hand every 0.7 s (the hand's Refresh button) and act at
  that moment when it is their decision, for ``--seconds`` seconds, limits on. The committed game is read from the
  bot's SQLite file every 5 ms; each revision of the table message is matched to the committed version it shows
  (the embed the bot's own screens draw from that snapshot). Prints, sampled every 50 ms, how far the table is
  behind the committed game (seconds since the first commit it does not show, and commits), their maximum (targets:
  ≤ 3 s and ≤ 2 moves), and how long after the last move the table showed it (target ≤ 2 s).
- ``start``: ``--tables`` tables (2 players each, lobbies opened beforehand) whose hosts all press Start at once;
  limits on. Prints the 429s answered (target 0), the most requests counting towards the global limit that reached
  the emulator's limiter in any sliding second, and how long until every table was shown.

``--bot-root PATH`` runs the bot of another checkout (e.g. ``git archive <commit> | tar -x -C PATH``) against the
same emulator and players, to measure the code before a change. Needs the emulator's rate limits
(``DiscordEmulator(benchmark_without_rate_limits=...)``); without them every run is unlimited, and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.adapter.manager import Limits  # noqa: E402
from bot.adapter.session import Session  # noqa: E402
from bot.adapter.session_view import SessionView  # noqa: E402
from cogs.uno import screens  # noqa: E402
from cogs.uno.output.publisher import LOG_SHOWN  # noqa: E402
from tests.discord_emulator import DiscordEmulator, Message, User  # noqa: E402
from tests.e2e.uno_driver import Table  # noqa: E402

POLL = 0.02  # how often the simulated players look at their messages (s)
DECISIONS = ("uno:hs:play", "uno:h:draw", "uno:h:keep", "uno:h:challenge", "uno:h:accept", "uno:h:declare")
CHANNEL_MESSAGE = re.compile(r"channels/\d+/messages(/\d+)?$")
HAND_MESSAGE = re.compile(r"webhooks/\d+/[^/]+(/messages/[^/]+)?$")
LIMITED = "benchmark_without_rate_limits" in inspect.signature(DiscordEmulator.__init__).parameters


class RemoteTable(Table):
    """The e2e driver, reading only Discord messages (the bot runs in another process)."""

    message: Message

    def public_message(self) -> Message:
        return self.emulator.message(self.message.id)


def ready(hand: Message) -> bool:
    """Whether ``hand`` shows its player a decision to make (and is not being drawn)."""
    controls = [*hand.buttons(), *hand.selects()]
    return not hand.loading and any(c.custom_id and c.custom_id.startswith(DECISIONS) for c in controls)


def channel_requests(emu: DiscordEmulator, since: float, until: float = float("inf")) -> Counter[str]:
    """Requests to channel messages from ``since`` to ``until`` (emulator clock): ``edit``, ``post``, ``delete``;
    ``404``; and ``hand``: the requests through interaction webhooks (hand edits and followups; the answers to clicks
    themselves, interaction callbacks, not counted)."""
    counts: Counter[str] = Counter()
    for at, method, path, status in emu.requests:
        if at < since or at > until:
            continue
        if HAND_MESSAGE.fullmatch(path) and method in ("PATCH", "POST"):
            counts["hand"] += 1
            continue
        if not CHANNEL_MESSAGE.search(path):
            continue
        counts[{"PATCH": "edit", "POST": "post", "DELETE": "delete"}.get(method, method)] += 1
        if status == 404:
            counts["404"] += 1
    return counts


def four_twenty_nines(emu: DiscordEmulator) -> int:
    return sum(1 for *_, status in emu.requests if status == 429)


class Run:
    """The emulator (limits on or off) and the bot in its own process (``python -m bot``) on an SQLite file."""

    def __init__(self, *, limits: bool, bot_root: Path, tmp: Path) -> None:
        kwargs = {"benchmark_without_rate_limits": not limits} if LIMITED else {}
        self.emu = DiscordEmulator(**kwargs)
        self.emu.requests = deque(maxlen=2_000_000)
        self.limits = limits and LIMITED
        self.bot_root = bot_root
        self.db = tmp / f"bench-{'on' if limits else 'off'}.sqlite3"
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Run:
        await self.emu.start()
        return self

    async def start_bot(self, guild: Any) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, (str(self.bot_root), os.environ.get("PYTHONPATH")))),
            "DISCORD_TOKEN": self.emu.token,
            "DISCORD_API_BASE": self.emu.api_base,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "UNO_DATABASE": str(self.db),
            "DEV_GUILD_ID": str(guild.id),
            "LOG_LEVEL": "WARNING",
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=str(self.db.parent), env=env
        )
        await self.emu.wait_until(lambda: bool(self.emu.commands(guild)), timeout=60, what="commands synced")
        await self.emu.wait_until(lambda: self.emu.gateway.identifies >= 1, timeout=60, what="the bot connected")
        await asyncio.sleep(2.5)  # discord.py waits for its guilds before READY

    async def __aexit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            await self.process.wait()
        await self.emu.stop()


async def open_table(emu: DiscordEmulator, channel: Any, users: list[User], rng: random.Random) -> RemoteTable:
    """The first user opens a one-round classic game and the others join (the lobby shows them all)."""
    res = await emu.slash(users[0], channel, "uno new", game="classic", target=0, settle=False)
    table = RemoteTable(emu, None, channel, users, rng, settle=False, poll=POLL)  # type: ignore[arg-type]
    table.message = res.public_messages[0]
    for user in users[1:]:
        await emu.click(user, public(table), label="Join", settle=False)
    await emu.wait_until(lambda: f"{len(users)}. " in public(table).text, timeout=180, what="everyone seated")
    return table


def public(table: Table) -> Message:
    return table.public_message()


def table_shown(table: Table) -> bool:
    return any(b.label == "Show my hand" for b in public(table).buttons())


def match_over(table: Table) -> bool:
    return any(b.label == "Play again" for b in public(table).buttons())


async def hand_player(
    table: Table, user: User, decided: Callable[[], None], stop: Callable[[], bool], *, every: float | None
) -> None:
    """Open the hand; then act whenever it shows a decision (``every``: look only every so many seconds, pressing the
    hand's Refresh button; None: watch it all the time)."""
    emu = table.emulator
    hand = await table.open_hand(user)
    if every is not None:
        await asyncio.sleep(table.rng.uniform(0, every))
    while not stop():
        if every is None:
            try:
                await emu.wait_until(lambda: ready(hand) or stop(), timeout=120, interval=POLL, what="my decision")
            except AssertionError:
                return
            if stop():
                return
        elif not ready(hand):
            refresh = next((b for b in hand.buttons() if (b.custom_id or "").startswith("uno:h:refresh")), None)
            if refresh is None:
                return
            try:
                await table._on_hand(user, hand, refresh.custom_id)  # type: ignore[arg-type]
            except AssertionError:
                # answered with a message of its own, not an update of the hand: the match ended (its table, paced
                # by the channel's bucket, may not say so yet)
                return
            await asyncio.sleep(every)
            continue
        await table.take_turn(user, hand)
        decided()
        if every is not None:
            await asyncio.sleep(every)


# ----------------------------------------------------------------------------------------------------------------
# pace


async def pace(limits: bool, decisions: int, bot_root: Path, tmp: Path) -> dict[str, float]:
    """5 players acting on their hands until ``decisions`` decisions; returns decisions/s and channel requests."""
    async with Run(limits=limits, bot_root=bot_root, tmp=tmp) as run:
        emu = run.emu
        guild = emu.add_guild("Pace", channels=("uno",))
        users = [emu.add_user(f"p{i}", guild=guild) for i in range(5)]
        await run.start_bot(guild)
        channel = guild.channel("uno")
        made, elapsed, requests = 0, 0.0, Counter[str]()
        gaps: list[float] = []  # the longest time without a table edit in each match's play (s)
        rng = random.Random(4)
        while made < decisions:
            table = await open_table(emu, channel, users, rng)
            await emu.click(users[0], public(table), label="Start", settle=False)
            await emu.wait_until(lambda t=table: table_shown(t), timeout=180, what="the table")
            game = Counter[str]()
            budget = decisions - made

            def stop(t: Table = table, g: Counter[str] = game, b: int = budget) -> bool:
                return match_over(t) or g["decisions"] >= b

            started = emu.now()
            await asyncio.gather(
                *(hand_player(table, u, lambda g=game: g.update(["decisions"]), stop, every=None) for u in users)
            )
            ended = emu.now()
            elapsed += ended - started
            requests += channel_requests(emu, started, ended)
            made += game["decisions"]
            edits = [v.at for v in public(table).history if started <= v.at <= ended]
            moments = [started, *edits, ended]
            gaps.append(max(b - a for a, b in itertools.pairwise(moments)))
            await asyncio.sleep(1.0)
        rate = made / elapsed
        print(
            f"  limits {'on ' if run.limits else 'off'}: {made} decisions in {elapsed:.1f} s of play: "
            f"{rate:.2f} decisions/s; channel requests per decision: edits {requests['edit'] / made:.2f}, "
            f"posts {requests['post'] / made:.2f}, deletes {requests['delete'] / made:.2f} "
            f"(404s: {requests['404']}); hand requests (interaction webhooks) per decision "
            f"{requests['hand'] / made:.2f}; 429s: {four_twenty_nines(emu)}"
        )
        print(
            f"    table edits: {requests['edit'] / elapsed:.2f}/s of play; the longest time without one while "
            f"playing: {max(gaps):.2f} s"
        )
        return {"rate": rate, **{k: v / made for k, v in requests.items()}}


# ----------------------------------------------------------------------------------------------------------------
# lag


def expected_embed(snapshot: dict[str, Any], round_pause: float) -> tuple[Any, tuple[int, int | None] | None]:
    """The table embed the bot's screens draw from a committed snapshot (its image aside), or None (no table); and
    the turn it shows (round, seat to decide), None without a table."""
    view = SessionView.of(Session.from_dict(snapshot))
    if view.public is None:
        return None, None
    lang = view.ui.lang
    embed = screens.table_screen(view, lang, list(view.log[-LOG_SHOWN:]), round_pause=round_pause).embed
    return (embed.to_dict() if embed is not None else None), (view.public.round, view.public.pending)


async def watch_commits(db: Path, channel_id: int, seen: list[tuple[float, int, str]], stop: asyncio.Event) -> None:
    """Read the channel's committed version from the bot's SQLite file every 5 ms: ``(emulator time, version,
    snapshot)`` for each new one."""
    while not db.exists():
        await asyncio.sleep(0.05)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.05)
    last = -1
    try:
        while not stop.is_set():
            try:
                row = conn.execute(
                    "SELECT version, snapshot FROM live_games WHERE channel_id = ?", (channel_id,)
                ).fetchone()
            except sqlite3.OperationalError:
                row = None
            if row is not None and row[0] != last:
                last = row[0]
                seen.append((time.monotonic(), int(row[0]), str(row[1])))
            await asyncio.sleep(0.005)
    finally:
        conn.close()


async def lag(seconds: float, bot_root: Path, tmp: Path, every: float = 0.7) -> dict[str, float]:
    """6 players looking at their hands every ``every`` s, for ``seconds``; the table's lag behind the game."""
    async with Run(limits=True, bot_root=bot_root, tmp=tmp) as run:
        emu = run.emu
        guild = emu.add_guild("Lag", channels=("uno",))
        users = [emu.add_user(f"q{i}", guild=guild) for i in range(6)]
        await run.start_bot(guild)
        channel = guild.channel("uno")
        commits: list[tuple[float, int, str]] = []
        done = asyncio.Event()
        watcher = asyncio.create_task(watch_commits(run.db, channel.id, commits, done))
        table = await open_table(emu, channel, users, random.Random(6))
        await emu.click(users[0], public(table), label="Start", settle=False)
        await emu.wait_until(lambda: table_shown(table), timeout=180, what="the table")
        began = emu.now()
        decisions, last_decision = 0, began

        def decided() -> None:
            nonlocal decisions, last_decision
            decisions, last_decision = decisions + 1, emu.now()

        def stop() -> bool:
            return match_over(table) or emu.now() - began >= seconds

        await asyncio.gather(*(hand_player(table, u, decided, stop, every=every) for u in users))
        # play stopped at the last decision (a player who found the match over may have waited a while to see it)
        ended = last_decision
        await asyncio.sleep(5.0)  # let the table catch up
        done.set()
        await watcher
        requests = channel_requests(emu, began)
        return lag_figures(run, table, commits, began, ended, decisions, requests)


def lag_figures(
    run: Run,
    table: Table,
    commits: list[tuple[float, int, str]],
    began: float,
    ended: float,
    decisions: int,
    requests: Counter[str],
) -> dict[str, float]:
    """Match each table revision to the commit it shows; sample how far behind the table was."""
    pause = Limits().round_pause
    embeds: dict[int, dict[str, Any] | None] = {}
    turn_of: dict[int, tuple[int, int | None] | None] = {}
    for _, version, snapshot in commits:
        embeds[version], turn_of[version] = expected_embed(json.loads(snapshot), pause)
    turns: dict[int, int] = {}  # version -> how many times the turn had passed on by then
    passed, last_turn = 0, None
    for version in sorted(turn_of):
        if turn_of[version] != last_turn:
            passed, last_turn = passed + 1, turn_of[version]
        turns[version] = passed
    shown: list[tuple[float, int]] = []  # (time, version shown), table revisions from the start of play
    unmatched = 0
    last_version = 0
    for revision in public(table).history:
        if not revision.embeds:
            continue
        embed = {k: v for k, v in revision.embeds[0].items() if k != "image"}
        matches = [v for v, e in embeds.items() if e == embed and v >= last_version]
        if not matches:
            unmatched += revision.at >= began  # the lobby's revisions before are not the table's
            continue
        last_version = min(matches)
        shown.append((revision.at, last_version))
    first_seen = {version: at for at, version, _ in commits}
    versions = sorted(first_seen)
    worst_moves, worst_turns, worst_seconds, samples = 0, 0, 0.0, []
    last_commit = max((at for at, _, _ in commits if at <= ended), default=began)
    t = began + 1.0
    while t <= ended + 4.9:
        table_version = max((v for at, v in shown if at <= t), default=0)
        committed = max((v for v in versions if first_seen[v] <= t), default=0)
        behind = max(0, committed - table_version)
        turns_behind = max(0, turns.get(committed, 0) - turns.get(table_version, 0))
        oldest = min((first_seen[v] for v in versions if table_version < v <= committed), default=t)
        seconds = t - oldest
        samples.append((behind, seconds))
        worst_moves, worst_seconds = max(worst_moves, behind), max(worst_seconds, seconds)
        worst_turns = max(worst_turns, turns_behind)
        t += 0.05
    final = max(v for v in versions if first_seen[v] <= ended + 0.001) if versions else 0
    caught = next((at for at, v in shown if v >= final), None)
    catch_up = (caught - last_commit) if caught is not None else float("inf")
    p50 = statistics.median(s for _, s in samples) if samples else 0.0
    print(
        f"  {decisions} decisions in {ended - began:.1f} s ({decisions / (ended - began):.2f}/s, "
        f"{len(versions)} commits seen, {len(shown)} table revisions matched, {unmatched} not matched)"
    )
    print(
        f"  table behind the committed game: at most {worst_seconds:.2f} s and {worst_moves} commits (moves), "
        f"{worst_turns} turns (median {p50:.2f} s); shown {catch_up:.2f} s after the last commit; 429s: "
        f"{four_twenty_nines(run.emu)}"
    )
    print(
        f"  channel requests per decision: edits {requests['edit'] / max(decisions, 1):.2f}, posts "
        f"{requests['post'] / max(decisions, 1):.2f}, deletes {requests['delete'] / max(decisions, 1):.2f} "
        f"(404s: {requests['404']}); hand requests {requests['hand'] / max(decisions, 1):.2f}"
    )
    return {"seconds": worst_seconds, "moves": worst_moves, "turns": worst_turns, "catch_up": catch_up}


# ----------------------------------------------------------------------------------------------------------------
# start


async def start(tables: int, bot_root: Path, tmp: Path) -> dict[str, float]:
    """``tables`` hosts press Start at once; 429s and requests per second seen by the emulator."""
    async with Run(limits=True, bot_root=bot_root, tmp=tmp) as run:
        emu = run.emu
        guild = emu.add_guild("Start", channels=tuple(f"uno-{i}" for i in range(tables)))
        pairs = [(emu.add_user(f"h{i}", guild=guild), emu.add_user(f"g{i}", guild=guild)) for i in range(tables)]
        await run.start_bot(guild)
        opened = []
        for i, (host, guest) in enumerate(pairs):
            opened.append(await open_table(emu, guild.channel(f"uno-{i}"), [host, guest], random.Random(i)))
        await asyncio.sleep(6.0)  # the lobbies' edits done, every bucket reset
        before = four_twenty_nines(emu)
        arrivals: list[float] = []  # when each request counting globally reached the emulator's limiter
        take = emu.rate_limits.take

        def counted(method: str, path: str) -> Any:
            verdict = take(method, path)
            if verdict is not None and counts_globally(method, path):
                arrivals.append(emu.now())
            return verdict

        emu.rate_limits.take = counted  # type: ignore[method-assign]
        began = emu.now()
        await asyncio.gather(*(emu.click(t.users[0], public(t), label="Start", settle=False) for t in opened))
        await emu.wait_until(lambda: all(table_shown(t) for t in opened), timeout=120, what="every table shown")
        shown = emu.now() - began
        await asyncio.sleep(5.0)
        times = sorted(at for at in arrivals if at >= began)
        busiest = max((sum(1 for u in times if t <= u < t + 1.0) for t in times), default=0)
        limited = four_twenty_nines(emu) - before
        print(
            f"  {tables} tables started at once: every table shown after {shown:.2f} s; {len(times)} requests "
            f"counting globally in {emu.now() - began:.1f} s, at most {busiest} arriving in any second (sliding); "
            f"429s: {limited}"
        )
        return {"shown": shown, "busiest": busiest, "429": limited}


def counts_globally(method: str, path: str) -> bool:
    """Whether the emulator counts a request towards the global limit (not an interaction's own route)."""
    return not (path.startswith("interactions/") or re.match(r"webhooks/\d+/[^/]+", path) is not None)


# ----------------------------------------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> None:
    scenarios = args.scenarios or ["pace", "lag", "start"]
    bot_root = Path(args.bot_root).resolve() if args.bot_root else ROOT
    print(f"bot: {bot_root}; emulator rate limits: {'available' if LIMITED else 'NOT AVAILABLE (all runs unlimited)'}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        jobs: dict[str, Callable[[], Awaitable[Any]]] = {
            "pace": lambda: pace_both(args.decisions, bot_root, tmp),
            "lag": lambda: lag(args.seconds, bot_root, tmp),
            "start": lambda: start(args.tables, bot_root, tmp),
        }
        for name in scenarios:
            print(f"== {name}")
            await jobs[name]()


async def pace_both(decisions: int, bot_root: Path, tmp: Path) -> None:
    off = await pace(False, decisions, bot_root, tmp)
    on = await pace(True, decisions, bot_root, tmp)
    print(f"  pace with limits / without: x{on['rate'] / off['rate']:.2f} (target >= 0.8)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("scenarios", nargs="*", choices=["pace", "lag", "start", []], default=None)
    parser.add_argument("--decisions", type=int, default=150, help="pace: decisions per run")
    parser.add_argument("--seconds", type=float, default=60.0, help="lag: seconds of play")
    parser.add_argument("--tables", type=int, default=50, help="start: tables started at once")
    parser.add_argument("--bot-root", help="run the bot of this checkout (default: this one)")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
