"""The app in a real headless browser: `run.py serve` on a free loopback port, Debian's chromium driven by playwright.

Every request of the page is recorded (each must go to 127.0.0.1), and the server runs with its HTTP(S) proxy set to
a recorder, so a request it tried to make beyond this machine (CDN assets, telemetry, a version check) shows up too.
A slow language model is the loopback server with latency: the page must keep answering while its calls are in flight.
"""

import pytest

from testing import LoopbackServer, stop_page
from testing.map_markers import (
    click_marker,
    drawn_in_its_own_colour,
    drawn_markers,
    hovered_name,
    selected_marker,
    wait_for_markers,
)
from tests.smallville.app.browser import BROWSER_MARKS, assert_stayed_home, serve

pytestmark = BROWSER_MARKS


def test_live_town_loads_offline_steps_and_shows_an_agents_plan_and_memories(outside, browser_page, tmp_path):
    from playwright.sync_api import expect

    page = browser_page
    process, url = serve(outside, "--embedder", "hashing")
    try:
        page.goto(url)
        wait_for_markers(page, 25, timeout_ms=90_000)
        expect(page.locator(".town-clock")).to_have_text("Mon Feb 13, 2023, 00:00:00")
        page.get_by_role("button", name="Step", exact=True).click()
        expect(page.locator(".town-clock")).to_have_text("Mon Feb 13, 2023, 00:00:10", timeout=60_000)
        markers_are_distinct_and_each_takes_its_own_click(page)
        click_marker(page, "KM")
        card = page.locator(".agent-card")
        expect(card).to_contain_text("Klaus Mueller (20)")
        # Asleep; its first thought of the day (step 0, 00:00) takes effect at the end of step 20 by default.
        selected = selected_marker(page, "KM")
        assert selected["thinking"] and selected["sleeping"], selected
        assert drawn_in_its_own_colour(selected)
        expect(card.locator(".agent-thinking")).to_contain_text("its thought takes effect at 00:03:30")
        expect(card.locator(".current-plan-item")).to_have_count(1)
        expect(card.locator(".current-plan-item")).to_contain_text("00:00 sleeping")
        memories = page.locator(".agent-mind table.recent tbody tr")
        expect(memories.first).to_be_visible()
        assert memories.count() >= 3
        for shown in (".agent-card .current-plan-item", ".agent-mind table.recent tbody tr"):
            in_no_small_scroll_box(page, shown)
        assert page.locator(".agent-card .current-plan-item").bounding_box()["y"] < 1000  # on the first screen
        no_emoji_shows_as_an_empty_box(page)
        page.screenshot(path=tmp_path / "town.png", full_page=True)
        page.get_by_role("tab", name="Relationships and news").click()
        for panel in (".relationship-graph", ".diffusion"):
            expect(page.locator(f"{panel} img")).to_be_visible()
        expect(page.locator(".baseline-note").filter(has_text="baseline that tests code, not minds")).to_be_visible()
        page.get_by_role("tab", name="Cost").click()
        expect(page.locator(".costs img")).to_be_visible()
        expect(page.locator(".costs")).to_contain_text("model calls")
        page.screenshot(path=tmp_path / "panels.png", full_page=True)
    finally:
        stop_page(process)
    assert (tmp_path / "town.png").stat().st_size > 10_000
    assert_stayed_home(page, outside)


# The boxes between an element and the page that scroll on their own and hide part of it (the page's own scrolling
# is not one: the inspector is a column the page scrolls, it once was a box showing 390 of its 1,022 pixels).
HIDDEN_IN_SCROLL_BOX_JS = """(selector) => {
    const element = document.querySelector(selector), hiding = [];
    for (let outer = element.parentElement; outer && outer !== document.body; outer = outer.parentElement) {
        if (!/(auto|scroll)/.test(getComputedStyle(outer).overflowY)) continue;
        if (outer.scrollHeight <= outer.clientHeight + 1) continue;  // may scroll, but all of it shows
        if (outer.clientHeight < 0.8 * window.innerHeight)  // not the page's own scrolling: a box inside it
            hiding.push(`${outer.className || outer.tagName} (${outer.clientHeight} of ${outer.scrollHeight} px)`);
    }
    return hiding;
}"""


def in_no_small_scroll_box(page, selector: str) -> None:
    """What the inspector shows is read by scrolling the page, not a small box inside it."""
    assert page.evaluate(HIDDEN_IN_SCROLL_BOX_JS, selector) == [], selector


# What is on top at a point of the page, and how far the map is from the point: which element a hover there reaches.
ON_TOP_JS = """([x, y]) => {
    const element = document.elementFromPoint(x, y), map = document.querySelector('.town-map');
    const box = map ? map.getBoundingClientRect() : null;
    return {element: element ? `${element.tagName}.${element.className}` : null, x, y,
            map: box ? [box.left, box.top, box.width, box.height] : null};
}"""


def markers_are_distinct_and_each_takes_its_own_click(page) -> None:
    """No two markers share a label, each shows in its own colour (none drawn over another), and the pointer on the
    centre of each finds that marker (its name in the tooltip: the same look-up a click makes)."""
    from playwright.sync_api import expect

    drawn = drawn_markers(page)
    labels = [marker["label"] for marker in drawn]
    assert len(labels) == len(set(labels)), labels
    assert [m["name"] for m in drawn if not drawn_in_its_own_colour(m)] == []
    seen = {marker["name"]: hovered_name(page, marker) for marker in drawn}
    missed = [marker for marker in drawn if seen[marker["name"]] != marker["name"]]
    on_top = [page.evaluate(ON_TOP_JS, [marker["x"], marker["y"]]) for marker in missed[:3]]
    assert [marker["name"] for marker in missed] == [], f"{seen}; on top at the first misses: {on_top}"
    page.mouse.move(0, 0)  # off the map: the tooltip goes
    expect(page.locator(".marker-tooltip")).to_have_count(0)


# Pictographs (emoji) by Unicode's own property; a browser without an emoji font draws each as an empty box.
NO_EMOJI_JS = """() => {
    const shown = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, element = node.parentElement;
        if (!element || !element.getClientRects().length) continue;  // not displayed
        if (getComputedStyle(element).visibility === 'hidden') continue;
        if (/\\p{Extended_Pictographic}/u.test(node.textContent)) shown.push(node.textContent.trim());
    }
    return shown;
}"""


def no_emoji_shows_as_an_empty_box(page) -> None:
    """On a machine without an emoji font (Debian's chromium here), every pictogram is shown in words instead."""
    if "no-emoji" not in (page.locator("html").get_attribute("class") or ""):
        pytest.skip("this browser has an emoji font")
    assert page.evaluate(NO_EMOJI_JS) == []
    assert page.locator(".agent-now .emoji-text").inner_text().startswith("(")
    assert page.locator(".legend-no-emoji").is_visible()


def the_map_is_large_and_every_sector_named(page) -> float:
    """Most of a 1600 x 1000 window (it was 460 x 290), the whole town drawn, every sector named; the scale."""
    from playwright.sync_api import expect

    view = page.locator(".town-map")
    box = view.bounding_box()
    scale = float(view.get_attribute("data-scale"))
    assert box["width"] >= 1000 and box["height"] >= 650
    assert 140 * scale >= 1000 and 100 * scale <= box["height"] + 1
    sectors = page.locator(".place-label.sector")
    assert sectors.count() == 19
    cafe = page.locator(".place-label.sector[data-text='Hobbs Cafe']")
    expect(cafe).to_have_text("Hobbs Cafe")
    assert "cut" not in cafe.get_attribute("class")
    label = cafe.bounding_box()
    assert box["x"] <= label["x"] and label["x"] + label["width"] <= box["x"] + box["width"]
    for index in range(sectors.count()):  # a shortened name keeps its whole name as a tooltip
        if "cut" in sectors.nth(index).get_attribute("class"):
            assert sectors.nth(index).get_attribute("title") == sectors.nth(index).get_attribute("data-text")
    return scale


def zoom_and_pan(page, scale: float) -> None:
    """Zoom and pan without a round trip to the server; Fit shows the whole town again."""
    view = page.locator(".town-map")
    box = view.bounding_box()
    page.locator(".map-zoom-in").click()
    assert abs(float(view.get_attribute("data-scale")) - 1.5 * scale) < 0.01
    tx = float(view.get_attribute("data-tx"))
    page.mouse.move(box["x"] + 400, box["y"] + 400)
    page.mouse.down()
    page.mouse.move(box["x"] + 300, box["y"] + 350, steps=4)
    page.mouse.up()
    assert abs(float(view.get_attribute("data-tx")) - (tx - 100)) < 1
    page.locator(".map-fit").click()
    assert abs(float(view.get_attribute("data-scale")) - scale) < 0.01


def a_building_lists_its_people(page, run_folder) -> None:
    """At noon (run to), Hobbs Cafe clicked lists exactly who the run folder has inside it."""
    from playwright.sync_api import expect

    from smallville.app.map_layout import people_in
    from smallville.app.replay import ReplayModel

    page.get_by_label("Run to (HH:MM)").fill("12:00")
    page.get_by_role("button", name="Run to", exact=True).click()
    expect(page.locator(".town-clock")).to_have_text("Mon Feb 13, 2023, 12:00:00", timeout=30_000)
    replay = ReplayModel(run_folder=str(run_folder))
    replay.seek(12 * 60)
    inside = people_in(replay.ville, "Hobbs Cafe", {m.name: m.tile for m in replay.markers()})
    label = page.locator(".place-label.sector[data-text='Hobbs Cafe']").bounding_box()
    page.mouse.click(label["x"] + 2, label["y"] + label["height"] / 2)
    info = page.locator(".place-info")
    expect(info.locator(".place-title")).to_contain_text(f"Hobbs Cafe at 12:00: {len(inside)} ")
    assert info.locator(".place-person b").all_inner_texts() == [name for name, _ in inside]
    page.locator(".place-close").click()
    expect(info).to_have_count(0)


def reset_then_select(page) -> None:
    """Reset, then pick an agent from the list: it once replaced the page with SQLite's thread error."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="Reset").click()
    expect(page.locator(".town-clock")).to_have_text("Mon Feb 13, 2023, 00:00:00", timeout=30_000)
    expect(page.locator(".work-running")).to_have_count(0, timeout=30_000)
    page.locator(".agent-inspector .v-select").click()
    page.get_by_role("option", name="Klaus Mueller").click()
    expect(page.locator(".agent-card")).to_contain_text("Klaus Mueller (20)")
    expect(page.locator(".agent-mind")).to_contain_text("Newest memories")
    expect(page.get_by_text("ProgrammingError")).to_have_count(0)
    expect(page.locator(".work-failure")).to_have_count(0)


def test_replay_map_tabs_zoom_a_building_and_reset_then_select(outside, browser_page, run_folder, tmp_path):
    """The replay: the map large and legible, zoom and pan, a building's people, named tabs, and Reset that works."""
    from playwright.sync_api import expect

    page = browser_page
    process, url = serve(outside, str(run_folder))
    try:
        page.goto(url)
        wait_for_markers(page, 3, timeout_ms=90_000)
        expect(page.locator(".town-clock")).to_have_text("Mon Feb 13, 2023, 00:00:00")
        assert page.get_by_role("tab").all_inner_texts() == ["TOWN", "RELATIONSHIPS AND NEWS", "COST"]
        zoom_and_pan(page, the_map_is_large_and_every_sector_named(page))
        a_building_lists_its_people(page, run_folder)
        click_marker(page, "IR")
        expect(page.locator(".agent-card")).to_contain_text("Isabella Rodriguez (34)")
        expect(page.locator(".agent-card .current-plan-item")).to_have_count(1)
        expect(page.get_by_text("A replay only shows the run")).to_be_visible()
        page.get_by_role("tab", name="Relationships and news").click()
        expect(page.locator(".diffusion img")).to_be_visible()
        page.get_by_role("tab", name="Town").click()
        page.screenshot(path=tmp_path / "replay.png", full_page=True)
        reset_then_select(page)
    finally:
        stop_page(process)
    log = process.stdout.read().decode()
    assert "ProgrammingError" not in log and "Traceback" not in log, log[-3000:]
    assert_stayed_home(page, outside)


# Each model call of the slow town takes this long: a step of it makes a few rounds of calls, so it stays in flight
# for several seconds, while a click on the page answers in a fraction of one.
LATENCY_S = 1.5


def whisper_across_a_tab_switch(page) -> None:
    """The inner voice: in flight it says so, and switching tabs meanwhile works; then Klaus remembers."""
    from playwright.sync_api import expect

    page.get_by_label("Inner voice (a memory to give)").fill("The library closes early on Friday")
    page.get_by_role("button", name="Whisper").click()
    expect(page.locator(".voice-pending")).to_have_text("Klaus Mueller is thinking about the whisper…")
    page.get_by_role("tab", name="Relationships and news").click()
    expect(page.locator(".relationship-graph img")).to_be_visible()
    page.get_by_role("tab", name="Town").click()
    expect(page.locator(".voice-answer")).to_have_text(
        "Klaus Mueller will remember: The library closes early on Friday", timeout=60_000
    )
    expect(page.locator(".agent-mind table.recent")).to_contain_text("The library closes early on Friday")
    expect(page.locator(".work-failure")).to_have_count(0)


def play_then_pause(page) -> None:
    """Play steps on its own until paused (Step greyed out meanwhile); paused, the clock stands still."""
    from playwright.sync_api import expect

    clock = page.locator(".town-clock")
    started_at = clock.inner_text()
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.get_by_role("button", name="Step", exact=True)).to_be_disabled()
    expect(clock).not_to_have_text(started_at, timeout=60_000)
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator(".work-running")).to_have_count(0, timeout=60_000)
    expect(page.get_by_role("button", name="Step", exact=True)).to_be_enabled()
    paused_at = clock.inner_text()
    page.wait_for_timeout(500)
    assert clock.inner_text() == paused_at
    expect(page.locator(".work-failure")).to_have_count(0)


def test_a_slow_model_thinks_in_the_background_while_the_page_keeps_answering(outside, browser_page, tmp_path):
    from playwright.sync_api import expect

    page = browser_page
    clock = page.locator(".town-clock")
    with LoopbackServer(latency=LATENCY_S) as model_server:
        args = ["--scenario", "the_ville_n3", "--embedder", "hashing", "--llm", "openai/loopback"]
        args += ["--thinking-steps", "0"]  # lock-step: the step waits for its calls, the case that froze the tab
        process, url = serve(outside, *args, "--api-base", model_server.url, env={"OPENAI_API_KEY": "sk-loopback"})
        try:
            page.goto(url)
            wait_for_markers(page, 3)
            expect(clock).to_have_text("Mon Feb 13, 2023, 00:00:00")
            requests = model_server.stats.requests
            page.get_by_role("button", name="Step", exact=True).click()
            expect(page.locator(".work-running")).to_have_text("The town is thinking: the step from 00:00:00")
            expect(page.get_by_role("button", name="Step", exact=True)).to_be_disabled()

            # While the step's calls are in flight, a click on the map selects an agent and the inspector follows.
            click_marker(page, "KM")
            expect(page.locator(".agent-card")).to_contain_text("Klaus Mueller (20)")
            assert clock.inner_text() == "Mon Feb 13, 2023, 00:00:00"
            assert page.locator(".work-running").is_visible()

            # A question asked meanwhile waits for the step, then is answered in the background too.
            page.get_by_label("Interview question").fill("What are you working on today?")
            page.get_by_role("button", name="Ask").click()
            pending = page.locator(".voice-pending")
            expect(pending).to_have_text("Klaus Mueller is thinking about your question… (after the work in flight)")
            assert clock.inner_text() == "Mon Feb 13, 2023, 00:00:00"
            page.screenshot(path=tmp_path / "thinking.png", full_page=True)

            expect(clock).to_have_text("Mon Feb 13, 2023, 00:00:10", timeout=120_000)
            expect(page.locator(".voice-answer")).to_contain_text("Klaus Mueller: ", timeout=60_000)
            in_no_small_scroll_box(page, ".voice-answer")
            expect(pending).to_have_count(0)
            expect(page.locator(".work-running")).to_have_count(0)
            expect(page.get_by_role("button", name="Step", exact=True)).to_be_enabled()
            assert model_server.stats.requests > requests + 1  # the step's calls and the interview's

            whisper_across_a_tab_switch(page)

            play_then_pause(page)
        finally:
            stop_page(process)
    assert_stayed_home(page, outside)
