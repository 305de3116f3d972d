"""Screenshots of the browser page replaying a run folder, for the docs: its start, mid-day and end.

Serves the replay with `run.py serve RUN` on a free loopback port, drives Debian's chromium with playwright at
1600 x 1000, and writes docs/img/page-start.png (the first minute, an agent picked), page-midday.png (12:30, the
busiest building clicked to list who is inside) and page-end.png (the last minute, the Relationships and news tab).

    .venv/bin/python scripts/page_screenshots.py RUN [--out docs/img]
"""

import argparse
import subprocess
from pathlib import Path

from page_driver import ROOT, run_to, zoom_to_building

from testing import open_town, serve_page, stop_page
from testing.map_markers import click_marker

# A free spot of a place's name: one no marker or speech bubble covers (a crowd can hide most of it).
FREE_SPOT_JS = """(name) => {
    const label = document.querySelector(`.place-label.sector[data-text="${name}"]`);
    const box = label.getBoundingClientRect(), people = document.querySelector('.town-people');
    const map = people.getBoundingClientRect();
    const onMarker = (x, y) => people.markers.some(
        m => (map.left + m.left - x) ** 2 + (map.top + m.top - y) ** 2 <= 169);
    for (let y = box.top + 2; y < box.bottom; y += 3) {
        for (let x = box.left + 2; x < box.right; x += 3) {
            const hit = document.elementFromPoint(x, y);
            if (hit && !onMarker(x, y) && !hit.closest('.speech')) return [x, y];
        }
    }
    return null;
}"""


def open_building(page, name: str) -> None:
    """Zoom in on a building (the mouse wheel, at its name) and click it: the map lists who is inside."""
    zoom_to_building(page, name, wheel_steps=4, settle_ms=500)
    page.mouse.click(*page.evaluate(FREE_SPOT_JS, name))
    page.mouse.move(5, 5)  # no marker hovered: its tooltip would cover the map
    page.wait_for_timeout(1500)


def main() -> None:
    """Take the three screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--building", default="Hobbs Cafe", help="the building clicked at 12:30")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a dev dependency, needed only here

    args.out.mkdir(parents=True, exist_ok=True)
    server, url = serve_page(str(args.run.resolve()), output=subprocess.DEVNULL)
    try:
        with sync_playwright() as playwright:
            browser, page = open_town(playwright, url, 120_000)
            page.wait_for_timeout(1500)
            click_marker(page, "IR")
            page.mouse.move(5, 5)
            page.wait_for_timeout(1000)
            page.screenshot(path=args.out / "page-start.png")
            run_to(page, "12:30")
            open_building(page, args.building)
            page.screenshot(path=args.out / "page-midday.png")
            page.locator(".place-close").click()
            page.locator(".map-fit").click()
            run_to(page, "23:59")
            page.get_by_role("tab", name="Relationships and news").click()
            page.wait_for_timeout(2500)
            page.screenshot(path=args.out / "page-end.png")
            browser.close()
    finally:
        stop_page(server, timeout_s=30)
    print(f"wrote {', '.join(name for name in ('page-start.png', 'page-midday.png', 'page-end.png'))} in {args.out}")


if __name__ == "__main__":
    main()
