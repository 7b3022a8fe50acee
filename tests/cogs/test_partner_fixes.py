"""Partner games (SPEC T) on screen, three defects of issue 17 point 7 fixed: ``/uno history`` names a player's partner
as their partner, never among their opponents (T1, T4); the round summary and the match summary do not count a
partner who left among the winners (T5); the host's **Change partners** button carries the lobby's fingerprint (T1),
so that a stale or double click changes nothing (its clicks: tests/e2e/test_partner_fixes.py)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.adapter.results import settle
from bot.adapter.session import Status
from bot.adapter.session_view import SessionView
from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.events import RoundEnded
from bot.engine.options import Options
from bot.i18n import LANGUAGES, t
from bot.storage import HistoryRow
from cogs.uno import screens
from cogs.uno.screens import ids
from cogs.uno.screens.recap import history_embed, history_line, history_option

from .sessions import flip_session


def row(partners: tuple[str, ...], opponents: tuple[str, ...], status: str = "completed") -> HistoryRow:
    seats = 1 + len(partners) + len(opponents)
    places = seats // (1 + len(partners))  # SPEC T4: partners share their team's place
    return HistoryRow(
        1, "1:2:3", "classic", 2, 1_799_999_999.0, status, 1, seats, 120, 120, opponents, 14, True, partners, places
    )


# --- T1, T4: the history ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_t4_a_history_line_names_the_partner_as_a_partner_never_as_an_opponent(lang: str) -> None:
    line = history_line(row(("Cleo",), ("Ben", "Dan")), lang)
    date, game = "<t:1799999999:d>", t("mode.classic", lang)
    expected = t(
        "history.row_team",
        lang,
        date=date,
        game=game,
        place=1,
        seats=2,  # SPEC T4: place 1 of 2 teams (partners share it), not of 4 seats
        points=120,
        partners="Cleo",
        opponents="Ben, Dan",
    )
    assert line.startswith(expected)
    assert line.count("Cleo") == 1 and line.index("Cleo") < line.index("Ben")
    assert t("history.row_team", "en", date="", game="", place=1, seats=4, points=0, partners="P", opponents="O") != (
        t("history.row", "en", date="", game="", place=1, seats=4, points=0, opponents="O")
    )
    abandoned = history_line(row(("Cleo",), ("Ben", "Dan"), "abandoned"), lang)
    assert abandoned.startswith(
        t("history.row_team_abandoned", lang, date=date, game=game, points=120, partners="Cleo", opponents="Ben, Dan")
    )
    label = history_option(row(("Cleo",), ("Ben", "Dan")), lang).label
    assert label == t("history.option_team", lang, game=game, place=1, seats=2, partners="Cleo", opponents="Ben, Dan")
    assert "of 4" not in history_line(row(("Cleo",), ("Ben", "Dan")), "en")
    # without teams, as before
    solo = history_line(row((), ("Ben", "Cleo")), lang)
    assert solo.startswith(
        t("history.row", lang, date=date, game=game, place=1, seats=3, points=120, opponents="Ben, Cleo")
    )
    assert history_option(row((), ("Ben", "Cleo")), lang).label == t(
        "history.option", lang, game=game, place=1, seats=3, opponents="Ben, Cleo"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_t4_a_history_page_of_ten_eight_seat_partner_games_with_long_names_fits_an_embed(lang: str) -> None:
    """The worst case of a partner game (8 seats: a partner and 6 opponents, 32-character names full of Markdown)
    within Discord's limits (description 4,096, embed 6,000), as tests/review/test_review7.py checks without teams."""
    names = tuple(f"{'_' * 31}{i}" for i in range(7))
    page = [row(names[:1], names[1:])] * 10
    embed = history_embed("x" * 32, page, lang, 9, 10, "this server")
    assert len(embed.description or "") <= 4096 and len(embed) <= 6000


# --- T5: a partner who left ------------------------------------------------------------------------------------------
def _partner_left(target: int) -> tuple[SessionView, RoundEnded]:
    """Four players, partners seat 0–2 and 1–3; seat 0 left in the first round, then seat 2 goes out (SPEC T2, T5)."""
    session = flip_session(4)
    options = Options(teams=True, target_score=target)
    session.mode, session.options = Mode.CLASSIC, options
    session.game = game = build(Mode.CLASSIC, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, options=options)
    session.remove(0)
    session.seats[0].left = True
    events = game.apply(game.legal_actions(2)[0])
    ended = next(e for e in events if isinstance(e, RoundEnded))
    if target == 0:
        settle(session, 10.0)
    return SessionView.of(session), ended


@pytest.mark.parametrize("lang", LANGUAGES)
def test_t5_the_round_summary_does_not_name_a_partner_who_left_among_the_round_winners(lang: str) -> None:
    sv, ended = _partner_left(500)
    assert sv.status is Status.PLAYING
    summary = screens.round_summary(sv, ended, lang).embeds()[0].description or ""
    assert summary.splitlines()[0] == t("round.team", lang, n=1, players="Player02")
    assert "Player00" in summary  # still listed with the seats' points, below
    # both partners still playing: both named (SPEC T2)
    session = flip_session(4)
    options = Options(teams=True, target_score=500)
    session.mode, session.options = Mode.CLASSIC, options
    session.game = game = build(Mode.CLASSIC, ["B9 G2", "Y7", "R5", "G4"], "R3", current=2, options=options)
    ended = next(e for e in game.apply(game.legal_actions(2)[0]) if isinstance(e, RoundEnded))
    head = (screens.round_summary(SessionView.of(session), ended, lang).embeds()[0].description or "").splitlines()[0]
    assert head == t("round.team", lang, n=1, players=t("team.members", lang, a="Player00", b="Player02"))


@pytest.mark.parametrize("lang", ["en", "sk"])
def test_t5_the_match_summary_ranks_a_partner_who_left_after_every_team(lang: str) -> None:
    """SPEC T4 and T5: the summary ranks as the records do (bot/adapter/results.py), the player who left last."""
    sv, _ = _partner_left(0)
    assert sv.result is not None and sv.result.completed and sv.result.winner == 2
    ranked = (screens.match_summary(sv, lang).embeds()[0].fields[0].value or "").splitlines()
    assert [re.sub(r" — .*", "", line) for line in ranked] == [
        "1. Player02",
        "2. Player01",
        "3. Player03",
        "4. Player00",
    ]


# --- T1: Change partners carries the lobby's fingerprint -------------------------------------------------------------
def _lobby_ids(sv: SessionView) -> list[str]:
    view = screens.lobby_screen(sv, "en").view
    assert view is not None
    return [str(getattr(item, "custom_id", "")) for item in view.children]


def test_t1_the_change_partners_button_carries_the_fingerprint_of_the_lobby_it_is_shown_on() -> None:
    session = flip_session(4)
    session.status, session.game, session.options = Status.LOBBY, None, Options(teams=True)
    first = SessionView.of(session)
    (button,) = [c for c in _lobby_ids(first) if ":partners:" in c]
    assert button == f"uno:l:partners:1:{ids.lobby_fingerprint(first)}"
    match = re.fullmatch(ids.LOBBY_RE, button)
    assert match is not None and match["fp"] == ids.lobby_fingerprint(first)
    session.version += 1  # any committed change of the lobby
    later = SessionView.of(session)
    assert ids.lobby_fingerprint(later) != ids.lobby_fingerprint(first)
    assert f"uno:l:partners:1:{ids.lobby_fingerprint(later)}" in _lobby_ids(later)
    # another session of the channel at the same version: another fingerprint
    session.created_at += 1.0
    session.version -= 1
    assert ids.lobby_fingerprint(SessionView.of(session)) != ids.lobby_fingerprint(first)
    # the other lobby buttons keep their ids, and the id of before still parses (then refused: no fingerprint)
    assert "uno:l:join:1" in _lobby_ids(first)
    old = re.fullmatch(ids.LOBBY_RE, "uno:l:partners:1")
    assert old is not None and old["verb"] == "partners" and old["fp"] is None
    assert re.fullmatch(ids.LOBBY_RE, "uno:l:partners:1:XYZ") is None


# --- T3, T5: a partner game's recap ----------------------------------------------------------------------------------
NAMES = ("Anna", "Ben", "Cleo", "Dan")


def partner_record(leave: int | None) -> tuple[list[tuple[int, dict[str, object]]], int]:
    """A one-round partner game's record (bot/adapter/records.py) played with seeded random legal moves, ``leave``
    taken out of it at the start; the first seed whose winner is seat 2 (Cleo, team 1 with Anna)."""
    from random import Random

    from bot.adapter import records
    from bot.engine.game import Game
    from bot.engine.view import Phase

    options = Options(teams=True, target_score=0)
    for seed in range(200):
        game, _ = Game.new("classic", 4, seed=seed, options=options)
        seats = [(11 + s, n, None) for s, n in enumerate(NAMES)]
        entries: list[tuple[int, dict[str, object]]] = [(0, records.start_entry("classic", 4, seed, options, seats))]
        if leave is not None:
            game.remove_player(leave)
            entries.append((game.step, {"remove": leave}))
        rng = Random(seed)
        while game.phase is not Phase.MATCH_OVER:
            seat = game.pending if game.pending is not None else game.active.index(True)
            legal = game.legal_actions(seat)
            action = legal[rng.randrange(legal.plays or len(legal))]
            game.apply(action)
            entries.append((game.step, {"a": records.encode(action)}))
        if game.winner == 2:
            return entries, seed
    raise AssertionError("no seed where Cleo wins")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_t3_t5_a_partner_games_recap_names_the_winning_team_without_a_partner_who_left(lang: str) -> None:
    from bot.adapter.records import recap
    from cogs.uno.screens.recap import recap_embed

    entries, _ = partner_record(None)
    told = recap(entries)
    assert (told.winner, told.teams, told.left) == (2, 2, (False,) * 4)
    ending = (recap_embed(told, lang).description or "").splitlines()[-1]
    assert ending == t("recap.winner_team", lang, n=1, players=t("team.members", lang, a="Anna", b="Cleo"))
    entries, _ = partner_record(0)  # Anna left at the start: Cleo wins for the team alone (SPEC T5)
    told = recap(entries)
    assert told.left == (True, False, False, False)
    ending = (recap_embed(told, lang).description or "").splitlines()[-1]
    assert ending == t("recap.winner_team", lang, n=1, players="Cleo")
    # without teams, as before
    solo = dataclasses.replace(told, teams=0, left=())
    assert (recap_embed(solo, lang).description or "").splitlines()[-1] == t("recap.winner", lang, player="Cleo")
