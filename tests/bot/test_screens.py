"""What the bot's messages contain, built from sessions without Discord (SPEC F10, G11)."""

from __future__ import annotations

from cogs.uno import screens
from tests.bot.sessions import flip_session


def test_f10_a_players_table_image_shows_the_opponents_other_faces_but_never_their_own() -> None:
    session = flip_session(4)
    game = session.game
    assert game is not None
    scene = screens.table_scene(session, game.view(1), "en")
    assert scene.seats[1].backs is None  # never the viewer's own
    for seat in (0, 2, 3):
        backs = scene.seats[seat].backs
        assert backs is not None and list(backs) == [game.card(c).dark for c in game.hands[seat]]
    assert scene.draw_top_other == game.card(game.draw_pile[-1]).dark


def test_f10_the_public_table_image_shows_no_hand_at_all() -> None:
    session = flip_session(4)
    game = session.game
    assert game is not None
    scene = screens.table_scene(session, game.view(None), "en")
    assert all(seat.backs is None for seat in scene.seats)
    assert [seat.cards for seat in scene.seats] == [len(h) for h in game.hands]


def test_the_flip_hand_message_carries_the_players_view_of_the_table() -> None:
    session = flip_session(3)
    game = session.game
    assert game is not None
    screen = screens.hand_screen(session, game.view(0), "en", png=b"hand", table_png=b"seen")
    assert [f.filename for f in screen.files] == ["hand.png", "seen.png"]
    assert [e.image.url for e in screen.embeds()] == ["attachment://hand.png", "attachment://seen.png"]
