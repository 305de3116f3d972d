"""The rows a metrics CSV holds, as a checkpoint counts them: counted over the bytes, the same as a CSV reader."""

import csv
from pathlib import Path

import pytest

from smallville.runs.integrity import _count_rows

CASES = {
    "plain rows": ("a,b\n1,2\n3,4\n", 2),
    "a quoted field holding a line end": ('a,b\n1,"two\nlines"\n3,4\n', 2),
    "a doubled quote inside a quoted field": ('a,b\n1,"say ""hi""\nthere"\n', 1),
    "a last line cut short by a crash": ("a,b\n1,2\n3,", 1),
    "a last line cut short inside quotes": ('a,b\n1,2\n3,"half\n', 1),
    "the header only": ("a,b\n", 0),
    "empty": ("", 0),
}


@pytest.mark.parametrize(("text", "rows"), CASES.values(), ids=CASES.keys())
def test_complete_rows_are_counted_as_a_csv_reader_reads_them(request, tmp_path: Path, text: str, rows: int):
    path = tmp_path / "agents.csv"
    path.write_text(text, encoding="utf-8")
    assert _count_rows(path) == rows
    if "cut short" not in request.node.callspec.id and text:  # a whole file: exactly what the csv module reads
        with path.open(newline="", encoding="utf-8") as handle:
            assert max(0, len(list(csv.reader(handle))) - 1) == rows
