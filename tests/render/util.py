"""Pixel helpers for the render tests."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

RGBPixel = tuple[int, ...]


def close(a: RGBPixel, b: RGBPixel, tol: int = 12) -> bool:
    """Whether two pixels agree on their first three channels within ``tol``."""
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def blobs(img: Image.Image, inside: Callable[[RGBPixel], bool], min_size: int = 6) -> list[list[tuple[int, int]]]:
    """4-connected groups of pixels for which ``inside`` holds (groups smaller than ``min_size`` px are noise)."""
    rgb = img.convert("RGB")
    w, h = rgb.size
    px = rgb.load()
    assert px is not None
    seen: set[tuple[int, int]] = set()
    groups: list[list[tuple[int, int]]] = []
    for y in range(h):
        for x in range(w):
            if (x, y) in seen or not inside(px[x, y]):  # type: ignore[arg-type]
                continue
            stack, group = [(x, y)], []
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                group.append((cx, cy))
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and inside(px[nx, ny]):  # type: ignore[arg-type]
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            if len(group) >= min_size:
                groups.append(group)
    return groups


def fill_ratio(group: list[tuple[int, int]]) -> float:
    """How much of its bounding box a blob fills (triangle ≈ 0.5, circle ≈ 0.79)."""
    xs = [p[0] for p in group]
    ys = [p[1] for p in group]
    return len(group) / ((max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1))


def is_white(p: RGBPixel) -> bool:
    return min(p[:3]) >= 225
