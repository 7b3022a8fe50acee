"""Partner games (SPEC T) on screen, a defect of issue 17 point 7 fixed: ``/uno history`` names a player's partner as
their partner, never among their opponents (T1, T4)."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, t
from bot.storage import HistoryRow
from cogs.uno.recap import history_embed, history_line, history_option


def row(partners: tuple[str, ...], opponents: tuple[str, ...], status: str = "completed") -> HistoryRow:
    seats = 1 + len(partners) + len(opponents)
    return HistoryRow(
        1, "1:2:3", "classic", 2, 1_799_999_999.0, status, 1, seats, 120, 120, opponents, 14, True, partners
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
        seats=4,
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
    assert label == t("history.option_team", lang, game=game, place=1, seats=4, partners="Cleo", opponents="Ben, Dan")
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
