"""The offline mind follows generic rules: news worded otherwise scores, travels and is retold like the tracked facts.

Each rule of importance has a pair of sentences that meet it in other words (a paraphrase, and news of another
story); each pair must score alike. The talker speaks from what it retrieved for the listener, in whole sentences, in
its own voice; what others told it, it retells in the third person with their names.
"""

import pytest

from agents.language.english.voice import own_voice
from agents.language.offline.news import news_in
from agents.language.offline.salience import importance_of
from agents.language.offline.talk import GOODBYE, line, summarize
from agents.language.offline.voice import third_person
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest
from agents.persona import to_first_person

from .personas import NOON, identity

# One pair per rule of salience.py: the same features in other words (a paraphrase of a tracked fact's shape, or
# news of another story entirely).
PARAPHRASES = {
    "idle": ("the piano is idle", "the easel is idle"),
    "observed": ("Sam Moore is running for mayor", "Sam Moore is standing for mayor"),
    "statement": ("I have known Maria Lopez for a year", "I met Carmen Ortiz at the market"),
    "time-ahead": ("my exhibition opens on February 20", "the bakery starts selling bread next week"),
    "others": ("I am telling everyone about the election", "I am telling my neighbours about the harvest"),
    "speech": ("Klaus Mueller told me about Valentine's Day", "Klaus Mueller told me about his research paper"),
    "feeling": ("I love the new mural downtown", "I am worried about the exam coming"),
    "invitation": (
        "I am eager to tell everyone to come to the party at Hobbs Cafe on February 14th at 5pm",
        "I want to ask all my friends to join the book swap at the library on Tuesday at 3 pm",
    ),
    "candidacy": (
        "I am telling people that I am running for the upcoming local mayor election",
        "I am telling people that I will stand in the upcoming school board vote",
    ),
}


@pytest.mark.parametrize("rule", sorted(PARAPHRASES), ids=sorted(PARAPHRASES))
def test_each_rule_scores_a_paraphrase_alike(rule):
    tracked, other = PARAPHRASES[rule]
    assert importance_of(tracked) == importance_of(other)


def test_the_features_add_up_from_idle_to_a_plan_told_to_others():
    assert importance_of("the bed is idle") == 1
    assert importance_of("Maria Lopez is studying") == 2  # someone seen at what they do
    assert importance_of("I read a book") == 3  # a thought
    assert importance_of("I read a book") < importance_of("I will read a book tomorrow")  # a time ahead
    assert importance_of("I will read a book tomorrow") < importance_of("I will read a book with friends tomorrow")
    told = "Ayesha Khan told me she will read a book with friends tomorrow and she is excited"
    assert importance_of("I will read a book with friends tomorrow") < importance_of(told) <= 9


def test_no_topic_word_scores_on_its_own():
    """A party, an election or a crush are words like any other: they add nothing by themselves."""
    for topic in ("party", "election", "mayor", "crush", "Valentine's Day", "festival"):
        assert importance_of(f"I thought about the {topic}") == importance_of("I thought about the weather")


def test_the_talker_opens_with_what_it_retrieved_for_the_listener_not_its_status():
    isabella = identity("Isabella Rodriguez")
    news = "Giorgio Rossi is moving to Boston next week and wants to say goodbye to his friends."
    memories = ("the coffee machine is being used by Isabella Rodriguez", news)
    request = ConversationLineRequest(isabella, "Maria Lopez", "Hobbs Cafe", NOON, memories, ())
    opening = line(request, seed=0)["line"]
    assert opening == f"Hi Maria! {news}"
    assert "party" not in opening.lower()  # her status's party is not what she retrieved for Maria


def test_news_is_passed_on_in_whole_sentences_without_who_told_whom():
    memory = "About Eddy Lin: Eddy Lin told me: the library opens a pottery class on Friday; Eddy Lin is cooking"
    assert news_in(memory) == ["the library opens a pottery class on Friday", "Eddy Lin is cooking"]
    chat = "conversation with Maria Lopez: Maria Lopez and Klaus Mueller talked: the new bakery opens downtown."
    assert news_in(chat) == ["the new bakery opens downtown."]
    long = "I have a secret wish " + "and a very long story " * 20 + "that ends here. Then more."
    (piece,) = news_in(long)
    assert piece.endswith("that ends here.")  # never cut mid-sentence


def test_what_someone_said_is_kept_and_retold_in_the_third_person_with_their_name():
    said = "I'm planning a dinner at my place on Friday, and you should come!"
    kept = third_person(said, "Eddy Lin", "Maria Lopez")
    assert kept == "Eddy Lin is planning a dinner at Eddy's place on Friday, and I should come!"
    assert third_person("I don't like it when people fight at my bar", "Arthur Burton") == (
        "Arthur Burton doesn't like it when people fight at Arthur's bar"
    )
    told = "Arthur Burton told me: Arthur Burton doesn't like it when people fight at Arthur's bar"
    request = ConversationLineRequest(identity("Hailey Johnson"), "Rajiv Patel", "the Ville:pub", NOON, (told,), ())
    assert line(request, seed=0)["line"] == (
        "Hi Rajiv! Arthur Burton doesn't like it when people fight at Arthur's bar."
    )


def test_a_speaker_retells_what_others_said_of_it_in_its_own_voice():
    kept = third_person("I have a secret crush on Abigail Chen but I haven't asked her out.", "Francisco Lopez")
    assert kept == "Francisco Lopez has a secret crush on Abigail Chen but Francisco hasn't asked her out."
    assert own_voice(kept, "Francisco Lopez") == "I have a secret crush on Abigail Chen but I haven't asked her out."
    assert (
        own_voice(kept, "Abigail Chen")
        == "Francisco Lopez has a secret crush on me but Francisco hasn't asked her out."
    )
    assert (
        own_voice("Francisco Lopez thinks Abigail Chen is cute.", "Abigail Chen") == "Francisco Lopez thinks I am cute."
    )
    assert (
        own_voice("Eddy Lin has known Eddy's neighbours for years.", "Eddy Lin")
        == "I have known my neighbours for years."
    )
    # Another person of the same first name is not the speaker.
    said = "Rhea Brennan is moving, and Rhea's house is for sale."
    assert own_voice(said, "Rhea Delgado") == said
    # "I and Francisco Lopez are": a compound subject keeps its verb.
    assert third_person("I and Francisco Lopez are housemates.", "Rajiv Patel") == (
        "Rajiv Patel and Francisco Lopez are housemates."
    )


def test_the_listener_keeps_each_line_whole_in_the_third_person_and_the_summary_keeps_the_whole_fact():
    lines = (
        ("Isabella Rodriguez", "Hi Maria! I'm hosting a Valentine's Day party at Hobbs Cafe on February 14th at 5pm."),
        ("Maria Lopez", "Hi! I am well"),
        ("Isabella Rodriguez", "You should bring Klaus, he would like it."),
    )
    summary = summarize(ConversationSummaryRequest("Isabella Rodriguez", "Maria Lopez", lines), seed=0)
    assert {item["name"]: item["takeaway"] for item in summary["takeaways"]}["Maria Lopez"] == (
        "Isabella Rodriguez told me: Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on "
        "February 14th at 5pm; I should bring Klaus, he would like it"
    )
    assert summary["summary"] == (
        "Isabella Rodriguez and Maria Lopez talked: Isabella Rodriguez is hosting a Valentine's Day party at Hobbs "
        "Cafe on February 14th at 5pm"
    )


def test_a_sentence_about_oneself_turns_whole_into_the_first_person():
    """The possessive and later mentions turn with the subject; a pair puts the other first ("X and I")."""
    assert own_voice("Eddy Lin has known Eddy's next door neighbours, the Moores, for years", "Eddy Lin") == (
        "I have known my next door neighbours, the Moores, for years"
    )
    assert own_voice("Tom Moreno knows of Tamara Taylor but Tom hasn't really chatted with her", "Tom Moreno") == (
        "I know of Tamara Taylor but I haven't really chatted with her"
    )
    assert own_voice("Hailey Johnson and Latoya Williams are housemates", "Hailey Johnson") == (
        "Latoya Williams and I are housemates"
    )
    assert own_voice("Maria Lopez likes Eddy's new song", "Eddy Lin") == "Maria Lopez likes my new song"


def test_a_pair_with_the_speaker_is_retold_as_a_pair():
    """'I and X are' keeps its plural verb; a later 'we' is 'they' (never 'ands', 'twoes')."""
    assert third_person("I and Francisco Lopez are housemates", "Hailey Johnson") == (
        "Hailey Johnson and Francisco Lopez are housemates"
    )
    said = "Rajiv Patel and I are housemates and we are somewhat close"
    assert (
        third_person(said, "Abigail Chen") == "Rajiv Patel and Abigail Chen are housemates and they are somewhat close"
    )
    assert third_person("Francisco Lopez is my housemate and we grew up together", "Hailey Johnson") == (
        "Francisco Lopez is Hailey's housemate and they grew up together"
    )
    assert to_first_person("You and Rajiv Patel are friends and you two are close") == (
        "Rajiv Patel and I are friends and we are close"
    )


def test_notes_to_the_planner_and_emphasis_are_not_said():
    assert news_in("For planning, I frequent the bakery for writing") == ["I frequent the bakery for writing"]
    assert news_in("In terms of my daily plans, I walk in the park at noon") == ["I walk in the park at noon"]
    request = ConversationLineRequest(
        identity("Carmen Ortiz"), "Tamara Taylor", "home", NOON, ("I am hosting a *book swap on Friday at 3 pm*",), ()
    )
    assert line(request, seed=0)["line"] == "Hi Tamara! I am hosting a book swap on Friday at 3 pm."


def test_what_people_happen_to_be_doing_and_what_the_listener_knows_of_themself_are_no_news():
    memories = (
        "Francisco Lopez is rehearsing (planning the work)",
        "Abigail Chen is waiting for Francisco Lopez to finish having lunch",
        "Latoya Williams is talking with Hailey Johnson",
        "I had a short chat with Hailey Johnson.",
        "conversation with Rajiv Patel: Rajiv Patel and Latoya Williams talked about how they are doing",
        "Tamara Taylor told me: Tamara Taylor has known the bakery's owner for years",
    )
    request = ConversationLineRequest(identity("Carmen Ortiz"), "Tamara Taylor", "home", NOON, memories, ())
    assert line(request, seed=0)["line"] == "Hi Tamara! How are you doing?"


def test_nothing_said_in_a_talk_is_said_again_in_another_voice_or_echoed():
    """A retelling of what the partner said of themself, or the same fact of oneself, is not said again."""
    lines = (("Mei Lin", "Hi Eddy! I've known my neighbours, the Moores, for a few years."),)
    retold = ("Mei Lin told me: Mei Lin has known Mei's neighbours, the Moores, for a few years",)
    own = ("I have known my neighbours, the Moores, for a few years",)
    for memories in (retold, own):
        request = ConversationLineRequest(identity("Eddy Lin"), "Mei Lin", "home", NOON, memories, lines)
        assert line(request, seed=0)["line"] == GOODBYE


def test_news_the_partner_told_is_not_told_back_to_them():
    told = ("Maria Lopez told me: the bakery on Main Street closes on Friday",)
    back = ConversationLineRequest(identity("Klaus Mueller"), "Maria Lopez", "home", NOON, told, ())
    assert line(back, seed=0)["line"] == "Hi Maria! How are you doing?"
    onward = ConversationLineRequest(identity("Klaus Mueller"), "Ayesha Khan", "home", NOON, told, ())
    assert line(onward, seed=0)["line"] == "Hi Ayesha! The bakery on Main Street closes on Friday."
