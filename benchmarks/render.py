"""Render benchmark (run by hand, never from the tests):

    .venv/bin/python benchmarks/render.py [--runs 300] [--sheet /tmp/render-contact-sheet.png] [--save-examples DIR]
    .venv/bin/python benchmarks/render.py --readme docs/images   # the README's pictures, then exit

Warms the card cache, then times ``render_hand`` for a 25-card hand, ``render_table`` for a 10-player UNO FLIP
scene and ``render_hand_and_table`` for a FLIP hand message (a 12-card hand over that table; drawing + PNG encoding,
bytes out), and prints p50/p99 wall-clock and CPU milliseconds and the PNG sizes.
CPU time is printed too because on a shared machine wall-clock percentiles include time spent waiting for a core.
``--sheet`` also writes a contact sheet of every face of every deck.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/bot.py must not shadow bot/

from bot.engine.cards import (
    Colour,
    Face,
    Mode,
    Side,
    build_deck,
    classic_faces,
    flex_faces,
    flip_dark_faces,
    flip_light_faces,
    hand_sort_key,
)
from bot.render import (
    SeatView,
    TableScene,
    card_back_image,
    card_height,
    card_image,
    colour_swatch_image,
    power_card_image,
    render_hand,
    render_hand_and_table,
    render_table,
    warm_cache,
)
from bot.render._text import main_font


def percentiles(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return s[len(s) // 2] * 1000, s[min(len(s) - 1, round(len(s) * 0.99) - 1)] * 1000


def timed(fn: Callable[[], bytes], runs: int) -> tuple[list[float], list[float], bytes]:
    wall: list[float] = []
    cpu: list[float] = []
    out = b""
    for _ in range(runs):
        w, c = time.perf_counter(), time.thread_time()
        out = fn()
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - w)
    return wall, cpu, out


def flip_scene(players: int, seed: int = 1) -> TableScene:
    rng = random.Random(seed)
    cards = list(build_deck(Mode.FLIP).cards)
    rng.shuffle(cards)
    seats = []
    for i in range(players):
        hand = [cards.pop() for _ in range(rng.randint(3, 12))]
        seats.append(SeatView(f"Player {i + 1}", len(hand), tuple(c.face(Side.DARK) for c in hand)))
    return TableScene(
        Mode.FLIP,
        Side.LIGHT,
        top=cards.pop().light,
        seats=tuple(seats),
        turn=3,
        declared=None,
        clockwise=True,
        draw_count=len(cards) - 1,
        draw_top_other=cards[-1].dark,
    )


def contact_sheet(path: Path, width: int = 100) -> None:
    """Every distinct face of every deck, one titled block per deck, plus the other pieces."""
    groups: list[tuple[str, list[Face], Side]] = [
        ("Classic (112 edition: 108 + Wild Shuffle Hands, Wild Customizable)", classic_faces("112"), Side.LIGHT),
        ("UNO FLIP light side", flip_light_faces(), Side.LIGHT),
        ("UNO FLIP dark side", flip_dark_faces(), Side.DARK),
        ("UNO Flex!", flex_faces(), Side.LIGHT),
    ]
    cols, gap, title_h = 14, 8, 30
    h = card_height(width)
    blocks: list[tuple[str, list[Image.Image]]] = []
    for title, faces, side in groups:
        blocks.append((title, [card_image(f, side, width) for f in dict.fromkeys(faces)]))
    extras = [card_back_image(width), power_card_image(True, width), power_card_image(False, width)]
    extras += [colour_swatch_image(c, 64) for c in Colour]
    blocks.append(("Card back, Power Card (active, inactive), declared-colour swatches", extras))
    height = sum(title_h + ((len(imgs) + cols - 1) // cols) * (h + gap) for _, imgs in blocks) + gap
    sheet = Image.new("RGB", (cols * (width + gap) + gap, height), (43, 45, 49))
    d = ImageDraw.Draw(sheet)
    y = gap
    for title, imgs in blocks:
        d.text((gap, y + 4), title, font=main_font(18), fill=(235, 235, 235))
        y += title_h
        for i, im in enumerate(imgs):
            sheet.paste(im, (gap + (i % cols) * (width + gap), y + (i // cols) * (h + gap)), im)
        y += ((len(imgs) + cols - 1) // cols) * (h + gap)
    sheet.save(path)


def readme_images(folder: Path) -> None:
    """The README's pictures, drawn by the project's own code: a sorted UNO Flex! hand with its playable cards and
    Power Card, and a Flex table; an UNO FLIP hand message (hand over the table as its player sees it)."""
    folder.mkdir(parents=True, exist_ok=True)
    hand = sorted(random.Random(8).sample(flex_faces(), 11), key=hand_sort_key)
    playable = [i for i, f in enumerate(hand) if f.colour in (Colour.BLUE, None) or f.number == 5]
    (folder / "hand.png").write_bytes(render_hand(hand, playable=playable, power=True))
    names = ("Ľubomír Šťastný", "山田太郎", "Zoë 🎲", "Ana María", "김민준")
    counts = (11, 4, 1, 7, 6)
    seats = tuple(SeatView(n, c, power=i % 3 != 1) for i, (n, c) in enumerate(zip(names, counts, strict=True)))
    scene = TableScene(Mode.FLEX, Side.LIGHT, hand[0], seats, turn=0, clockwise=True, draw_count=41)
    (folder / "table.png").write_bytes(render_table(scene))
    deck = list(build_deck(Mode.FLIP).cards)
    random.Random(4).shuffle(deck)
    mine = sorted((deck.pop() for _ in range(9)), key=lambda c: hand_sort_key(c.light))
    others = []
    for name, n in (("Ľubomír", 6), ("山田太郎", 3), ("Zoë 🎲", 8)):
        others.append(SeatView(name, n, tuple(deck.pop().face(Side.DARK) for _ in range(n))))
    flip = TableScene(
        Mode.FLIP,
        Side.LIGHT,
        deck.pop().light,
        (SeatView("Ana María", len(mine)), *others),
        turn=0,
        draw_count=len(deck) - 1,
        draw_top_other=deck[-1].dark,
    )
    faces = [c.light for c in mine]
    top = flip.top
    fits = [
        i
        for i, f in enumerate(faces)
        if f.is_wild or f.colour == top.colour or (f.kind == top.kind and f.number == top.number)
    ]
    (folder / "flip-hand.png").write_bytes(render_hand_and_table(faces, flip, playable=fits))
    print(f"README images: {', '.join(sorted(p.name for p in folder.glob('*.png')))} in {folder}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--sheet", type=Path, help="write a contact sheet of every face here")
    ap.add_argument("--save-examples", type=Path, help="write the benchmarked hand and table PNGs to this folder")
    ap.add_argument("--readme", type=Path, help="write the README's pictures to this folder and exit")
    args = ap.parse_args()
    if args.readme:
        readme_images(args.readme)
        return

    rng = random.Random(42)
    hand = rng.sample(flex_faces(), 25)
    playable = sorted(rng.sample(range(25), 6))
    scene = flip_scene(10)
    flip_hand = [c.light for c in rng.sample(build_deck(Mode.FLIP).cards, 12)]

    t = time.perf_counter()
    drawn = warm_cache((Mode.FLEX, Mode.FLIP))
    print(f"warm_cache(FLEX, FLIP): {drawn} images drawn in {time.perf_counter() - t:.1f} s")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) before timing: {load:.2f} on {os.cpu_count()} CPUs")

    for name, fn in (
        ("render_hand, 25 cards", lambda: render_hand(hand, playable=playable, power=True)),
        ("render_table, FLIP, 10 players", lambda: render_table(scene)),
        (
            "render_hand_and_table, FLIP hand message (12 cards over the 10-player table)",
            lambda: render_hand_and_table(flip_hand, scene, playable=[0, 3, 7]),
        ),
    ):
        wall, cpu, png = timed(fn, args.runs)
        w50, w99 = percentiles(wall)
        c50, c99 = percentiles(cpu)
        print(
            f"{name}: {args.runs} runs, wall p50 {w50:.1f} ms p99 {w99:.1f} ms"
            f" (mean {statistics.mean(wall) * 1000:.1f}) | CPU p50 {c50:.1f} ms p99 {c99:.1f} ms"
            f" | PNG {len(png) / 1024:.0f} KB"
        )
        if args.save_examples:
            args.save_examples.mkdir(parents=True, exist_ok=True)
            (args.save_examples / (name.split(",")[0] + ".png")).write_bytes(png)

    if args.sheet:
        contact_sheet(args.sheet)
        print(f"contact sheet: {args.sheet}")


if __name__ == "__main__":
    main()
