"""Persona files: a persona's identity (scratch.json), its seeded memories (the whisper CSV), validated on load.

A mistake in a file gives a `PersonaFileError` naming the file, the field and the fix, never a KeyError deep in a
simulation.
"""

import csv
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agents.identity import Identity


class PersonaFileError(ValueError):
    """A persona or whisper file that is missing or malformed; the message names the file, field and fix."""


class _ScratchFile(BaseModel):
    """The fields of the original's scratch.json that we use (the rest is the original's run-time state)."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=3)
    age: int = Field(ge=0, le=130)
    innate: str
    learned: str
    currently: str
    lifestyle: str
    living_area: str = Field(pattern=r"^[^:]+:[^:]+:[^:]+")
    daily_plan_req: str = ""
    vision_r: int = Field(default=8, ge=1, le=50)
    att_bandwidth: int = Field(default=8, ge=1, le=100)
    retention: int = Field(default=8, ge=0, le=100)
    recency_decay: float = Field(default=0.995, gt=0, le=1)
    importance_trigger_max: int = Field(default=150, ge=1)


@dataclass(frozen=True)
class Persona:
    """Everything the data says about one agent before the simulation starts.

    Attributes:
        identity: Who the agent is.
        spatial_memory_file: Its spatial_memory.json (the part of the world tree it knows).
        seeds: Its seeded memories, in the agent's own voice ("I ..."), from the whisper CSV.
        vision_r: Tiles it sees in each direction (the 25-agent data: 8).
        att_bandwidth: How many of the nearest perceived events it attends to (8).
        retention: How many of its newest events it checks to decide whether an event is new (8).
        recency_decay: Recency factor per simulated hour (0.995).
        reflection_threshold: Importance since the last reflection that triggers one (250 in the data).
    """

    identity: Identity
    spatial_memory_file: Path
    seeds: tuple[str, ...]
    vision_r: int
    att_bandwidth: int
    retention: int
    recency_decay: float
    reflection_threshold: int


def persona_folder(personas_dir: Path, name: str) -> Path:
    """The bootstrap_memory folder of a persona in an original-style personas directory."""
    return personas_dir / name / "bootstrap_memory"


def load_persona(personas_dir: Path, name: str, whispers: Mapping[str, tuple[str, ...]]) -> Persona:
    """Load and validate one persona.

    Raises:
        PersonaFileError: If the persona's files are missing or a field is missing or wrong.
    """
    folder = persona_folder(personas_dir, name)
    scratch_path = folder / "scratch.json"
    spatial_path = folder / "spatial_memory.json"
    if not scratch_path.is_file():
        known = sorted(p.name for p in personas_dir.iterdir() if p.is_dir()) if personas_dir.is_dir() else []
        raise PersonaFileError(
            f"{scratch_path}: no such file; is {name!r} a persona? Known personas: {', '.join(known) or 'none'}"
        )
    if not spatial_path.is_file():
        raise PersonaFileError(f"{spatial_path}: no such file; every persona needs its spatial_memory.json")
    try:
        raw = json.loads(scratch_path.read_text())
        scratch = _ScratchFile.model_validate(raw)
    except json.JSONDecodeError as error:
        raise PersonaFileError(f"{scratch_path}: not valid JSON ({error}); fix the syntax") from error
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise PersonaFileError(
            f"{scratch_path}: field {field!r}: {first['msg']} (got {first.get('input')!r}); fix that field"
        ) from error
    if scratch.name != name:
        raise PersonaFileError(f"{scratch_path}: field 'name' is {scratch.name!r} but the folder is {name!r}")
    identity = Identity(
        name=scratch.name,
        age=scratch.age,
        innate=scratch.innate,
        learned=scratch.learned,
        currently=scratch.currently,
        lifestyle=scratch.lifestyle,
        living_area=scratch.living_area,
        daily_plan_req=scratch.daily_plan_req,
    )
    return Persona(
        identity=identity,
        spatial_memory_file=spatial_path,
        seeds=tuple(to_first_person(text) for text in whispers.get(name, ())),
        vision_r=scratch.vision_r,
        att_bandwidth=scratch.att_bandwidth,
        retention=scratch.retention,
        recency_decay=scratch.recency_decay,
        reflection_threshold=scratch.importance_trigger_max,
    )


def load_whispers(path: Path) -> dict[str, tuple[str, ...]]:
    """Read a whisper CSV ("Name,Whisper"; statements separated by ";") into name -> statements.

    Raises:
        PersonaFileError: If the file is missing, lacks the two columns, or a row is malformed.
    """
    if not path.is_file():
        raise PersonaFileError(f"{path}: no such file; the scenario's 'whispers' must name a CSV of Name,Whisper")
    whispers: dict[str, tuple[str, ...]] = {}
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or not {"Name", "Whisper"} <= set(reader.fieldnames):
            raise PersonaFileError(f"{path}: the header must be 'Name,Whisper' (got {reader.fieldnames})")
        for row_number, row in enumerate(reader, start=2):
            name, text = (row.get("Name") or "").strip(), row.get("Whisper")
            if text is not None and row.get(None):  # an unquoted whisper with commas ("For planning, you ...")
                text = ",".join([text, *row[None]])
            if not name or text is None:
                raise PersonaFileError(f"{path}: row {row_number}: needs a name and a whisper")
            statements = tuple(part.strip() for part in text.split(";") if part.strip())
            whispers[name] = whispers.get(name, ()) + statements
    return whispers


_FIRST_PERSON = [
    (r"\byou two\b", "we"),  # "Maria Lopez and you ..., and you two are close": the two of them
    (r"\byou are\b", "I am"),
    (r"\byou were\b", "I was"),
    (r"\byou've\b", "I've"),
    (r"\byou're\b", "I'm"),
    (r"\byourself\b", "myself"),
    (r"\byour\b", "my"),
    (r"(^|[;,.]\s*|--\s*|\b(?:and|that|but|so|which|who|when|if)\s+)you\b", r"\1I"),
    (r"\byou\b", "me"),
]
# Compiled once: looked up in re's cache at every use, they cost 0.25 s of the 1,000-person town's start (87,000 uses).
_FIRST_PERSON_COMPILED = [(re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in _FIRST_PERSON]


def to_first_person(statement: str) -> str:
    """Turn a whisper ("You are excited to ...") into the agent's own voice ("I am excited to ...").

    The whispers are the paper's inner voice, written in the second person; a memory reads better, and is
    passed on in talk more naturally, in the first person. A few regular rules cover the data's phrasing.
    """
    text = statement
    for pattern, replacement in _FIRST_PERSON_COMPILED:
        text = pattern.sub(replacement, text)
    text = text[:1].upper() + text[1:]
    # "I and Maria Lopez have known ..." reads better as "Maria Lopez and I have known ...".
    return re.sub(r"^I and ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)", r"\1 and I", text)
