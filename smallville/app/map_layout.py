"""The map's geometry, worked out once per map: where each place's name may go, and each agent's look on the map.

The browser (town_map.vue) does what depends on the zoom: it wraps each name into its place's box, drops or
shortens (with a tooltip) what does not fit, and moves markers apart. What is fixed is decided here, where a test
can read it: the boxes come from the map's own sector and arena layers, and each agent gets a label no other agent
shares and a colour of its own.
"""

import colorsys
import unicodedata
from dataclasses import asdict, dataclass
from functools import cache

import numpy as np

from environment import Ville
from smallville.app.views import initials

# Hue step between agents' colours: the golden angle, so neighbours in the list never get neighbouring hues.
GOLDEN_ANGLE = 137.508


@dataclass(frozen=True)
class PlaceLabel:
    """A place's name and the box (in tiles) it may be written in.

    Attributes:
        text: The sector's or arena's name.
        kind: "sector" (always shown) or "arena" (shown once the map is zoomed in enough for it).
        x, y, w, h: The box: the largest rectangle of tiles inside the place (so two places' boxes never overlap).
        sector: The sector it belongs to.
    """

    text: str
    kind: str
    x: int
    y: int
    w: int
    h: int
    sector: str


def largest_rectangle(mask: np.ndarray) -> tuple[int, int, int, int]:
    """The largest all-True axis-aligned rectangle of a boolean (rows, columns) array, as (x, y, w, h).

    The histogram method: for each row, the heights of True runs ending there, and the largest rectangle under
    that histogram with a stack. (0, 0, 0, 0) when nothing is True.
    """
    best = (0, 0, 0, 0)
    best_area = 0
    heights = np.zeros(mask.shape[1] + 1, dtype=int)  # a 0 at the end flushes the stack
    for row in range(mask.shape[0]):
        heights[:-1] = np.where(mask[row], heights[:-1] + 1, 0)
        stack: list[int] = []
        for column, height in enumerate(heights):
            start = column
            while stack and heights[stack[-1]] >= height:
                top = stack.pop()
                left = stack[-1] + 1 if stack else 0
                area = int(heights[top]) * (column - left)
                if area > best_area:
                    best_area = area
                    best = (left, row - int(heights[top]) + 1, column - left, int(heights[top]))
                start = left
            del start
            stack.append(column)
    return best


def _label_in(tiles: list[tuple[int, int]], text: str, kind: str, sector: str) -> PlaceLabel | None:
    """The label of a place covering these (x, y) tiles: its name in the largest rectangle inside it."""
    if not tiles:
        return None
    xs = np.array([tile[0] for tile in tiles])
    ys = np.array([tile[1] for tile in tiles])
    left, top = xs.min(), ys.min()
    window = np.zeros((ys.max() - top + 1, xs.max() - left + 1), dtype=bool)
    window[ys - top, xs - left] = True
    x, y, w, h = largest_rectangle(window)
    return PlaceLabel(text=text, kind=kind, x=int(left + x), y=int(top + y), w=w, h=h, sector=sector)


@cache
def place_labels(ville: Ville) -> tuple[PlaceLabel, ...]:
    """Every sector's label, then every arena's, largest arenas first (the browser places them in this order)."""
    sectors, arenas = [], []
    for sector in ville.sectors():
        label = _label_in(ville.tiles_of(f"{ville.world}:{sector}"), sector, "sector", sector)
        if label is not None:
            sectors.append(label)
        for arena in ville.arenas(sector):
            label = _label_in(ville.tiles_of(f"{ville.world}:{sector}:{arena}"), arena, "arena", sector)
            if label is not None and arena != sector:
                arenas.append(label)
    arenas.sort(key=lambda label: -label.w * label.h)
    return tuple(sectors + arenas)


def labels_as_props(ville: Ville) -> list[dict]:
    """The labels as the browser component takes them."""
    return [asdict(label) for label in place_labels(ville)]


def distinct_labels(names: list[str]) -> dict[str, str]:
    """A short marker label per agent that no other agent shares.

    Initials where they are unique ("IR"); where two agents share them (Rajiv Patel and Ryan Park), more of the
    first name until the labels differ ("RaP", "RyP"), then more of the last name, then the whole name.
    """
    labels = {name: initials(name) for name in names}
    for first_letters in range(2, 12):
        clashes = _clashing(labels)
        if not clashes:
            return labels
        for name in clashes:
            parts = name.split()
            head = parts[0][:first_letters].capitalize()
            tail = "".join(part[0].upper() for part in parts[1:]) if first_letters < 6 else "".join(parts[1:])
            labels[name] = head + tail
    for name in _clashing(labels):
        labels[name] = name
    return labels


def _clashing(labels: dict[str, str]) -> list[str]:
    seen: dict[str, list[str]] = {}
    for name, label in labels.items():
        seen.setdefault(label, []).append(name)
    return [name for group in seen.values() if len(group) > 1 for name in group]


def agent_colours(names: list[str]) -> dict[str, str]:
    """A colour per agent (by its place in the scenario's list), dark enough for white letters."""
    colours = {}
    for index, name in enumerate(names):
        hue = (index * GOLDEN_ANGLE % 360) / 360
        lightness = 0.36 + 0.08 * (index % 3) / 2
        red, green, blue = colorsys.hls_to_rgb(hue, lightness, 0.7)
        colours[name] = f"#{round(255 * red):02x}{round(255 * green):02x}{round(255 * blue):02x}"
    return colours


def ink_for(colour: str) -> str:
    """White or near-black letters, whichever reads better on this "#rrggbb" (WCAG's relative luminance)."""
    channels = [int(colour[index : index + 2], 16) / 255 for index in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#ffffff" if (1.05 / (luminance + 0.05)) >= ((luminance + 0.05) / 0.05) else "#111111"


def emoji_words(emoji: str) -> str:
    """The words for a pictogram, for browsers without an emoji font: "☕" -> "hot beverage" ("" for none).

    From Unicode's own character names, so every pictogram a model may choose has one; joiners, variation
    selectors and skin tones are skipped.
    """
    words = []
    for character in emoji:
        if unicodedata.category(character) in {"Mn", "Cf", "Sk"} or "VARIATION SELECTOR" in unicodedata.name(
            character, ""
        ):
            continue
        if "EMOJI MODIFIER" in unicodedata.name(character, ""):
            continue
        name = unicodedata.name(character, "")
        if name:
            words.append(name.lower())
    return ", ".join(words)


def building_at(ville: Ville, tile: tuple[int, int]) -> str | None:
    """The sector (building, park, ...) at a tile, or None in the streets or off the map."""
    x, y = tile
    if not (0 <= x < ville.width and 0 <= y < ville.height):
        return None
    return ville.place_at((x, y)).sector


def people_in(ville: Ville, sector: str, tiles: dict[str, tuple[int, int]]) -> list[tuple[str, str]]:
    """Who stands in a sector, with the arena each is in: [(name, arena or "")], in the given order."""
    inside = []
    for name, tile in tiles.items():
        place = ville.place_at(tile)
        if place.sector == sector:
            inside.append((name, place.arena or ""))
    return inside
