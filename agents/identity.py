"""Who an agent is: the stable identity a prompt describes (the original's "identity stable set")."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agents.language.quoting import quote


@dataclass(frozen=True)
class Identity:
    """A persona's identity, as loaded from its scratch.json; `currently` may change from day to day.

    Attributes:
        name: Full name, e.g. "Isabella Rodriguez".
        age: Age in years.
        innate: Innate traits, e.g. "friendly, outgoing, hospitable".
        learned: Learned traits and background, a sentence or two.
        currently: What the persona is up to these days (rewritten by the end-of-day summary).
        lifestyle: Sleep and meal habits, e.g. "goes to bed around 11pm, awakes up around 6am".
        living_area: World-tree address of home, e.g. "the Ville:Isabella Rodriguez's apartment:main room".
        daily_plan_req: Fixed daily requirements, e.g. "opens Hobbs Cafe at 8am everyday".
        world: The places the persona knows and may go to, one "- sector > arena: objects" line each (`places_text`):
            with the description, the stable start of every request of this agent (a provider caches it), renewed
            once a day so that it stays the same all day.
    """

    name: str
    age: int
    innate: str
    learned: str
    currently: str
    lifestyle: str
    living_area: str
    daily_plan_req: str = ""
    world: str = ""

    @property
    def first_name(self) -> str:
        """The first word of the name."""
        return self.name.split()[0]

    @property
    def last_name(self) -> str:
        """The last word of the name (households share it: "Moreno family's house")."""
        return self.name.split()[-1]

    def describe(self) -> str:
        """The identity as the paragraph every prompt about this persona starts from."""
        lines = [
            f"Name: {self.name} (age: {self.age})",
            f"Innate traits: {self.innate}",
            f"Background: {self.learned}",
            # After the first day the status is a model's summary of what the agent remembers: data, quoted.
            f"Currently: {quote(self.currently)}",
            f"Lifestyle: {self.lifestyle}",
        ]
        if self.daily_plan_req:
            lines.append(f"Daily requirements: {self.daily_plan_req}")
        return "\n".join(lines)

    def with_currently(self, currently: str) -> "Identity":
        """A copy with a new `currently` status (identities are frozen so requests can hold them)."""
        return Identity(**{**self.__dict__, "currently": currently})

    def with_world(self, places: Mapping[str, Mapping[str, Sequence[str]]]) -> "Identity":
        """A copy knowing these places: {sector: {arena: [objects]}}, as SpatialMemory.choices gives them."""
        return Identity(**{**self.__dict__, "world": places_text(places)})


def places_text(places: Mapping[str, Mapping[str, Sequence[str]]]) -> str:
    """Places as prompts list them: "- Hobbs Cafe > cafe: piano, behind the cafe counter", one line each."""
    return "\n".join(
        f"- {sector} > {arena}: {', '.join(objects) or '(no objects)'}"
        for sector, arenas in places.items()
        for arena, objects in arenas.items()
    )
