"""``/uno history`` and match recaps (issue 19 point 2): the embeds, in the reader's language.

A history page lists a player's finished matches newest first (:meth:`bot.storage.Store.match_history`); a recap tells
one match round by round from its record (:func:`bot.adapter.records.recap`). Dates are Discord timestamps
(``<t:…:d>``), which every reader's client shows in their own format.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import discord

from bot.adapter.records import Recap
from bot.engine.teams import team_of
from bot.i18n import t, tn
from bot.storage import HistoryRow

from .team_lines import winners
from .text import card_name, shown_name

RECAP_ROUNDS = 20
"""The most rounds a recap lists (the last ones; a match to 500 has a handful)."""


def signed(change: int) -> str:
    """A rating change as ``+12`` / ``−5`` / ``±0``."""
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


OPPONENTS_MAX = 250
"""The most characters of a history line's opponents (then ``+N`` for the others): ten lines of ten-seat matches
whose names are long and full of escaped Markdown still fit an embed's description (4,096)."""


def opponents_text(names: Sequence[str]) -> str:
    """The opponents' names, escaped (:func:`shown_name`), as many whole names as fit :data:`OPPONENTS_MAX`, then
    ``+N`` for the others; ``—`` for none."""
    shown = [shown_name(n) for n in names]
    text = ""
    for i, name in enumerate(shown):
        longer = f"{text}, {name}" if text else name
        if len(longer) > OPPONENTS_MAX:
            return f"{text}, +{len(shown) - i}" if text else f"+{len(shown)}"
        text = longer
    return text or "—"


def _of(row: HistoryRow) -> int:
    """The "of N" of a history row's place: the seats, but in a partner game the places its seats took (partners share
    their team's place, SPEC T4: place 1 of 2 teams, not of 4 seats)."""
    return (row.places or row.seats) if row.partners else row.seats


def history_line(row: HistoryRow, lang: str) -> str:
    """One match of a history page; in a partner game (SPEC T) the player's partners, then their opponents, and the
    team's place among the teams (T4)."""
    opponents = opponents_text(row.opponents)
    game = t(f"mode.{row.mode}", lang)
    date = f"<t:{int(row.ended_at)}:d>"
    team = {"partners": opponents_text(row.partners)} if row.partners else {}
    if row.status == "completed":
        line = t(
            "history.row_team" if team else "history.row",
            lang,
            date=date,
            game=game,
            place=row.placement,
            seats=_of(row),
            points=row.points,
            opponents=opponents,
            **team,
        )
    else:
        key = "history.row_team_abandoned" if team else "history.row_abandoned"
        line = t(key, lang, date=date, game=game, points=row.points, opponents=opponents, **team)
    if row.rating_change is not None:
        line += t("history.rating", lang, change=signed(row.rating_change))
    return line


def history_option(row: HistoryRow, lang: str) -> discord.SelectOption:
    """The recap select's option of one recorded match: its game, placement, partners (SPEC T) and opponents; its
    date below."""
    game = t(f"mode.{row.mode}", lang)
    opponents = ", ".join(row.opponents)
    if row.partners:
        partners = ", ".join(row.partners)
        label = t(
            "history.option_team",
            lang,
            game=game,
            place=row.placement,
            seats=_of(row),
            partners=partners,
            opponents=opponents,
        )
    else:
        label = t("history.option", lang, game=game, place=row.placement, seats=row.seats, opponents=opponents)
    day = datetime.datetime.fromtimestamp(row.ended_at, datetime.UTC).strftime("%Y-%m-%d")
    return discord.SelectOption(label=label[:100], value=row.match_key, description=day)


def history_embed(name: str, rows: Sequence[HistoryRow], lang: str, page: int, pages: int, scope: str) -> discord.Embed:
    embed = discord.Embed(title=t("history.title", lang, name=shown_name(name)), colour=0x1E88E5)
    embed.description = "\n".join(history_line(r, lang) for r in rows) if rows else t("stats.none", lang)
    embed.set_footer(text=t("history.footer", lang, page=page + 1, pages=pages, scope=scope))
    return embed


def recap_embed(recap: Recap, lang: str, ended_at: float | None = None) -> discord.Embed:
    """A match told round by round: who went out with which card for how many points, then its highlights; the
    winner, or in a partner game the winning team and its partners (SPEC T3, T5)."""

    def name(seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(recap.names):
            return "?"
        return shown_name(recap.names[seat])

    title = t("recap.title", lang, game=t(f"mode.{recap.mode}", lang))
    embed = discord.Embed(title=title, colour=0xFFD600)
    lines = [
        t(
            "recap.round",
            lang,
            n=r.number,
            player=name(r.winner),
            card=card_name(r.card, lang) if r.card is not None else "?",
            points=r.scored,
        )
        for r in recap.rounds[-RECAP_ROUNDS:]
    ]
    if recap.winner is not None and recap.teams:  # SPEC T3, T5: the team, its partners who won
        won = winners(recap.winner, recap.teams, name, lang, lambda s: s < len(recap.left) and recap.left[s])
        ending = t("recap.winner_team", lang, n=team_of(recap.winner, recap.teams) + 1, players=won)
    elif recap.winner is not None:
        ending = t("recap.winner", lang, player=name(recap.winner))
    else:
        ending = t("recap.abandoned", lang)
    date = f" · <t:{int(ended_at)}:d>" if ended_at is not None else ""
    embed.description = ("\n".join(lines) + "\n\n" if lines else "") + ending + date
    told = []
    for h in recap.highlights:
        if h.kind == "challenge":
            told.append(tn("recap.challenge", h.count, lang, round=h.round, player=name(h.player), other=name(h.other)))
        elif h.kind == "stack":
            told.append(tn("recap.stack", h.count, lang, round=h.round, player=name(h.player)))
        elif h.kind == "swap":
            told.append(t("recap.swap", lang, round=h.round, player=name(h.player), other=name(h.other)))
    if told:
        embed.add_field(name=t("recap.highlights", lang), value="\n".join(told[:8])[:1024], inline=False)
    return embed
