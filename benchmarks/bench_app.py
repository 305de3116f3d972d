"""The browser page's cost per step, for 25 and 250 agents: the server's re-render and the browser's frame.

Two parts, each with the town started at 08:00 (bench_scale.py's `build`) and run to 08:30 first, so that its
first thoughts have taken effect and agents walk at every step measured:

1. In process (no browser): the Town tab (map, inspector, feed) rendered with solara.render, then per step
   `model.step()` and the re-render after it (force_update) timed apart, over --steps steps.
2. In headless chromium (Debian's, through playwright): `run.py serve` on that town, Step clicked --steps times; for
   each, the time from the click to the clock showing the new step (the whole round trip: the step, the re-render,
   the websocket, the drawing), and the map's own frame: from its new markers arriving in the browser to the frame
   drawn with them (town_map.vue records it in window.smallvilleMapFrames).

Prints medians and 90th percentiles with the load average before and after. The target (issue 46): a step of 25
agents drawn in under 100 ms.

Usage: python benchmarks/bench_app.py [--sizes 25,250] [--steps 30] [--no-browser | --browser-only]
    [--layout crowded|generated]
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from datetime import timedelta
from itertools import pairwise
from pathlib import Path

import solara
from bench_scale import build, town_source
from mesa.visualization.utils import force_update

from smallville.app.inspector import AgentInspector
from smallville.app.map_image import background_png
from smallville.app.map_panel import TownMap
from smallville.app.town_panels import ConversationFeed
from testing import CHROMIUM, open_town, serve_page, stop_page

ROOT = Path(__file__).resolve().parents[1]
# The town runs this long from 08:00 before a step is timed: its first thoughts take effect 20 steps in, and until
# then nobody moves (a step that changes no marker draws nothing).
WARM_UP_MINUTES = 30
# How many people the map drew: the map's canvas says it (data-people); a page from before the canvas had one
# element per marker (so the script measures an older checkout too, for a before/after).
DRAWN_MARKERS = """() => {
    const people = document.querySelector('.town-people');
    return people ? Number(people.dataset.people) : document.querySelectorAll('.agent-marker').length;
}"""


def summary(name: str, seconds: list[float]) -> str:
    """ "name: median X ms, p90 Y ms (n)"."""
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{name}: median {1000 * statistics.median(ordered):.1f} ms, p90 {1000 * p90:.1f} ms (n={len(ordered)})"


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def in_process(source: Path, steps: int, folder: Path) -> None:
    """Time model.step() and the Town tab's re-render after it."""
    model = build(source, "hashing", "08:00", folder)
    model.run_until(model.now + timedelta(minutes=WARM_UP_MINUTES))
    started = time.perf_counter()
    size_kb = len(background_png(model.ville)) / 1024
    print(f"  map background: {1000 * (time.perf_counter() - started):.0f} ms once, {size_kb:.0f} KB")

    @solara.component
    def TownTab():  # noqa: N802 - a solara component
        with solara.Column():
            TownMap(model)
            AgentInspector(model)
            ConversationFeed(model)

    started = time.perf_counter()
    _, rc = solara.render(TownTab(), handle_error=False)
    print(f"  first render of the Town tab: {1000 * (time.perf_counter() - started):.0f} ms")
    step_times, render_times = [], []
    for _ in range(steps):
        started = time.perf_counter()
        model.step()
        step_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        force_update()
        render_times.append(time.perf_counter() - started)
    print("  " + summary("model.step()", step_times))
    print("  " + summary("server re-render of the Town tab after a step", render_times))
    rc.close()
    model.close()


def in_browser(source: Path, steps: int, folder: Path, profile: int = 0) -> None:
    """Click Step in a real page; time the round trip and the map's own frame; with `profile`, print the page's
    JavaScript profile (Chrome's sampling profiler, through CDP) over the steps: the `profile` largest items."""
    from playwright.sync_api import sync_playwright

    build(source, "hashing", "08:00", folder).close()  # writes the scenario moved to 08:00
    beside = source.parent if json.loads(source.read_text())["map"].startswith(".") else folder
    (scenario,) = beside.glob(f"{json.loads(source.read_text())['name']}_from_0800.json")
    server, url = serve_page("--scenario", str(scenario), "--embedder", "hashing", output=subprocess.DEVNULL)
    try:
        with sync_playwright() as playwright:
            browser, page = open_town(playwright, url, 300_000)
            clock = page.locator(".town-clock")
            warm = f"08:{WARM_UP_MINUTES:02d}"
            page.get_by_label("Run to (HH:MM)").fill(warm)
            page.get_by_role("button", name="Run to", exact=True).click()
            page.wait_for_function(
                f"() => document.querySelector('.town-clock').innerText.includes('{warm}:00')", timeout=600_000
            )
            page.wait_for_timeout(1000)
            round_trips = []
            page.evaluate("() => { window.smallvilleMapFrames = []; window.smallvilleMapDraws = []; }")
            if profile:
                cdp = page.context.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                cdp.send("Profiler.start")
                trace = start_trace(cdp)
            for _ in range(steps):
                before = clock.inner_text()
                started = time.perf_counter()
                page.get_by_role("button", name="Step", exact=True).click()
                page.wait_for_function(
                    "(before) => document.querySelector('.town-clock').innerText !== before",
                    arg=before,
                    timeout=120_000,
                )
                round_trips.append(time.perf_counter() - started)
                page.wait_for_timeout(100)
            frames = [ms / 1000 for ms in page.evaluate("() => window.smallvilleMapFrames")]
            draws = [ms / 1000 for ms in page.evaluate("() => window.smallvilleMapDraws || []")]
            if profile:
                print_profile(cdp.send("Profiler.stop")["profile"], profile, steps)
                print_trace(stop_trace(page, cdp, trace), profile, steps)
            markers = page.evaluate(DRAWN_MARKERS)
            browser.close()
        print(f"  {markers} markers drawn")
        print("  " + summary("click on Step to the clock showing the new step (round trip)", round_trips))
        print("  " + summary("the map's frame: new markers arrived to the frame drawn", frames))
        if draws:  # a page from before the canvas has no such record
            print("  " + summary("  of which the map's script: arrived to the canvases drawn", draws))
    finally:
        stop_page(server, timeout_s=30)


def print_profile(profile: dict, largest: int, steps: int) -> None:
    """The functions with the most time of their own in a CDP CPU profile, in ms per step, with where they are."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    own: dict[str, float] = {}
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node_id]["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1][:40]
        name = (
            f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}"
            if where
            else frame["functionName"]
        )
        own[name] = own.get(name, 0.0) + delta / 1000
    total = sum(own.values()) - own.get("(idle)", 0.0)
    print(f"  profile: {total / steps:.0f} ms busy per step; own time per step:")
    for name, ms in sorted(own.items(), key=lambda item: -item[1])[:largest]:
        print(f"    {ms / steps:7.1f} ms  {name}")


def start_trace(cdp) -> list[dict]:
    """Record the browser's own work (style, layout, paint, scripts, collector) through CDP's Tracing; the events
    gather in the returned list."""
    events: list[dict] = []
    cdp.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    categories = "devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing"
    cdp.send("Tracing.start", {"categories": categories, "transferMode": "ReportEvents"})
    return events


def stop_trace(page, cdp, events: list[dict]) -> list[dict]:
    """End the trace and wait (in playwright's own wait, which delivers CDP's events) for all of it."""
    done: list[dict] = []
    cdp.on("Tracing.tracingComplete", lambda message: done.append(message))  # noqa: PLW0108 - playwright wraps it
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 60
    while not done and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return events


def print_trace(events: list[dict], largest: int, steps: int) -> None:
    """What the map's frames are made of: the renderer's main thread's work inside each frame (town_map.vue marks
    its two ends, new markers arrived and frame drawn), by kind of event, in ms per frame; the thread's busy time
    (its tasks) against the frame's length, the rest being the wait for the next frame or for a CPU. An event
    inside another of another kind (a layout forced by a script) counts in both."""
    main = {
        (e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"
    }
    marks = sorted((e["ts"], e["name"]) for e in events if e.get("name", "").startswith("smallville-map-"))
    windows = [
        (start, end)
        for (start, first), (end, second) in pairwise(marks)
        if first == "smallville-map-arrived" and second == "smallville-map-framed"
    ]
    if not windows:
        print("  trace: no frame marked (a page from before the marks)")
        return
    spent: dict[str, float] = {}
    cpu: dict[str, float] = {}  # the thread's own CPU time in it (tdur): the rest of an event's time it waited
    for event in events:
        if (event.get("pid"), event.get("tid")) not in main or event.get("ph") != "X":
            continue
        begin, duration = event["ts"], max(event.get("dur", 0), 1)
        for start, end in windows:
            overlap = min(begin + duration, end) - max(begin, start)
            if overlap > 0:
                spent[event["name"]] = spent.get(event["name"], 0.0) + overlap / 1000
                cpu[event["name"]] = cpu.get(event["name"], 0.0) + event.get("tdur", 0) * overlap / duration / 1000
    length = sum(end - start for start, end in windows) / 1000
    frames = len(windows)
    print(f"  trace: {frames} frames, {length / frames:.0f} ms each; the main thread's events in them, ms a frame")
    print("    (wall, then the thread's own CPU time):")
    for name, ms in sorted(spent.items(), key=lambda item: -item[1])[:largest]:
        print(f"    {ms / frames:7.1f} ms {cpu.get(name, 0.0) / frames:7.1f} ms  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25,250")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--browser-only", action="store_true", help="skip the in-process part")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the page's N costliest functions")
    parser.add_argument("--layout", choices=("crowded", "generated"), default="crowded", help="as bench_scale's")
    args = parser.parse_args()
    for size in [int(text) for text in args.sizes.split(",")]:
        print(f"{size} agents, {args.layout} ({load()})")
        with tempfile.TemporaryDirectory() as towns:
            source = town_source(size, args.layout, Path(towns))
            if not args.browser_only:
                with tempfile.TemporaryDirectory() as folder:
                    in_process(source, args.steps, Path(folder))
            if not args.no_browser and Path(CHROMIUM).exists():
                with tempfile.TemporaryDirectory() as folder:
                    in_browser(source, args.steps, Path(folder), args.profile)
        print(f"  ({load()} after)")


if __name__ == "__main__":
    main()
