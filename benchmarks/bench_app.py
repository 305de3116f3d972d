"""The browser app's server side: how long a step's re-render of the first tab takes with 25 agents.

Renders the map, the inspector, the feed and the voice box with solara.render (no browser), steps the offline town
to the morning, then times model.step() and the re-render (force_update) separately. The browser adds its own
paint; tests/smallville/app/test_browser.py drives a real one.

Usage: python benchmarks/bench_app.py [steps]
"""

import statistics
import sys
import time
from datetime import datetime

import solara
from mesa.visualization.utils import force_update

from smallville.app.inspector import AgentInspector
from smallville.app.map_image import background_png
from smallville.app.map_panel import TownMap
from smallville.app.town_panels import ConversationFeed
from smallville.app.voice import VoiceBox
from smallville.model import SmallvilleModel


def main(steps: int = 60) -> None:
    model = SmallvilleModel(embedder="hashing")
    started = time.perf_counter()
    background_png(model.ville)
    size = len(background_png(model.ville)) / 1024
    print(f"map background: {1000 * (time.perf_counter() - started):.0f} ms once, {size:.0f} KB")
    model.run_until(datetime(2023, 2, 13, 8, 0))

    @solara.component
    def FirstTab():  # noqa: N802 - a solara component
        with solara.Column():
            TownMap(model)
            AgentInspector(model)
            ConversationFeed(model)
            VoiceBox(model)

    started = time.perf_counter()
    _, rc = solara.render(FirstTab(), handle_error=False)
    print(f"first render of the first tab: {1000 * (time.perf_counter() - started):.0f} ms")
    step_times, render_times = [], []
    for _ in range(steps):
        started = time.perf_counter()
        model.step()
        step_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        force_update()
        render_times.append(time.perf_counter() - started)
    for name, times in (("model.step()", step_times), ("re-render after a step", render_times)):
        ordered = sorted(times)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(
            f"{name}: median {1000 * statistics.median(ordered):.1f} ms, "
            f"p90 {1000 * p90:.1f} ms, max {1000 * ordered[-1]:.1f} ms over {steps} steps"
        )
    rc.close()
    model.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
