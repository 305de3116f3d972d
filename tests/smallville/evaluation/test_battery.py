"""The paper's battery, its placeholders filled from two agents' own memories, and a bad battery's one-line error."""

import pytest

from memory import HashingEmbedder, MemoryStream, NodeKind
from smallville.evaluation import BatteryError, load_battery
from smallville.evaluation.placeholders import NO_ACQUAINTANCE, NO_EVENT, placeholders

from .streams import START, hand_built

PEOPLE = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]


def test_the_papers_battery_has_five_categories_of_five_questions():
    battery = load_battery()
    assert [category.name for category in battery.categories] == [
        "self-knowledge", "memory", "plans", "reactions", "reflections",
    ]  # fmt: skip
    assert all(len(category.questions) == 5 for category in battery.categories)
    assert len({question.id for question in battery.items()}) == 25


def test_placeholders_come_from_each_agents_own_run():
    klaus = placeholders("Klaus Mueller", hand_built(), PEOPLE)
    assert klaus["acquaintance"] == "Maria Lopez"  # whom he talked with
    assert klaus["stranger"] == "Isabella Rodriguez"  # nobody he remembers
    assert klaus["event"] == "Maria Lopez is studying at the library"
    assert klaus["first_name"] == "Klaus"

    stream = MemoryStream(dim=64)
    stream.add(NodeKind.EVENT, "Isabella Rodriguez is sleeping", created=START, importance=1,
               embedding=HashingEmbedder(dim=64).embed(["x"])[0])  # fmt: skip
    maria = placeholders("Maria Lopez", stream, PEOPLE)
    assert (maria["acquaintance"], maria["event"]) == (NO_ACQUAINTANCE, NO_EVENT)  # a sleeper makes no news
    question = next(q for q in load_battery().items() if "{acquaintance}" in q.template)
    assert "Maria Lopez" in question.fill(klaus) and NO_ACQUAINTANCE in question.fill(maria)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('name = "x"\n[[categories]]\nname = "memory"\nquestions = ["Who is {nobody}?"]\n', "categories.0.questions"),
        ('name = "x"\n[[categories]]\nname = "memory"\nquestions = []\n', "categories.0.questions"),
        ('name = "x"\n[[categories]]\nname = "memory"\nquestion = ["Hi?"]\n', "categories.0.questions"),
        ('name = "x"\ncategories = "none"\n', "categories"),
    ],
    ids=["unknown-placeholder", "no-questions", "misspelled-field", "wrong-type"],
)
def test_a_bad_battery_names_the_file_and_field(tmp_path, text, field):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(BatteryError) as error:
        load_battery(path)
    message = str(error.value)
    assert message.startswith(f"{path}: field '{field}") and "\n" not in message


def test_a_missing_battery_lists_the_known_ones(tmp_path):
    with pytest.raises(BatteryError, match="use one of: paper"):
        load_battery("no_such_battery")
