"""Perception remembers what is new: not among the newest events, and not remembered within the last hour."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise

from agents import AgentMemory
from agents.cognition.perceiving import perceive
from agents.config import MindConfig
from environment import Event, SeenEvent, SpatialMemory
from memory import HashingEmbedder, MemoryStream, NodeKind

from .scripted import T0


@dataclass
class Scene:
    """A stand-in for the step's view: the events in sight, nearest first, at a settable time."""

    now: datetime = T0
    events: list[SeenEvent] = field(default_factory=list)

    @property
    def state(self):
        return self

    @property
    def ville(self):
        return self

    def visible_events(self, tile, radius, same_arena):
        return list(self.events)

    def look_key(self, tile, radius):
        return tile, radius, tuple(self.events)

    def arena_address_at(self, tile):
        return "the Ville:Hobbs Cafe:cafe"


def sight(*names: str) -> list[SeenEvent]:
    return [SeenEvent(Event(name, "is", "eating", "eating"), (1, 1), float(i)) for i, name in enumerate(names)]


def look(scene: Scene, memory: AgentMemory, config: MindConfig) -> list[str]:
    """Perceive once and store what was queued; the texts remembered as new."""
    found = perceive(scene, "Viewer Person", (0, 0), config, SpatialMemory(), memory)
    queued = [pending.description for pending in memory.pending]
    for pending in list(memory.pending):
        memory.add_now(pending.kind, pending.description, created=pending.created, importance=2)
    memory.pending.clear()
    assert queued == [f"{seen.event.subject} is eating" for seen in found.new]
    return queued


def crowd(count: int) -> list[str]:
    return [f"Person {chr(65 + i)}{chr(97 + i)}" for i in range(count)]


def churn(memory: AgentMemory, config: MindConfig, steps: int) -> list[str]:
    """Twelve people pass through the nearest four, three new ones a minute; what the viewer remembers."""
    people, scene, remembered = crowd(12), Scene(), []
    for step in range(steps):
        scene.now = T0 + timedelta(minutes=step)
        scene.events = sight(*(people[(3 * step + i) % 12] for i in range(4)))
        remembered += look(scene, memory, config)
    return remembered


def test_a_crowd_churning_past_the_newest_events_is_remembered_once_within_the_hour():
    memory = AgentMemory(MemoryStream(dim=384), HashingEmbedder())
    config = MindConfig(attention_bandwidth=4, retention=4)
    remembered = churn(memory, config, steps=40)
    assert sorted(remembered) == sorted(f"{name} is eating" for name in crowd(12))
    scene = Scene(now=T0 + timedelta(minutes=61), events=sight(crowd(12)[0]))
    assert look(scene, memory, config) == [f"{crowd(12)[0]} is eating"]


def test_without_the_window_the_original_rule_stores_the_churn_again():
    memory = AgentMemory(MemoryStream(dim=384), HashingEmbedder())
    remembered = churn(memory, MindConfig(attention_bandwidth=4, retention=4, retention_minutes=0), steps=40)
    assert len(remembered) == 40 * 3 + 1


def test_the_window_covers_queued_events_and_a_restored_stream():
    memory = AgentMemory(MemoryStream(dim=384), HashingEmbedder())
    scene = Scene(events=sight("Person Aa"))
    config = MindConfig(retention=1)
    perceive(scene, "Viewer Person", (0, 0), config, SpatialMemory(), memory)
    assert memory.last_perceived("Person Aa is eating") == T0
    memory.add_now(NodeKind.EVENT, "Person Aa is eating", created=T0, importance=2)
    memory.pending.clear()
    memory.add_now(NodeKind.EVENT, "Person Bb is eating", created=T0 + timedelta(minutes=1), importance=2)
    restored = AgentMemory(MemoryStream.from_state(memory.stream.get_state()), HashingEmbedder())
    scene.now = T0 + timedelta(minutes=30)
    assert look(scene, restored, config) == []
    scene.now = T0 + timedelta(minutes=61)
    assert look(scene, restored, config) == ["Person Aa is eating"]


def test_retention_minutes_must_be_a_whole_number_of_minutes():
    for bad in (-1, 1.5):
        try:
            MindConfig(retention_minutes=bad)
        except ValueError as error:
            assert "retention_minutes" in str(error)
        else:
            raise AssertionError(f"retention_minutes={bad!r} was accepted")


def test_a_replaced_queue_is_read_afresh():
    """A restore that keeps the stream but replaces the queue (agent.set_state) must not see the old queue."""
    memory = AgentMemory(MemoryStream(dim=384), HashingEmbedder())
    perceive(Scene(events=sight("Person Aa")), "Viewer Person", (0, 0), MindConfig(), SpatialMemory(), memory)
    assert memory.last_perceived("Person Aa is eating") == T0
    memory.pending = []
    assert memory.last_perceived("Person Aa is eating") is None


def watch(config: MindConfig, scenes: list[tuple[int, list[str]]], *, reuse: bool) -> list[tuple[int, str]]:
    """Look at each (minute, people in sight); what is remembered when. With `reuse`, each look is handed the last
    one's quiet look, as the agent does."""
    memory, spatial, quiet, remembered = (
        AgentMemory(MemoryStream(dim=384), HashingEmbedder()),
        SpatialMemory(),
        None,
        [],
    )
    for minute, people in scenes:
        scene = Scene(now=T0 + timedelta(minutes=minute), events=sight(*people))
        found = perceive(scene, "Viewer Person", (0, 0), config, spatial, memory, quiet if reuse else None)
        quiet = found.quiet
        remembered += [(minute, seen.event.subject) for seen in found.new]
    return remembered


def test_a_quiet_look_reused_finds_what_a_fresh_look_finds():
    """Three people sit in sight for three hours (more than the 2 newest events kept), joined by a fourth for a
    while: the look is reused while nothing changes, yet each person counts as new again once the hour has passed."""
    config = MindConfig(retention=2)
    sitting = ["Person Aa", "Person Bb", "Person Cc"]
    scenes = [(minute, sitting + (["Person Dd"] if 50 <= minute < 70 else [])) for minute in range(0, 180)]
    fresh = watch(config, scenes, reuse=False)
    assert watch(config, scenes, reuse=True) == fresh
    again = [minute for minute, name in fresh if name == "Person Cc"]
    assert len(again) == 3 and all(60 < later - earlier <= 62 for earlier, later in pairwise(again))
