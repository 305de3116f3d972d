"""The action request: where each upcoming action happens, in one structured call.

Place, emoji, event triple, object state and importance of several actions come back together (the original spends
8 calls on each action).
"""

from dataclasses import dataclass

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import ActionChoice, PlaceOption
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json, persona_fields
from agents.language.schemas import count, number, prop, text

MOST_ACTIONS = 12
# Longest free texts of a choice, in characters (a sector's, arena's or object's name: the Ville's longest is 41).
LONGEST_EMOJI, LONGEST_WORDS, LONGEST_PLACE_NAME = 8, 80, 120
# The original's fail-safe importance of an event.
FALLBACK_IMPORTANCE = 4


class _Choice(BaseModel):
    sector: str
    arena: str
    game_object: str = ""
    emoji: str = "🙂"
    predicate: str = "is"
    target: str = ""
    object_state: str = ""
    importance: int = Field(default=FALLBACK_IMPORTANCE)


class _Choices(BaseModel):
    actions: list[_Choice] = Field(min_length=1)


@dataclass(frozen=True)
class ActionRequest(Request[tuple[ActionChoice, ...]]):
    """Where each action happens, among the places the agent knows (the paper's section 4.3.1)."""

    kind = "action"
    template = "action.txt"
    temperature = 0.0
    max_tokens = 1200
    answer_model = _Choices

    identity: Identity
    actions: tuple[str, ...]
    current_sector: str
    current_arena: str
    places: tuple[PlaceOption, ...]

    def validate(self) -> None:
        if not 1 <= len(self.actions) <= MOST_ACTIONS:
            raise ValueError(f"action: 1 to {MOST_ACTIONS} actions per request, got {len(self.actions)}")
        if any(not action.strip() for action in self.actions):
            raise ValueError(f"action: an action is empty in {self.actions!r}")
        if not self.places:
            raise ValueError("action: the agent must know at least one place")

    def constrain(self, schema: dict) -> None:
        """Up to MOST_ACTIONS choices of a place by name; one per action, at a place offered: `parse` checks both."""
        actions = count(prop(schema, "actions"), 1, MOST_ACTIONS)
        choice = actions["items"]
        text(choice["properties"]["sector"], LONGEST_PLACE_NAME)
        text(choice["properties"]["arena"], LONGEST_PLACE_NAME)
        text(choice["properties"]["game_object"], LONGEST_PLACE_NAME, least=0)
        text(choice["properties"]["emoji"], LONGEST_EMOJI)
        for name in ("predicate", "target", "object_state"):
            text(choice["properties"][name], LONGEST_WORDS, least=0)
        number(choice["properties"]["importance"], 1, 10)

    def fields(self) -> dict[str, str]:
        places = "\n".join(
            f"- {place.sector} > {place.arena}: {', '.join(place.objects) or '(no objects)'}" for place in self.places
        )
        return {
            **persona_fields(self.identity),
            "home": self.identity.living_area,
            "here": f"{self.current_sector} > {self.current_arena}" if self.current_sector else "outdoors",
            "places": places,
            "actions": numbered(self.actions),
            "count": str(len(self.actions)),
        }

    def parse(self, text: str) -> tuple[ActionChoice, ...]:
        choices = parse_json(text, _Choices).actions
        if len(choices) != len(self.actions):
            raise AnswerError(f"expected {len(self.actions)} actions, got {len(choices)}")
        return tuple(self._resolve(action, choice) for action, choice in zip(self.actions, choices, strict=True))

    def _resolve(self, action: str, choice: _Choice) -> ActionChoice:
        place = next(
            (
                option
                for option in self.places
                if option.sector.lower() == choice.sector.strip().lower()
                and option.arena.lower() == choice.arena.strip().lower()
            ),
            None,
        )
        if place is None:
            raise AnswerError(f"{choice.sector} > {choice.arena} is not one of the places listed; choose from the list")
        objects = {name.lower(): name for name in place.objects}
        game_object = objects.get(choice.game_object.strip().lower())
        if game_object is None:
            if place.objects and choice.game_object.strip():
                raise AnswerError(f"{choice.game_object!r} is not an object of {place.sector} > {place.arena}")
            game_object = place.objects[0] if place.objects else ""
        return ActionChoice(
            action=action,
            sector=place.sector,
            arena=place.arena,
            game_object=game_object,
            emoji=choice.emoji.strip()[:3] or "🙂",
            subject=self.identity.name,
            predicate=choice.predicate.strip() or "is",
            object=choice.target.strip() or game_object,
            object_state=choice.object_state.strip() or f"being used by {self.identity.name}",
            importance=min(10, max(1, choice.importance)),
        )

    def fallback(self) -> tuple[ActionChoice, ...]:
        here = next((p for p in self.places if (p.sector, p.arena) == (self.current_sector, self.current_arena)), None)
        home = self.identity.living_area.split(":")
        place = here or next(
            (p for p in self.places if len(home) > 2 and (p.sector, p.arena) == (home[1], home[2])), self.places[0]
        )
        game_object = place.objects[0] if place.objects else ""
        return tuple(
            ActionChoice(
                action=action,
                sector=place.sector,
                arena=place.arena,
                game_object=game_object,
                emoji="🙂",
                subject=self.identity.name,
                predicate="is",
                object=game_object,
                object_state=f"being used by {self.identity.name}",
                importance=FALLBACK_IMPORTANCE,
            )
            for action in self.actions
        )
