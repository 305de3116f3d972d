"""The offline mind's planning: a day from the lifestyle, the daily requirements and what the persona is up to.

Everything comes from the request's own fields. The day is drawn on a timeline of 5-minute slots in layers
(asleep, awake at home, routine, meals, work, events of the day), then read back as blocks.
"""

import re
from datetime import date

from agents.identity import Identity
from agents.language.english.morphology import verb_after_name
from agents.language.english.words import MONTHS, WEEKDAYS
from agents.language.offline.words import lifestyle_hour, stable_fraction, times_in
from agents.language.requests.common import clock
from agents.language.requests.planning import (
    LONGEST_ACTIVITY,
    DayPlanRequest,
    DecomposeRequest,
    HourlyScheduleRequest,
    ScheduleRewriteRequest,
    WakeUpRequest,
)

SLOT = 5
SLOTS = 24 * 60 // SLOT
# Bedtime when neither the lifestyle nor the plan says (the most common bedtime in the lifestyles).
DEFAULT_BEDTIME = 23
# Dinner when the lifestyle names no hour (the most common dinner hour in the lifestyles is 5-6 pm).
DINNER_HOUR = 18
# The day plan request asks for 5 to 8 broad strokes (the paper).
MOST_PLAN_ITEMS = 8
# Awake time with nothing planned: the first to give way when a plan has too many items.
FILLER = "relaxing at home"
# Minutes of such time a neighbouring item may absorb (longer, and the neighbour would no longer describe it).
LONGEST_ABSORBED_FILLER = 60
# A place's proper name: capitalized words, perhaps joined by "of" or "for", or by "and" within a name ("The Rose and
# Crown Pub", never "Johnson Park and Carmen is ...").
_PLACE_NAME = r"[A-Z][\w']*(?:\s+(?:(?:of|for)\s+)?[A-Z][\w']*|\s+and\s+[A-Z][\w']*\s+[A-Z][\w']*)*"
_PLACE = re.compile(rf"\b(?:opens|goes to|go to|at|to)\s+(?:the\s+)?({_PLACE_NAME})")
OCCUPATIONS = (
    ("student", "studying"), ("professor", "preparing lectures"), ("teacher", "preparing lessons"),
    ("painter", "painting"), ("artist", "working on art"), ("animator", "working on animations"),
    ("photographer", "editing photographs"), ("writer", "writing"), ("author", "writing"), ("poet", "writing poems"),
    ("philosopher", "reading and thinking"), ("mathematician", "working on math problems"),
    ("engineer", "programming"), ("lawyer", "working on tax cases"), ("actor", "rehearsing"),
    ("housewife", "taking care of the house"), ("retired", "reading"), ("keeper", "working at the shop"),
    ("owner", "working at the shop"), ("bartender", "preparing the bar"),
)  # fmt: skip


def wake_up(request: WakeUpRequest, seed: int) -> dict:
    """The wake-up hour written in the lifestyle ("awakes up around 6am"), 7 if none."""
    del seed
    return {"hour": int(lifestyle_hour(request.identity.lifestyle, r"(?:awakes?|wakes?)\s+up", 7))}


def day_plan(request: DayPlanRequest, seed: int) -> dict:
    """The day's broad strokes, drawn from the persona's lifestyle, requirements and status."""
    del seed
    return {"plan": plan_items(day_blocks(request.identity, request.today, request.wake_hour))}


def hourly_schedule(request: HourlyScheduleRequest, seed: int) -> dict:
    """The whole day in blocks, read back from the day plan."""
    del seed
    blocks = blocks_from_plan(request.day_plan, request.wake_hour)
    return {"schedule": [{"activity": activity, "minutes": minutes} for activity, minutes in blocks]}


def rewrite(request: ScheduleRewriteRequest, seed: int) -> dict:
    """The inserted activity first, then what remains of the schedule after its minutes."""
    del seed
    schedule = [{"activity": request.inserted, "minutes": request.inserted_minutes}]
    skip = request.inserted_minutes
    for block in request.remaining:
        kept = block.minutes - min(skip, block.minutes)
        skip -= block.minutes - kept
        if kept:
            schedule.append({"activity": block.activity, "minutes": kept})
    return {"schedule": schedule}


def day_blocks(identity: Identity, today: date, wake: int) -> list[tuple[int, int, str]]:
    """The day as (start minute, end minute, activity), awake parts only."""
    timeline = ["sleeping"] * SLOTS
    bed = lifestyle_hour(identity.lifestyle, r"goes to bed", DEFAULT_BEDTIME)
    bed = bed + 24 if bed < wake else bed
    _paint(timeline, wake, min(bed, 24), FILLER)
    if bed > 24:
        _paint(timeline, 0, bed - 24, "staying up late at home")
    _paint(timeline, wake, wake + 1, "waking up and getting ready")
    _paint(timeline, wake + 1, wake + 1.5, "having breakfast")
    start, end, work = work_block(identity, wake)
    _paint(timeline, start, end, work)
    _paint(timeline, 12, 13, "having lunch")
    dinner = lifestyle_hour(identity.lifestyle, r"eats dinner", -1)
    if dinner < 0:  # no habit given: the usual hour, or right after a shift that runs through it
        dinner = end if start <= DINNER_HOUR < end else DINNER_HOUR
    _paint(timeline, dinner, dinner + 1, "having dinner")
    for start, end, activity in events_today(identity, today):
        _paint(timeline, start, end, activity)
    return _runs(timeline)


def _runs(timeline: list[str]) -> list[tuple[int, int, str]]:
    """A timeline of slots as (start minute, end minute, activity) for each run of one activity."""
    blocks, start = [], 0
    for index in range(1, SLOTS + 1):
        if index == SLOTS or timeline[index] != timeline[start]:
            blocks.append((start * SLOT, index * SLOT, timeline[start]))
            start = index
    return blocks


def _paint(timeline: list[str], start: float, end: float, activity: str) -> None:
    for slot in range(max(0, round(start * 60 / SLOT)), min(SLOTS, round(end * 60 / SLOT))):
        if timeline[slot] != "sleeping" or activity.startswith(("staying", "relaxing")):
            timeline[slot] = activity


def work_block(identity: Identity, wake: int) -> tuple[float, float, str]:
    """The working hours from the daily requirements (8 hours from a lone start), else 9 (or after breakfast) to 5."""
    requirement = identity.daily_plan_req
    place = next((place.strip() for place in _PLACE.findall(requirement) if place.strip() not in identity.name), "")
    kinds = (("teach", "teaching"), ("class", "taking classes"), (r"\bopens?\b|counter|behind", "working"))
    activity = next((doing for kind, doing in kinds if re.search(kind, requirement.lower())), occupation(identity))
    activity += f" at {place}" if place else ""
    times = times_in(requirement)
    if not times:
        start = max(9, wake + 1.5)
        return start, max(17, start + 4), activity
    end = times[1] if len(times) > 1 and times[1] > times[0] else times[0] + 8
    return times[0], min(end, 22), activity


def occupation(identity: Identity) -> str:
    """What the persona's occupation has it do, from its background ("a student ..." -> "studying")."""
    lower = identity.learned.lower()
    return next((doing for word, doing in OCCUPATIONS if word in lower), "working on personal projects")


# An event with only a start time lasts this many hours (the day plan's smallest stroke).
EVENT_HOURS = 1
_CLOCK = r"\d{1,2}(?::\d\d)?\s*(?:am|pm)|noon|midnight"
# When a sentence says a thing happens: its date, weekday and clock times, which the plan item states by its times.
_WHEN = re.compile(
    rf",?\s*\b(?:(?:on|this|next)\s+(?:{WEEKDAYS})|(?:on\s+)?(?:{MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,\s*\d{{4}})?|"
    rf"today|tomorrow|tonight|(?:at|from|between|by|until|starting at)\s+(?:{_CLOCK})"
    rf"(?:\s*(?:to|until|till|-|and)\s*(?:{_CLOCK}))?)",
    re.IGNORECASE,
)
# A dated plan's clause, its dates and times taken out: who (a name, or a pronoun for the persona), its verb, what
# happens, and where when it names a place ("Isabella Rodriguez is having a party at Hobbs Cafe"); a label before it
# ("Lately:") is not the subject.
_EVENT = re.compile(
    r"^(?:[A-Z][a-z]+:\s*)?(?:(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)|I|She|He|They)\s+"
    r"(?P<verb>is|am|are|'m|will be|will|was)\s+(?:planning (?:on|to) )?(?:going to |about to )?(?P<what>[^,;]+?)"
    rf"(?:(?P<where> (?:at|in) (?:the )?{_PLACE_NAME})[^,;]*)?(?:[,;]|$)"
)


def events_today(identity: Identity, today: date) -> list[tuple[float, float, str]]:
    """The first event the persona's status sets for `today` with a clock time, as a plan item of its own time.

    Any dated plan is read alike: "Isabella Rodriguez is having a party at Hobbs Cafe on February 14th at 5pm" in
    Isabella's own status is her "having a party at Hobbs Cafe" from 5 pm; in anyone else's it is "joining Isabella
    Rodriguez, who is having a party at Hobbs Cafe" (what one joins, named), never her role. Its place is whatever the
    sentence names.
    """
    text = identity.currently.replace("*", "")
    day = rf"\b(?:{today:%B} {today.day}(?:st|nd|rd|th)?\b|today\b|(?:on|this) {today:%A}\b)"
    for sentence in re.split(r"(?<=[.;!])\s+", text):
        times = times_in(sentence)
        event = times and re.search(day, sentence, re.IGNORECASE) and _EVENT.match(_WHEN.sub("", sentence).strip(" ."))
        if not event:
            continue
        name, where = event["name"], event["where"] or ""
        own = name is None or name in (identity.name, identity.first_name)
        what = event["what"] if own else f"joining {name}, who {verb_after_name(event['verb'])} {event['what']}"
        activity = f"{what[: LONGEST_ACTIVITY - len(where)].rstrip()}{where}"
        start = times[0]
        end = times[1] if len(times) > 1 and times[1] > start else start + EVENT_HOURS
        return [(start, min(end, 24), activity)]
    return []


def plan_items(blocks: list[tuple[int, int, str]]) -> list[str]:
    """Day-plan items "from 8:00 am to 12:00 pm, working at Hobbs Cafe" for the awake blocks, at most 8.

    Past 8 items a short time at home with nothing planned joins its neighbour in time, else the shortest item
    does ("waking up and getting ready, then having breakfast").
    """
    awake = [list(block) for block in blocks if block[2] != "sleeping"]
    while len(awake) > MOST_PLAN_ITEMS:
        joinable = [index for index in range(1, len(awake)) if awake[index - 1][1] == awake[index][0]]
        if not joinable:
            break
        merged = min(
            (index for index in range(len(awake)) if index in joinable or index + 1 in joinable),
            key=lambda index: (not _short_filler(awake[index]), awake[index][1] - awake[index][0]),
        )
        second = merged if merged in joinable else merged + 1
        (start, _, first), (_, end, then) = awake[second - 1], awake[second]
        activity = then if first == FILLER else first if then == FILLER else f"{first}, then {then}"
        awake[second - 1 : second + 1] = [[start, end, activity]]
    return [f"from {clock(start)} to {clock(end)}, {activity}" for start, end, activity in awake]


def _short_filler(block: list) -> bool:
    start, end, activity = block
    return activity == FILLER and end - start <= LONGEST_ABSORBED_FILLER


_ITEM = re.compile(r"from (\d{1,2}:\d{2} [ap]m) to (\d{1,2}:\d{2} [ap]m),\s*(.+)", re.IGNORECASE)


def blocks_from_plan(items: tuple[str, ...], wake: int) -> list[tuple[str, int]]:
    """The whole day as (activity, minutes) from plan items.

    Unplanned time is asleep before waking and after the last item of the day (the plan ends at bedtime; 11 pm if
    no item has times), at home in between.
    """
    timeline = ["sleeping"] * SLOTS
    planned = []
    for item in items:
        match = _ITEM.search(item)
        if match:
            start, end = (round(60 * times_in(text)[0]) for text in match.group(1, 2))
            planned.append((start, end if end > start else 24 * 60, match.group(3).strip()))
    bedtime = max((end for start, end, _ in planned if start >= wake * 60), default=DEFAULT_BEDTIME * 60)
    for slot in range(wake * 60 // SLOT, bedtime // SLOT):
        timeline[slot] = FILLER
    for start, end, activity in planned:
        for slot in range(start // SLOT, end // SLOT):
            timeline[slot] = activity
    return [(activity, end - start) for start, end, activity in _runs(timeline)]


STEPS = (
    (("getting ready", "waking up", "routine"), ("brushing teeth", "taking a shower", "getting dressed")),
    (("breakfast", "lunch", "dinner", "eat", "meal"), ("preparing food", "eating", "cleaning up")),
    (("cafe", "counter", "working at", "shop", "store", "pub", "pharmacy"),
     ("serving customers", "preparing orders", "tidying the counter", "restocking")),
    (("class",), ("listening to the lecture", "taking notes", "asking questions")),
    (("teach",), ("giving a lecture", "answering questions", "grading papers")),
    (("study", "reading", "thinking"), ("reading", "taking notes", "reviewing the material")),
    (("paint", "art", "animation", "photograph"), ("sketching ideas", "working on a piece", "cleaning up the tools")),
    (("writ", "poem"), ("drafting", "revising", "reading over the text")),
    (("relax", "staying up", "home"), ("reading a book", "listening to music", "tidying up")),
    (("program", "math", "tax", "rehears", "project", "house"), ("planning the work", "focusing on the task",
                                                                  "checking the results")),
)  # fmt: skip


def decompose(request: DecomposeRequest, seed: int) -> dict:
    """Actions of 10-15 minutes for an activity, cycling through its usual steps."""
    lower = request.activity.lower()
    steps = next((steps for words, steps in STEPS if any(word in lower for word in words)), ("getting on with it",))
    actions, left, index = [], request.minutes, int(stable_fraction(seed, request.activity) * len(steps))
    while left > 0:
        length = min(left, 15 if (index + seed) % 2 else 10)
        actions.append({"action": steps[index % len(steps)], "minutes": length})
        left -= length
        index += 1
    return {"actions": actions}
