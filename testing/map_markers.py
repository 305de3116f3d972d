"""The people on the page's map, as a test or a script finds and clicks them.

town_map.vue draws the people on a canvas (`.town-people`), not as one element each (an element per person made
most of a step's frame at 1,000 people), so they are not in the page's elements for a locator to find: the canvas
keeps the list it drew, in stacking order, and these read it, check its pixels and click where a marker is drawn.
"""

import time

from playwright.sync_api import TimeoutError as Timeout

# The people the map drew. town_map.vue draws them on a canvas (`.town-people`) and keeps on it the list it drew, in
# stacking order; each comes back with its place in the page and the colour of the canvas's own pixel just below its
# label, inside its disc: a person not drawn, or drawn under another, shows there.
DRAWN_JS = """(canvases) => canvases.flatMap(canvas => {
    const box = canvas.getBoundingClientRect(), ratio = canvas.width / Math.max(1, box.width);
    const context = canvas.getContext('2d');
    return (canvas.markers || []).map(m => ({
        name: m.name, label: m.label, colour: m.colour, x: box.left + m.left, y: box.top + m.top,
        pixel: [...context.getImageData(Math.round((m.left - 1) * ratio), Math.round((m.top + 7) * ratio), 1, 1).data],
        selected: m.selected, thinking: m.thinking, sleeping: m.sleeping, talking: m.talking, player: m.player,
    }));
})"""


def drawn_markers(scope) -> list[dict]:
    """Every marker drawn on the maps in `scope` (a page or a locator), in stacking order."""
    return scope.locator(".town-people").evaluate_all(DRAWN_JS)


def wait_for_markers(scope, count: int, timeout_ms: float = 120_000, **flags: bool) -> list[dict]:
    """Wait until the maps in `scope` have drawn `count` markers (those with every given flag, e.g. player=True)."""

    def drawn() -> list[dict]:
        return [m for m in drawn_markers(scope) if all(m[flag] == value for flag, value in flags.items())]

    return _poll(drawn, lambda markers: len(markers) == count, timeout_ms, f"{count} markers drawn ({flags or 'any'})")


def click_marker(page, label: str, attempts: int = 3) -> None:
    """Click where the marker labelled `label` is drawn (as a user does).

    Again if it had moved by the click (the people of a step arrive after its clock): a click on its old place may
    select the person who moved there.
    """
    for _ in range(attempts):
        (marker,) = [m for m in drawn_markers(page) if m["label"] == label]
        page.mouse.click(marker["x"], marker["y"])
        if _still_drawn_at(page, marker):
            return


def selected_marker(page, label: str, timeout_ms: float = 60_000) -> dict:
    """Wait until the one marker drawn selected is `label`'s (a selection goes to the server and back); return it."""
    (marker,) = _poll(
        lambda: [m for m in drawn_markers(page) if m["selected"]],
        lambda selected: [m["label"] for m in selected] == [label],
        timeout_ms,
        f"{label} drawn selected",
    )
    return marker


def _poll(read, done, timeout_ms: float, what: str):
    """`read()` again every 0.2 s until `done` of it, for at most `timeout_ms`; the last reading."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not done(value := read()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout_ms / 1000:.0f} s for {what}; last seen: {str(value)[:600]}")
        time.sleep(0.2)
    return value


def drawn_in_its_own_colour(marker: dict) -> bool:
    """The canvas's pixel inside the marker's disc is the marker's colour (within the rounding of a faded one)."""
    colour = [int(marker["colour"][index : index + 2], 16) for index in (1, 3, 5)]
    return marker["pixel"][3] > 0 and all(abs(a - b) <= 3 for a, b in zip(marker["pixel"], colour, strict=False))


def hovered_name(page, marker: dict, attempts: int = 4) -> str | None:
    """The name in the map's tooltip with the pointer on `marker`'s centre (None if none shows).

    The pointer goes to where the marker is drawn now, and the name counts only if the marker is still drawn there
    after the tooltip shows; otherwise the pointer moves again. The page's layout may move the map between a read and
    a look (a panel above it filled in), and a redraw of the whole map (a step's answer arriving in parts) forgets
    what was under a pointer that has not moved since. A shift of a marker's width puts the pointer on the person who
    shares its tile: the name it shows is then someone else's, not none.
    """
    tooltip = page.locator(".marker-tooltip b")
    name = marker["name"]
    for attempt in range(attempts):
        marker = _drawn_now(page, name) or marker
        page.mouse.move(marker["x"] + (attempt % 2), marker["y"])
        try:
            tooltip.wait_for(timeout=2_000)
            shown = tooltip.inner_text()
        except Timeout:  # none shown yet
            continue
        if _still_drawn_at(page, marker):
            return shown
    return None


def _drawn_now(page, name: str) -> dict | None:
    return next((m for m in drawn_markers(page) if m["name"] == name), None)


def _still_drawn_at(page, marker: dict) -> bool:
    """`marker`'s person is drawn now where `marker` says (within 1.5 px), or no longer drawn."""
    now = _drawn_now(page, marker["name"])
    return now is None or (abs(now["x"] - marker["x"]) <= 1.5 and abs(now["y"] - marker["y"]) <= 1.5)
