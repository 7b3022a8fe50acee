"""No new circle of imports in bot/ and cogs/, type-only imports included (issue 17 points 4 and 6).

Issue 17 point 4 found four circles on main 62b229a; they are :data:`KNOWN` below, an allow-list kept until point 4
breaks them. The test fails on any other circle, on a known one that grows (a module joining it must be written into
:data:`KNOWN`, visibly), and on a known one that shrank or is gone (then shrink :data:`KNOWN` to what remains, so it
can only get better)."""

from __future__ import annotations

from tests import importgraph as ig

#: The circles issue 17 point 4 lists (measured on main 62b229a) that are not broken yet: none (the last one, engine
#: effects <-> game <-> snapshot, went with bot/engine/state.py). Keep it empty.
KNOWN: tuple[frozenset[str], ...] = ()


def _describe(cycle: frozenset[str]) -> str:
    edges = ig.graph()
    return "\n".join(f"  {m} -> {', '.join(sorted(edges[m] & cycle))}" for m in sorted(cycle))


def test_no_new_import_cycle():
    new = [c for c in ig.cycles() if not any(c <= known for known in KNOWN)]
    assert not new, (
        "a new circle of imports (issue 17 point 4: none may be added). Break it: import what the module needs from"
        " modules outside the circle, or have it passed in. A module that only joins a known circle because it"
        " imports from it and is imported by it (a new module of cogs/uno, say) may be added to that circle in KNOWN,"
        " saying so in the commit.\n" + "\n\n".join(_describe(c) for c in new)
    )


def test_the_known_cycles_are_still_exactly_there():
    """A known circle that got smaller or went away is good news: shrink :data:`KNOWN` to what is left."""
    found = set(ig.cycles())
    stale = [k for k in KNOWN if k not in found]
    assert not stale, "these known circles changed; write what remains of them in KNOWN:\n" + "\n".join(
        ", ".join(sorted(k)) for k in stale
    )


def test_the_cycle_finder_finds_cycles():
    edges = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a"}),
        "d": frozenset({"a"}),
        "e": frozenset(),
    }
    assert ig.cycles(edges) == [frozenset({"a", "b", "c"})]
    assert ig.cycles({"a": frozenset({"b"}), "b": frozenset()}) == []
