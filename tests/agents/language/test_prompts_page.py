"""docs/prompts.md, one rendered prompt of each kind, is the current text: scripts/prompts_page.py wrote it."""

import importlib.util

import pytest

from agents.language.request import PROMPTS


def _script():
    spec = importlib.util.spec_from_file_location("prompts_page", PROMPTS.parents[2] / "scripts" / "prompts_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_prompts_page_is_up_to_date():
    script = _script()
    assert script.PAGE.read_text() == script.page(), "docs/prompts.md is stale: run scripts/prompts_page.py"


def test_the_prompts_page_shows_every_kind_of_the_simulation():
    text = _script().PAGE.read_text()
    kinds = ["action", "conversation_line", "conversation_summary", "day_plan", "day_summary", "decompose",
             "hourly_schedule", "importance", "insights", "reaction", "reflection_questions", "schedule_rewrite",
             "wake_up"]  # fmt: skip
    assert all(f"\n## {kind}\n" in text for kind in kinds)
