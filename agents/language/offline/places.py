"""The offline mind's choice of place: the known place whose words best match the action's.

A place the action names ("working at Hobbs Cafe") decides the sector, and so does a place the persona's own words
tie to that kind of action ("visits Hobbs Cafe for studying and eating"); otherwise words of the action pick the arena
and object by what they offer, in the map's own words (sleeping: a bed; studying: a desk, a library; eating: a
kitchen, a table), never a venue chosen for a kind of activity; home (for what one does at home, meals included) and
the current place break ties, then a stable hash of the request.
"""

import re

from agents.language.english.words import sentences_of
from agents.language.offline.salience import importance_of
from agents.language.offline.words import emoji_for, stable_fraction
from agents.language.requests import ActionRequest
from agents.language.requests.acting import PlaceOption

WHERE = {
    "sleep": ("bed",), "nap": ("bed",), "shower": ("shower", "bathroom"), "brushing": ("bathroom sink", "bathroom"),
    "teeth": ("bathroom sink",), "toilet": ("toilet",), "dress": ("closet", "wardrobe"), "getting ready": ("bathroom",),
    "cook": ("kitchen", "cooking area", "stove", "refrigerator"),
    "preparing food": ("kitchen", "cooking area", "stove", "refrigerator"),
    "breakfast": ("kitchen", "dining", "table", "refrigerator"),
    "lunch": ("kitchen", "dining", "table", "refrigerator"),
    "dinner": ("kitchen", "dining", "table", "refrigerator"), "eat": ("kitchen", "table", "refrigerator"),
    "coffee": ("kitchen", "coffee"),
    "stud": ("library", "desk", "classroom"), "class": ("classroom", "library"), "lecture": ("classroom",),
    "teach": ("classroom", "blackboard"), "notes": ("desk", "library"), "read": ("library", "bookshelf", "sofa"),
    "writ": ("desk",), "draft": ("desk",), "poem": ("desk",), "paint": ("easel", "art"), "sketch": ("easel", "desk"),
    "art": ("easel", "art"), "animation": ("computer", "desk"), "photograph": ("computer", "desk"),
    "piano": ("piano",), "music": ("piano", "music"), "program": ("computer", "desk"), "stream": ("computer", "desk"),
    "gam": ("computer", "game"), "run": ("park",), "exercise": ("park", "gym"), "walk": ("park", "garden"),
    "garden": ("garden",), "pub": ("pub", "bar"), "bar": ("bar",), "drink": ("bar",),
    "shop": ("store", "shelf"), "grocer": ("grocery",), "pharmacy": ("pharmacy",), "supplies": ("supply",),
    "customers": ("counter",), "serving": ("counter",), "orders": ("counter",), "restock": ("shelf",),
    "tidying the counter": ("counter",),
    "relax": ("sofa", "common room", "main room"), "staying up": ("sofa", "desk"), "music listening": ("sofa",),
    "tax": ("desk",), "math": ("desk",), "rehears": ("main room",), "house": ("kitchen", "common room"),
}  # fmt: skip
# The most a stable hash adds to a place's score: it breaks ties, never outweighs a word matched (2) or being here.
TIE_BREAK = 0.1
HOME_WORDS = ("sleep", "bed", "shower", "brush", "teeth", "dress", "getting ready", "home", "breakfast", "staying up",
              "lunch", "dinner", "eat", "meal", "coffee", "snack")  # fmt: skip


def choose_places(request: ActionRequest, seed: int) -> dict:
    """One place choice per action of the request, as the JSON the action template asks for.

    A step whose own words match nothing of any place ("painting (working on a piece)" where there is no easel) stays
    where a step of the same activity found what it asked for ("painting (sketching ideas)": the desk), not at
    whichever object a hash picks.
    """
    chosen = [_choose(request, action, seed) for action in request.actions]
    found = {}
    for action, (place, matched) in zip(request.actions, chosen, strict=True):
        if matched:
            found.setdefault(_activity(action), place)
    return {
        "actions": [
            _answer(request, action, place if matched else found.get(_activity(action), place))
            for action, (place, matched) in zip(request.actions, chosen, strict=True)
        ]
    }


def _activity(action: str) -> str:
    """The activity an action is a step of: "painting" of "painting (sketching ideas)"."""
    return action.split(" (", 1)[0].strip().lower()


def _choose(request: ActionRequest, action: str, seed: int) -> tuple[tuple[PlaceOption, str], bool]:
    """The place and object of one action, and whether a word of the action (or the persona's own words) decided it."""
    lower = action.lower()
    home = request.identity.living_area.split(":")
    wanted = [word for key, words in WHERE.items() if key in lower for word in words]
    named = any(_names(option.sector, lower) for option in request.places)
    usual = set() if named else _usual_places(request, set(wanted))
    homely = not named and not usual and any(word in lower for word in HOME_WORDS)  # else eaten where named
    best, best_score, best_matched = None, -1.0, False
    for option in request.places:
        sector_named = _names(option.sector, lower)
        at_home = len(home) > 2 and option.sector == home[1]
        own_room = at_home and option.arena == home[2]
        for game_object in option.objects or ("",):
            text = f"{option.arena} {game_object}".lower()
            matched = 4.0 * (sector_named or option.sector in usual) + sum(2.0 for word in wanted if word in text)
            score = matched + (6.0 * at_home + 1.0 * own_room) * homely
            score += 0.5 * ((option.sector, option.arena) == (request.current_sector, request.current_arena))
            if score + TIE_BREAK <= best_score:  # no tie-break draw can lift it over the best (a hash spared)
                continue
            score += stable_fraction(seed, action, option.sector, option.arena, game_object) * TIE_BREAK
            if score > best_score:
                best, best_score, best_matched = (option, game_object), score, matched > 0
    return best, best_matched


def _answer(request: ActionRequest, action: str, place: tuple[PlaceOption, str]) -> dict:
    """The answer for an action done at a place and object: what it does there, to what, and its object's state."""
    option, game_object = place
    core = _core(action)
    predicate, _, target = core.partition(" ")
    return {
        "sector": option.sector,
        "arena": option.arena,
        "game_object": game_object,
        "emoji": emoji_for(action),
        "predicate": predicate or "is",
        "target": target or game_object,
        "object_state": f"being used by {request.identity.name} for {core}" if game_object else "",
        "importance": importance_of(action),
    }


def _usual_places(request: ActionRequest, wanted: set[str]) -> set[str]:
    """Sectors the persona's own words tie to this kind of action ("visits Hobbs Cafe for studying and eating")."""
    if not wanted:
        return set()
    identity = request.identity
    usual = set()
    for sentence in sentences_of(f"{identity.currently} {identity.daily_plan_req} {identity.lifestyle}"):
        lower = sentence.lower()
        offered = {word for key, words in WHERE.items() if key in lower for word in words}
        if offered & wanted:
            usual.update(option.sector for option in request.places if _names(option.sector, lower))
    return usual


def _names(sector: str, action: str) -> bool:
    """Whether a (lower-case) action names a sector ("working at Hobbs Cafe")."""
    sector = sector.lower()
    return sector in action or sector.removeprefix("the ") in action


def _core(action: str) -> str:
    """The specific part of "working at the cafe (brewing coffee)": "brewing coffee"."""
    inner = re.search(r"\(([^)]*)\)\s*$", action)
    return (inner.group(1) if inner else action).strip()
