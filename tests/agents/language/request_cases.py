"""The request cases the language tests share: one request of every kind for Isabella at Hobbs Cafe, and answers a
request's parser must refuse, each with the words of its refusal."""

import json

from agents.language import requests as asks
from agents.language.answers import PlaceOption, PlanBlock
from tests.agents.personas import DAY, NOON, identity

ISABELLA = identity("Isabella Rodriguez")
CAFE = PlaceOption("Hobbs Cafe", "cafe", ("behind the cafe counter", "piano"))
HOME = PlaceOption("Isabella Rodriguez's apartment", "main room", ("bed", "desk"))
PARTY = "I am excited to be planning a Valentine's Day party at *Hobbs Cafe on February 14th from 5pm*"
LINES = (("Isabella Rodriguez", "Hi Maria! " + PARTY), ("Maria Lopez", "That sounds lovely!"))

REQUESTS = {
    "importance": asks.ImportanceRequest(ISABELLA, ("the bed is idle", PARTY)),
    "wake_up": asks.WakeUpRequest(ISABELLA),
    "day_plan": asks.DayPlanRequest(ISABELLA, DAY, 6, ""),
    "hourly_schedule": asks.HourlyScheduleRequest(
        ISABELLA, DAY, 6, ("from 8:00 am to 8:00 pm, working at Hobbs Cafe",)
    ),
    "decompose": asks.DecomposeRequest(ISABELLA, "working at Hobbs Cafe", 480, 60, "having breakfast", "having lunch"),
    "action": asks.ActionRequest(
        ISABELLA, ("working at Hobbs Cafe (serving customers)", "sleeping"), "Hobbs Cafe", "cafe", (CAFE, HOME)
    ),
    "reaction": asks.ReactionRequest(
        ISABELLA,
        NOON,
        "serving coffee",
        "Maria Lopez",
        "studying",
        ("Maria Lopez is a loyal friend to me",),
        shared_place="the Ville:Hobbs Cafe:cafe:behind the cafe counter",
    ),
    "object_reaction": asks.ObjectReactionRequest(
        ISABELLA,
        NOON,
        "serving coffee",
        "the Ville:Hobbs Cafe:cafe:behind the cafe counter",
        "the Ville:Hobbs Cafe:cafe:cooking area",
        "burning",
        ("the cooking area is burning",),
    ),
    "conversation_line": asks.ConversationLineRequest(
        ISABELLA, "Maria Lopez", "Hobbs Cafe", NOON, (PARTY, "I love my work"), ()
    ),
    "conversation_summary": asks.ConversationSummaryRequest("Isabella Rodriguez", "Maria Lopez", LINES),
    "schedule_rewrite": asks.ScheduleRewriteRequest(
        ISABELLA, 600, "talking with Maria Lopez", 5, (PlanBlock("working", 60),)
    ),
    "reflection_questions": asks.ReflectionQuestionsRequest(ISABELLA, ("Maria Lopez is studying", PARTY), 3),
    "insights": asks.InsightsRequest(
        ISABELLA,
        (("What do I know about Maria Lopez?", (3, 7)), ("What is Isabella planning?", (7,))),
        ((3, "Maria Lopez is studying"), (7, PARTY)),
    ),
    "day_summary": asks.DaySummaryRequest(ISABELLA, DAY, ((NOON, "Maria Lopez told me: she is coming to the party"),)),
    "interview": asks.InterviewRequest(ISABELLA, NOON, "Are you planning a party?", (PARTY, "I love my work")),
    "scored": asks.ScoredRequest(
        asks.ReactionRequest(ISABELLA, NOON, "serving coffee", "Maria Lopez", "studying"),
        "Isabella Rodriguez",
        ("Maria Lopez is studying", PARTY),
    ),
    "judge": asks.JudgeRequest(
        "Who is hosting a party?", "Isabella owns Hobbs Cafe", "Isabella, at 5 pm at Hobbs Cafe", "no idea"
    ),
}

CAFE_CHOICE = {
    "sector": "hobbs cafe",
    "arena": "CAFE",
    "game_object": "Behind the cafe counter",
    "emoji": "☕",
    "predicate": "serve",
    "target": "customers",
    "object_state": "being used to serve customers",
    "importance": 3,
}
# What a request's parser checks that its schema does not say, since it varies from call to call (the schema stays the
# same for a prompt cache): how many answers, the places offered, the questions asked, the two names. The parser's
# refusal of a schema-valid answer names one of these (its message goes to the repair prompt).
CALL_SPECIFIC = {
    "importance": r"expected \d+ scores",
    "action": r"expected \d+ actions|is not one of the places listed|is not an object of",
    "conversation_summary": r"takeaways must name",
    "insights": r"question \d+ is not one of the \d+ asked",
    "interviews": r"answers: give exactly \d+",  # one answer per item: how many this call asks
    "fact_checks": r"answers: give exactly \d+",
}
# Wrong answers: (kind, answer, words of the parser's refusal).
WRONG = [
    ("importance", '{"scores": [3]}', "expected 2 scores, got 1"),
    ("wake_up", '{"hour": 25}', "hour"),
    ("day_plan", '{"plan": ["a", "b", "c"]}', "5 to 8 items, got 3"),
    ("day_plan", json.dumps({"plan": ["x"] * 9}), "5 to 8 items, got 9"),
    ("action", json.dumps({"actions": [CAFE_CHOICE]}), "expected 2 actions, got 1"),
    ("action", json.dumps({"actions": [{**CAFE_CHOICE, "game_object": "piano stool"}] * 2}), "'piano stool' is not"),
    ("reaction", '{"choice": "dance"}', "choice"),
    ("conversation_line", '{"line": ""}', "line"),
    ("conversation_summary", '{"summary": "s", "takeaways": {"Maria Lopez": "x"}}', "missing Isabella Rodriguez"),
    ("reflection_questions", '{"questions": ["Only one?"]}', "expected 3 questions, got 1"),
    ("insights", '{"insights": [{"insight": "x", "evidence": ["memory three"]}]}', "evidence"),
    ("judge", '{"choice": "c"}', "choice"),
]
