"""The CLI's progress bar: what a user watching a run sees while it steps."""

import io
from datetime import timedelta

from rich.console import Console

from smallville.model import SmallvilleModel
from smallville.progress import step_with_progress


def test_the_progress_bar_shows_the_clock_calls_and_the_agents_thinking():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing")  # thoughts overlap by default
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200, color_system=None)
    step_with_progress(model, model.now + timedelta(seconds=model.seconds_per_step * 15), console)  # the end redraws
    shown = out.getvalue()  # every redraw, the last one at the end
    thinking = len(model.thoughts)
    model.close()
    assert thinking > 0  # the day's first thoughts, asked at midnight, take effect 20 steps later
    assert "Mon Feb 13 00:02" in shown and f"{thinking} thinking" in shown
    assert "calls" in shown and "tokens" in shown
