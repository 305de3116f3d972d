from pathlib import Path

import pytest

from smallville.batch import GridError, expand, load_grid, parameter_names, parse_seeds, validate_grid
from smallville.cli import main
from smallville.commands.batch import _share_cache

DATA = Path(__file__).resolve().parents[3] / "data" / "batches"

GOOD = """
seeds = "0-2"
scenarios = ["the_ville_n3"]
days = 0.5

[parameters]
embedder = "hashing"

[conditions.full]
[conditions.no_reflection]
reflection = false

[sweep]
reflection_threshold = [100, 250]

[budget]
calls = 500
"""


def write(tmp_path, text):
    path = tmp_path / "grid.toml"
    path.write_text(text)
    return path


def test_a_good_grid_expands_to_conditions_times_sweep_times_seeds(tmp_path):
    grid = load_grid(write(tmp_path, GOOD))
    cells = expand(grid)
    assert len(cells) == 2 * 2 * 3
    assert grid.budget.calls == 500
    first = cells[0]
    assert first.cell_id == "full,reflection_threshold=100--the_ville_n3--seed0"
    assert first.model_kwargs() == {
        "embedder": "hashing",
        "reflection_threshold": 100,
        "scenario_name": "the_ville_n3",
        "rng": 0,
    }
    ablated = [cell for cell in cells if cell.condition.startswith("no_reflection")]
    assert all(cell.parameters["reflection"] is False for cell in ablated)
    assert len({cell.fingerprint() for cell in cells}) == len(cells)


def test_parameter_names_come_from_the_model_signature():
    import inspect

    from smallville.model import SmallvilleModel

    signature = set(inspect.signature(SmallvilleModel).parameters) - {"seed_memories", "rng", "scenario_name"}
    assert set(parameter_names()) == signature


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD.replace("reflection = false", "reflecton = false"), "conditions.no_reflection.reflecton: unknown"),
        (GOOD.replace("reflection = false", 'reflection = "sometimes"'), "conditions.no_reflection.reflection:"),
        (GOOD.replace('embedder = "hashing"', "embedder = 3"), "parameters.embedder:"),
        (GOOD.replace('embedder = "hashing"', "rng = 3"), "parameters.rng: set by the grid's `seeds`"),
        (GOOD.replace("days = 0.5", "days = -1"), "days:"),
        (GOOD.replace("days = 0.5", ""), "give exactly one of days and until"),
        (GOOD + "\nworkers = 3\n", "workers: Extra inputs are not permitted"),
        (GOOD.replace("calls = 500", "calls = 0"), "budget.calls:"),
        (GOOD.replace("[100, 250]", '[100, "many"]'), "sweep[1].reflection_threshold:"),
        ("seeds = [0", "not valid TOML"),
    ],
    ids=["unknown-parameter", "bad-bool", "bad-str", "seed-as-parameter", "negative-days", "no-duration",
         "unknown-top-level", "zero-budget", "bad-sweep-value", "not-toml"],
)  # fmt: skip
def test_a_bad_grid_names_the_file_and_the_field(tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(GridError) as caught:
        load_grid(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert expected in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "seeds"), [("0-3", [0, 1, 2, 3]), ("2", [2]), ("0,3,7", [0, 3, 7]), ("1-2,5", [1, 2, 5])]
)
def test_seed_ranges(text, seeds):
    assert parse_seeds(text) == seeds


def test_a_bad_seed_range_says_how_to_write_one():
    with pytest.raises(ValueError, match="0-9"):
        parse_seeds("zero to nine")


@pytest.mark.parametrize("name", ["quick.toml", "paper_ladder.toml"])
def test_the_ready_grids_are_valid(name):
    cells = expand(load_grid(DATA / name))
    assert cells


def test_the_paper_ladder_has_its_four_conditions_25_agents_and_two_days():
    grid = load_grid(DATA / "paper_ladder.toml")
    assert list(grid.conditions) == ["full", "no_reflection", "no_reflection_planning",
                                     "no_observation_reflection_planning"]  # fmt: skip
    assert grid.scenarios == ["the_ville_n25"] and grid.days == 2 and len(grid.seeds) >= 3
    assert grid.conditions["no_observation_reflection_planning"] == {
        "observation": False, "reflection": False, "planning": False}  # fmt: skip


@pytest.mark.parametrize(
    ("parameters", "vectors"),
    [({}, True), ({"embedder": "minilm"}, True), ({"embedder": "hashing"}, False),
     ({"embedding_cache": "/tmp/vectors.sqlite"}, False)],
)  # fmt: skip
def test_cells_that_embed_with_a_model_share_one_vector_file(tmp_path, parameters, vectors):
    data = {"parameters": dict(parameters)}
    made = _share_cache(data, tmp_path / "batch")
    shared = data["parameters"].get("embedding_cache")
    expected = (
        str((tmp_path / "batch" / "embeddings.sqlite").resolve()) if vectors else parameters.get("embedding_cache")
    )
    assert shared == expected
    assert "cache_path" not in data["parameters"]  # offline cells get no response cache
    validate_grid({"seeds": [0], "scenarios": ["the_ville_n3"], "until": "2023-02-13T01:00:00", **data}, "t", made)


def test_a_model_whose_key_is_not_set_is_one_line_before_any_cell_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    path = write(
        tmp_path,
        GOOD.replace('embedder = "hashing"', 'embedder = "hashing"\nllm = "anthropic/claude-haiku-4-5"'),
    )
    assert main(["batch", str(path), "--out", str(tmp_path / "batch")]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {path}: parameters.llm: model 'anthropic/claude-haiku-4-5' needs ANTHROPIC_API_KEY in the "
        "environment (never on the command line) (cell full"
    )
    assert not (tmp_path / "batch").exists()
