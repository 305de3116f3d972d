"""Valid answers for every request type from the prompt text alone, for the loopback test server.

A stand-in for a real model in tests and benchmarks of the litellm path: it reads the task line each template
starts with and what the prompt lists (memories, places, minutes) and answers in the format asked for.
"""

import json
import re


def _numbered(text: str) -> list[str]:
    return re.findall(r"^\d+\. (.+)$", text, flags=re.MULTILINE)


def _places(text: str) -> list[tuple[str, str, str]]:
    found = []
    for sector, arena, objects in re.findall(r"^- (.+?) > (.+?): (.+)$", text, flags=re.MULTILINE):
        found.append((sector, arena, "" if objects == "(no objects)" else objects.split(", ")[0]))
    return found


# How a request asking for importance ratings on the side (requests/riding.py) says so.
RIDER = "Also rate how important each of these"


def answer_for_messages(messages: list[dict[str, str]]) -> str:
    """A JSON answer that the request type of these messages parses, with ratings if the prompt asks for them too."""
    prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user" and "Task:" in m["content"]), "")
    task, _, rider = prompt.partition(RIDER)
    answer = _answer(task)
    if not rider:
        return answer
    return json.dumps({**json.loads(answer), "scores": [5] * len(_numbered(rider))})


def _answer(prompt: str) -> str:  # noqa: PLR0911, PLR0912 - one branch a task
    task = re.search(r"Task: (.+)", prompt)
    task = task.group(1) if task else ""
    items = _numbered(prompt)
    minutes = re.search(r"\((\d+) minutes\)", prompt)
    if "importance" in task:
        return json.dumps({"scores": [5] * len(items)})
    if "wakes up" in task:
        return json.dumps({"hour": 7})
    if "broad strokes" in task:
        return json.dumps({"plan": [f"from {h}:00 am to {h + 1}:00 am, working" for h in range(7, 12)]})
    if "hourly schedule" in task:
        blocks = [("sleeping", 420), ("getting ready", 60), ("working", 540), ("relaxing", 360), ("sleeping", 60)]
        return json.dumps({"schedule": [{"activity": a, "minutes": m} for a, m in blocks]})
    if "short actions" in task:
        total = int(minutes.group(1)) if minutes else 60
        return json.dumps({"actions": [{"action": "doing the task", "minutes": 15}] * max(1, total // 15)})
    if "where each action" in task:
        sector, arena, game_object = (_places(prompt) or [("", "", "")])[0]
        count = int(re.search(r"the actions below \((\d+)\)", prompt).group(1))
        choice = {"sector": sector, "arena": arena, "game_object": game_object, "emoji": "🙂", "predicate": "use",
                  "target": game_object, "object_state": "in use", "importance": 3}  # fmt: skip
        return json.dumps({"actions": [choice] * count})
    if "out of the ordinary" in task:
        return json.dumps({"react": True, "reason": "it needs seeing to", "activity": "seeing to it", "minutes": 10})
    if "react" in task:
        return json.dumps(
            {
                "choice": "talk",
                "reason": "to say hello",
                "relationship": "we are neighbours",
                "line": "Hello! How are you?",
            }
        )
    if "next line" in task:
        said = len(
            re.findall(r"^[A-Z][a-z]+ [A-Z][a-z]+: ", prompt.rsplit("The conversation so far:", maxsplit=1)[-1], re.M)
        )
        turn = {"line": "Hello! Nice to see you.", "end": said >= 3}
        return json.dumps({"relationship": "we are neighbours", **turn} if '"relationship"' in prompt else turn)
    if "summarize a conversation" in task:
        first, second = re.search(r"between (.+?) and (.+?):", prompt).groups()
        rating = {"chat": 3, "takeaway": 4}
        return json.dumps(
            {
                "summary": "a friendly chat",
                "takeaways": {first: "we said hello", second: "we said hello"},
                "importance": {first: rating, second: rating},
            }
        )
    if "rewrite the rest" in task:
        total = int(re.search(r"next\s+(\d+)\s+minutes", prompt).group(1))
        inserted = re.search(r'starts "(.+?)", which takes (\d+) minutes', prompt)
        rest = total - int(inserted.group(2))
        schedule = [{"activity": inserted.group(1), "minutes": int(inserted.group(2))}]
        return json.dumps({"schedule": schedule + ([{"activity": "carrying on", "minutes": rest}] if rest else [])})
    if "questions worth" in task:
        count = re.search(r"what are the (\d+) most salient", prompt)
        asked = ("What matters to me?", "Who are my friends?", "What am I working on?")
        total = int(count.group(1)) if count else len(asked)
        return json.dumps({"questions": [asked[index % len(asked)] for index in range(total)]})
    if "insights" in task:
        ids = [int(i) for i in re.findall(r"^\[(\d+)\]", prompt, flags=re.MULTILINE)][:2]
        insight = {"question": 1, "insight": "I keep busy with my work.", "evidence": ids, "importance": 5}
        return json.dumps({"insights": [insight]})
    if "summarize the day" in task:
        return json.dumps({"summary": "A normal day.", "currently": "going about my life"})
    if "several interview questions" in task or "shows its fact" in task:  # the evaluation's, several at once
        one = {"answer": "I am doing well."} if "interview" in task else {"reason": "it says so", "shows": True}
        asked = re.findall(r"^\d+\. (?:An interviewer asked|.*\(memories: [^)]*\)$)", prompt, flags=re.MULTILINE)
        return json.dumps({"answers": [one] * len(asked)})
    if "for each of" in task and "rank answers" in task:
        questions = re.split(r"^Question \d+: ", prompt, flags=re.MULTILINE)[1:]
        labels = [re.findall(r"^Answer ([A-Z]):", question, flags=re.MULTILINE) for question in questions]
        return json.dumps(
            {"answers": [{"reason": "as shown", "ranking": [[label] for label in shown]} for shown in labels]}
        )
    if "interviewer" in task:
        return json.dumps({"answer": "I am doing well, thank you."})
    if "rank answers" in task:
        labels = re.findall(r"^Answer ([A-Z]):", prompt, flags=re.MULTILINE)
        return json.dumps({"reason": "the first is the most specific", "ranking": [[label] for label in labels]})
    if "believable" in task:
        return json.dumps({"choice": "a", "reason": "more specific"})
    if "shows a fact" in task:
        return json.dumps({"reason": "the answer says so", "shows": True})
    if "memories support" in task:
        return json.dumps({"reason": "the first memory says so", "supported_by": [1] if items else []})
    return json.dumps({"answer": "ok"})
