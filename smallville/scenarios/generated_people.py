"""People generated for a town: households, ages, occupations that fit its places, and whom each knows.

Deterministic for a seed and generic: names and traits come from generated_names.py; what a place is (a cafe, a
shop, a college, a park, a bar) is read from the words of its names on the map, so the same rules people any map,
drawn or generated. Homes are the sectors people sleep in (those with spawning points). Each person knows their
household, their colleagues and a neighbour; the result is a personas file (personas_file.py) a person could have
written, and is written out as one.
"""

import json
import random
from dataclasses import dataclass, field

import numpy as np

from environment import Ville
from smallville.scenarios.generated_names import FIRST_NAMES, LAST_NAMES, TRAITS
from smallville.scenarios.personas_file import PersonasFile, PersonRecord, TownRecord

# Household sizes and how often each is drawn (a small town's mix: many couples and singles, some families).
HOUSEHOLD_SIZES = {1: 3, 2: 4, 3: 2, 4: 1}
# What a public place is, from the words of its sector's, arenas' and objects' names (first match wins).
PLACE_KINDS = (
    ("college", ("college", "school", "university", "classroom", "lecture")),
    ("bar", ("pub", "bar", "tavern", "saloon")),
    ("cafe", ("cafe", "café", "coffee", "bakery", "diner")),
    ("shop", ("shop", "store", "market", "pharmacy", "supply", "grocer", "books")),
    ("park", ("park", "garden", "green", "square")),
)
# The jobs of each kind of place, most needed first: (occupation, daily requirement with {name} and {place}).
JOBS = {
    "cafe": (
        ("cafe owner", "{name} opens {place} at 7am and works behind the counter until 3pm."),
        ("barista", "{name} works behind the counter at {place} from 1pm to 7pm."),
    ),
    "shop": (
        ("shopkeeper", "{name} opens {place} at 9am and works behind the counter until 5pm."),
        ("shop assistant", "{name} works behind the counter at {place} from 12pm to 6pm."),
    ),
    "bar": (("bartender", "{name} works behind the bar at {place} from 4pm to 10pm."),),
    "college": (
        ("professor", "{name} teaches at {place} from 9am to 1pm."),
        ("professor", "{name} teaches at {place} from 10am to 2pm."),
    ),
    "park": (("gardener", "{name} works at {place} from 8am to 3pm."),),
    "workplace": (("clerk", "{name} works at {place} from 9am to 5pm."),),
}
STUDENT = ("student", "{name} takes classes at {place} from 10am to 2pm.")
# Occupations of those who work at home, and of those past working age.
AT_HOME = (("writer", "{name} writes at home every morning."), ("painter", "{name} paints at home every morning."),
           ("engineer", "{name} does programming work at home from 9am to 5pm."))  # fmt: skip
RETIRED = ("retired teacher", "")
RETIREMENT_AGE = 67


@dataclass
class Resident:
    """One person of a household before their occupation is known."""

    first: str
    last: str
    age: int
    young: bool  # a grown child of the household, of college age

    @property
    def name(self) -> str:
        """The full name."""
        return f"{self.first} {self.last}"


@dataclass
class Household:
    """People who share a home; `home` is its sector and `rooms` the sleeping rooms, once it has a house."""

    last: str
    members: list[Resident]
    home: str = ""
    rooms: list[str] = field(default_factory=list)


def draw_households(people: int, rng: random.Random) -> list[Household]:
    """Households holding `people` people in all: one or two adults, then grown children; full names unique."""
    sizes, weights = list(HOUSEHOLD_SIZES), list(HOUSEHOLD_SIZES.values())
    households: list[Household] = []
    taken: set[str] = set()
    left = people
    while left:
        size = min(left, rng.choices(sizes, weights)[0])
        last = rng.choice(LAST_NAMES)
        first_age = rng.randint(26, 78)
        members = []
        for index in range(size):
            young = index >= 2 or (index == 1 and size > 2 and rng.random() < 0.3)
            age = rng.randint(18, 23) if young else max(22, first_age + rng.randint(-6, 6))
            first = rng.choice(FIRST_NAMES)
            while f"{first} {last}" in taken:
                first = rng.choice(FIRST_NAMES)
            taken.add(f"{first} {last}")
            members.append(Resident(first, last, first_age if index == 0 else age, young))
        households.append(Household(last, members))
        left -= size
    return households


def place_kind(ville: Ville, sector: str) -> str:
    """What a public place is, from the words of its names: "cafe", "shop", "college", "bar", "park" or "workplace"."""
    words = " ".join([sector, *(f"{a} {' '.join(ville.objects(sector, a))}" for a in ville.arenas(sector))]).lower()
    return next((kind for kind, keys in PLACE_KINDS if any(key in words for key in keys)), "workplace")


def fill_homes(ville: Ville, households: list[Household]) -> None:
    """Give each household, in turn, a home sector of the map with enough sleeping rooms (shared when too few).

    Raises:
        ValueError: If the map has no home (no arena with a spawning point).
    """
    homes = [
        (sector, [arena for arena in ville.arenas(sector) if ville.spawn_tiles(f"{ville.world}:{sector}:{arena}")])
        for sector in ville.sectors()
    ]
    homes = [(sector, rooms) for sector, rooms in homes if rooms]
    if not homes:
        raise ValueError("the map has no home: no arena holds a spawning point ('Spawning Blocks')")
    for index, household in enumerate(households):
        sector, rooms = homes[index % len(homes)]
        household.home, household.rooms = sector, rooms


def public_places(ville: Ville) -> dict[str, str]:
    """The town's public places (the sectors where nobody sleeps), each with its kind (`place_kind`)."""
    return {
        sector: place_kind(ville, sector)
        for sector in ville.sectors()
        if not ville.spawn_tiles(f"{ville.world}:{sector}")
    }


def people_for(
    ville: Ville,
    households: list[Household],
    seed: int | str,
    name: str = "",
    places: list[str] | None = None,
    town_places: dict[str, str] | None = None,
) -> PersonasFile:
    """The personas file of these households (homes given) in this town: jobs, routines, acquaintances.

    `places` are the public places (sectors) where these people work and study, their neighbourhood's; by default
    every public place of the map. A student whose places hold no college goes to one of the town's. `town_places`
    is the town's `public_places`, given by a caller that calls this for each neighbourhood, so it is found once.
    """
    rng = random.Random(seed)
    everywhere = public_places(ville) if town_places is None else town_places
    if places is None:
        kinds = dict(everywhere)
    else:
        wanted = set(places)
        kinds = {sector: kind for sector, kind in everywhere.items() if sector in wanted}
    public = list(kinds)
    colleges = [sector for sector in public if kinds[sector] == "college"] or [
        sector for sector, kind in everywhere.items() if kind == "college"
    ]
    residents = [(household, member) for household in households for member in household.members]
    jobs = _jobs(public, kinds)
    adults = [(h, m) for h, m in residents if not m.young and m.age < RETIREMENT_AGE]
    order = rng.sample(range(len(adults)), len(adults))
    work: dict[str, tuple[str, str, str]] = {}  # name -> (occupation, requirement, workplace)
    for job, index in zip(jobs, order, strict=False):
        work[adults[index][1].name] = job
    records, workplaces = [], {}
    for household, member in residents:
        occupation, requirement, place = work.get(member.name) or _other_work(member, colleges, rng)
        workplaces[member.name] = place
        room = household.rooms[household.members.index(member) % len(household.rooms)]
        wake = _wake_hour(requirement)
        bedtime = min(wake + 16, 23) - 12
        records.append(
            {
                "name": member.name,
                "age": member.age,
                "traits": ", ".join(rng.sample(TRAITS, 3)),
                "occupation": occupation,
                "lifestyle": f"{member.name} goes to bed around {bedtime}pm, awakes up around {wake}am, "
                "and eats dinner around 6pm.",
                "home": f"{household.home}:{room}",
                "workplace": place,
                "daily_requirements": requirement.format(name=member.name, place=place),
                "about": f"{member.first} has lived in {ville.world} for {rng.randint(1, min(member.age, 40))} years.",
                "knows": {},
            }
        )
    _acquaintances(ville, households, records, workplaces)
    people = [PersonRecord.model_validate(record) for record in records]
    return PersonasFile(town=TownRecord(name=name), people=people)


def _jobs(public: list[str], kinds: dict[str, str]) -> list[tuple[str, str, str]]:
    """Every job of the town's places, the first of each place before any second: (occupation, requirement, place)."""
    jobs = []
    depth = max(len(positions) for positions in JOBS.values())
    for level in range(depth):
        for sector in public:
            positions = JOBS[kinds[sector]]
            if level < len(positions):
                jobs.append((*positions[level], sector))
    return jobs


def _other_work(member: Resident, colleges: list[str], rng: random.Random) -> tuple[str, str, str]:
    """The occupation of someone no place employs: a student, retired, or working at home."""
    if member.young and colleges:
        return (*STUDENT, rng.choice(colleges))
    if member.age >= RETIREMENT_AGE:
        return (*RETIRED, "")
    return (*rng.choice(AT_HOME), "")


def _wake_hour(requirement: str) -> int:
    """An hour before the first clock time of the requirement (5 to 8 am), 7 when it gives none."""
    for word in requirement.replace(".", " ").split():
        if word.endswith("am") and word[:-2].isdigit():
            return min(8, max(5, int(word[:-2]) - 1))
    return 7


def _acquaintances(ville: Ville, households: list[Household], records: list[dict], workplaces: dict[str, str]) -> None:
    """Fill each record's `knows`: housemates, colleagues (at most 6), and the first adult of the nearest home."""
    by_name = {record["name"]: record for record in records}
    for household in households:
        for member in household.members:
            for other in household.members:
                if other is not member:
                    relation = _relation(member, other)
                    by_name[member.name]["knows"][other.name] = (
                        f"your {relation}, who lives with you at {household.home}"
                    )
    _colleagues(by_name, workplaces)
    _neighbours(ville, households, by_name)


def _colleagues(by_name: dict[str, dict], workplaces: dict[str, str]) -> None:
    """Each person knows up to 6 others who work (or study) at the same place."""
    staff: dict[str, list[str]] = {}
    for name, place in workplaces.items():
        if place:
            staff.setdefault(place, []).append(name)
    for place, names in staff.items():
        for name in names:
            for other in [n for n in names if n != name][:6]:
                by_name[name]["knows"].setdefault(other, f"your colleague at {place}")


def _neighbours(ville: Ville, households: list[Household], by_name: dict[str, dict]) -> None:
    """The adults of each household and the first person of the nearest other home know each other."""
    if len(households) < 2:
        return
    centres = np.array([np.mean(ville.tiles_of(f"{ville.world}:{h.home}"), axis=0) for h in households])
    for index, household in enumerate(households):
        distance = np.abs(centres - centres[index]).sum(axis=1)
        distance[[i for i, h in enumerate(households) if h.home == household.home]] = np.inf
        if not np.isfinite(distance).any():
            continue
        near = households[int(np.argmin(distance))]
        neighbour = near.members[0]
        for member in household.members:
            if not member.young:
                by_name[member.name]["knows"].setdefault(neighbour.name, f"your neighbour at {near.home}")
                by_name[neighbour.name]["knows"].setdefault(member.name, f"your neighbour at {household.home}")


def _relation(member: Resident, other: Resident) -> str:
    if member.young and other.young:
        return "sibling"
    if member.young:
        return "parent"
    if other.young:
        return "child"
    return "partner"


def personas_toml(personas: PersonasFile) -> str:
    """A personas file as TOML text a person can edit and import again (strings written as JSON, valid TOML)."""
    lines = ["[town]"]
    for key, value in personas.town.model_dump().items():
        lines.append(f"{key} = {json.dumps(value)}")
    for fact in personas.facts:
        lines += ["", "[[facts]]", *(f"{key} = {json.dumps(value)}" for key, value in fact.items())]
    for person in personas.people:
        lines += ["", "[[people]]"]
        values = person.model_dump()
        knows = values.pop("knows")
        for key, value in values.items():
            if value not in ("", []):
                lines.append(f"{key} = {json.dumps(value)}")
        if knows:
            lines.append("[people.knows]")
            lines += [f"{json.dumps(other)} = {json.dumps(text)}" for other, text in knows.items()]
    return "\n".join(lines) + "\n"
