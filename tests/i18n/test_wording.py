"""Wording fixed by a native-speaker review (issue 10.11): how the catalogues say what happens, not only that they are
complete. Each test names the text a player saw and what it reads now."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.adapter import SessionView
from bot.adapter.session import Seat, Session, Status
from bot.adapter.timers import Limits
from bot.engine.actions import Play
from bot.engine.builder import build
from bot.engine.cards import Mode
from bot.engine.options import Options
from bot.engine.view import Phase
from bot.i18n import LANGUAGES, t, tn
from cogs.uno import screens
from cogs.uno.screens.rules_page import rules_embed
from tests.discord_emulator import DiscordEmulator
from tests.e2e.uno_driver import make_bot, uno_world
from tests.i18n.test_catalogues import LOCALES


def texts(lang: str) -> list[str]:
    """Every text of the language's catalogue (every plural form)."""
    with (LOCALES / f"{lang}.po").open("rb") as fp:
        catalogue = read_po(fp, locale=lang)
    out: list[str] = []
    for message in catalogue:
        if message.id:
            out.extend([message.string] if isinstance(message.string, str) else message.string)
    return out


# --------------------------------------------------------------------------------------------------------------------
# Italian and Spanish: a card played "on you"


def test_italian_a_card_is_played_against_you_not_to_you() -> None:
    text = t("hand.challenge", "it", player="Marco", card="Jolly Pesca Quattro")
    assert text == "Marco ha giocato Jolly Pesca Quattro contro di te: sfidi o accetti?"
    assert not [s for s in texts("it") if "ti ha giocato" in s]


def test_spanish_a_card_is_played_against_you_in_the_present_perfect() -> None:
    text = t("hand.challenge", "es", player="Ana", card="Comodín Roba Cuatro")
    assert text == "Ana ha jugado Comodín Roba Cuatro contra ti: ¿desafías o aceptas?"
    assert not [s for s in texts("es") if re.search(r"\bte jugó\b", s)]
    # the moves log tells what just happened the same way (es-ES)
    assert t("ev.played", "es", player="Ana", card="5 Rojo") == "Ana ha jugado 5 Rojo"
    assert tn("ev.drew", 2, "es", player="Ana") == "Ana ha robado 2 cartas"


def test_spanish_reverse_is_cambio_de_sentido_and_the_stats_title_is_estadisticas() -> None:
    assert t("kind.reverse", "es") == "Cambio de sentido"
    assert t("kind.flex_reverse", "es") == "Cambio de sentido Flex"
    assert not [s for s in texts("es") if "Reversa" in s]
    assert t("stats.title", "es", name="Ana") == "Estadísticas de Ana"
    assert not [s for s in texts("es") if "Historial" in s]


# --------------------------------------------------------------------------------------------------------------------
# Slovak: names are not declined, verbs do not tell a gender

#: Any case of "hráč" (player) right before a placeholder: "Čaká sa na hráča {player}" declines the name as masculine.
DECLINED_NAME = re.compile(r"\bhráč\w*\s+\{\w+\}", re.IGNORECASE)


def test_slovak_never_declines_a_player_name_with_hraca() -> None:
    assert DECLINED_NAME.search("Čaká sa na hráča {player}.")  # the check catches what players saw
    assert [s for s in texts("sk") if DECLINED_NAME.search(s)] == []
    assert t("hand.waiting", "sk", player="Hana") == "Na ťahu je Hana."
    assert t("hand.revealed", "sk", player="Hana", cards="Červená 5").startswith("Hana – karty:")
    assert t("ev.challenge_guilty", "sk", challenger="Ján", player="Hana", penalised="Hana", n=4) == (
        "Ján spochybňuje kartu, ktorú hrá Hana: oprávnene! Hana berie 4"
    )
    assert t("ev.caught", "sk", catcher="Ján", target="Hana").startswith("Hana zabúda na UNO a Ján")


#: A past participle after "si" (the reader: "keď si klikol") or in a "kto …" clause ("ten, kto spochybnil") says
#: "he"; a player's or the reader's gender is not known.
GENDERED_PAST = re.compile(r"\bsi \w+(?:ol|il|al|el|la)\b|\bkto\b[^,.:;()]*?\b\w{2,}(?:ol|il|al|el)\b")


def test_slovak_verbs_about_players_and_the_reader_do_not_tell_a_gender() -> None:
    for seen in ("keď si klikol", "ten, kto spochybnil, berie 6", "volí ten, kto Flip zahral"):
        assert GENDERED_PAST.search(seen), seen
    assert [s for s in texts("sk") if GENDERED_PAST.search(s)] == []


@pytest.mark.parametrize(
    ("lang", "gendered"), [("it", r"\bSii il primo\b|\bper primo\b"), ("es", r"\bSé el primero\b")]
)
def test_the_goal_does_not_address_the_reader_as_a_man(lang: str, gendered: str) -> None:
    assert [s for s in texts(lang) if re.search(gendered, s)] == []


# --------------------------------------------------------------------------------------------------------------------
# The pause between rounds and the target score are the table's own


def round_over_session() -> Session:
    """A classic match whose first round has just ended (seat 0 went out), to 500 points."""
    game = build(Mode.CLASSIC, ["R5", "G3 B7"], "R3")
    game.apply(Play(0, game.hands[0][0]))
    assert game.phase is Phase.ROUND_OVER
    return Session(
        channel_id=1,
        guild_id=2,
        mode=Mode.CLASSIC,
        options=Options(),
        host_id=100,
        seats=[Seat(100, "Hana"), Seat(101, "Ján")],
        turn_timer=60,
        created_at=0.0,
        seed=1,
        status=Status.PLAYING,
        game=game,
    )


def test_the_table_between_rounds_names_the_real_pause_and_the_button() -> None:
    session = round_over_session()
    pause = Limits().round_pause  # where the pause is defined
    table = screens.table_screen(SessionView.of(session), "en", [], round_pause=pause)
    assert table.embed is not None and table.embed.description is not None
    assert f"Next round in {round(pause)} s, or press Next round." in table.embed.description
    assert t("btn.next_round", "en") == "Next round"
    for lang in LANGUAGES:
        line = t("table.round_over", lang, seconds=45)
        assert "45 s" in line and t("btn.next_round", lang) in line, lang
    assert "soon" not in t("table.round_over", "en", seconds=30)


def test_a_hand_opened_between_rounds_names_the_pause_too() -> None:
    session = round_over_session()
    game = session.game
    assert game is not None
    hand = screens.hand_screen(SessionView.of(session), game.view(1), "en", round_pause=12)
    assert hand.embed is not None and "Next round in 12 s" in str(hand.embed.description)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_summary_names_the_tables_target_score(lang: str) -> None:
    """SPEC G9: a match is won at the target score, or by a single round when it is 0."""
    for mode in Mode:
        goal = rules_embed(mode, lang, 150).fields[0].value or ""
        assert "150" in goal and "500" not in goal, (mode, goal)
        assert goal.endswith(tn("rules.target", 150, lang))
        single = rules_embed(mode, lang, 0).fields[0].value or ""
        assert single.endswith(t("rules.single_round", lang)) and "500" not in single
    assert tn("rules.target", 150, "en") == "The first to reach 150 points wins the match."
    assert tn("rules.target", 1, "en") == "The first to reach 1 point wins the match."


async def test_uno_rules_names_the_target_of_this_channels_table(
    emulator: DiscordEmulator, bot_starter: Any, tmp_path: Path
) -> None:
    world = uno_world(emulator)
    await bot_starter(make_bot(emulator, tmp_path / "uno.sqlite3", world["guild"]))
    alice = world["users"][0]
    await emulator.slash(alice, world["channel"], "uno new", game="flip", target=150)

    def goal(res: Any) -> tuple[str, str]:
        (rules,) = res.ephemeral_messages
        (embed,) = rules.embeds
        return embed["title"], embed["fields"][0]["value"]

    title, text = goal(await emulator.slash(alice, world["channel"], "uno rules"))  # the table's game and target
    assert title == t("rules.flip.title", "en") and text.endswith(tn("rules.target", 150, "en"))
    title, text = goal(await emulator.slash(alice, world["guild"].channel("general"), "uno rules", game="flip"))
    assert text.endswith(tn("rules.target", 500, "en"))  # no table there: the server's default target


# --------------------------------------------------------------------------------------------------------------------
# Issue 18.5: Slovak and Italian texts that read awkwardly


def test_issue_18_5_slovak_puts_no_comma_before_alebo_in_a_simple_alternative() -> None:
    assert [s for s in texts("sk") if ", alebo" in s] == []
    assert t("table.round_over", "sk", seconds=45) == (
        "Kolo sa skončilo. Ďalšie začne o 45 s alebo hneď po stlačení tlačidla Ďalšie kolo."
    )
    assert t("hand.challenge", "sk", player="Hana", card="Žolík ber štyri").endswith("spochybníš alebo prijmeš?")


def test_issue_18_5_slovak_draw_to_match_and_the_received_hand_read_naturally() -> None:
    assert [s for s in texts("sk") if re.search(r"do zhody|Ruka, ktorú", s, re.IGNORECASE)] == []
    assert t("rules.house.draw_to_match.title", "sk") == "Domáce pravidlo: brať až do hrateľnej karty"
    assert tn("hand.drew_to_match", 3, "sk") == "Brať až do hrateľnej karty: berieš 3 karty."
    # the name stays a subject in the nominative, with a verb that tells no gender
    assert tn("hand.received", 5, "sk", player="Hana") == "Hana ti odovzdáva svoje karty (5 kariet)."


def test_issue_18_5_italian_flex_all_draw_is_a_card_name() -> None:
    assert t("kind.flex_wild_all_draw", "it") == "Jolly Pesca per Tutti Flex"
    assert [s for s in texts("it") if "Pescano Tutti" in s] == []


# --------------------------------------------------------------------------------------------------------------------
# Issue 18.4: each new language uses its players' established UNO terms, the same everywhere

#: language → (term, as a pattern of its declined forms; texts that must use it); and the synonyms that must not appear
#: anywhere in that catalogue.
TERMS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "de": [
        ("Ziehstapel", ("table.draw_pile", "hand.draw_top", "ev.reshuffled", "rules.flip.flip")),
        ("Ablagestapel", ("error.card_not_playable", "ev.reshuffled", "rules.classic.turn", "rules.flip.flip")),
        ("UNO", ("ev.uno", "rules.classic.uno", "error.uno_not_allowed")),
    ],
    "fr": [
        ("pioche", ("table.draw_pile", "hand.draw_top", "ev.reshuffled", "rules.flip.flip")),
        ("défausse", ("error.card_not_playable", "ev.reshuffled", "rules.classic.turn", "rules.flip.flip")),
    ],
    "pl": [
        (
            r"sto(?:s|su|sem|sie) do dobierania",
            ("table.draw_pile", "hand.draw_top", "ev.reshuffled", "rules.flip.flip"),
        ),
        (
            r"sto(?:s|su|sem|sie) kart odrzuconych",
            ("error.card_not_playable", "ev.reshuffled", "rules.classic.turn", "rules.flip.flip"),
        ),
    ],
    "pt_BR": [
        ("monte de compra", ("table.draw_pile", "hand.draw_top", "ev.reshuffled", "rules.flip.flip")),
        ("pilha de descarte", ("error.card_not_playable", "ev.reshuffled", "rules.classic.turn", "rules.flip.flip")),
    ],
}
SYNONYMS = {
    "de": r"Nachziehstapel|Abwurfstapel|Kartenstapel|Abstapel|UNO sagen|sagt UNO",
    "fr": r"\btalon\b|pile de défausse|\bdéfausser\b",
    "pl": r"talia do dobierania|stos odrzuconych|stos kart do dobierania|kupka",
    "pt_BR": r"baralho de compra|monte de descarte|pilha de compra|\bcuringa\b",
}


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_issue_18_4_the_draw_and_discard_piles_have_one_name_each(lang: str) -> None:
    for term, keys in TERMS[lang]:
        for key in keys:
            text = tn(key, 3, lang) if key == "ev.reshuffled" else t(key, lang, player="X", target="", card="C")
            assert re.search(term, text, re.IGNORECASE), (key, term, text)
    assert [s for s in texts(lang) if re.search(SYNONYMS[lang], s, re.IGNORECASE)] == []


def test_issue_18_4_german_calls_uno_with_rufen() -> None:
    assert t("ev.uno", "de", player="Anna") == "Anna ruft UNO!"
    assert t("rules.classic.uno", "de").startswith("Ruf UNO mit deiner vorletzten Karte.")


#: A Polish past tense right after a player's name ("{player} zagrał") or addressed to the reader ("dobrałeś") tells a
#: gender the bot does not know.
POLISH_GENDERED = re.compile(
    r"\{(?:player|target|catcher|challenger|penalised|host|winner)\}\s+(?:nie\s+|się\s+)?\w+ł[ao]?\b"
    r"|\b\w+(?:łeś|łaś|łem|łam)\b|\(a\)"
)


def test_issue_18_4_polish_verbs_about_players_and_the_reader_do_not_tell_a_gender() -> None:
    for seen in ("{player} zagrał {card}", "Dobrałeś 2 karty", "Masz karty, które trzymał(a) {player}"):
        assert POLISH_GENDERED.search(seen), seen
    assert [s for s in texts("pl") if POLISH_GENDERED.search(s)] == []
    assert t("ev.played", "pl", player="Ola", card="Czerwony 5") == "Ola zagrywa Czerwony 5"
    assert tn("hand.received", 2, "pl", player="Ola") == "Ola oddaje ci swoje karty (2 karty)."
