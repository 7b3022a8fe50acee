"""A whole match in Italian, Spanish, Slovak, Polish and Brazilian Portuguese: the real bot against the loopback
Discord, driven through buttons and selects only. The lobby, the public table, the round and match summaries, every
ephemeral hand and ``/uno rules`` must be in the chosen language, with no English catalogue text left (bot.i18n,
cogs.uno; issue 18.4 for Polish and Portuguese)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.adapter.session import Status
from bot.engine.cards import Mode
from bot.i18n import LANGUAGE_NAMES, t, tn
from cogs.uno.screens import seat_name
from cogs.uno.screens.rules_page import SECTIONS
from tests.discord_emulator import DiscordEmulator, Message, User
from tests.discord_emulator.model import Revision

from .shown import shown
from .uno_driver import Table, make_bot

#: Discord's rate limits are on in these tests, on windows 50x shorter (5 edits per 0.1 s): each plays many
#: moves, which on Discord's own windows (3 channel requests a move, 5 per 5 s each) would take minutes.
pytestmark = pytest.mark.rate_limit_scale(0.02, reason="a match played in every language")

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales"
#: English texts of these families must not appear anywhere once a language is chosen.
CHECKED_PREFIXES = ("lobby.", "opt.line.", "btn.", "table.", "dir.", "hand.", "round.", "match.", "ev.", "kind.")
CHECKED_PREFIXES += ("colour.", "rules.", "side.", "settings.", "mode.", "done.")


@dataclass
class Case:
    lang: str
    how: str  # "setting": /uno settings language:<lang>; "locale": no setting, the users' and server's Discord locale
    game: str
    guild_locale: str
    user_locales: tuple[str, str]
    images: bool = True


CASES = [
    # a server setting beats the users' own Discord languages (English and Spanish here); text-only mode, where the
    # words are all a player has (and a FLIP round with images can take a hundred turns at ~90 ms each)
    pytest.param(Case("it", "setting", "flip", "en-US", ("en-US", "es-ES"), images=False), id="it-setting-flip"),
    # no setting: a Spanish server (public messages) and Spanish clients of both kinds (replies); with images
    pytest.param(Case("es", "locale", "classic", "es-ES", ("es-419", "es-ES")), id="es-locale-classic"),
    # Slovak only exists as a setting; a Czech client (common in Slovakia) still gets Slovak
    pytest.param(Case("sk", "setting", "flex", "en-US", ("cs", "en-GB"), images=False), id="sk-setting-flex"),
    # issue 18.4: Polish clients on a Polish server, with no setting (three plural forms, the hands and the log)
    pytest.param(Case("pl", "locale", "flip", "pl", ("pl", "pl"), images=False), id="pl-locale-flip"),
    # Brazilian Portuguese chosen by the server for French and German clients, with images
    pytest.param(Case("pt_BR", "setting", "classic", "en-US", ("fr", "de")), id="pt_BR-setting-classic"),
]


class LocalTable(Table):
    """The driver of ``uno_driver`` with the hand button found by its translated label."""

    lang: str = "en"

    async def open_hand(self, user: User) -> Message:
        res = await self.emulator.click(user, self.public_message(), label=t("btn.hand", self.lang))
        (hand,) = res.ephemeral_messages
        return hand


def _text(message: Message | Revision) -> str:
    """What a reader sees: content, title, description, fields, footer (an embed's or a V2 container's: :func:`shown`),
    button labels, select options."""
    parts = [shown(message).text]
    components = message.components

    def walk(items: list[dict[str, Any]]) -> None:
        for c in items:
            parts.extend([c.get("label") or "", c.get("placeholder") or ""])
            parts.extend(o.get("label", "") for o in c.get("options", []))
            walk(c.get("components", []))

    walk(components)
    return "\n".join(p for p in parts if p)


def _versions(message: Message) -> list[str]:
    """The text of every version of ``message`` (as sent, then after each edit)."""
    revisions: list[Revision] = list(message.history)
    texts = [_text(r) for r in revisions]
    texts.append(_text(message))
    return texts


def _texts(lang: str) -> dict[str, list[str]]:
    """key → its text(s) in ``lang``'s catalogue."""
    with (LOCALES / f"{lang}.po").open("rb") as fp:
        catalogue = read_po(fp, locale=lang)
    return {
        (m.id if isinstance(m.id, str) else m.id[0]): [m.string] if isinstance(m.string, str) else list(m.string)
        for m in catalogue
        if m.id
    }


def _contains(text: str, piece: str) -> bool:
    """``piece`` in ``text`` as whole words ("Cancel" is not in "Cancelar")."""
    return re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text) is not None


def _english_fragments(lang: str) -> list[str]:
    """Literal pieces (5+ characters) of the English texts of CHECKED_PREFIXES. A piece is excused only when the
    language itself uses it in another key (e.g. "UNO Flex!", or Italian "Round" in "Round finito")."""
    own = _texts(lang)
    fragments = set()
    for key, texts in _texts("en").items():
        if not key.startswith(CHECKED_PREFIXES):
            continue
        elsewhere = "\n".join(text for other, forms in own.items() if other != key for text in forms)
        for text in texts:
            for piece in re.split(r"\{[^{}]*\}|\n", text):
                piece = piece.strip(" .,:;!?()·—–\"'")
                words = re.sub(r"UNO Flex!|UNO FLIP|UNO", "", piece)  # product names stay in English
                if len(piece) >= 5 and re.search(r"[A-Za-z]", words) and not _contains(elsewhere, piece):
                    fragments.add(piece)
    return sorted(fragments)


def _prefix(text: str) -> str:
    """The literal start of a catalogue text, up to its first placeholder."""
    return text.split("{")[0]


@pytest.mark.parametrize("case", CASES)
async def test_a_whole_match_in_another_language(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path, case: Case
) -> None:
    lang = case.lang
    guild = emulator.add_guild("Club", locale=case.guild_locale, channels=("uno",))
    channel = guild.channel("uno")
    alice = emulator.add_user("alice", locale=case.user_locales[0], guild=guild)
    bob = emulator.add_user("bob", locale=case.user_locales[1], guild=guild)
    admin = emulator.add_user("mod", locale="en-US", guild=guild, manage_guild=True)
    bot = await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", guild))

    # the slash commands reached Discord with their Italian and Spanish names (and Discord accepted them)
    (uno,) = [c for c in emulator.commands(guild) if c["name"] == "uno"]
    new = next(o for o in uno["options"] if o["name"] == "new")
    assert new["name_localizations"] == {
        "it": "nuova",
        "es-ES": "nueva",
        "es-419": "nueva",
        "de": "neu",
        "fr": "nouvelle",
        "pl": "nowa",
        "pt-BR": "nova",
    }
    assert "sk" not in new["name_localizations"]

    seen: list[str] = []  # every text a player could read, to check for English at the end
    if case.how == "setting":
        res = await emulator.slash(admin, channel, "uno settings", language=lang, card_images=case.images)
        (saved,) = res.ephemeral_messages
        assert shown(saved).title == t("settings.saved", lang)
        images = t("settings.on" if case.images else "settings.off", lang)
        lines = t("settings.current", lang, game="", timer=0, language=LANGUAGE_NAMES[lang], images=images)
        assert set(lines.split("\n")[2:]) <= set(shown(saved).description.split("\n"))
        seen += _versions(saved)

    # lobby
    res = await emulator.slash(alice, channel, "uno new", game=case.game, target=0)
    assert not res.ephemeral_messages
    table = LocalTable(emulator, bot, channel, [alice, bob])
    table.lang = lang
    lobby = table.public_message()
    keys = ("btn.join", "btn.leave", "btn.start", "btn.cancel", "btn.rules")
    keys += ("btn.add_ai_easy", "btn.add_ai", "btn.add_ai_hard")  # issue 21: an Add AI button per level, own row
    assert [b.label for b in lobby.buttons()] == [t(k, lang) for k in keys]
    assert shown(lobby).title == t("lobby.title", lang, game=t(f"mode.{case.game}", lang))
    assert t("opt.line.single_round", lang) in lobby.text and t("lobby.options", lang) in lobby.text
    await emulator.click(bob, lobby, label=t("btn.join", lang))
    await emulator.click(alice, lobby, label=t("btn.add_ai", lang))
    assert t("lobby.players", lang, n=3, max=table.session.max_players) in table.public_message().text
    await emulator.click(alice, lobby, label=t("btn.start", lang))
    await emulator.settle()
    assert table.session.status == Status.PLAYING

    # the public table, in the language
    board = table.public_message().text
    for key in ("table.top", "table.direction", "table.draw_pile", "table.players"):
        assert t(key, lang) in board, key
    assert _prefix(t("table.title", lang, game=t(f"mode.{case.game}", lang), round=1)) in board
    if case.game == "flip":
        assert t("table.side", lang) in board and t("side.light", lang) in board
    assert t("btn.hand", lang) in [b.label for b in table.public_message().buttons()]

    # play the single round through the ephemeral hands
    hands: dict[int, Message] = {}
    for _step in range(3000):
        session = table.session
        if session.status != Status.PLAYING:
            break
        pending = session.game.pending
        assert pending is not None, "a single-round match has no next round"
        user = table.user_of(pending)
        assert user is not None, "AI seats act by themselves"
        if user.id not in hands:
            hands[user.id] = await table.open_hand(user)
        await table.take_turn(user, hands[user.id])
        await emulator.settle()
    assert table.session.status == Status.FINISHED
    assert hands, "nobody opened a hand"

    hand_texts = [text for hand in hands.values() for text in _versions(hand)]
    assert any(t("table.top", lang) in text for text in hand_texts)
    hand_titles = {_prefix(tn("hand.title", n, lang)) for n in range(1, 6)}
    assert any(title in text for text in hand_texts for title in hand_titles)
    assert any(t("btn.refresh", lang) in text for text in hand_texts)
    statuses = [_prefix(t(k, lang)) for k in ("hand.your_turn", "hand.waiting", "hand.play_drawn", "hand.declare")]
    assert any(status in text for text in hand_texts for status in statuses)
    if case.game == "flex":
        assert any(t("hand.power", lang) in text for text in hand_texts)
    if case.game == "flip":
        assert any(t("hand.others", lang) in text for text in hand_texts)
    seen += hand_texts

    # the round and match summaries, and the final table
    result = table.view.result
    assert result is not None and result.winner is not None
    winner = seat_name(table.view, result.winner, lang)  # AI seats are named in the reader's language
    public = emulator.public_messages(channel)
    titles = [shown(m).title for m in public]
    assert {t("round.title", lang, round=r, player=winner) for r in (1, 2)} & set(titles), titles
    assert t("match.title", lang, player=winner) in titles
    assert any(t("match.scores", lang) in m.text for m in public)
    assert any(t("btn.play_again", lang) == b.label for m in public for b in m.buttons())
    log = table.public_message().text
    assert t("table.log", lang) in log and t("table.match_over", lang) in log
    seen += [text for m in public for text in _versions(m)]

    # /uno rules for each game, in the language, for a player whatever their client's language
    for mode in ("classic", "flip", "flex"):
        res = await emulator.slash(bob, channel, "uno rules", game=mode)
        (rules,) = res.ephemeral_messages
        embed = shown(rules)
        assert embed.title == t(f"rules.{mode}.title", lang)
        assert embed.footer == t("rules.footer", lang)
        sections = SECTIONS[Mode(mode)]
        assert list(embed.fields) == [t(f"rules.{mode}.{s}.title", lang) for s in sections]
        # the goal names this table's target score (a single round here) for its own game, else the default
        goal = t("rules.single_round", lang) if mode == case.game else tn("rules.target", 500, lang)
        params = {"goal": {"target": goal}}
        assert list(embed.fields.values()) == [t(f"rules.{mode}.{s}", lang, **params.get(s, {})) for s in sections]
        seen += _versions(rules)

    # "Play again" opens a lobby in the language; a refusal (only the host may start) is in the language too
    await emulator.click(admin, table.public_message(), label=t("btn.play_again", lang))
    again = table.public_message()
    assert shown(again).title == t("lobby.title", lang, game=t(f"mode.{case.game}", lang))
    res = await emulator.click(bob, again, label=t("btn.start", lang))
    (refusal,) = res.ephemeral_messages
    assert refusal.text == t("error.not_host", lang)
    seen += _versions(again) + _versions(refusal)

    # nothing English from the catalogue anywhere
    fragments = _english_fragments(lang)
    assert len(fragments) > 100
    leaks = sorted({f for f in fragments for text in seen if _contains(text, f)})
    assert leaks == [], leaks
    emulator.assert_all_interactions_answered_once(max_latency=3.0)
