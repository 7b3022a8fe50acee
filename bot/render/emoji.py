"""Card faces as application emojis (issue 18 point 1): the image of each face, its emoji name and its content hash.

Every distinct face of the three games (:func:`emoji_faces`: classic with the 112 edition, both sides of FLIP, Flex
with its flex sides and flip icons, 182 in all) is drawn by :func:`bot.render.card_image` with its colour-blind marks,
scaled to :data:`EMOJI_SIZE` px high and centred on a transparent square (Discord shows emojis square). Its name is
``"uno_" + code + "_" + hash``: ``code`` is the face's notation (:func:`bot.engine.cards.format_face`) in the letters
Discord allows in an emoji name (:func:`face_code`), ``hash`` the first :data:`HASH_CHARS` hex digits of the SHA-256
of the PNG, so that a start-up that finds every name present uploads nothing, and changed art replaces only the faces
it changed (the Discord layer syncs them: :mod:`bot.card_emojis`).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from bot.engine.cards import Face, Mode, Side, format_face
from bot.render.card_art import card_image
from bot.render.warm import faces_of

#: Height (and width) of an emoji image, px: Discord's recommended 128 × 128.
EMOJI_SIZE = 128
#: Hex digits of the content hash in an emoji's name.
HASH_CHARS = 8
#: The prefix of every card emoji's name (other emojis of the application are never touched).
EMOJI_PREFIX = "uno_"
#: Discord's limits on application emojis (Discord's API reference, "Emoji Resource" / Create Application Emoji).
EMOJI_MAX_BYTES = 256 * 1024
EMOJI_LIMIT = 2000
_CODE = str.maketrans({"+": "p", "*": "f", "/": "_"})


def face_code(face: Face, side: Side) -> str:
    """The face in emoji-name letters: ``"R5"``, ``"Rp2"`` (Red Draw Two), ``"R3_B"`` (flex side Blue), ``"B1f"``
    (flip icon), ``"Wp4"``; a wild of UNO FLIP's dark side gets ``"d"`` in front (``"dW"``)."""
    code = format_face(face).translate(_CODE)
    return ("d" + code) if side is Side.DARK and face.colour is None else code


@dataclass(frozen=True, slots=True)
class FaceEmoji:
    """One face to upload: its ``face`` and ``side``, the emoji ``name`` (content hash included) and ``png`` bytes."""

    face: Face
    side: Side
    name: str
    png: bytes

    @property
    def code(self) -> str:
        return face_code(self.face, self.side)


def emoji_faces() -> list[tuple[Face, Side]]:
    """Every distinct (face, side) of the three games, in a fixed order (182)."""
    return list(dict.fromkeys(fs for mode in Mode for fs in faces_of(mode)))


def card_emoji_image(face: Face, side: Side = Side.LIGHT) -> Image.Image:
    """The face as an :data:`EMOJI_SIZE` px square RGBA image: the card, marks included, as tall as the square."""
    card = card_image(face, side, 100)
    width = round(card.width * EMOJI_SIZE / card.height)
    scaled = card.resize((width, EMOJI_SIZE), Image.Resampling.LANCZOS)
    square = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    square.alpha_composite(scaled, ((EMOJI_SIZE - width) // 2, 0))
    return square


@lru_cache(maxsize=256)
def face_emoji(face: Face, side: Side = Side.LIGHT) -> FaceEmoji:
    """The face's :class:`FaceEmoji` (PNG well under :data:`EMOJI_MAX_BYTES`, about 10 KB)."""
    buffer = io.BytesIO()
    card_emoji_image(face, side).save(buffer, "PNG", optimize=True)
    png = buffer.getvalue()
    digest = hashlib.sha256(png).hexdigest()[:HASH_CHARS]
    return FaceEmoji(face, side, f"{EMOJI_PREFIX}{face_code(face, side)}_{digest}", png)


def all_face_emojis() -> list[FaceEmoji]:
    """:func:`face_emoji` of every face of :func:`emoji_faces` (a few seconds of CPU the first time: call it from a
    worker thread)."""
    return [face_emoji(face, side) for face, side in emoji_faces()]
