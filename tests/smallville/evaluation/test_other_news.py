"""A town with other news than the party or the candidacy: the offline agents pass it on in talk all the same."""

from datetime import datetime

import pytest

from smallville.model import SmallvilleModel
from smallville.scenario import TrackedFact

NEWS = "The town library is starting a free pottery class next Saturday morning, and everyone can sign up."


@pytest.mark.slow
def test_news_worded_otherwise_is_passed_on_in_talk():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing")
    isabella = model.by_name["Isabella Rodriguez"]
    isabella.identity = isabella.identity.with_currently(f"Isabella Rodriguez runs Hobbs Cafe. {NEWS}")
    model.run_until(datetime(2023, 2, 13, 14, 0))
    model.close()
    pottery = TrackedFact(id="pottery", description=NEWS, keywords=[["pottery"], ["class*"]])
    told = [e for e in model.event_log if e["kind"] == "line" and pottery.matches(e["text"])]
    assert told and told[0]["agent"] == "Isabella Rodriguez"
    listener = told[0]["partner"]
    kept = [node.description for node in model.by_name[listener].memories.stream if pottery.matches(node.description)]
    assert any(text.startswith("Isabella Rodriguez told me") for text in kept), kept
