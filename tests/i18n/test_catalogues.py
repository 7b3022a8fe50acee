"""The message catalogues are complete and correct: every key of ``en.po`` is translated into Italian, Spanish,
Slovak, German, French, Polish and Brazilian Portuguese (issue 18.4) with the same placeholders, markdown and emoji;
every key the code uses exists; texts fit Discord's limits; command names are valid; plural forms and language
selection work (bot.i18n, bot.i18n.translator)."""

from __future__ import annotations

import ast
import inspect
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from discord import app_commands

import bot.adapter.refusals
import bot.engine.errors
import bot.engine.options
import bot.i18n
from bot.ai import Level
from bot.engine.cards import (
    Colour,
    Face,
    Kind,
    Mode,
    Side,
    classic_faces,
    flex_faces,
    flip_dark_faces,
    flip_light_faces,
)
from bot.i18n import LANGUAGES, _translations, language_for, t, tn
from bot.i18n.translator import _LOCALES, UnoTranslator
from cogs.uno.screens import FLEX_EFFECTS
from cogs.uno.screens.rule_lines import catalogue_keys
from cogs.uno.screens.rules_page import SECTIONS
from cogs.uno.screens.text import TIMEOUT_OUTCOMES, card_name, colour_name

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "i18n" / "locales"
OTHERS = tuple(lang for lang in LANGUAGES if lang != "en")
ALL = ("en", *OTHERS)
#: CLDR's integer plural categories as Babel writes them for gettext: Slovak and Polish one/few/many; French and
#: Portuguese one (0 and 1)/many (a million and its multiples)/other.
NPLURALS = {"en": 2, "it": 2, "es": 2, "sk": 3, "de": 2, "fr": 3, "pl": 3, "pt_BR": 3}


def _catalogue(lang: str) -> Catalog:
    with (LOCALES / f"{lang}.po").open("rb") as fp:
        return read_po(fp, locale=lang)


CATALOGUES = {lang: _catalogue(lang) for lang in ALL}


def _entries(lang: str) -> dict[str, tuple[str, ...]]:
    """key → its text(s): one string, or every plural form."""
    out: dict[str, tuple[str, ...]] = {}
    for m in CATALOGUES[lang]:
        if not m.id:
            continue
        key = m.id if isinstance(m.id, str) else m.id[0]
        out[key] = (m.string,) if isinstance(m.string, str) else tuple(m.string)
    return out


ENTRIES = {lang: _entries(lang) for lang in ALL}
EN = ENTRIES["en"]
PLURAL_KEYS = sorted(k for m in CATALOGUES["en"] if isinstance(m.id, tuple) for k in [m.id[0]])
KEYS = sorted(EN)


def _fields(text: str) -> Counter[tuple[str, str, str | None]]:
    """The ``str.format`` fields of ``text``: (name, format spec, conversion), counted."""
    return Counter(
        (name, spec or "", conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None
    )


def _forms(lang: str, key: str) -> tuple[str, ...]:
    """The text(s) of ``key`` in ``lang`` (none when missing: the completeness tests report that)."""
    return ENTRIES[lang].get(key, ())


def _dummy_params(text: str) -> dict[str, Any]:
    return {name: 3 for name, _, _ in _fields(text)}


def test_the_catalogues_are_big_enough_for_these_tests_to_mean_something() -> None:
    assert len(KEYS) > 250 and len(PLURAL_KEYS) >= 4
    assert {"table.top", "btn.hand", "cmd.new.name", "rules.flip.flip"} <= set(KEYS)


# --------------------------------------------------------------------------------------------------------------------
# Completeness


@pytest.mark.parametrize("lang", ALL)
def test_the_file_holds_each_key_once_and_nothing_is_fuzzy(lang: str) -> None:
    """read_po keeps the last of two equal msgids, and the .mo writer drops fuzzy entries: both would lose text."""
    text = (LOCALES / f"{lang}.po").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.+)"$', text, flags=re.M)
    assert len(ids) == len(set(ids)) == len(ENTRIES[lang])
    assert not [m.id for m in CATALOGUES[lang] if m.id and m.fuzzy]
    assert not CATALOGUES[lang].fuzzy


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_of_en_po_is_translated_and_nothing_else(lang: str) -> None:
    entries = ENTRIES[lang]
    assert sorted(set(KEYS) - set(entries)) == [], "missing"
    assert sorted(set(entries) - set(KEYS)) == [], "not in en.po"
    empty = [k for k, forms in entries.items() if not all(f.strip() for f in forms)]
    assert empty == []


@pytest.mark.parametrize("lang", ALL)
def test_plural_entries_have_the_languages_number_of_forms(lang: str) -> None:
    catalogue = CATALOGUES[lang]
    assert catalogue.num_plurals == NPLURALS[lang]
    for key in KEYS:
        forms = _forms(lang, key)
        assert len(forms) == (NPLURALS[lang] if key in PLURAL_KEYS else 1), key


@pytest.mark.parametrize("lang", OTHERS)
def test_the_loaded_translation_answers_every_key_in_its_own_language(lang: str) -> None:
    """Through the real loader (read_po → .mo → GNUTranslations): no key falls back to English or to the key."""
    tr = _translations(lang)
    for key in KEYS:
        if key in PLURAL_KEYS:
            for n in range(12):
                got = tr.ngettext(key, key + ".plural", n)
                assert got not in (key, key + ".plural"), (key, n)
                assert got == ENTRIES[lang][key][tr.plural(n)]  # type: ignore[attr-defined]
        else:
            assert tr.gettext(key) == ENTRIES[lang][key][0], key


def test_plural_rules() -> None:
    assert sorted(NPLURALS) == sorted(ALL)
    assert CATALOGUES["sk"].plural_forms == "nplurals=3; plural=((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2);"
    for lang in ("en", "it", "es", "de"):
        assert CATALOGUES[lang].plural_forms == "nplurals=2; plural=(n != 1);"
    sk = _translations("sk").plural  # type: ignore[attr-defined]
    assert [sk(n) for n in (0, 1, 2, 3, 4, 5, 11, 21, 22, 100)] == [2, 0, 1, 1, 1, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("lang", ["de", "fr", "pl", "pt_BR"])
def test_issue_18_4_the_new_languages_plural_rules_are_cldrs_through_babel(lang: str) -> None:
    """Each file declares the rule Babel derives from CLDR for its locale, and the loaded translation applies it."""
    assert CATALOGUES[lang].plural_forms == Catalog(locale=lang).plural_forms
    rule = _translations(lang).plural  # type: ignore[attr-defined]
    ns = (0, 1, 2, 4, 5, 12, 14, 21, 22, 24, 25, 101, 102, 112, 1_000_000)
    expected = {
        "de": [1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        # Polish: one (1), few (2–4, 22–24, 102… but not 12–14), many (the rest, 0 included)
        "pl": [2, 0, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 1, 2, 2],
        # French and Portuguese: 0 and 1 are "one"; a million takes the "many" form ("1 000 000 de cartes")
        "fr": [0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1],
        "pt_BR": [0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1],
    }[lang]
    assert [rule(n) for n in ns] == expected


def test_issue_18_4_polish_plural_forms() -> None:
    assert [tn("table.cards", n, "pl") for n in (1, 2, 4, 5, 0, 12, 22, 25, 108)] == [
        "1 karta",
        "2 karty",
        "4 karty",
        "5 kart",
        "0 kart",
        "12 kart",
        "22 karty",
        "25 kart",
        "108 kart",
    ]
    assert [tn("table.points", n, "pl") for n in (1, 3, 500)] == ["1 punkt", "3 punkty", "500 punktów"]
    assert tn("ev.drew", 1, "pl", player="Ola") == "Ola dobiera 1 kartę"
    assert tn("ev.drew", 2, "pl", player="Ola") == "Ola dobiera 2 karty"
    assert tn("ev.drew", 6, "pl", player="Ola") == "Ola dobiera 6 kart"


@pytest.mark.parametrize(
    ("lang", "zero", "one", "two"),
    [
        ("de", "0 Karten", "1 Karte", "2 Karten"),
        ("fr", "0 carte", "1 carte", "2 cartes"),
        ("pt_BR", "0 carta", "1 carta", "2 cartas"),
    ],
)
def test_issue_18_4_german_french_and_portuguese_plural_forms(lang: str, zero: str, one: str, two: str) -> None:
    assert [tn("table.cards", n, lang) for n in (0, 1, 2)] == [zero, one, two]
    assert tn("table.cards", 1_000_000, lang).endswith({"de": "Karten", "fr": "de cartes", "pt_BR": "de cartas"}[lang])


def test_slovak_plural_forms() -> None:
    assert tn("table.cards", 1, "sk") == "1 karta"
    assert tn("table.cards", 2, "sk") == "2 karty"
    assert tn("table.cards", 4, "sk") == "4 karty"
    assert tn("table.cards", 5, "sk") == "5 kariet"
    assert tn("table.cards", 0, "sk") == "0 kariet"
    assert [tn("table.points", n, "sk") for n in (1, 3, 500)] == ["1 bod", "3 body", "500 bodov"]
    assert tn("ev.drew", 2, "sk", player="Ana") == "Ana berie 2 karty"
    assert tn("ev.drew", 1, "sk", player="Ana") == "Ana berie 1 kartu"


@pytest.mark.parametrize(("lang", "one", "two"), [("it", "1 carta", "2 carte"), ("es", "1 carta", "2 cartas")])
def test_italian_and_spanish_plural_forms(lang: str, one: str, two: str) -> None:
    assert tn("table.cards", 1, lang) == one
    assert tn("table.cards", 2, lang) == two
    assert tn("table.cards", 0, lang) == two.replace("2", "0")


# --------------------------------------------------------------------------------------------------------------------
# Same placeholders, markdown and emoji as English


@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_are_the_same_as_in_english(lang: str) -> None:
    wrong = []
    for key in KEYS:
        english = _fields(EN[key][-1]) if key in PLURAL_KEYS else _fields(EN[key][0])
        for form in _forms(lang, key):
            if _fields(form) != english:
                wrong.append((key, form))
    assert wrong == []


@pytest.mark.parametrize("lang", ALL)
def test_every_text_formats_with_its_placeholders(lang: str) -> None:
    """Catches stray or unbalanced braces, which ``str.format`` would raise on in the middle of a game."""
    for key in KEYS:
        for form in _forms(lang, key):
            form.format(**_dummy_params(form))
        if key in PLURAL_KEYS:
            for n in (1, 2, 5):
                params = _dummy_params(EN[key][-1])
                params.pop("n", None)
                tn(key, n, lang, **params)
        else:
            t(key, lang, **_dummy_params(EN[key][0]))


def _symbols(text: str) -> Counter[str]:
    """Emoji and symbols (⟳ ▶ 🏆 🟢 + …), bold markers and backticks: these must survive translation exactly."""
    out = Counter(ch for ch in text if unicodedata.category(ch) in ("So", "Sm") and ch != "+")
    out["**"] = text.count("**")
    out["`"] = text.count("`")
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_emoji_and_markdown_are_kept(lang: str) -> None:
    wrong = [(key, form) for key in KEYS for form in _forms(lang, key) if _symbols(form) != _symbols(EN[key][-1])]
    assert wrong == []


# --------------------------------------------------------------------------------------------------------------------
# No English left

#: The only keys whose translation may equal the English text, and why.
SAME_AS_ENGLISH = {
    "kind.flip": "the FLIP card is called Flip in every edition of UNO FLIP",
    "colour.orange": "Orange is the German and French word too",
    "colour.pink": "German UNO FLIP calls its dark colour Pink",
    "table.points": "French says 1 point too",
    "team.name": "German says Team 1 too (SPEC T)",
}
#: Product names and the call, kept in English everywhere (a text made only of these and placeholders may be equal).
PRODUCT_NAMES = re.compile(r"UNO Flex!|UNO FLIP|UNO|\buno\b")
#: English words that have no place in an Italian, Spanish or Slovak text (word match, any case).
ENGLISH_WORDS = {"the", "and", "your", "you", "with", "cards", "player", "players", "wins", "draws", "points", "colour"}
#: Words of that list that are also words of the language ("10 points" is French).
OWN_WORDS = {"fr": {"points"}}


def _only_placeholders_and_names(text: str) -> bool:
    rest = PRODUCT_NAMES.sub("", re.sub(r"\{[^{}]*\}", "", text))
    return not any(ch.isalpha() for ch in rest)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_text_is_left_in_english(lang: str) -> None:
    same = []
    for key in KEYS:
        for english, form in zip(EN[key], _forms(lang, key), strict=False):
            if form == english and key not in SAME_AS_ENGLISH and not _only_placeholders_and_names(form):
                same.append((key, form))
    assert same == []


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_words_in_translations(lang: str) -> None:
    found = []
    for key in KEYS:
        for form in _forms(lang, key):
            words = {w.lower() for w in re.findall(r"[A-Za-z]+", re.sub(r"\{[^{}]*\}", "", form))}
            english = words & (ENGLISH_WORDS - OWN_WORDS.get(lang, set()))
            if english:
                found.append((key, form, sorted(english)))
    assert found == []


def test_the_allow_list_is_used_and_short() -> None:
    """Each allow-listed key really is equal to English somewhere (else it should leave the list)."""
    assert len(SAME_AS_ENGLISH) <= 5
    for key in SAME_AS_ENGLISH:
        assert any(
            form == english for lang in OTHERS for english, form in zip(EN[key], ENTRIES[lang][key], strict=False)
        ), key


# --------------------------------------------------------------------------------------------------------------------
# Every key the code uses exists in en.po

SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
NAMESPACES = {key.split(".")[0] for key in KEYS}
KEY_RE = re.compile(rf"^(?:{'|'.join(sorted(NAMESPACES))})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*$")
NOT_KEYS = re.compile(r"\.(?:png|py|po|mo|sqlite3|json|sql)$")


def _trees() -> Iterator[tuple[Path, ast.AST]]:
    for path in SOURCES:
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _constants(node: ast.AST | None) -> list[str]:
    """String constants a key argument can evaluate to (literal, or either branch of ``a if c else b``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def _code_keys() -> tuple[set[str], set[str], set[str]]:
    """(keys passed literally to t/tn/_l/locale_str, other key-like string constants, f-string key prefixes)."""
    called: set[str] = set()
    loose: set[str] = set()
    prefixes: set[str] = set()
    for _path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name in ("t", "tn") and node.args:
                    called.update(_constants(node.args[0]))
                    prefixes.update(_prefix(node.args[0], any_namespace=True))
                elif name == "_l" and len(node.args) >= 2:
                    called.update(_constants(node.args[1]))
                elif name == "locale_str":
                    for kw in node.keywords:
                        if kw.arg == "key":
                            called.update(_constants(kw.value))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if KEY_RE.match(node.value) and not NOT_KEYS.search(node.value):
                    loose.add(node.value)
            elif isinstance(node, ast.JoinedStr):
                prefixes.update(_prefix(node, any_namespace=False))
    return called, loose, prefixes


def _prefix(node: ast.AST, *, any_namespace: bool) -> list[str]:
    """The constant head of an f-string key (``f"colour.{c.value}"`` → ``"colour."``). Inside ``t(...)`` any head
    counts (a mistyped family must not slip through); elsewhere only heads in one of en.po's namespaces."""
    if not isinstance(node, ast.JoinedStr) or not node.values:
        return []
    first = node.values[0]
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
        return ["<f-string without a constant head>"] if any_namespace else []
    head = str(first.value)
    if any_namespace or (head.split(".")[0] in NAMESPACES and head.endswith(".") and len(node.values) > 1):
        return [head]
    return []


def _error_codes() -> set[str]:
    codes = set()
    for module in (bot.engine.errors, bot.adapter.refusals, bot.engine.options):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Exception) and isinstance(getattr(cls, "code", None), str):
                codes.add(cls.code)
    return codes


def _dynamic_keys() -> dict[str, set[str]]:
    """Keys the code builds from values: family prefix → every key of the family."""
    rules = {"rules.footer"}
    for mode, sections in SECTIONS.items():
        rules.add(f"rules.{mode.value}.title")
        for section in sections:
            rules |= {f"rules.{mode.value}.{section}", f"rules.{mode.value}.{section}.title"}
    return {
        "colour.": {f"colour.{c.value}" for c in Colour},
        "kind.": {f"kind.{k.value}" for k in Kind},
        "mode.": {f"mode.{m.value}" for m in Mode},
        "side.": {f"side.{s.value}" for s in Side},
        "error.": {f"error.{code}" for code in _error_codes()},
        "rules.": rules,
        "done.": {f"done.{verb}" for verb in ("join", "leave", "start", "cancel", "kick")},
        "ev.timeout.": {f"ev.timeout.{outcome}" for outcome in TIMEOUT_OUTCOMES},
        "hand.timeout.": {f"hand.timeout.{outcome}" for outcome in TIMEOUT_OUTCOMES},
        "flex.": {f"flex.{kind.value}" for kind in FLEX_EFFECTS},
        "ai.level.": {f"ai.level.{level.value}" for level in Level},  # issue 21
        # the rule options' texts, named after each row of the option table (issue 17 point 1)
        "opt.": {k for k in catalogue_keys() if k.startswith("opt.")},
        "choice.": {k for k in catalogue_keys() if k.startswith("choice.")},
        "lobby.house.": {k for k in catalogue_keys() if k.startswith("lobby.house.")},
        "rules.house.": {k for k in catalogue_keys() if k.startswith("rules.house.")},
        "panel.": {k for k in catalogue_keys() if k.startswith("panel.")},
    }


def test_the_error_families_cover_every_error_class() -> None:
    codes = _error_codes()
    assert {"rule", "not_your_turn", "card_not_playable", "adapter", "need_players", "stale", "bad_option"} <= codes
    subclasses = [*_all_subclasses(bot.engine.errors.RuleError), *_all_subclasses(bot.adapter.refusals.AdapterError)]
    assert len(subclasses) > 25 and all(cls.code in codes for cls in subclasses)


def _all_subclasses(cls: type) -> list[Any]:
    out = [cls]
    for sub in cls.__subclasses__():
        out += _all_subclasses(sub)
    return out


def test_every_key_the_code_uses_is_in_en_po() -> None:
    called, loose, _ = _code_keys()
    assert sorted((called | loose) - set(KEYS)) == []
    # the scan works: it sees keys passed directly and keys chosen before the call
    assert len(called) > 150 and {"btn.hand", "cmd.new.name", "opt.game", "choice.auto"} <= called
    assert {"ev.challenge_guilty", "ev.direction_ccw"} <= loose


def test_every_key_family_the_code_builds_is_known_and_complete() -> None:
    _, _, prefixes = _code_keys()
    families = _dynamic_keys()
    assert prefixes, "the scan found no f-string keys: it is broken"
    assert sorted(p for p in prefixes if not any(p.startswith(f) for f in families)) == [], "unknown family"
    for family, keys in families.items():
        assert sorted(keys - set(KEYS)) == [], family


# --------------------------------------------------------------------------------------------------------------------
# Discord limits and command names

DESCRIPTION_PREFIXES = ("cmd.", "opt.", "choice.")


def _is_description(key: str) -> bool:
    return key.startswith(DESCRIPTION_PREFIXES) and not key.startswith("opt.line.") and not key.endswith(".name")


def _valid_command_name(name: str) -> bool:
    """Discord: ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase where the letter has a lowercase form."""
    return (
        1 <= len(name) <= 32
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
        and name == name.lower()
    )


@pytest.mark.parametrize("lang", ALL)
def test_command_names_are_valid_and_distinct(lang: str) -> None:
    names = {key: ENTRIES[lang][key][0] for key in KEYS if key.startswith("cmd.") and key.endswith(".name")}
    assert len(names) == 14
    assert [name for name in names.values() if not _valid_command_name(name)] == []
    subcommands = [name for key, name in names.items() if key != "cmd.uno.name"]
    assert len(set(subcommands)) == len(subcommands)


def test_the_command_name_check_is_strict() -> None:
    assert _valid_command_name("clasificación") and _valid_command_name("štatistiky") and _valid_command_name("a-b_1")
    assert not _valid_command_name("Nuova") and not _valid_command_name("two words") and not _valid_command_name("")
    assert not _valid_command_name("x" * 33) and not _valid_command_name("uno!")


@pytest.mark.parametrize("lang", ALL)
def test_descriptions_and_choices_fit_in_100_characters(lang: str) -> None:
    long = [(k, ENTRIES[lang][k][0]) for k in KEYS if _is_description(k) and not 1 <= len(ENTRIES[lang][k][0]) <= 100]
    assert long == []


@pytest.mark.parametrize("lang", OTHERS)
def test_command_mentions_use_the_names_this_language_sees(lang: str) -> None:
    """Italian and Spanish clients show the translated command names; Slovak ones (no Discord locale) the English."""
    shown = "en" if lang == "sk" else lang
    names = {ENTRIES[shown][k][0] for k in KEYS if k.startswith("cmd.") and k.endswith(".name")}
    mentions = [
        (key, word)
        for key in KEYS
        for form in _forms(lang, key)
        for word in re.findall(r"/uno (\w+)", form)
        if word not in names
    ]
    assert mentions == []
    # the command that opens a game is named through a placeholder (a clickable mention, shown in each reader's
    # client language), never hard-coded
    assert "{command}" in ENTRIES[lang]["error.no_game"][0]


LONG_NAME = "W" * 32  # Discord display names are up to 32 characters


def _all_faces() -> list[Face]:
    return [*classic_faces("112"), *flip_light_faces(), *flip_dark_faces(), *flex_faces()]


@pytest.mark.parametrize("lang", ALL)
def test_buttons_and_select_options_fit(lang: str) -> None:
    labels = [t(k, lang) for k in KEYS if k.startswith("btn.") or k.startswith("colour.")]
    labels.append(t("hand.page", lang, page=99, pages=99))
    assert max(len(label) for label in labels) <= 80
    for key in ("hand.select", "hand.pick_target_placeholder"):
        assert len(t(key, lang)) <= 150
    longest = max(
        (
            t(
                "hand.option_uno",
                lang,
                card=t("hand.option_flex_colour", lang, card=card_name(face, lang), colour=colour_name(c, lang)),
            )
            for face in _all_faces()
            for c in Colour
        ),
        key=len,
    )
    assert len(longest) <= 100, longest
    target = f"{LONG_NAME} · {tn('table.cards', 108, lang)}"
    assert len(target) <= 100


@pytest.mark.parametrize("lang", ALL)
def test_embed_titles_and_fields_fit(lang: str) -> None:
    longest_card = max((card_name(face, lang) for face in _all_faces()), key=len)
    game = max((t(f"mode.{m.value}", lang) for m in Mode), key=len)
    titles = [
        t("lobby.title", lang, game=game),
        t("table.title", lang, game=game, round=999),
        tn("hand.title", 108, lang),
        t("hand.pick_colour", lang, card=longest_card),
        t("hand.pick_target", lang, card=longest_card),
        t("round.title", lang, round=999, player=LONG_NAME),
        t("match.title", lang, player=LONG_NAME),
        t("lb.title", lang, scope=t("lb.scope_global", lang), game=t("lb.all_games", lang)),
        t("stats.title", lang, name=LONG_NAME),
        t("settings.title", lang),
        t("settings.saved", lang),
        *(t(k, lang) for k in KEYS if k.startswith("rules.") and k.endswith(".title")),
        *(t(k, lang) for k in ("table.top", "table.direction", "table.draw_pile", "table.side", "table.players")),
        *(t(k, lang) for k in ("table.log", "hand.power", "hand.others", "hand.revealed_title", "match.scores")),
        t("lobby.players", lang, n=10, max=10),
        t("lobby.options", lang),
    ]
    assert max(len(title) for title in titles) <= 256
    for mode, sections in SECTIONS.items():
        for section in sections:
            assert len(t(f"rules.{mode.value}.{section}", lang)) <= 1024
    options = "\n".join(t(k, lang, **_dummy_params(EN[k][0])) for k in KEYS if k.startswith("opt.line."))
    assert len(options) <= 1024
    assert len(t("rules.footer", lang)) <= 2048
    assert len(t("lobby.footer", lang, min=2, max=10)) <= 2048


# --------------------------------------------------------------------------------------------------------------------
# Choosing the language; slash-command translations


def test_the_server_setting_wins() -> None:
    assert language_for("sk", "it") == "sk"
    assert language_for("it", "es-ES") == "it"
    assert language_for("es", "en-US") == "es"
    assert language_for("en", "it") == "en"
    assert language_for("sk", None) == "sk"


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("it", "it"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "de"),
        ("fr", "fr"),
        ("pl", "pl"),
        ("pt-BR", "pt_BR"),
    ],
)
def test_discord_locales_without_a_setting(locale: str, lang: str) -> None:
    assert language_for(None, locale) == lang
    assert language_for(None, discord.Locale(locale)) == lang  # type: ignore[arg-type]


@pytest.mark.parametrize("locale", ["cs", "ja", "nl", "sv-SE", "pt", "", None])
def test_unknown_locales_fall_back_to_english(locale: str | None) -> None:
    assert language_for(None, locale) == "en"


def test_an_unknown_setting_is_ignored() -> None:
    assert language_for("xx", "it") == "it"
    assert language_for("pt-BR", "pl") == "pl"  # the setting's code is pt_BR (the catalogue's), not Discord's pt-BR
    assert language_for("xx", None) == "en"


def test_issue_18_4_a_server_setting_can_be_each_new_language() -> None:
    for lang in ("de", "fr", "pl", "pt_BR"):
        assert language_for(lang, "en-US") == lang
        assert language_for(lang, None) == lang


def test_slovak_only_through_the_server_setting() -> None:
    """No Discord client locale gives Slovak (there is none; Slovaks often use Czech clients, which stay English)."""
    got = {loc.value: language_for(None, loc.value) for loc in discord.Locale}
    assert "sk" not in got.values()
    assert got["cs"] == "en"
    assert all(language_for("sk", loc.value) == "sk" for loc in discord.Locale)


def _context() -> app_commands.TranslationContext[Any, Any]:
    return app_commands.TranslationContext(location=app_commands.TranslationContextLocation.other, data=None)


COMMAND_KEYS = [k for k in KEYS if k.startswith(("cmd.", "choice.")) or (k.startswith("opt.") and "line" not in k)]


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        (discord.Locale.italian, "it"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.german, "de"),
        (discord.Locale.french, "fr"),
        (discord.Locale.polish, "pl"),
        (discord.Locale.brazil_portuguese, "pt_BR"),
    ],
)
async def test_the_translator_gives_the_catalogue_text(locale: discord.Locale, lang: str) -> None:
    translator = UnoTranslator()
    assert len(COMMAND_KEYS) > 50
    for key in COMMAND_KEYS:
        text = await translator.translate(app_commands.locale_str(EN[key][0], key=key), locale, _context())
        assert text == ENTRIES[lang][key][0], key
    new = {"it": "nuova", "es": "nueva", "de": "neu", "fr": "nouvelle", "pl": "nowa", "pt_BR": "nova"}[lang]
    assert await translator.translate(app_commands.locale_str("new", key="cmd.new.name"), locale, _context()) == new
    assert await translator.translate(app_commands.locale_str("no key"), locale, _context()) is None
    missing = app_commands.locale_str("x", key="cmd.nothing.name")
    assert await translator.translate(missing, locale, _context()) is None


def test_issue_18_4_every_discord_locale_of_a_language_is_translated() -> None:
    """The command translator and the message language agree: a client locale gets its language's command names."""
    assert {loc.value: lang for loc, lang in _LOCALES.items()} == {
        code: lang for code, lang in bot.i18n.DISCORD_LOCALES.items() if lang != "en"
    }
    assert sorted(set(_LOCALES.values())) == sorted(lang for lang in OTHERS if lang != "sk")


@pytest.mark.parametrize("locale", [loc for loc in discord.Locale if loc not in _LOCALES], ids=str)
async def test_the_translator_leaves_other_locales_alone(locale: discord.Locale) -> None:
    string_ = app_commands.locale_str("new", key="cmd.new.name")
    assert await UnoTranslator().translate(string_, locale, _context()) is None
