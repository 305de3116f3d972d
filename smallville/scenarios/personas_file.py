"""A personas file a person writes: who lives in the town, in TOML (or CSV), checked against the town's map.

TOML holds `[[people]]` tables (name, age, traits, occupation, lifestyle, home, workplace, daily_requirements,
currently, about, knows, memories, places) and optionally a `[town]` table (name, description, start), `[[facts]]`
to track and a `[gathering]` (the fields of a scenario file, smallville/scenarios/scenario.py). A CSV has one row a
person with the same column names; there `knows` reads "Name: what you know | Name: ..." and `memories` are separated
by ";". Each mistake raises a PersonasFileError on one line naming the file, the person, the field and the fix.
"""

import csv
import io
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from smallville.settings.text_files import TextFileError, read_text

_NAME = r"^[^:;,|]+\s[^:;,|]+$"  # two words or more; no character that separates names in the files
_PLACE = r"^[^:;]+(:[^:;]+)?$"


class PersonasFileError(ValueError):
    """A personas file that cannot be used; the one-line message names the file, the person, the field and the fix."""


class PersonRecord(BaseModel):
    """One person as the file describes them; places are "sector" or "sector:arena" of the town's map."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    name: str = Field(pattern=_NAME)
    age: int = Field(ge=0, le=130)
    traits: str = Field(min_length=1)
    occupation: str = Field(min_length=1)
    lifestyle: str = Field(min_length=1)
    home: str = Field(pattern=_PLACE)
    workplace: str = Field(default="", pattern=rf"{_PLACE}|^$")
    daily_requirements: str = ""
    currently: str = ""
    about: str = ""
    knows: dict[str, str] = {}
    memories: list[str] = []
    places: list[str] = []


class TownRecord(BaseModel):
    """The `[town]` table: the scenario's name, description and start."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", pattern=r"^[A-Za-z0-9_-]*$")
    description: str = ""
    start: str = "2023-02-13T00:00:00"


class PersonasFile(BaseModel):
    """The whole file: its town, people, tracked facts and gathering (the last two as a scenario has them)."""

    model_config = ConfigDict(extra="forbid")
    town: TownRecord = TownRecord()
    people: list[PersonRecord] = Field(min_length=1)
    facts: list[dict] = []
    gathering: dict | None = None


def read_personas(path: Path) -> PersonasFile:
    """Read and check a personas file (TOML, or CSV by its suffix) on its own, before the map is known.

    Raises:
        PersonasFileError: The first mistake, on one line.
    """
    path = Path(path)
    try:
        text = read_text(path, "personas")
    except TextFileError as error:
        raise PersonasFileError(str(error)) from None
    data = _csv_document(path, text) if path.suffix.lower() == ".csv" else _toml_document(path, text)
    try:
        personas = PersonasFile.model_validate(data)
    except ValidationError as error:
        raise PersonasFileError(f"{path}: {_field_error(error, data)}; fix that field") from None
    _check_names(path, personas.people)
    return personas


def _toml_document(path: Path, text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PersonasFileError(f"{path}: not valid TOML ({error}); fix the syntax") from None


def _csv_document(path: Path, text: str) -> dict:
    reader = csv.DictReader(io.StringIO(text))
    people = []
    for row in reader:
        if None in row:
            raise PersonasFileError(f"{path}: row {reader.line_num}: more cells than columns; quote cells with commas")
        person: dict = {key.strip(): value for key, value in row.items() if value not in (None, "")}
        if "knows" in person:
            pairs = [part.partition(":") for part in person["knows"].split("|") if part.strip()]
            if any(not sep for _, sep, _ in pairs):
                raise PersonasFileError(
                    f"{path}: row {reader.line_num}: column 'knows' reads 'Name: what you know | Name: ...'; fix it"
                )
            person["knows"] = {name.strip(): text.strip() for name, _, text in pairs}
        for column in ("memories", "places"):
            if column in person:
                person[column] = [part.strip() for part in person[column].split(";") if part.strip()]
        people.append(person)
    return {"people": people}


def _field_error(error: ValidationError, data: dict) -> str:
    """The first error as "person 3 (Mara Quinn): field 'age': why (got ...)"."""
    first = error.errors()[0]
    location = list(first["loc"])
    where = ""
    if location[:1] == ["people"] and len(location) > 1 and isinstance(location[1], int):
        index = location[1]
        person = data.get("people", [])[index] if isinstance(data.get("people"), list) else {}
        name = person.get("name") if isinstance(person, dict) else None
        where = f"person {index + 1}" + (f" ({name})" if name else "") + ": "
        location = location[2:]
    field = ".".join(str(part) for part in location) or "people"
    message = first["msg"]
    if first["type"] == "missing":
        message = "is missing"
    elif first["type"] == "extra_forbidden":
        message = "is not a field of a person" if where else "is not a field of the file"
    elif first["type"] == "string_pattern_mismatch":
        message = _pattern_message(field)
    shown = first.get("input")
    got = f" (got {shown!r})" if first["type"] not in ("missing",) and not isinstance(shown, dict | list) else ""
    return f"{where}field {field!r}: {message}{got}"


def _pattern_message(field: str) -> str:
    if field == "name":
        return "a full name of two words or more, without ':', ';', ',' or '|'"
    if field in ("home", "workplace"):
        return "a place of the map as 'sector' or 'sector:arena'"
    return "not in the expected form"


def _check_names(path: Path, people: list[PersonRecord]) -> None:
    """Names are unique, and everyone a person knows is a person of the file (not themself)."""
    seen: set[str] = set()
    for number, person in enumerate(people, start=1):
        where = f"{path}: person {number} ({person.name})"
        if person.name in seen:
            raise PersonasFileError(f"{where}: field 'name': another person has this name; give each their own")
        seen.add(person.name)
    for number, person in enumerate(people, start=1):
        where = f"{path}: person {number} ({person.name})"
        for other in person.knows:
            if other == person.name:
                raise PersonasFileError(f"{where}: field 'knows': names the person themself; leave them out")
            if other not in seen:
                raise PersonasFileError(
                    f"{where}: field 'knows': {other!r} is nobody in the file; give the name of one of its people"
                )
