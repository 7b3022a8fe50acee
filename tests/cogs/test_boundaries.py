"""The Discord layer by job (DESIGN "Layers", "Discord layer"; issue 17 points 4 and 6): input (the commands and
clicks: ``cogs/uno/input/``) → the adapter → output (what is sent: ``cogs/uno/output/``) → screens (pure message
builders: ``cogs/uno/screens/``) → render. Every import statement counts, those under ``if TYPE_CHECKING:`` and
inside functions too (:mod:`tests.importgraph`).

- The screens import neither the input nor the output side, nor the cog: a screen is a function of a committed view
  and a language.
- The output side never imports the input side, nor the cog: it sends what the adapter committed, whoever asked.
- Only ``cogs/uno/__init__.py`` (the extension's entry point) imports the cog.
- Nothing in ``cogs/`` reads storage below its public package (no SQL, dialect or driver module) or a live game
  (``bot.adapter.session``, ``bot.engine.game``): the Discord layer reads games only through the adapter's committed
  views.
"""

from __future__ import annotations

from tests import importgraph as ig

INPUT, OUTPUT, SCREENS, COG = "cogs.uno.input", "cogs.uno.output", "cogs.uno.screens", "cogs.uno.cog"

#: What each side of the Discord layer may not import.
FORBIDDEN = {
    SCREENS: (INPUT, OUTPUT, COG),
    OUTPUT: (INPUT, COG),
    INPUT: (COG,),
}
#: The live state and the database's own modules: never read from the Discord layer.
BELOW_THE_VIEWS = ("bot.adapter.session", "bot.engine.game", "bot.engine.state")
DRIVERS = ("aiosqlite", "asyncpg")


def test_the_discord_layer_has_its_three_sides():
    assert {SCREENS, INPUT, OUTPUT} <= set(ig.modules())
    flat = [m for m in ig.under("cogs.uno") if m.count(".") == 2 and m not in {INPUT, OUTPUT, SCREENS, COG}]
    assert not flat, f"a module of cogs/uno outside input/, output/ and screens/ (put it where its job is): {flat}"


def test_screens_and_output_never_import_the_side_above_them():
    wrong = [i for side, above in FORBIDDEN.items() for i in ig.imports_of(side) if i.within(*above)]
    assert not wrong, "an import against the Discord layer's direction (input → output → screens):\n" + ig.show(wrong)


def test_only_the_extension_entry_point_imports_the_cog():
    wrong = [i for i in ig.imports_of("cogs") if i.within(COG) and i.importer != "cogs.uno"]
    assert not wrong, ig.show(wrong)


def test_the_discord_layer_reads_no_sql_driver_or_live_game():
    wrong = [
        i
        for i in ig.imports_of("cogs")
        if i.top in DRIVERS
        or (i.within("bot.storage") and i.name != "bot.storage")  # its public package only: records and errors
        or i.within(*BELOW_THE_VIEWS)
    ]
    assert not wrong, "the Discord layer reaches below the adapter's views or storage's public package:\n" + ig.show(
        wrong
    )
