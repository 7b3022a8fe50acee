"""Every message the bot shows, built from sessions and views: lobby, table, ephemeral hand, pickers, round and match
summaries. A :class:`Screen` is content + embed + components + files, sent or edited as one.

Public screens use the public (table) view only: no hand ever appears in them. The ephemeral hand uses the player's own
view (their cards and, in UNO FLIP, the other faces of the opponents' hands: SPEC F10).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.adapter import SessionView, Status
from bot.adapter.session_view import SeatView as SessionSeat
from bot.ai import DEFAULT_LEVEL, Level
from bot.card_emojis import CARD_EMOJIS
from bot.engine.actions import Accept, CallUno, Challenge, DeclareColour, Draw, Keep
from bot.engine.cards import Face, Kind, Mode, Side, colours_of, hand_sort_key
from bot.engine.events import RoundEnded
from bot.engine.options import Options
from bot.engine.view import HandCard, Phase, PlayerView
from bot.i18n import t, tn
from bot.render import SeatView, TableScene, colour_emoji, colour_rgb

from . import house, ids, layout
from .components import DecisionButton, HandButton, HandSelect, LobbyButton, RecapButton, TableButton, release
from .rule_lines import option_lines as rule_option_lines
from .team_lines import lobby_teams, match_title, round_line, seat_tag, seat_team, teams_at, totals_line
from .text import card_name, cards_line, colour_name, last_lines, short_card, shown_name, within

PAGE_SIZE = 25


def page_of(total: int, size: int, page: int) -> tuple[int, int]:
    """``(page, pages)`` for a list of ``total`` entries shown ``size`` a page: ``page`` (from 0) brought within the
    pages there are (a stale or forged page number shows the nearest page); ``pages`` at least 1."""
    pages = max(1, -(-total // size))
    return min(max(page, 0), pages - 1), pages


#: Phases in which a seated player owes a decision (with a turn timer when human).
DECISIONS = (Phase.PLAY, Phase.PLAY_DRAWN, Phase.CHALLENGE, Phase.DECLARE_COLOUR, Phase.STACK)
#: The Flex cards whose flex side is another action (SPEC X5): its effect is named in the menu (``flex.<kind>``).
FLEX_EFFECTS = frozenset(
    {
        Kind.FLEX_DRAW_TWO,
        Kind.FLEX_SKIP,
        Kind.FLEX_REVERSE,
        Kind.FLEX_WILD_TARGET_DRAW_TWO,
        Kind.FLEX_WILD_ALL_DRAW,
        Kind.FLEX_WILD_DRAW_FOUR,
    }
)
COLOUR_STYLE = discord.ButtonStyle.secondary
MODE_COLOUR = {Mode.CLASSIC: 0xE53935, Mode.FLIP: 0x8E24AA, Mode.FLEX: 0x43A047}


@dataclass
class Screen:
    """What to send or edit: ``content``, ``embed``, ``view`` (components) and ``files`` (images).

    Use it as a context manager around the request that sends it (``with screen: await ...``): it is disposed of
    afterwards (:meth:`dispose`)."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    files: list[discord.File] = field(default_factory=list)
    extra: list[discord.Embed] = field(default_factory=list)  # further embeds (e.g. a second image)
    #: As Components V2 (:mod:`cogs.uno.screens.layout`, issue 18 point 2): the container's tint (default: the embed's
    #: colour), and after how many of the embed's fields the controls go (None: after all of them).
    accent: int | None = None
    controls_after: int | None = None
    _layout: discord.ui.LayoutView | None = field(default=None, repr=False)

    def embeds(self) -> list[discord.Embed]:
        return ([self.embed] if self.embed is not None else []) + self.extra

    def layout(self) -> discord.ui.LayoutView:
        """The screen as one Components V2 container (built once: it takes the view's items)."""
        if self._layout is None:
            self._layout = layout.layout_of(
                self.embeds(),
                self.view,
                content=self.content,
                accent=self.accent,
                controls_after=self.controls_after,
            )
        return self._layout

    def send_kwargs(self) -> dict[str, Any]:
        if layout.ENABLED:
            return {"view": self.layout(), "files": self.files}
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds(), "files": self.files}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        if layout.ENABLED:
            return {"content": None, "embeds": [], "view": self.layout(), "attachments": self.files}
        return {"content": self.content, "embeds": self.embeds(), "view": self.view, "attachments": self.files}

    def rewind(self) -> None:
        """After a request that failed: read the images from their start again (the request read them)."""
        for file in self.files:
            file.reset()

    def __enter__(self) -> Screen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()

    def dispose(self) -> None:
        """Break the reference cycles of a screen that has been sent, so that it is freed at once instead of by the
        cyclic garbage collector, whose pauses grow with the garbage (view ↔ items; a sent ``discord.File`` leaves
        its buffer's ``close`` bound to the buffer itself). Clicks are unaffected: they are routed by custom_id."""
        if self.view is not None:
            release(self.view)
        if self._layout is not None:
            self._layout.clear_items()
        for file in self.files:
            state = getattr(file.fp, "__dict__", None)
            if state is not None:
                state.pop("close", None)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def seat_name(session: SessionView, seat: int, lang: str) -> str:
    """A seat's display name, as plain text: the player's name, or "AI 2" in the reader's language."""
    s = session.seats[seat]
    if s.ai_number is not None:
        return t("seat.ai", lang, n=s.ai_number)
    return s.name


def player_name(session: SessionView, seat: int, lang: str = "en") -> str:
    """:func:`seat_name` escaped for markdown and mentions (:func:`~cogs.uno.screens.text.shown_name`)."""
    return shown_name(seat_name(session, seat, lang))


def mention(session: SessionView, seat: int, lang: str = "en") -> str:
    user = session.seats[seat].user_id
    return f"<@{user}>" if user is not None else f"**{player_name(session, seat, lang)}**"


def game_name(mode: Mode, lang: str) -> str:
    return t(f"mode.{mode.value}", lang)


def colour_buttons(
    kind: type[DecisionButton] | type[HandButton],
    verb: str,
    channel: int,
    fp: str,
    side: Side,
    lang: str,
    *,
    row: int,
    prefix: str = "",
    suffix: str = "",
) -> list[discord.ui.Item[Any]]:
    """One button per colour of ``side`` (SPEC F5, F6), its arg ``prefix + colour + suffix``."""
    return [
        kind(
            verb,
            channel,
            fp,
            f"{prefix}{colour.value}{suffix}",
            t(f"colour.{colour.value}", lang),
            COLOUR_STYLE,
            emoji=colour_emoji(colour),
            row=row,
        )
        for colour in colours_of(side)
    ]


def _png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


# --------------------------------------------------------------------------------------------------------------------
# Lobby


def lobby_screen(session: SessionView, lang: str, ai_level: str = DEFAULT_LEVEL) -> Screen:
    """The lobby of ``session`` in ``lang``; ``ai_level``: the server's default AI level (``/uno settings
    ai_level``, issue 21 point 1), whose button is labelled **Add AI** and stands out."""
    ch = session.channel_id
    embed = discord.Embed(
        title=t("lobby.title", lang, game=game_name(session.mode, lang)), colour=MODE_COLOUR[session.mode]
    )
    host = next((s for s in session.seats if s.user_id == session.host_id), None)
    embed.description = t("lobby.host", lang, host=f"<@{session.host_id}>" if host else "—")
    players = "\n".join(
        f"{i + 1}. {'🤖 ' if s.ai else ''}{player_name(session, i, lang)}{ai_level_suffix(s, lang)}"
        for i, s in enumerate(session.seats)
    )
    embed.add_field(
        name=t("lobby.players", lang, n=len(session.seats), max=session.max_players), value=players or "—", inline=False
    )
    partnered = lobby_teams(
        session.mode, session.options, len(session.seats), lambda s: player_name(session, s, lang), lang
    )
    if partnered is not None:  # SPEC T1: who partners whom
        embed.add_field(name=t("lobby.teams", lang), value=partnered, inline=False)
    embed.add_field(name=t("lobby.options", lang), value=options_text(session, lang), inline=False)
    rules = house.option_lines(session.options, lang)
    if rules:  # SPEC H: the house rules in force
        embed.add_field(name=t("lobby.house_rules", lang), value="\n".join(rules), inline=False)
    if partnered is not None:  # SPEC T1: 4, 6 or 8 players
        embed.set_footer(text=t("lobby.footer_teams", lang))
    else:
        embed.set_footer(text=t("lobby.footer", lang, min=session.min_players, max=session.max_players))
    full = len(session.seats) >= session.max_players
    view = _view(
        LobbyButton("join", ch, t("btn.join", lang), discord.ButtonStyle.success, disabled=full, row=0),
        LobbyButton("leave", ch, t("btn.leave", lang), discord.ButtonStyle.secondary, row=0),
        LobbyButton("start", ch, t("btn.start", lang), discord.ButtonStyle.primary, row=0),
        LobbyButton("cancel", ch, t("btn.cancel", lang), discord.ButtonStyle.danger, row=0),
        LobbyButton("rules", ch, t("btn.rules", lang), discord.ButtonStyle.secondary, row=0),  # the host's rule panel
        *(  # issue 21: one Add AI button per level; the server's default level is "Add AI", highlighted
            LobbyButton(
                verb,
                ch,
                t("btn.add_ai" if level == ai_level else label, lang),
                discord.ButtonStyle.primary if level == ai_level else discord.ButtonStyle.secondary,
                disabled=full,
                row=1,
            )
            for level, (verb, label) in AI_BUTTONS.items()
        ),
        *(  # SPEC T1: the host changes who partners whom
            [LobbyButton("partners", ch, t("btn.partners", lang), row=1, fp=ids.lobby_fingerprint(session))]
            if teams_at(session.mode, session.options, len(session.seats))
            else []
        ),
    )
    return Screen(embed=embed, view=view)


#: The lobby's Add AI buttons (issue 21), easiest first: level -> (verb, label). ``ai`` (Normal) keeps its old verb, so
#: lobby messages posted before AI levels keep working; the button of the server's default level is labelled
#: ``btn.add_ai`` instead (:func:`lobby_screen`).
AI_BUTTONS: dict[Level, tuple[str, str]] = {
    Level.EASY: ("ai_easy", "btn.add_ai_easy"),
    Level.NORMAL: ("ai", "btn.add_ai_normal"),
    Level.HARD: ("ai_hard", "btn.add_ai_hard"),
}


def ai_level_suffix(seat: SessionSeat, lang: str) -> str:
    """`` · Hard`` after an AI seat's name (its level, localised); empty for a human."""
    return f" · {t(f'ai.level.{seat.level}', lang)}" if seat.ai and seat.level else ""


def message_url(session: SessionView) -> str | None:
    """The jump URL of the session's public message (lobby or table) as committed
    (``https://discord.com/channels/{guild}/{channel}/{message}``), or None before it is posted."""
    message = session.ui.message
    if message is None:
        return None
    return f"https://discord.com/channels/{session.guild_id}/{session.channel_id}/{message}"


def busy_text(session: SessionView, lang: str) -> str:
    """Why a new game cannot be opened where ``session`` is not over (e.g. an old Play again button): a lobby is
    already open (with a link to it when it is posted), or a game is being played."""
    if session.status is not Status.LOBBY:
        return t("error.game_exists", lang)
    url = message_url(session)
    return t("error.new_game_open", lang) if url is None else t("error.new_game_open_at", lang, link=url)


def options_text(session: SessionView, lang: str) -> str:
    o = session.options
    lines = [
        t("opt.line.target", lang, target=o.target_score) if o.target_score else t("opt.line.single_round", lang),
        t("opt.line.timer", lang, seconds=int(session.turn_timer)),
    ]
    if o.elimination:  # house rule elimination (SPEC H9): no target score; its own line says what ends the match
        lines.pop(0)
    return "\n".join(lines + option_lines(o, session.mode, lang))


def option_lines(o: Options, mode: Mode | None, lang: str) -> list[str]:
    """One line per rule option that differs from SPEC's default (the target score and house rules aside), for
    ``mode``'s game only, or for every game when ``mode`` is None (a server's saved defaults):
    :func:`cogs.uno.screens.rule_lines.option_lines`."""
    return rule_option_lines(o, mode, lang)


# --------------------------------------------------------------------------------------------------------------------
# Table


def table_screen(
    session: SessionView,
    lang: str,
    log: list[str],
    *,
    png: bytes | None = None,
    round_pause: float | None = None,
    reopen: bool = False,
) -> Screen:
    """The public table: public view only (no hand, no other faces of any hand). ``png``: the table image, if any;
    ``round_pause``: how long the pause between rounds lasts (s), named while a round is over; ``reopen``: the
    player to move has an open hand that can no longer be updated (issue 20.5): the line above the table tells them
    to press Show my hand."""
    view = session.public
    assert view is not None
    embed = discord.Embed(
        title=t("table.title", lang, game=game_name(session.mode, lang), round=view.round),
        colour=MODE_COLOUR[session.mode],
    )
    embed.description = status_line(session, view, lang, round_pause)
    embed.add_field(name=t("table.top", lang), value=top_text(view, lang), inline=True)
    direction = t("dir.cw", lang) if view.direction == 1 else t("dir.ccw", lang)
    embed.add_field(name=t("table.direction", lang), value=direction, inline=True)
    pile = tn("table.cards", view.draw_pile_size, lang)
    if view.draw_top_other is not None:
        pile += "\n" + t("table.draw_top_other", lang, card=card_name(view.draw_top_other, lang))
    embed.add_field(name=t("table.draw_pile", lang), value=pile, inline=True)
    if session.mode is Mode.FLIP:
        embed.add_field(name=t("table.side", lang), value=t(f"side.{view.side.value}", lang), inline=True)
    embed.add_field(name=t("table.players", lang), value=players_text(session, view, lang), inline=False)
    players_end = len(embed.fields)  # Show my hand, UNO! and Catch! go under the players, above the log (V2)
    if log:
        embed.add_field(name=t("table.log", lang), value=last_lines(log[-6:], 1024), inline=False)
    target = view.target_score
    footer = t("table.footer", lang, target=target) if target else t("opt.line.single_round", lang)
    if session.options.elimination:  # house rule elimination (SPEC H9): played to the last one in
        footer = t("lobby.house.elimination", lang, n=session.options.elimination)
    embed.set_footer(text=footer)
    files: list[discord.File] = []
    if png is not None:
        files.append(_png(png, "table.png"))
        embed.set_image(url="attachment://table.png")
    # whose turn it is is said once: the status line above, and the turn ping below (its own message: mentions in an
    # edit never notify), not a third time as this message's text (issue 18 point 5); only a player to move whose open
    # hand can no longer be updated is told here to press Show my hand (issue 20.5; also where pings are off)
    content = None
    if reopen and view.pending is not None and session.seats[view.pending].user_id is not None:
        content = t("table.ping_reopen", lang, player=mention(session, view.pending, lang))
    return Screen(
        content=content,
        embed=embed,
        view=table_components(session, view, lang),
        files=files,
        accent=tint(view),
        controls_after=players_end,
    )


def tint(view: PlayerView) -> int | None:
    """The colour in play as a Components V2 container's tint (0xRRGGBB): a wild's declared colour, else the top
    card's (issue 18 point 2); None before there is one."""
    colour = view.colour_in_play if view.colour_in_play is not None else view.declared_colour
    if colour is None:
        return None
    r, g, b = colour_rgb(colour)
    return (r << 16) | (g << 8) | b


def top_text(view: PlayerView, lang: str) -> str:
    """The top card in words and, when the colour in play is not plain from its name (a wild's declared colour; a
    Flex number, whose name gives two colours: SPEC X4, its regular one is in play), that colour in words on a line
    of its own (issue 18 point 5: not only by the marks)."""
    top = card_name(view.top, lang)
    colour = view.colour_in_play if view.colour_in_play is not None else view.declared_colour
    if colour is not None and (colour != view.top.colour or view.top.flex_colour is not None):
        top += "\n" + t("table.colour_in_play", lang, colour=colour_name(colour, lang))
    return top


def clock_line(session: SessionView, view: PlayerView, lang: str) -> str | None:
    """When the pending human decision times out, as Discord's relative timestamp (``<t:UNIX:R>``, which every
    client counts down by itself), or None when no turn timer runs for a human."""
    deadline = session.deadline
    if deadline is None or view.pending is None or view.phase not in DECISIONS:
        return None
    if session.seats[view.pending].user_id is None:
        return None
    return t("clock.deadline", lang, when=f"<t:{int(deadline)}:R>")


def round_over_line(lang: str, round_pause: float | None) -> str:
    """ "Next round in 30 s, or press Next round." (``round_pause`` s; without it only the button is named)."""
    if round_pause is None:
        return t("table.round_over_button", lang)
    return t("table.round_over", lang, seconds=round(round_pause))


def status_line(session: SessionView, view: PlayerView, lang: str, round_pause: float | None = None) -> str:
    """The table's first line (whose decision it is, or that the round or match is over) and its clock."""
    line = _status(session, view, lang, round_pause)
    clock = clock_line(session, view, lang)
    return f"{line}\n{clock}" if clock is not None else line


def _status(session: SessionView, view: PlayerView, lang: str, round_pause: float | None) -> str:
    p = view.pending
    if view.phase is Phase.MATCH_OVER:
        return t("table.match_over", lang)
    if view.phase is Phase.ROUND_OVER:
        return round_over_line(lang, round_pause)
    assert p is not None
    if view.phase is Phase.CHALLENGE:
        return t("table.challenge_pending", lang, player=mention(session, p, lang), card=card_name(view.top, lang))
    if view.phase is Phase.DECLARE_COLOUR:
        return t("table.declare_pending", lang, player=mention(session, p, lang))
    if view.phase is Phase.STACK and view.stack is not None:
        key = "table.stack_pending_deflect" if "stack_deflect" in view.house_rules else "table.stack_pending"  # H7
        return t(key, lang, player=mention(session, p, lang), n=view.stack)
    return t("table.turn", lang, player=mention(session, p, lang))


def out_label(seat: SessionSeat, lang: str) -> str:
    """Why a seat is out of the match, as the player list and the table image say it (issue 18 point 5): "left the
    game", "removed by the host", "removed after 3 timeouts"."""
    if seat.out == "kicked":
        return t("table.kicked", lang)
    if seat.out == "timeouts":
        return tn("table.timed_out", seat.timeouts, lang)
    if not seat.left:  # out of the engine's match without being removed: house rule elimination (SPEC H9)
        return t("table.eliminated", lang)
    return t("table.left", lang)


def out_text(seat: SessionSeat) -> Callable[[str], str]:
    """What the hand of a player out of the match says instead, in the hand's language (issue 18 point 5): that
    they left, were removed by the host, or by the turn timer after their timeouts in a row."""

    def text(lang: str) -> str:
        if seat.out == "kicked":
            return t("hand.out_kicked", lang)
        if seat.out == "timeouts":
            return tn("hand.out_timeouts", seat.timeouts, lang)
        return t("hand.out_left", lang)

    return text


def players_text(session: SessionView, view: PlayerView, lang: str) -> str:
    lines = []
    for seat, s in enumerate(session.seats):
        name = player_name(session, seat, lang)
        if not view.active[seat]:
            lines.append(f"~~{name}~~ · {out_label(s, lang)}")
            continue
        marker = "▶️" if seat == view.pending else "▫️"
        parts = [f"{marker} {'🤖 ' if s.ai else ''}**{name}**", tn("table.cards", view.hand_counts[seat], lang)]
        if view.teams:  # SPEC T1
            parts.insert(1, seat_team(seat, view.teams, lang))
        if view.hand_counts[seat] == 1 and view.uno_called[seat]:
            parts.append("**UNO!**")
        if view.power is not None:
            parts.append("🟢" if view.power[seat] else "🔴")
        parts.append(tn("table.points", view.scores[seat], lang))
        lines.append(" · ".join(parts))
    if view.teams:  # SPEC T3: the scores that decide the match
        lines.append(totals_line(view.scores, view.teams, lang))
    return "\n".join(lines)[:1024]


def table_scene(session: SessionView, view: PlayerView, lang: str = "en") -> TableScene:
    """What a table image shows to the owner of ``view``: the public table, and in UNO FLIP, for a player's view, the
    other faces of each opponent's hand (SPEC F10; never their own, never in a public message). A seat removed from
    the match is drawn as such, with the table's words for why it is out (:func:`out_label`), as the embed's player
    list says."""
    backs = view.other_faces
    seats = tuple(
        SeatView(
            name=f"{seat_tag(i, view.teams)} {seat_name(session, i, lang)}"
            if view.teams
            else seat_name(session, i, lang),
            cards=view.hand_counts[i],
            backs=backs[i] if backs is not None and backs[i] is not None and view.active[i] else None,
            power=view.power[i] if view.power is not None else None,
            left=None if view.active[i] else out_label(session.seats[i], lang),
        )
        for i in range(len(session.seats))
    )
    return TableScene(
        mode=session.mode,
        side=view.side,
        top=view.top,
        declared=view.declared_colour,
        seats=seats,
        turn=view.pending,
        clockwise=view.direction == 1,
        draw_count=view.draw_pile_size,
        draw_top_other=view.draw_top_other,
    )


def seat_views(session: SessionView) -> list[PlayerView]:
    """Every seat's own view of the committed game (none in the lobby)."""
    return list(session.seat_views) if session.seat_views is not None else []


def can_call_uno(views: Iterable[PlayerView]) -> bool:
    """Whether any of these players may call UNO now (the engine lists it among their legal actions, SPEC G8): what
    the table's UNO! button is for."""
    for v in views:
        legal = v.legal
        if any(isinstance(legal[i], CallUno) for i in range(legal.plays, len(legal))):
            return True
    return False


def table_components(session: SessionView, view: PlayerView, lang: str) -> discord.ui.View:
    ch = session.channel_id
    items: list[discord.ui.Item[Any]] = []
    if view.phase in (Phase.PLAY, Phase.PLAY_DRAWN, Phase.CHALLENGE, Phase.DECLARE_COLOUR, Phase.STACK):
        items += [
            TableButton("hand", ch, t("btn.hand", lang), discord.ButtonStyle.primary, emoji="🃏"),
            TableButton(
                "uno",
                ch,
                t("btn.uno", lang),
                discord.ButtonStyle.danger,
                disabled=not can_call_uno(seat_views(session)),
            ),
            TableButton(
                "catch", ch, t("btn.catch", lang), discord.ButtonStyle.secondary, disabled=view.catchable is None
            ),
        ]
    fp = ids.decision_fingerprint(view)
    if view.phase is Phase.CHALLENGE:
        items += [
            DecisionButton("challenge", ch, fp, "", t("btn.challenge", lang), discord.ButtonStyle.danger, row=1),
            DecisionButton("accept", ch, fp, "", t("btn.accept", lang), discord.ButtonStyle.secondary, row=1),
        ]
    if view.phase is Phase.DECLARE_COLOUR:
        items += colour_buttons(DecisionButton, "colour", ch, fp, view.side, lang, row=1)
    if view.phase is Phase.ROUND_OVER:
        items.append(TableButton("next", ch, t("btn.next_round", lang), discord.ButtonStyle.success))
    if session.status == Status.FINISHED or view.phase is Phase.MATCH_OVER:
        items = [TableButton("again", ch, t("btn.play_again", lang), discord.ButtonStyle.success)]
    return _view(*items)


# --------------------------------------------------------------------------------------------------------------------
# Hand (ephemeral)


def hand_image_args(view: PlayerView) -> tuple[list[Face], list[int], Side, bool | None] | None:
    """What :func:`bot.render.render_hand` needs to draw the player's hand (faces, positions of the playable cards,
    side, Power Card), or None for an empty hand."""
    if not view.hand:
        return None
    me = view.me
    assert me is not None
    playable = {o.card for o in ids.play_options(view)}
    hand = ids.sorted_hand(view)
    return (
        [c.face for c in hand],
        [i for i, c in enumerate(hand) if c.id in playable],
        view.side,
        view.power[me] if view.power is not None else None,
    )


def hand_screen(
    session: SessionView,
    view: PlayerView,
    lang: str,
    *,
    page: int = 0,
    note: str | None = None,
    png: bytes | None = None,
    table_png: bytes | None = None,
    round_pause: float | None = None,
) -> Screen:
    """The player's own hand with its controls (SPEC G4, G7, G8, X4, F10). ``png``: the hand image; ``table_png``
    (UNO FLIP): the table as this player sees it, with the other faces of the opponents' hands; ``round_pause``: as
    for :func:`table_screen`."""
    me = view.me
    assert me is not None
    fp = ids.hand_fingerprint(view)
    options = ids.play_options(view)
    playable_ids = {o.card for o in options}
    embed = discord.Embed(
        title=tn("hand.title", len(view.hand), lang),
        colour=MODE_COLOUR[session.mode],
    )
    head = (note + "\n\n" if note else "") + hand_status(session, view, lang, round_pause) + "\n\n"

    def listed(custom: bool) -> str:
        return head + "\n".join(
            f"`{i + 1:>2}` {'▸' if c.id in playable_ids else '·'} {card_name(c.face, lang, custom=custom)}"
            for i, c in enumerate(ids.sorted_hand(view))
        )

    embed.description = within(4096, listed)
    embed.add_field(name=t("table.top", lang), value=top_text(view, lang), inline=False)
    if view.power is not None:
        embed.add_field(
            name=t("hand.power", lang),
            value=t("hand.power_green", lang) if view.power[me] else t("hand.power_red", lang),
            inline=False,
        )
    if view.other_faces is not None:
        # SPEC F10: every opponent's other faces, in their order, compactly so that ten hands always fit
        backs = [
            f"**{player_name(session, seat, lang)}**: {' '.join(short_card(f) for f in faces) or '—'}"
            for seat, faces in enumerate(view.other_faces)
            if faces is not None
        ]
        if view.draw_top_other is not None:
            backs.append(t("hand.draw_top", lang, card=card_name(view.draw_top_other, lang)))
        for i, chunk in enumerate(_fields(backs)):
            embed.add_field(name=t("hand.others", lang) if i == 0 else "\u200b", value=chunk, inline=False)
    if view.revealed is not None:
        embed.add_field(name=t("hand.revealed_title", lang), value=revealed_text(session, view, lang), inline=False)
    files: list[discord.File] = []
    if png is not None:
        files.append(_png(png, "hand.png"))
        embed.set_image(url="attachment://hand.png")
    extra = []
    if table_png is not None:
        files.append(_png(table_png, "seen.png"))
        extra.append(
            discord.Embed(title=t("hand.others", lang), colour=MODE_COLOUR[session.mode]).set_image(
                url="attachment://seen.png"
            )
        )
    return Screen(
        embed=embed,
        view=hand_components(session, view, lang, fp, options, page),
        files=files,
        extra=extra,
        accent=tint(view),
        controls_after=0,  # V2: the controls under the cards they play, above the top card and the rest
    )


def revealed_text(session: SessionView, view: PlayerView, lang: str) -> str:
    """For the challenger only (SPEC G7): the challenged hand, the verdict and the colour that was in play when the
    wild draw was played (the committed :attr:`SessionView.verdict <bot.adapter.session_view.SessionView.verdict>`,
    from the engine's events)."""
    assert view.revealed is not None
    owner, faces = view.revealed
    name = player_name(session, owner, lang)
    shown = sorted(faces, key=hand_sort_key)  # in the order of every hand (issue 18 point 5), not as dealt
    lines = [
        within(700, lambda custom: t("hand.revealed", lang, player=name, cards=cards_line(shown, lang, custom=custom)))
    ]
    verdict = session.verdict_for(view)
    if verdict is not None:
        if verdict.colour is not None:
            lines.append(t("hand.challenge_colour", lang, colour=colour_name(verdict.colour, lang)))
        key = "hand.challenge_guilty" if verdict.guilty else "hand.challenge_innocent"
        lines.append(tn(key, verdict.count, lang, player=name))
    return "\n".join(lines)[:1024]


def _fields(lines: list[str], limit: int = 1024) -> list[str]:
    """Group lines into embed field values of at most ``limit`` characters (a line never split)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks or ["—"]


def hand_status(session: SessionView, view: PlayerView, lang: str, round_pause: float | None = None) -> str:
    me = view.me
    if view.phase is Phase.MATCH_OVER:
        return t("table.match_over", lang)
    if view.phase is Phase.ROUND_OVER:
        return round_over_line(lang, round_pause)
    if me is not None and not view.active[me]:  # house rule elimination (SPEC H9): out, watching to the end
        return t("hand.out_eliminated", lang, player=player_name(session, view.pending or 0, lang))
    if view.pending != me:
        assert view.pending is not None
        waiting = t("hand.waiting", lang, player=player_name(session, view.pending, lang))
        if house.jump_cards(view):
            waiting += "\n" + t("hand.can_jump", lang)
        return waiting
    if view.phase is Phase.PLAY_DRAWN and view.drawn is not None:
        # force play: a playable card drawn may not be kept, and the hand has no Keep (issue 18 point 5: one hint)
        kept = any(isinstance(a, Keep) for a in view.legal)
        key = "hand.play_drawn" if kept else "hand.play_drawn_forced"
        return _with_clock(t(key, lang, card=card_name(view.drawn.face, lang)), session, view, lang)
    if view.phase is Phase.CHALLENGE:
        assert view.challenge_player is not None
        line = t(
            "hand.challenge",
            lang,
            player=player_name(session, view.challenge_player, lang),
            card=card_name(view.top, lang),
        )
        return _with_clock(line, session, view, lang)
    if view.phase is Phase.DECLARE_COLOUR:
        return _with_clock(t("hand.declare", lang), session, view, lang)
    if view.phase is Phase.STACK and view.stack is not None:
        key = "hand.stack_deflect" if house.deflects(view) else "hand.stack"  # SPEC H7: say it when it can
        return _with_clock(t(key, lang, n=view.stack), session, view, lang)
    if (last := house.stuck_last_card(view)) is not None:  # SPEC H6: a last card that is not a number is kept
        return _with_clock(t("hand.number_finish", lang, card=card_name(last.face, lang)), session, view, lang)
    if "force_play" in view.house_rules and ids.play_options(view) and not any(isinstance(a, Draw) for a in view.legal):
        # one hint that matches the controls: no "play a card or draw" beside a hand without Draw (issue 18 point 5)
        return _with_clock(t("hand.must_play", lang), session, view, lang)
    return _with_clock(t("hand.your_turn", lang), session, view, lang)


def _with_clock(line: str, session: SessionView, view: PlayerView, lang: str) -> str:
    clock = clock_line(session, view, lang)
    return f"{line}\n{clock}" if clock is not None else line


def option_label(view: PlayerView, option: ids.PlayOption, lang: str) -> str:
    """A line of the "Play a card" menu. A Flex card's regular side is its plain name ("Red 2") and its flex side says
    so with the colour it turns ("Red 2 · flex side (🟦 Blue)") or what it does ("Red Flex Skip · flex side: everyone
    else is skipped"), so the two lines never read alike (SPEC X4, X5)."""
    face = next(c.face for c in view.hand if c.id == option.card)
    # with the face's card emoji beside the line (option_emoji), the line names the card without the Unicode marks
    label = card_name(face, lang, flex=False, emoji=CARD_EMOJIS.partial(face) is None, custom=False)
    if option.flex:
        flex = face.flex_colour
        if flex is not None:
            label = t("hand.option_flex_colour", lang, card=label, colour=colour_name(flex, lang))
        elif face.kind in FLEX_EFFECTS:
            label = t("hand.option_flex_effect", lang, card=label, effect=t(f"flex.{face.kind.value}", lang))
        else:
            label = t("hand.option_flex", lang, card=label)
    if option.uno:
        label = t("hand.option_uno", lang, card=label)
    return label[:100]


def option_emoji(view: PlayerView, option: ids.PlayOption) -> discord.PartialEmoji | None:
    """The card emoji shown beside a line of the "Play a card" menu (issue 18 point 1), or None (Unicode marks)."""
    return CARD_EMOJIS.partial(next(c.face for c in view.hand if c.id == option.card))


def hand_components(
    session: SessionView, view: PlayerView, lang: str, fp: str, options: list[ids.PlayOption], page: int
) -> discord.ui.View:
    ch = session.channel_id
    items: list[discord.ui.Item[Any]] = []
    jumps = house.jump_cards(view)
    if view.pending != view.me:
        options = []  # out of turn, the only plays are jump-ins: their own buttons (SPEC H jump_in)
    page, pages = page_of(len(options), PAGE_SIZE, page)
    if options:
        chunk = list(enumerate(options))[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        select_options = [
            discord.SelectOption(label=option_label(view, o, lang), value=str(i), emoji=option_emoji(view, o))
            for i, o in chunk
        ]
        items.append(HandSelect("play", ch, fp, "", t("hand.select", lang), select_options, row=0))
    legal = view.legal
    row1: list[discord.ui.Item[Any]] = []
    if any(isinstance(a, Draw) for a in legal):
        row1.append(HandButton("draw", ch, fp, "", t("btn.draw", lang), discord.ButtonStyle.primary, row=1))
    if any(isinstance(a, Keep) for a in legal):
        row1.append(HandButton("keep", ch, fp, "", t("btn.keep", lang), discord.ButtonStyle.secondary, row=1))
    if any(isinstance(a, Challenge) for a in legal):
        row1.append(HandButton("challenge", ch, fp, "", t("btn.challenge", lang), discord.ButtonStyle.danger, row=1))
    if any(isinstance(a, Accept) for a in legal):
        label = tn("btn.take", view.stack, lang) if view.phase is Phase.STACK and view.stack else t("btn.accept", lang)
        row1.append(HandButton("accept", ch, fp, "", label, discord.ButtonStyle.secondary, row=1))
    if any(isinstance(a, CallUno) for a in legal):
        row1.append(HandButton("uno", ch, fp, "", t("btn.uno", lang), discord.ButtonStyle.danger, row=1))
    row1.append(HandButton("refresh", ch, fp, str(page), t("btn.refresh", lang), discord.ButtonStyle.secondary, row=1))
    items += row1
    together = ids.many_options(view) if view.pending == view.me else []
    if together:  # house rule multi_play (SPEC H8): on one's own turn the third row is free (no colour to declare,
        # no jump-in); discord.py places a DynamicItem's select by order, not by its row: it follows row 1's buttons
        labels = [house.many_label(a, view, lang) for a in together]
        many = [discord.SelectOption(label=label, value=str(i)) for i, label in enumerate(labels)]
        items.append(HandSelect("many", ch, fp, "", t("hand.select_many", lang), many, row=2))
    if any(isinstance(a, DeclareColour) for a in legal):
        items += colour_buttons(HandButton, "declare", ch, fp, view.side, lang, row=2)
    items += jump_buttons(session, view, lang, jumps)
    if pages > 1:
        items.append(
            HandButton("page", ch, fp, str(page - 1), "◀", discord.ButtonStyle.secondary, row=3, disabled=page == 0)
        )
        items.append(
            HandButton(
                "page",
                ch,
                fp,
                str(page + 1),
                t("hand.page", lang, page=page + 1, pages=pages),
                discord.ButtonStyle.secondary,
                row=3,
                disabled=page >= pages - 1,
            )
        )
    return _view(*items)


def jump_buttons(
    session: SessionView, view: PlayerView, lang: str, jumps: list[tuple[int, HandCard]]
) -> list[discord.ui.Item[Any]]:
    """A **Jump in!** button per card the player may jump in with (SPEC H ``jump_in``; with their next-to-last
    card also one with UNO), on the hand's last row. Its id names the card's place in the hand and carries
    :func:`cogs.uno.screens.house.jump_fingerprint`."""
    fp = house.jump_fingerprint(view)
    ch = session.channel_id
    items: list[discord.ui.Item[Any]] = []
    if jumps:
        place, card = jumps[0]  # two identical cards jump in the same way: one button
        name = short_card(card.face)
        emoji = CARD_EMOJIS.partial(card.face)  # the card's own face beside its name (issue 18 point 1)
        items.append(
            HandButton(
                "jump",
                ch,
                fp,
                str(place),
                t("btn.jump_in", lang, card=name),
                discord.ButtonStyle.success,
                emoji=emoji,
                row=4,
            )
        )
        if len(view.hand) == 2:
            items.append(
                HandButton(
                    "jump",
                    ch,
                    fp,
                    f"{place}.u",
                    t("btn.jump_in_uno", lang, card=name),
                    discord.ButtonStyle.danger,
                    emoji=emoji,
                    row=4,
                )
            )
    return items


def jump_target_picker(session: SessionView, view: PlayerView, lang: str, arg: str, card: HandCard) -> Screen:
    """Choose who to swap hands with before jumping in with a 7 (SPEC H ``seven_zero`` with ``jump_in``)."""
    fp = house.jump_fingerprint(view)
    embed = discord.Embed(
        title=t("hand.pick_swap", lang, card=card_name(card.face, lang, custom=False)), colour=MODE_COLOUR[session.mode]
    )
    items: list[discord.ui.Item[Any]] = [
        HandSelect(
            "jump",
            session.channel_id,
            fp,
            arg,
            t("hand.pick_swap_placeholder", lang),
            _targets(session, view, lang),
            row=0,
        ),
        HandButton("back", session.channel_id, fp, "", t("btn.back", lang), discord.ButtonStyle.secondary, row=1),
    ]
    return Screen(embed=embed, view=_view(*items))


def _targets(session: SessionView, view: PlayerView, lang: str) -> list[discord.SelectOption]:
    """The other active players, to choose a target from (with their card counts)."""
    return [
        discord.SelectOption(
            label=f"{seat_name(session, s, lang)} · {tn('table.cards', view.hand_counts[s], lang)}"[:100], value=str(s)
        )
        for s in range(view.players)
        if s != view.me and view.active[s]
    ]


def colour_picker(session: SessionView, view: PlayerView, lang: str, index: int, target: int | None) -> Screen:
    """Choose the declared colour of the wild ``play_options(view)[index]`` (colour is part of the play: SPEC G4)."""
    ch = session.channel_id
    fp = ids.hand_fingerprint(view)
    option = ids.play_options(view)[index]
    face = next(c.face for c in view.hand if c.id == option.card)
    embed = discord.Embed(
        title=t("hand.pick_colour", lang, card=card_name(face, lang, custom=False)), colour=MODE_COLOUR[session.mode]
    )
    if target is not None:
        embed.description = t("hand.target_chosen", lang, player=player_name(session, target, lang))
    suffix = f".{target}" if target is not None else ""
    items = colour_buttons(HandButton, "colour", ch, fp, view.side, lang, row=0, prefix=f"{index}.", suffix=suffix)
    items.append(HandButton("back", ch, fp, "", t("btn.back", lang), discord.ButtonStyle.secondary, row=1))
    return Screen(embed=embed, view=_view(*items))


def target_picker(session: SessionView, view: PlayerView, lang: str, index: int) -> Screen:
    """Choose who draws for a targeted Flex flex side (SPEC X5; the colour comes next), or who to swap hands with
    for a 7 under house rule ``seven_zero`` (SPEC H; then the 7 is played)."""
    ch = session.channel_id
    fp = ids.hand_fingerprint(view)
    option = ids.play_options(view)[index]
    face = next(c.face for c in view.hand if c.id == option.card)
    swap = not option.flex
    title, placeholder = (
        ("hand.pick_swap", "hand.pick_swap_placeholder")
        if swap
        else ("hand.pick_target", "hand.pick_target_placeholder")
    )
    embed = discord.Embed(
        title=t(title, lang, card=card_name(face, lang, custom=False)), colour=MODE_COLOUR[session.mode]
    )
    items: list[discord.ui.Item[Any]] = [
        HandSelect("target", ch, fp, str(index), t(placeholder, lang), _targets(session, view, lang), row=0),
        HandButton("back", ch, fp, "", t("btn.back", lang), discord.ButtonStyle.secondary, row=1),
    ]
    return Screen(embed=embed, view=_view(*items))


# --------------------------------------------------------------------------------------------------------------------
# Round and match summaries, closed games


def round_summary(session: SessionView, ended: RoundEnded, lang: str) -> Screen:
    w = ended.winner
    embed = discord.Embed(
        title=t(
            "round.title",
            lang,
            round=session.rounds_played,
            player=player_name(session, w, lang),
        ),
        colour=MODE_COLOUR[session.mode],
    )

    limit = session.options.elimination  # house rule elimination (SPEC H9): who is out

    def lines(custom: bool) -> str:
        out = []
        for seat in range(len(session.seats)):
            left = cards_line(ended.hands[seat], lang, custom=custom) if ended.hands[seat] else "—"
            out.append(
                t(
                    "round.line",
                    lang,
                    player=player_name(session, seat, lang),
                    points=ended.points[seat],
                    total=ended.scores[seat],
                )
                + (f" · {t('round.eliminated', lang)}" if limit and ended.scores[seat] > limit else "")
                + (f"\n    {left}" if ended.hands[seat] else "")
            )
        return "\n".join(out)

    partnered = teams_at(session.mode, session.options, len(session.seats))
    if partnered:  # SPEC T2: the team wins the round (a partner who left, T5, is not named)
        head = round_line(w, partnered, lambda s: player_name(session, s, lang), lang, lambda s: session.seats[s].left)
        embed.description = head + "\n" + within(4096 - len(head) - 1, lines)
    else:
        embed.description = within(4096, lines)
    return Screen(embed=embed)


def match_summary(session: SessionView, lang: str) -> Screen:
    result = session.result
    embed = discord.Embed(colour=0xFFD600)
    scores = result.scores if result is not None else (0,) * len(session.seats)
    winner = result.winner if result is not None else None
    partnered = teams_at(session.mode, session.options, len(session.seats))
    if result is not None and result.completed and winner is not None and partnered:  # SPEC T3: both partners win (T5)
        embed.title = match_title(
            winner, partnered, lambda s: player_name(session, s, lang), lang, lambda s: session.seats[s].left
        )
        embed.description = t("match.recorded", lang)
    elif result is not None and result.completed and winner is not None:
        embed.title = t("match.title", lang, player=player_name(session, winner, lang))
        embed.description = t("match.recorded", lang)
    else:
        embed.title = t("match.abandoned", lang)
    # the engine's ranking (SPEC G9), saved with the result
    order = list(result.placement if result is not None and result.placement else range(len(session.seats)))
    if partnered:  # SPEC T5: a player who left ranks after every team, as the records rank them
        order = [s for s in order if not session.seats[s].left] + [s for s in order if session.seats[s].left]
    embed.add_field(
        name=t("match.scores", lang),
        value="\n".join(
            f"{i + 1}. {'🤖 ' if session.seats[s].ai else ''}{player_name(session, s, lang)} — {scores[s]}"
            + (f" ({seat_team(s, partnered, lang)})" if partnered else "")
            for i, s in enumerate(order)
        )[:1024],
    )
    # Play again only under a match that was played to its end: a match ended by /uno end (or left idle) is not kept
    # by the adapter, so no rematch could bring it back as it was (issue 18 point 5)
    completed = result is not None and result.completed
    again = TableButton("again", session.channel_id, t("btn.play_again", lang), discord.ButtonStyle.success)
    view = _view(again) if completed else discord.ui.View(timeout=None)
    if session.match_key:  # the match told round by round, from its record (issue 19 point 2)
        view.add_item(RecapButton(session.match_key, t("btn.recap", lang)))
    return Screen(embed=embed, view=view)


def closed_screen(session: SessionView, lang: str, reason: str) -> Screen:
    key = {"ended": "closed.ended", "idle": "closed.idle", "empty": "closed.empty"}.get(reason, "closed.ended")
    embed = discord.Embed(title=game_name(session.mode, lang), description=t(key, lang), colour=0x607D8B)
    return Screen(embed=embed, view=discord.ui.View(timeout=None))
