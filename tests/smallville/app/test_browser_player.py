"""Joining the town from the page, in a real headless browser: join, be seen on the map, talk, walk, leave, and be
remembered (an interview afterwards)."""

import os
import time
from pathlib import Path

from testing import stop_page
from testing.map_markers import wait_for_markers
from tests.smallville.app.browser import BROWSER_MARKS, assert_stayed_home, open_building, run_to, serve

pytestmark = BROWSER_MARKS

ISABELLA = "Isabella Rodriguez"


def test_a_person_joins_talks_walks_leaves_and_is_remembered(outside, browser_page, tmp_path):
    from playwright.sync_api import expect

    page = browser_page
    shots = Path(os.environ.get("SMALLVILLE_SCREENSHOTS") or tmp_path)  # docs/img when the docs' pictures are made
    # On every interface (the page is reached on 127.0.0.1 all the same): serve warns that anyone can steer the town.
    town = ["--scenario", "the_ville_n3", "--embedder", "hashing", "--host", "0.0.0.0"]
    process, url = serve(outside, *town)
    try:
        page.goto(url)
        wait_for_markers(page, 3)
        expect(page.locator(".player-offline-note")).to_contain_text("Offline baseline")
        run_to(page, "08:30")
        open_building(page, "Hobbs Cafe")  # a click on a building picks where to go
        place = page.get_by_role("textbox", name="A place (or click a building on the map)")
        expect(place).to_have_value("Hobbs Cafe")
        page.locator(".player-name input").fill("Alex Park")
        page.locator(".player-persona input").fill("a reporter for the Ville Gazette")
        joined = time.monotonic()
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator(".player-note")).to_contain_text("you are in Hobbs Cafe", timeout=60_000)
        wait_for_markers(page, 1, timeout_ms=5_000, player=True)
        page.locator(".player-line input").fill("Hello! What is new at the cafe?")
        page.get_by_role("button", name="Say", exact=True).click()
        expect(page.locator(".player-note")).to_contain_text(f"{ISABELLA}:", timeout=60_000)
        first_answer_s = time.monotonic() - joined
        feed = page.locator(".conversation-feed")
        expect(feed).to_contain_text("Alex Park → Isabella Rodriguez: Hello! What is new at the cafe?")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=shots / "join-the-town.png")

        walk_then_leave(page, place, "Johnson Park")
        expect(feed).to_contain_text(f"{ISABELLA} and Alex Park")  # she kept the talk: its summary

        page.get_by_label("Interview question").fill("What do you know about Alex Park?")
        page.get_by_role("button", name="Ask").click()
        expect(page.locator(".voice-answer")).to_contain_text("Alex", timeout=60_000)
        expect(page.locator(".work-failure")).to_have_count(0)
        print(f"from Join to the first answer: {first_answer_s:.1f} s")
    finally:
        stop_page(process)
    assert_stayed_home(page, outside)
    assert_warned_then_ready(process.stdout.read().decode(), url)


def walk_then_leave(page, place, where: str) -> None:
    """Pick a place from the list, go there, then leave the town: the player's marker goes from the map."""
    from playwright.sync_api import expect

    place.fill(where)
    page.get_by_role("option", name=where, exact=True).click()
    page.get_by_role("button", name="Go there").click()
    expect(page.locator(".player-note")).to_contain_text(f"you are in {where}", timeout=60_000)
    page.get_by_role("button", name="Leave").click()
    expect(page.locator(".player-note")).to_contain_text("you left the town", timeout=60_000)
    wait_for_markers(page, 0, timeout_ms=5_000, player=True)


def assert_warned_then_ready(printed: str, url: str) -> None:
    """What `serve --host 0.0.0.0` printed: the warning, "starting", then "ready" and the address; no cookie warning."""
    port = url.rstrip("/").rsplit(":", 1)[1]
    reach = f"anyone who can reach http://0.0.0.0:{port} can steer"
    assert f"warning: --host 0.0.0.0 listens beyond this machine: {reach}" in printed
    starting, ready = printed.index("starting the page server on"), printed.index(f"ready: http://0.0.0.0:{port}")
    assert starting < ready  # the address is given as ready only once the page answers
    assert "samesite" not in printed  # Solara's cookie warning, silenced
