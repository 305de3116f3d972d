"""The offline mind's grammar: a verb's person both ways, named cases for irregular verbs and each ending."""

import pytest

from agents.identity import Identity
from agents.language.english import morphology
from agents.language.english.voice import own_voice
from agents.language.offline.interviewing import said_by
from agents.language.offline.voice import third_person

# (third person singular, the form after "I"): irregular verbs, then each ending's rule and its exceptions.
VERBS = [
    ("is", "am"),
    ("has", "have"),
    ("does", "do"),
    ("goes", "go"),
    ("says", "say"),
    ("knows", "know"),
    ("uses", "use"),
    ("closes", "close"),
    ("causes", "cause"),
    ("buses", "bus"),
    ("focuses", "focus"),
    ("misses", "miss"),
    ("discusses", "discuss"),
    ("watches", "watch"),
    ("teaches", "teach"),
    ("wishes", "wish"),
    ("fixes", "fix"),
    ("buzzes", "buzz"),
    ("echoes", "echo"),
    ("tries", "try"),
    ("studies", "study"),
    ("plays", "play"),
    ("enjoys", "enjoy"),
    ("lives", "live"),
    ("likes", "like"),
    ("doesn't", "don't"),
    ("hasn't", "haven't"),
]


@pytest.mark.parametrize(("third", "first"), VERBS, ids=[third for third, _ in VERBS])
def test_a_third_persons_verb_after_i(third: str, first: str) -> None:
    assert morphology.verb_after_i(third) == first


@pytest.mark.parametrize(("third", "first"), VERBS, ids=[first for _, first in VERBS])
def test_the_verb_after_i_after_a_name(third: str, first: str) -> None:
    assert morphology.verb_after_name(first) == third


CONTRACTIONS = [("'m", "is"), ("'ve", "has"), ("'ll", "will"), ("'d", "would"), ("are", "is"), ("aren't", "isn't")]


@pytest.mark.parametrize(("after_i", "after_name"), CONTRACTIONS, ids=[form for form, _ in CONTRACTIONS])
def test_contractions_and_agreement_after_a_name(after_i: str, after_name: str) -> None:
    assert morphology.verb_after_name(after_i) == after_name


UNCHANGED = ["went", "can", "will", "was", "said", "read", "liked", "miss", "focus", "is", "has"]


@pytest.mark.parametrize("word", UNCHANGED, ids=UNCHANGED)
def test_modals_past_tenses_and_base_forms_stay_after_i(word: str) -> None:
    expected = {"is": "am", "has": "have"}.get(word, word)
    assert morphology.verb_after_i(word) == expected


@pytest.mark.parametrize("word", ["went", "can", "will", "was", "liked", "is", "has"], ids=str)
def test_modals_past_tenses_and_a_names_own_verbs_stay_after_a_name(word: str) -> None:
    assert morphology.verb_after_name(word) == word


WORDS_AFTER_A_NAME = [
    ("knows", True),
    ("is", True),
    ("hasn't", True),
    ("wasn't", True),
    ("went", True),
    ("can", True),
    ("misses", True),
    ("as", False),
    ("his", False),
    ("always", False),
    ("class", False),
    ("and", False),
]


@pytest.mark.parametrize(("word", "verb"), WORDS_AFTER_A_NAME, ids=[word for word, _ in WORDS_AFTER_A_NAME])
def test_whether_the_word_after_a_name_is_its_verb(word: str, verb: bool) -> None:
    assert morphology.is_verb_after_name(word) is verb


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I are late", "I am late"), ("I were there", "I was there"), ("I aren't", "I aren't"), ("I arena", "I arena")],
    ids=["are", "were", "contraction-kept", "whole-word-only"],
)
def test_a_you_turned_into_i_agrees(text: str, expected: str) -> None:
    assert morphology.agree_with_i(text) == expected


@pytest.mark.parametrize(("name", "owned"), [("Eddy", "Eddy's"), ("Klaus", "Klaus's")], ids=["plain", "ending-in-s"])
def test_a_names_possessive(name: str, owned: str) -> None:
    assert morphology.possessive(name) == owned


ADVERBS = [("also", True), ("mostly", True), ("only", True), ("reply", False), ("fly", False), ("work", False)]


@pytest.mark.parametrize(("word", "adverb"), ADVERBS, ids=[word for word, _ in ADVERBS])
def test_adverbs_between_a_subject_and_its_verb(word: str, adverb: bool) -> None:
    assert morphology.is_adverb(word) is adverb


SAID_BY_EDDY = [
    ("Eddy Lin uses the piano every morning", "I use the piano every morning"),
    ("Eddy Lin closes the shop at 5pm", "I close the shop at 5pm"),
    ("Eddy Lin buses tables at the pub", "I bus tables at the pub"),
    ("Eddy Lin isn't coming to the party", "I am not coming to the party"),
]


@pytest.mark.parametrize(("sentence", "said"), SAID_BY_EDDY, ids=["uses", "closes", "buses", "isn't"])
def test_a_sentence_about_oneself_in_ones_own_voice(sentence: str, said: str) -> None:
    assert own_voice(sentence, "Eddy Lin") == said


def test_an_adverb_before_the_speakers_verb_is_kept_by_the_listener() -> None:
    assert third_person("I mostly play piano", "Eddy Lin", "Maria Lopez") == "Eddy Lin mostly plays piano"


PERSONA = [
    ("He buses tables at the diner.", "I bus tables at the diner."),
    ("He focuses on the election.", "I focus on the election."),
    ("Sam Moore isn't a morning person.", "I am not a morning person."),
]


@pytest.mark.parametrize(("sentence", "said"), PERSONA, ids=["buses", "focuses", "isn't"])
def test_a_persona_sentence_in_an_interview(sentence: str, said: str) -> None:
    sam = Identity("Sam Moore", 65, innate="", learned="", currently="", lifestyle="", living_area="")
    assert said_by(sam, sentence) == said
