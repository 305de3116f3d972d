"""Screenshots of a town of one's own in the browser page, for docs/towns.md: the whole map, then zoomed in.

Serves the town folder live with `run.py serve --scenario` on a free loopback port (from a copy whose day starts at
--start, so its people are up and about without simulating the night), drives Debian's chromium with playwright at
1600 x 1000, lets the page's own "Run to" move the town to --clock, and writes PREFIX.png (the map at its fit zoom)
and PREFIX-zoomed.png ("+" clicked twice, the person drawn nearest the map's centre clicked: selected, in the
inspector).

    .venv/bin/python run.py town new --people 1000 --seed 0 --out towns/t1000
    .venv/bin/python scripts/town_screenshots.py towns/t1000 --prefix map-town-1000
    .venv/bin/python scripts/town_screenshots.py towns/t60 --prefix town-generated-60 --clock 09:00
"""

import argparse
import json
import shutil
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

from page_driver import ROOT, run_to

from testing import open_town, serve_page, stop_page
from testing.map_markers import click_marker, drawn_markers, selected_marker


def day_starting_at(town: Path, start: str, copy: Path) -> Path:
    """A copy of the town folder whose scenario starts at `start` (HH:MM) on its own first day."""
    shutil.copytree(town, copy)
    scenario = json.loads((copy / "scenario.json").read_text())
    day = datetime.fromisoformat(scenario["start"]).date()
    scenario["start"] = datetime.combine(day, datetime.strptime(start, "%H:%M").time()).isoformat()
    (copy / "scenario.json").write_text(json.dumps(scenario, indent=2) + "\n")
    return copy


def zoom_in_at_centre(page, clicks: int = 2) -> tuple[float, float]:
    """The map's "+" (which zooms about the map's centre) clicked `clicks` times; the centre in the page."""
    for _ in range(clicks):
        page.locator(".map-zoom-in").first.click()
        page.wait_for_timeout(500)
    page.mouse.move(5, 5)
    page.wait_for_timeout(1500)
    box = page.locator(".town-people").first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def main() -> None:
    """Take the two screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("town", type=Path, help="a town folder (`run.py town new` or `town import` wrote it)")
    parser.add_argument("--prefix", required=True, help="the screenshots' name: PREFIX.png and PREFIX-zoomed.png")
    parser.add_argument("--start", default="08:00", help="the hour the town's day starts at (HH:MM)")
    parser.add_argument("--clock", default="08:10", help="the time the page runs the town to (HH:MM)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a dev dependency, needed only here

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        town = day_starting_at(args.town.resolve(), args.start, Path(scratch) / args.town.name)
        server, url = serve_page("--scenario", str(town), output=subprocess.DEVNULL, timeout_s=300)
        try:
            browser, page = open_town(playwright, url, 300_000)
            written = shoot(page, args.clock, args.out / args.prefix)
            browser.close()
        finally:
            stop_page(server, timeout_s=30)
    print("wrote", " and ".join(str(path) for path in written))


def shoot(page, clock: str, stem: Path) -> list[Path]:
    """Run the town to `clock`, then take the whole map and the zoomed-in map with a person clicked."""
    whole, zoomed = stem.with_name(f"{stem.name}.png"), stem.with_name(f"{stem.name}-zoomed.png")
    run_to(page, clock, timeout_ms=900_000)
    page.mouse.move(5, 5)
    page.screenshot(path=whole)
    x, y = zoom_in_at_centre(page)
    nearest = min(drawn_markers(page), key=lambda m: (m["x"] - x) ** 2 + (m["y"] - y) ** 2)
    click_marker(page, nearest["label"])
    selected_marker(page, nearest["label"])
    page.mouse.move(5, 5)
    page.wait_for_timeout(1500)
    page.screenshot(path=zoomed)
    return [whole, zoomed]


if __name__ == "__main__":
    main()
