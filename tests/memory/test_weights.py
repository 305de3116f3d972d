"""Retrieval weights by name or by value, and clear refusals."""

import pytest

from memory import RetrievalWeights


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("paper", RetrievalWeights(1, 1, 1)),
        ("original", RetrievalWeights(0.5, 3, 2)),
        ("0.5,3,2", RetrievalWeights(0.5, 3, 2)),
        (" 1, 0 ,2 ", RetrievalWeights(1, 0, 2)),
        (RetrievalWeights(2, 2, 2), RetrievalWeights(2, 2, 2)),
    ],
    ids=["paper", "original", "values", "spaces-and-zero", "already-weights"],
)
def test_weights_by_name_or_value(text, expected):
    assert RetrievalWeights.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("heavy", "use 'paper' \\(1,1,1\\), 'original' \\(0.5,3,2\\) or three numbers"),
        ("1,2", "three numbers"),
        ("1,2,3,4", "three numbers"),
        ("1,-2,3", "not negative"),
        ("1,nan,3", "finite"),
        ("", "three numbers"),
    ],
    ids=["unknown-name", "two-numbers", "four-numbers", "negative", "nan", "empty"],
)
def test_bad_weights_are_refused_with_the_choices(text, message):
    with pytest.raises(ValueError, match=message):
        RetrievalWeights.parse(text)


def test_weights_are_frozen():
    with pytest.raises(AttributeError):
        RetrievalWeights.paper().recency = 2  # type: ignore[misc]
