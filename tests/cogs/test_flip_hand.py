"""Found in a review of the Discord layer: what players are shown (a ten-player FLIP hand, SPEC F10). The lobby
message test of the same review is tests/e2e/test_lobby_message.py."""

from __future__ import annotations

from bot.adapter import SessionView
from cogs.uno import screens
from cogs.uno.screens.text import card_name, short_card
from tests.cogs.sessions import flip_session


def test_f10_a_ten_player_flip_hand_shows_every_opponents_other_faces() -> None:
    session = flip_session(10)  # SPEC G1: FLIP seats 2-10; this is the deal, 7 cards each
    game = session.game
    assert game is not None
    view = game.view(0)
    screen = screens.hand_screen(SessionView.of(session), view, "en")
    embed = screen.embed
    assert embed is not None
    shown = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields) + (embed.description or "")
    other_faces = view.other_faces
    assert other_faces is not None
    for seat, faces in enumerate(other_faces):
        if faces is None:
            continue
        # each opponent's line, complete: name and every other face in order (SPEC F10 "must be shown")
        line = f"**Player{seat:02d}**: " + " ".join(short_card(f) for f in faces)
        assert line in shown, f"seat {seat}'s other faces are cut off"
    assert view.draw_top_other is not None
    assert card_name(view.draw_top_other, "en") in shown.split("What you see of the others' hands")[-1]
