"""Screenshots of the page's user controls, for docs/interventions.md: the persona, the world box, side by side.

Serves the three-agent town live and offline (`run.py serve --scenario the_ville_n3`) on a free
loopback port, drives Debian's chromium with playwright at 1600 x 1250 (1000 side by side), and writes into --out:

- interview-persona.png: at 08:30, Isabella Rodriguez asked "What do you do for a living?" as a news reporter;
- world-box.png: Hobbs Cafe clicked on the map (its objects and their states), its cooking area picked there and
  set to "burning" in the world box;
- world-reaction.png: six minutes later, Isabella seeing to it (the offline mind's rule: it is where she works),
  the cooking area in use by her;
- side-by-side.png: a morning and its fork with a whisper to Klaus Mueller at 08:00 (both made here with run.py
  simulate and fork), served with --beside, the Side by side tab at 10:00.

    .venv/bin/python scripts/intervention_screenshots.py [--out docs/img]
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from page_driver import ROOT, run_to, zoom_to_building

from testing import CHROMIUM, serve_page, stop_page

TOWN = ["--scenario", "the_ville_n3", "--embedder", "hashing"]
REPORTER = "a news reporter from the Ville Gazette"
TOLD = "Isabella Rodriguez is throwing a Valentine's Day party at Hobbs Cafe tomorrow evening"


def open_building(page, name: str) -> None:
    """Zoom in on a building at its name and click the edge of its name: the map lists its objects."""
    zoom_to_building(page, name, wheel_steps=3, settle_ms=800)
    label = page.locator(f".place-label.sector[data-text='{name}']").bounding_box()
    page.mouse.click(label["x"] + 2, label["y"] + label["height"] / 2)
    page.mouse.move(5, 5)  # no marker hovered: its tooltip would cover the map
    page.wait_for_timeout(1500)


def shoot(page, path: Path) -> None:
    """The page from its top, no marker hovered (a click may have scrolled it, a tooltip would cover the map)."""
    page.mouse.move(5, 5)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(500)
    page.screenshot(path=path)


def live_controls(page, url: str, out: Path) -> None:
    """The persona field, the world box and a reaction, on a live offline town."""
    page.goto(url)
    page.wait_for_selector(".town-people[data-people]", timeout=120_000)
    run_to(page, "08:30")
    page.get_by_label("Interview question").fill("What do you do for a living?")
    page.locator(".voice-persona input").fill(REPORTER)
    page.get_by_role("button", name="Ask").click()
    page.wait_for_selector(".voice-answer", timeout=120_000)
    page.wait_for_timeout(1000)
    shoot(page, out / "interview-persona.png")
    open_building(page, "Hobbs Cafe")
    page.locator(".place-info .place-object", has_text="cooking area").click()
    page.locator(".world-state input").fill("burning")
    page.get_by_role("button", name="Set", exact=True).click()
    page.wait_for_selector(".world-note", timeout=60_000)
    page.wait_for_timeout(1500)
    shoot(page, out / "world-box.png")
    run_to(page, "08:36")
    page.wait_for_function(
        "() => document.querySelector('.agent-now').innerText.includes('seeing to the cooking area')", timeout=60_000
    )
    shoot(page, out / "world-reaction.png")


def side_by_side(page, folder: Path, out: Path) -> None:
    """A morning and its fork with a whisper at 08:00, on one time slider."""
    source, fork = folder / "morning", folder / "morning-told"
    simulate = ["simulate", *TOWN, "--until", "2023-02-13T12:00", "--keep-checkpoints", "every 1h"]
    subprocess.run([sys.executable, "run.py", *simulate, "--out", str(source)], cwd=ROOT, check=True)
    whisper = ["--whisper", "Klaus Mueller", TOLD]
    command = ["fork", str(source), "--at", "2023-02-13T08:00", "--out", str(fork), *whisper]
    subprocess.run([sys.executable, "run.py", *command], cwd=ROOT, check=True)
    server, url = serve_page(str(source), "--beside", str(fork), output=subprocess.DEVNULL)
    try:
        page.goto(url)
        page.wait_for_selector(".town-people[data-people]", timeout=120_000)
        page.get_by_role("tab", name="Side by side").click()
        page.wait_for_selector(".side-by-side-run", timeout=60_000)
        run_to(page, "10:00")
        shoot(page, out / "side-by-side.png")
    finally:
        stop_page(server, timeout_s=30)


def main() -> None:
    """Take the four screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a dev dependency, needed only here

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1250})  # the world box under the voice box
        server, url = serve_page(*TOWN, output=subprocess.DEVNULL)
        try:
            live_controls(page, url, args.out)
        finally:
            stop_page(server, timeout_s=30)
        page.set_viewport_size({"width": 1600, "height": 1000})
        side_by_side(page, Path(folder), args.out)
        browser.close()
    print(f"wrote interview-persona.png, world-box.png, world-reaction.png and side-by-side.png in {args.out}")


if __name__ == "__main__":
    main()
