"""The order a hand is shown in (issue 10, point 7): colour, then value, wilds last; one key for images and text."""

from __future__ import annotations

import random

from bot.engine.cards import (
    DARK_COLOURS,
    LIGHT_COLOURS,
    Kind,
    classic_faces,
    flex_faces,
    flip_dark_faces,
    format_face,
    hand_sort_key,
    parse_faces,
)


def _sorted(text: str) -> str:
    return " ".join(format_face(f) for f in sorted(parse_faces(text), key=hand_sort_key))


def test_colour_then_value_then_actions_wilds_last():
    assert _sorted("W+4 B2 R9 GS R0 Y5 W G1 RR R+2 B2") == "R0 R9 RR R+2 Y5 G1 GS B2 B2 W W+4"


def test_dark_side_faces_sort_by_their_own_colours():
    """UNO FLIP: the key takes the face on the side in play."""
    assert _sorted("U3 W+C P9 T+5 OF P1 W") == "P1 P9 T+5 OF U3 W W+C"


def test_flex_plain_and_flex_numbers_sit_together():
    assert _sorted("R3/B R3 R1* R1") == "R1 R1* R3 R3/B"


def test_every_deck_sorts_into_colour_blocks():
    for deck, colours in ((classic_faces("112"), LIGHT_COLOURS), (flex_faces(), LIGHT_COLOURS)):
        hand = sorted(random.Random(3).sample(deck, 40), key=hand_sort_key)
        seen = [f.colour for f in hand]
        blocks = [c for i, c in enumerate(seen) if i == 0 or seen[i - 1] != c]
        assert len(blocks) == len(set(blocks))  # each colour in one block
        assert [c for c in blocks if c is not None] == [c for c in colours if c in blocks]
        assert all(f.is_wild for f in hand[len(hand) - sum(f.colour is None for f in hand) :])
    dark = sorted(flip_dark_faces(), key=hand_sort_key)
    assert [f.colour for f in dark if f.colour is not None] == sorted(
        (f.colour for f in dark if f.colour is not None), key=DARK_COLOURS.index
    )
    numbers = [f.number for f in dark if f.kind is Kind.NUMBER and f.colour is DARK_COLOURS[0]]
    assert numbers == sorted(numbers)


# --------------------------------------------------------------------------------------------------------------------
# The bot's hand message: the image, the text list and the "Play a card" menu in that one order


def test_the_hand_image_the_text_list_and_the_menu_share_the_sorted_order():
    from bot.adapter import SessionView
    from cogs.uno import screens
    from cogs.uno.screens import ids
    from tests.cogs.sessions import flip_session

    session = flip_session(3, seed=11)
    game = session.game
    assert game is not None
    view = game.view(game.pending if game.pending is not None else 0)
    args = screens.hand_image_args(view)
    assert args is not None
    faces, playable, _, _ = args
    assert faces == sorted((c.face for c in view.hand), key=hand_sort_key) and faces != [c.face for c in view.hand]
    embed = screens.hand_screen(SessionView.of(session), view, "en").embed
    assert embed.description is not None
    listed = [line for line in embed.description.splitlines() if line.startswith("`")]
    assert [screens.card_name(f, "en") for f in faces] == [line[4:].split(" ", 2)[2] for line in listed]
    # the playable marks of the image and of the list agree, and the menu follows the list
    assert [i for i, line in enumerate(listed) if "▸" in line] == playable
    hand = ids.sorted_hand(view)
    order = [next(i for i, c in enumerate(hand) if c.id == o.card) for o in ids.play_options(view)]
    assert order == sorted(order)


async def test_the_flip_hand_message_draws_one_image():
    """SPEC F10: the hand and the table as its player sees it, in one attachment."""
    from bot.adapter import SessionView
    from bot.storage import UserPrefs
    from cogs.uno import screens
    from cogs.uno.output.images import Images
    from tests.cogs.sessions import flip_session

    calls: list[str] = []

    class Painter:
        async def hand(self, *args: object, **kwargs: object) -> bytes:
            calls.append("hand")
            return b"h"

        async def table(self, scene: object) -> bytes:
            calls.append("table")
            return b"t"

        async def hand_and_table(self, *args: object, **kwargs: object) -> bytes:
            calls.append("hand_and_table")
            return b"ht"

    class Settings:
        text_only = False

    class Bot:
        async def guild_settings(self, guild_id: object) -> Settings:
            return Settings()

        async def user_prefs(self, user_id: int | None) -> UserPrefs:
            return UserPrefs(user_id or 1)

    import asyncio

    images = Images.__new__(Images)
    images.prefs, images.painter, images.slots = Bot(), Painter(), asyncio.Semaphore(2)  # type: ignore[assignment]
    session = flip_session(3)
    assert session.game is not None
    png, seen = await images.hand(SessionView.of(session), session.game.view(0), "en")
    assert (png, seen) == (b"ht", None) and calls == ["hand_and_table"]
    with screens.hand_screen(SessionView.of(session), session.game.view(0), "en", png=png, table_png=seen) as screen:
        assert [f.filename for f in screen.files] == ["hand.png"] and len(screen.embeds()) == 1
