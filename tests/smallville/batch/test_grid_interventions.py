"""A batch grid's interventions: for every cell ([[interventions]]) or for a condition's cells
([[conditions.NAME.interventions]]), so a batch compares a town with and without an intervention over seeds."""

import tomllib

import pytest

from smallville.batch import Budget, LocalExecutor, expand, prepare, results_frame, run_batch, validate_grid
from smallville.batch.grid import GridError

PARTY = "Isabella Rodriguez is throwing a Valentine's Day party at Hobbs Cafe tomorrow evening"
GRID = f"""
seeds = [0, 1]
scenarios = ["the_ville_n3"]
until = 2023-02-13T08:30:00
[parameters]
embedder = "hashing"
seconds_per_step = 60
[conditions.plain]
[conditions.told]
[[conditions.told.interventions]]
time = 2023-02-13T08:00:00
kind = "whisper"
target = "Klaus Mueller"
text = "{PARTY}"

[[interventions]]
time = 2023-02-13T07:00:00
kind = "object"
target = "the Ville:Hobbs Cafe:cafe:piano"
text = "out of tune"
"""


def test_each_cell_gets_the_grids_interventions_and_its_conditions_as_plain_data():
    cells = expand(validate_grid(tomllib.loads(GRID), "with.toml"))
    by_condition = {cell.condition: cell.model_kwargs()["interventions"] for cell in cells if cell.seed == 0}
    piano = {"time": "2023-02-13T07:00:00", "kind": "object", "target": "the Ville:Hobbs Cafe:cafe:piano",
             "text": "out of tune"}  # fmt: skip
    whisper = {"time": "2023-02-13T08:00:00", "kind": "whisper", "target": "Klaus Mueller", "text": PARTY}
    assert by_condition == {"plain": [piano], "told": [piano, whisper]}
    assert len({cell.fingerprint() for cell in cells}) == 4


def test_a_wrong_intervention_in_a_condition_is_one_line_naming_it():
    data = tomllib.loads(GRID)
    data["conditions"]["told"]["interventions"][0]["kind"] = "rumour"
    with pytest.raises(GridError) as caught:
        validate_grid(data, "with.toml")
    assert str(caught.value).startswith("with.toml: conditions.told.interventions: intervention 1, field 'kind'")


@pytest.mark.slow
def test_a_batch_measures_a_town_with_and_without_a_whisper(tmp_path):
    grid = tomllib.loads(GRID.replace("seeds = [0, 1]", "seeds = [0]"))
    cells = expand(validate_grid(grid, "with.toml"))
    prepare(tmp_path, cells, grid)
    run_batch(tmp_path, cells, LocalExecutor(tmp_path, workers=2), Budget())
    table = results_frame(tmp_path).set_index("condition")
    assert table.loc["plain", "aware_party_end"] == pytest.approx(1 / 3)  # the host alone
    assert table.loc["told", "aware_party_end"] == pytest.approx(2 / 3)  # and Klaus, told at 08:00
