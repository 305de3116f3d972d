"""News other than the party or the candidacy: the offline agents pass it on in talk by the very same rules.

The party seed of Isabella Rodriguez and a pottery class worded in the same shape score alike, are said alike by
her, and kept alike by her listener (in the third person, naming her); only the words differ. The held-out story
(tests/smallville/test_held_out_story.py) follows other news through a whole town.
"""

import json

from agents.language.offline import offline_answer
from agents.language.offline.salience import importance_of
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest
from tests.agents.personas import NOON, identity

PARTY = (
    "I am excited to be planning a Valentine's Day party at Hobbs Cafe on February 14th from 5pm and I am eager to "
    "tell everyone to come to the party"
)
POTTERY = (
    "I am excited to be starting a free pottery class at the town library on February 14th from 5pm and I am eager "
    "to tell everyone to come to the class"
)
ROUTINE = ("Maria Lopez is studying", "the piano is idle", "I love my work at Hobbs Cafe")
SWAP = {"planning a Valentine's Day party at Hobbs Cafe": "starting a free pottery class at the town library",
        "come to the party": "come to the class"}  # fmt: skip


def _told(news: str) -> tuple[str, str]:
    """What Isabella opens a talk with, holding `news` among routine memories, and what Maria keeps of it."""
    isabella = identity("Isabella Rodriguez")
    request = ConversationLineRequest(isabella, "Maria Lopez", "the Ville:Hobbs Cafe:cafe", NOON, (*ROUTINE, news))
    line = json.loads(offline_answer(request, seed=0))["line"]
    lines = (("Isabella Rodriguez", line), ("Maria Lopez", "Hi! I am fine."))
    summary = json.loads(offline_answer(ConversationSummaryRequest("Isabella Rodriguez", "Maria Lopez", lines), 0))
    return line, {item["name"]: item["takeaway"] for item in summary["takeaways"]}["Maria Lopez"]


def _swapped(text: str) -> str:
    for party, pottery in SWAP.items():
        text = text.replace(party, pottery)
    return text


def test_news_worded_otherwise_is_rated_said_and_kept_by_the_same_rules():
    assert importance_of(PARTY) == importance_of(POTTERY)
    party_line, party_kept = _told(PARTY)
    pottery_line, pottery_kept = _told(POTTERY)
    assert "pottery class" in pottery_line and pottery_line == _swapped(party_line)
    assert pottery_kept == _swapped(party_kept)
    assert pottery_kept.startswith("Isabella Rodriguez told me: Isabella Rodriguez is excited to be starting")
