"""The prompt log: every rendered prompt and its answer, one JSON line each, so a user can read what a model was asked.

The project keeps no prompt text (the response cache holds a hash, the ledger counts tokens), yet with a real model
what an agent does is what its prompts let it know. `run.py simulate --log-prompts FILE` attaches a PromptLog to the
gateway: each model call, a repair included, and each answer the response cache gave instead, is written as

    {"agent", "kind", "model", "source": "model" | "cache", "parameters", "messages": [{"role", "content"}], "answer"}

in the order the answers arrive (which, with calls in flight together, is not always the order they were asked in).
The log holds what agents say and remember, as prompts do; it never holds an API key (none is in a prompt).
"""

import json
from pathlib import Path
from typing import IO, Any


class PromptLog:
    """A JSONL file of prompts and answers, written as they happen.

    Args:
        path: The file to write (replaced if it exists; its folder is created).
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("w", encoding="utf-8")
        self.written = 0

    def write(
        self,
        *,
        agent: str,
        kind: str,
        model: str,
        source: str,
        parameters: dict[str, Any],
        messages: list[dict[str, str]],
        answer: str,
    ) -> None:
        """Keep one prompt and its answer."""
        if self._file is None:
            raise ValueError(f"the prompt log {self.path} is closed")
        record = {
            "agent": agent,
            "kind": kind,
            "model": model,
            "source": source,
            "parameters": parameters,
            "messages": messages,
            "answer": answer,
        }
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.written += 1

    def close(self) -> None:
        """Flush and close the file (again: nothing)."""
        if self._file is not None:
            self._file.close()
            self._file = None


def read_prompt_log(path: Path | str) -> list[dict[str, Any]]:
    """The records of a prompt log, in the order written."""
    with Path(path).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
