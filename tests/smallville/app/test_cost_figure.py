"""The cost tab's plot: calls and tokens each on an axis of its own, so neither is flattened by the other."""

import pandas as pd

from smallville.app.town_panels import cost_figure


def test_calls_and_tokens_have_their_own_axes():
    frame = pd.DataFrame(
        {"time": ["2023-02-13T00:00", "2023-02-13T01:00", "2023-02-13T02:00"], "model_calls": [0, 40, 90],
         "tokens": [0, 60_000, 140_000]}
    )  # fmt: skip
    calls, tokens = cost_figure(frame).axes
    assert (calls.get_ylabel(), tokens.get_ylabel()) == ("model calls", "tokens")
    assert list(calls.get_lines()[0].get_ydata()) == [0, 40, 90]
    assert list(tokens.get_lines()[0].get_ydata()) == [0, 60_000, 140_000]
    assert calls.get_ylim()[1] < 1_000 < tokens.get_ylim()[1]  # each scaled to its own figures


def test_an_empty_town_draws_empty_axes():
    frame = pd.DataFrame({"time": [], "model_calls": [], "tokens": []})
    assert [axis.get_lines() for axis in cost_figure(frame).axes] == [[], []]
