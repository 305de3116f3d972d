import json
import shutil
from pathlib import Path

import pytest

from agents.persona import PersonaFileError, load_persona, load_whispers, to_first_person

DATA = Path(__file__).resolve().parents[2] / "data" / "the_ville"
PERSONAS = DATA / "base_the_ville_n25" / "personas"
WHISPERS = DATA / "agent_history_init_n25.csv"


def test_every_persona_of_the_data_loads():
    whispers = load_whispers(WHISPERS)
    names = sorted(path.name for path in PERSONAS.iterdir())
    assert len(names) == 25
    for name in names:
        persona = load_persona(PERSONAS, name, whispers)
        assert persona.identity.name == name
        assert persona.seeds, name
        assert persona.reflection_threshold == 250
        assert persona.vision_r == 8


def test_isabella():
    persona = load_persona(PERSONAS, "Isabella Rodriguez", load_whispers(WHISPERS))
    assert persona.identity.living_area == "the Ville:Isabella Rodriguez's apartment:main room"
    assert persona.seeds[0].startswith("I am excited to be planning a Valentine's Day party")


@pytest.mark.parametrize(
    ("whisper", "memory"),
    [
        ("You and Maria Lopez have known each other", "Maria Lopez and I have known each other"),
        ("This is very important -- you have a crush on Maria", "This is very important -- I have a crush on Maria"),
        ("Maria Lopez is a loyal friend to you", "Maria Lopez is a loyal friend to me"),
        ("you love your work at Hobbs Cafe", "I love my work at Hobbs Cafe"),
        ("working hard, which you find to be cool", "Working hard, which I find to be cool"),
    ],
    ids=["and-i", "after-dashes", "object", "possessive", "after-which"],
)
def test_whispers_become_first_person(whisper, memory):
    assert to_first_person(whisper) == memory


def _copy_persona(tmp_path, name="Klaus Mueller"):
    target = tmp_path / name
    shutil.copytree(PERSONAS / name, target)
    return tmp_path, target / "bootstrap_memory" / "scratch.json"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("lifestyle"), "field 'lifestyle': Field required"),
        (lambda d: d.update(age="old"), "field 'age'"),
        (lambda d: d.update(living_area="nowhere"), "field 'living_area'"),
    ],
    ids=["missing-field", "wrong-type", "bad-address"],
)
def test_a_bad_scratch_file_names_the_file_and_field(tmp_path, change, message):
    personas, scratch = _copy_persona(tmp_path)
    data = json.loads(scratch.read_text())
    change(data)
    scratch.write_text(json.dumps(data))
    with pytest.raises(PersonaFileError, match=message) as error:
        load_persona(personas, "Klaus Mueller", {})
    assert str(scratch) in str(error.value)


def test_unknown_persona_lists_the_known_ones(tmp_path):
    personas, _ = _copy_persona(tmp_path)
    with pytest.raises(PersonaFileError, match="Known personas: Klaus Mueller"):
        load_persona(personas, "Klaus Muller", {})


def test_bad_whisper_file(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("Who,What\nA,b\n")
    with pytest.raises(PersonaFileError, match="header must be 'Name,Whisper'"):
        load_whispers(path)


def test_an_unquoted_whisper_with_a_comma_is_kept_whole(tmp_path):
    """The_ville_n3's file is not quoted: "For planning, you frequent Hobbs Cafe" was cut to "For planning"."""
    path = tmp_path / "w.csv"
    path.write_text("Name,Whisper\nMaria Lopez,You study hard; For planning, you frequent the bakery\n")
    assert load_whispers(path) == {"Maria Lopez": ("You study hard", "For planning, you frequent the bakery")}
