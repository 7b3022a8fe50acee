"""What the bot's messages contain, built from sessions without Discord (SPEC F10, G11)."""

from __future__ import annotations

import discord

from bot.adapter import SessionView
from cogs.uno import screens
from cogs.uno.screens import Screen
from tests.cogs.sessions import flip_session


def test_f10_a_players_table_image_shows_the_opponents_other_faces_but_never_their_own() -> None:
    session = flip_session(4)
    game = session.game
    assert game is not None
    scene = screens.table_scene(SessionView.of(session), game.view(1), "en")
    assert scene.seats[1].backs is None  # never the viewer's own
    for seat in (0, 2, 3):
        backs = scene.seats[seat].backs
        assert backs is not None and list(backs) == [game.card(c).dark for c in game.hands[seat]]
    assert scene.draw_top_other == game.card(game.draw_pile[-1]).dark


def test_f10_the_public_table_image_shows_no_hand_at_all() -> None:
    session = flip_session(4)
    game = session.game
    assert game is not None
    scene = screens.table_scene(SessionView.of(session), game.view(None), "en")
    assert all(seat.backs is None for seat in scene.seats)
    assert [seat.cards for seat in scene.seats] == [len(h) for h in game.hands]


def test_the_flip_hand_message_carries_the_players_view_of_the_table() -> None:
    session = flip_session(3)
    game = session.game
    assert game is not None
    screen = screens.hand_screen(SessionView.of(session), game.view(0), "en", png=b"hand", table_png=b"seen")
    assert [f.filename for f in screen.files] == ["hand.png", "seen.png"]
    assert [e.image.url for e in screen.embeds()] == ["attachment://hand.png", "attachment://seen.png"]


def test_a_sent_screen_is_freed_without_the_cyclic_garbage_collector() -> None:
    """A disposed screen (view, items, image buffers) is freed by reference counting alone: the collector's pauses
    grow with cyclic garbage, and every click used to leave some behind."""
    import gc
    import io
    import weakref

    from cogs.uno.screens.components import HandButton

    gc.disable()
    try:
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton("draw", 1, "0" * 8, "", label="Draw"))
        file = discord.File(io.BytesIO(b"\x89PNG"), filename="hand.png")
        file.close()  # as discord.py leaves it after sending: the buffer's close bound to the buffer itself
        screen = Screen(content="hand", view=view, files=[file])
        refs = [weakref.ref(view), weakref.ref(view.children[0]), weakref.ref(file.fp)]
        with screen:
            pass
        del view, file, screen
        assert [r() for r in refs] == [None, None, None]
    finally:
        gc.enable()


def test_a_seat_removed_from_the_match_is_drawn_as_left_in_every_table_image() -> None:
    """SPEC G11: the table image tells a removed player (left, kicked, timed out) from one who went out, as the
    embed's player list does: the seat carries the table's words for it, in the table's language, and no cards."""
    from bot.render import table_image

    session = flip_session(4)
    game = session.game
    assert game is not None
    session.seats[2].left = True
    game.remove_player(2)
    for viewer in (None, 1):
        scene = screens.table_scene(SessionView.of(session), game.view(viewer), "it")
        assert [seat.left for seat in scene.seats] == [None, None, "ha lasciato la partita", None]
        assert scene.seats[2].backs is None
        assert table_image(scene).size[0] > 0
    fresh = flip_session(4)
    assert fresh.game is not None
    playing = screens.table_scene(SessionView.of(fresh), fresh.game.view(None), "en")
    assert all(seat.left is None for seat in playing.seats)


def _on_top(game: object, test: object) -> int:
    """Move the first card whose face passes ``test`` onto the discard pile (from wherever it is)."""
    from bot.engine.game import Game

    assert isinstance(game, Game) and callable(test)
    card = next(c for c in range(len(game.deck)) if test(game.faces[c]))
    for pile in (game.draw_pile, game.discard, *game.hands):
        if card in pile:
            pile.remove(card)
    game.discard.append(card)
    return card


def test_the_colour_in_play_is_said_in_words_after_a_wild_and_on_a_flex_number() -> None:
    """Issue 18 point 5: on a wild, and on a Flex number (whose name gives two colours; SPEC X4: its regular colour
    is in play), the table and the hand say "Colour in play: … Red" on a line of their own; on a plain card, no such
    line."""
    from bot.engine.cards import Colour, Kind, Mode
    from bot.engine.game import Game

    session = flip_session(3)
    game, _ = Game.new("classic", 3, seed=5)
    session.mode, session.game = Mode.CLASSIC, game
    _on_top(game, lambda f: f.kind is Kind.WILD)
    game.declared = Colour.RED
    table = screens.table_screen(SessionView.of(session), "en", [])
    top = next(f for f in table.embeds()[0].fields if f.name == "Top card")
    assert top.value is not None and top.value.endswith("Colour in play: **🟥▲▲▲▲ Red**")
    hand = screens.hand_screen(SessionView.of(session), game.view(0), "en")
    assert "Colour in play: **🟥▲▲▲▲ Red**" in hand.embeds()[0].to_dict()["fields"][0]["value"]

    _on_top(game, lambda f: f.kind is Kind.NUMBER and f.colour is Colour.BLUE)
    table = screens.table_screen(SessionView.of(session), "en", [])
    top = next(f for f in table.embeds()[0].fields if f.name == "Top card")
    assert top.value is not None and "Colour in play" not in top.value

    flex, _ = Game.new("flex", 3, seed=5)
    session.mode, session.game = Mode.FLEX, flex
    _on_top(flex, lambda f: f.kind is Kind.NUMBER and f.flex_colour is not None and f.colour is Colour.GREEN)
    table = screens.table_screen(SessionView.of(session), "en", [])
    top = next(f for f in table.embeds()[0].fields if f.name == "Top card")
    assert top.value is not None and "(flex: " in top.value and top.value.endswith("Colour in play: **🟩▲▲ Green**")
