"""The map inside the house (issue 17 point 2): every citation of the rules or of the architecture guide names a
section that exists, and README.md links both.

- ``SPEC`` followed by section ids cites docs/rules/ (docs/rules/README.md, "Citing a section"): a part letter or a
  section id of a heading there, in lists (``G7, X7``, ``C2/F4``), ranges (``C1–C6``), ``table O`` and
  ``Appendix A``. Test names (``test_f8_…``), the ``# --- F8 …`` headers of test modules and a rule option's
  ``section="…"`` are citations too.
- ``DESIGN`` followed by a quoted heading cites docs/architecture.md.
- The paths and links those documents name exist.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from bot.engine.options import Options

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
README = ROOT / "README.md"
#: Where citations are read (folders recursively), and which files.
SCANNED = ("bot", "cogs", "tests", "benchmarks", "scripts", "docs", "README.md")
SUFFIXES = {".py", ".md", ".po", ".sql", ".toml"}
SKIPPED = {".venv", "__pycache__", "fonts", "fixtures"}

TAG = "SPEC"
_ID = r"(?:[A-Z][0-9]{1,2}|[A-Z])(?!\w)"
_LIST_SEP = r"\s*(?:,|/|\+|\band\b|–|-)\s*"
_BREAK = r"(?:\s*\n\s*(?:#\s*)?|\s+)"  # a citation may run over a line break, in code or a comment
CITATION = re.compile(
    rf"\b{TAG}{_BREAK}(?:(?:table|sections?|Appendix)\s+)?"
    rf"(?P<ids>{_ID}(?:{_LIST_SEP}(?:(?:table|Appendix)\s+)?{_ID})*)"
)
#: What looks like a section id after "SPEC" but is not one the citation reads ("SPEC g7", "SPEC G7a", "SPEC 7").
SUSPECT = re.compile(rf"\b{TAG}\s+(?:(?:table|sections?|Appendix)\s+)?(?:\S*[0-9]|[A-Za-z]\b)")
#: The documents the project started from are not in the repository: cite docs/rules/ and docs/architecture.md.
OUTSIDE = re.compile(r"\b(?:SPEC|DESIGN)\.md\b")
WORD = re.compile(rf"\b{TAG}\b")
TEST_NAME = re.compile(r"\bdef test_([gcfxht][0-9]{1,2})_")
TEST_HEADER = re.compile(r"^# --- ([A-Z][0-9]{1,2}) ", re.MULTILINE)
OPTION_SECTION = re.compile(r"\bsection\s*=\s*[\"']([A-Z][0-9]{0,2})[\"']")
#: ``DESIGN "Heading"``, or ``DESIGN`` alone where a citation would be (before ``)``, ``,``, ``:``…): then it names no
#: heading. "DESIGN" in prose ("a DESIGN citation") is neither.
DESIGN = re.compile(r"\bDESIGN\b(?!\.md)(?:[,:]?\s*(?:#\s*)?\"(?P<title>[^\"]+)\"|(?=\s*[),.:;]))")

RULE_HEADING = re.compile(r"^#{1,6}\s+([A-Z][0-9]{0,2})\.\s", re.MULTILINE)
MD_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE_PATH = re.compile(r"`((?:bot|cogs|tests|benchmarks|scripts|docs)/[\w./-]*)`")


def rule_sections() -> dict[str, Path]:
    """Every section id of docs/rules/ and the file that defines it (an id defined twice fails here)."""
    found: dict[str, Path] = {}
    for path in sorted(RULES.glob("*.md")):
        for sid in RULE_HEADING.findall(path.read_text(encoding="utf-8")):
            assert sid not in found, f"section {sid} is defined in both {found[sid].name} and {path.name}"
            found[sid] = path
    return found


def design_sections() -> set[str]:
    return {_norm(h) for h in MD_HEADING.findall(ARCHITECTURE.read_text(encoding="utf-8"))}


def _norm(text: str) -> str:
    return " ".join(text.replace("#", " ").split()).casefold()


def expand(ids: str) -> list[str]:
    """The section ids of a citation's list: ``"G7, X7"`` → G7, X7; ``"C1–C6"`` → C1 … C6; ``"G9, table O"`` → G9, O;
    ``"F2, Appendix A"`` → F2, A. A range across parts is returned as written, so that it fails."""
    tokens = re.findall(r"[A-Z][0-9]{0,2}(?!\w)|–|-", ids)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in "–-":
            i += 1
            continue
        if i + 2 < len(tokens) and tokens[i + 1] in "–-":
            end = tokens[i + 2]
            if token[0] == end[0] and token[1:].isdigit() and end[1:].isdigit():
                out += [f"{token[0]}{n}" for n in range(int(token[1:]), int(end[1:]) + 1)]
            else:
                out.append(f"{token}–{end}")
            i += 3
            continue
        out.append(token)
        i += 1
    return out


def scanned_files() -> list[Path]:
    """The files whose citations are read (this test's own examples aside)."""
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        files += [
            p
            for p in candidates
            if p.is_file()
            and p.suffix in SUFFIXES
            and not SKIPPED & set(p.relative_to(ROOT).parts)
            and p != Path(__file__).resolve()
        ]
    return files


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def citations() -> tuple[list[tuple[str, str]], list[str]]:
    """``(place, section id)`` of every rules citation, and the places where "SPEC" is followed by what looks like a
    section id but is not read as one (:data:`SUSPECT`), or a document outside the repository is named."""
    cited: list[tuple[str, str]] = []
    unreadable: list[str] = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        for word in WORD.finditer(text):
            place = f"{rel}:{_line(text, word.start())}"
            match = CITATION.match(text, word.start())
            if match:
                cited += [(place, sid) for sid in expand(match["ids"])]
            elif SUSPECT.match(text, word.start()):
                unreadable.append(f"{place}: {text[word.start() : word.start() + 40]!r}")
        for m in OUTSIDE.finditer(text):
            unreadable.append(f"{rel}:{_line(text, m.start())}: {m[0]} is not in the repository")
        for pattern, upper in ((TEST_NAME, True), (TEST_HEADER, False), (OPTION_SECTION, False)):
            for m in pattern.finditer(text):
                cited.append((f"{rel}:{_line(text, m.start())}", m[1].upper() if upper else m[1]))
    return cited, unreadable


def design_citations() -> list[tuple[str, str | None]]:
    """``(place, heading or None)`` of every ``DESIGN`` citation (None: no heading named)."""
    found: list[tuple[str, str | None]] = []
    for path in scanned_files():
        if path == ARCHITECTURE:
            continue
        text = path.read_text(encoding="utf-8")
        for m in DESIGN.finditer(text):
            title = m["title"]
            found.append((f"{path.relative_to(ROOT)}:{_line(text, m.start())}", _norm(title) if title else None))
    return found


# --- the documents -------------------------------------------------------------------------------------------------


def test_the_rules_reference_has_every_part_and_section():
    sections = rule_sections()
    expected = {"G", "C", "F", "X", "H", "O", "A"}
    expected |= {f"G{n}" for n in range(1, 12)} | {f"C{n}" for n in range(1, 7)} | {f"F{n}" for n in range(1, 11)}
    expected |= {f"X{n}" for n in range(1, 10)} | {f"H{n}" for n in range(1, 6)}
    assert expected <= set(sections), sorted(expected - set(sections))


def test_every_rules_citation_names_a_section_that_exists():
    sections = rule_sections()
    cited, unreadable = citations()
    assert len(cited) > 300  # the scan really reads the code base (about 500 citations on 2026-12-01)
    unknown = [f"{place}: SPEC {sid}" for place, sid in cited if sid not in sections]
    assert not unknown, "citations of sections docs/rules/ does not define:\n" + "\n".join(unknown)
    assert not unreadable, 'write "SPEC" followed by section ids (docs/rules/README.md):\n' + "\n".join(unreadable)


def test_every_design_citation_names_a_section_of_the_architecture_guide():
    headings = design_sections()
    found = design_citations()
    assert len(found) > 20
    bare = [place for place, title in found if title is None]
    assert not bare, 'cite a section: DESIGN "Adapter" (a heading of docs/architecture.md):\n' + "\n".join(bare)
    unknown = [f"{place}: {title}" for place, title in found if title is not None and title not in headings]
    assert not unknown, "headings docs/architecture.md does not have:\n" + "\n".join(unknown)


def test_every_rule_option_is_in_table_o_with_its_section():
    table = (RULES / "options.md").read_text(encoding="utf-8")
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)` \|.*\| ([^|]+) \|$", table, re.MULTILINE)}
    missing = [f.name for f in fields(Options) if f.name not in rows]
    assert not missing, f"options missing from docs/rules/options.md: {missing}"
    sections = {f.name: f.metadata["rule"].section for f in fields(Options) if "rule" in f.metadata}
    wrong = {name: (section, rows[name]) for name, section in sections.items() if section not in expand(rows[name])}
    assert not wrong, f"the engine's section (first) is not the one docs/rules/options.md gives: {wrong}"


@pytest.mark.parametrize("doc", [*sorted(RULES.glob("*.md")), ARCHITECTURE, README], ids=lambda p: p.name)
def test_the_paths_and_links_of_the_documents_exist(doc: Path):
    text = doc.read_text(encoding="utf-8")
    missing = [
        target
        for target in MD_LINK.findall(text)
        if "://" not in target and not target.startswith("mailto:") and not (doc.parent / target).exists()
    ]
    missing += [p for p in CODE_PATH.findall(text) if not (ROOT / p.rstrip("/")).exists()]
    assert not missing, f"{doc.name} names what is not in the repository: {missing}"


def test_the_readme_links_the_rules_and_the_architecture_guide():
    text = README.read_text(encoding="utf-8")
    links = set(MD_LINK.findall(text))
    assert "docs/rules/README.md" in links
    assert "docs/architecture.md" in links
    built = text.split("## How it is built", 1)[1].split("\n## ", 1)[0]
    assert "docs/architecture.md" in MD_LINK.findall(built)


# --- the reader itself ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        (f"({TAG} F8).", ["F8"]),
        (f"({TAG} G7, X7)", ["G7", "X7"]),
        (f"{TAG} C2/F4 — ", ["C2", "F4"]),
        (f"{TAG} C1–C6 (C1's deck", ["C1", "C2", "C3", "C4", "C5", "C6"]),
        (f"({TAG} G9, table O)", ["G9", "O"]),
        (f"({TAG} table O)", ["O"]),
        (f"{TAG} H ``jump_in``", ["H"]),
        (f"({TAG} G4 ruling: a", ["G4"]),
        (f"({TAG} sections G, C, F, X summarised)", ["G", "C", "F", "X"]),
        (f"({TAG} F1, F2, Appendix A)", ["F1", "F2", "A"]),
        (f"(rules: {TAG}\n    F8)", ["F8"]),
        (f"{TAG} G1–X3", ["G1–X3"]),
        (f"({TAG} X1's Flex convention, F1 colours)", ["X1"]),
    ],
)
def test_citations_are_read_in_every_form_the_code_uses(text: str, ids: list[str]):
    match = CITATION.search(text)
    assert match is not None
    assert expand(match["ids"]) == ids


@pytest.mark.parametrize("text", [f"{TAG}'s default", f"{TAG}-free", f"no {TAG} section and", f"({TAG}, mode, …)"])
def test_words_that_are_not_citations_are_left_alone(text: str):
    start = WORD.search(text)
    assert start is not None
    assert CITATION.match(text, start.start()) is None
    assert SUSPECT.match(text, start.start()) is None


@pytest.mark.parametrize("text", [f"{TAG} g7", f"{TAG} G7a", f"{TAG} 7", f"{TAG} table 0"])
def test_a_malformed_citation_is_reported(text: str):
    start = WORD.search(text)
    assert start is not None
    assert CITATION.match(text, start.start()) is None
    assert SUSPECT.match(text, start.start()) is not None


def test_an_unknown_section_would_be_found():
    text = f"(rules: {TAG} G7, Z9)"
    match = CITATION.search(text)
    assert match is not None
    assert [sid for sid in expand(match["ids"]) if sid not in rule_sections()] == ["Z9"]


def test_design_citations_are_read_over_a_line_break():
    text = 'x (DESIGN "Saved formats and\nupgrades")'
    match = DESIGN.search(text)
    assert match is not None and _norm(match["title"]) in design_sections()
    assert DESIGN.search("(DESIGN).")["title"] is None  # type: ignore[index]
    assert DESIGN.search("a DESIGN citation") is None
