"""Append-only JSON-lines records keyed by item, so a killed evaluation resumes without asking anything twice."""

import json
from collections.abc import Iterator
from pathlib import Path


class Journal:
    """One JSONL file of records, each with a unique "key"; a torn last line (a kill mid-write) is dropped."""

    def __init__(self, path: Path):
        self.path = path
        self.records: dict[str, dict] = {}
        if path.is_file():
            text = path.read_text()
            whole = text[: text.rfind("\n") + 1]
            if whole != text:
                path.write_text(whole)
            for line in whole.splitlines():
                if line.strip():
                    record = json.loads(line)
                    self.records[record["key"]] = record

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict]:
        return iter(self.records.values())

    def get(self, key: str) -> dict | None:
        """The record of an item, if it was done."""
        return self.records.get(key)

    def add(self, record: dict) -> None:
        """Write a record at once (flushed), so it survives a kill right after."""
        with self.path.open("a") as handle:
            handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            handle.flush()
        self.records[record["key"]] = record
