"""Rewriting the world from the page (the paper's section 3.2): pick an object, type its new state, set it.

The object is picked from a list (the selected agent's arena first, the one a user watches; typing filters it) or in
the box a building opens on the map, which lists its objects and their states. Setting is an intervention
(interventions/records.py) applied now and kept in the model's timeline and event log, run as background work like
a whisper; the agents who see the object notice it at their next look and may go and see to it. A replay only
shows: `run.py fork RUN --at TIME --set ADDRESS STATE` changes its past.
"""

import solara
from mesa.visualization.utils import update_counter

from smallville.app import inputs
from smallville.app.selection import chosen
from smallville.app.source import town_of
from smallville.app.work import Job, submit_checked, then_redraw
from smallville.interventions.records import Intervention

# What the box last did, and what went wrong; and the object picked (here, or in a building's box on the map).
world_note = solara.reactive("")
world_error = solara.reactive("")
picked_object = solara.reactive("")


def objects_near_first(ville, here: str) -> list[str]:
    """Every object address of the map, those of the arena `here` (world:sector:arena) first, each part sorted."""
    addresses = sorted(ville.object_addresses())
    prefix = here + ":" if here else None
    near = [address for address in addresses if prefix and address.startswith(prefix)]
    return near + [address for address in addresses if address not in set(near)]


def objects_in(ville, building: str, world) -> list[dict]:
    """A building's objects and their states now, for the map's box: address, name, state."""
    return [
        {"address": address, "name": address.rsplit(":", 1)[-1], "state": world.object_state(address).description}
        for address in sorted(ville.object_addresses())
        if address.split(":")[1] == building
    ]


def object_in_words(address: str) -> str:
    """An object with its place, as the note names it: "the piano in Hobbs Cafe (cafe)"."""
    parts = address.split(":")
    name = parts[-1].removeprefix("the ")
    return f"the {name} in {parts[1]} ({parts[2]})" if len(parts) == 4 else f"the {name}"


def set_object_job(model, address: str, state: str) -> Job:
    """Put an object in a state now; then the panels redraw."""
    return Job(
        "set",
        f"Setting the {address.rsplit(':', 1)[-1]}…",
        lambda: model.intervene_now(Intervention(time=model.now, kind="object", target=address, text=state)),
        done=then_redraw(lambda _: world_note.set(f"At {model.now:%H:%M:%S} {object_in_words(address)} is {state}.")),
        failed=lambda message: world_error.set(f"Setting the object failed: {message}"),
    )


def set_object(model, address: str, state: str) -> bool:
    """The Set button: the address and state checked as `run.py set` checks them, then set in the background.

    Returns whether the change was queued (a refusal is one line in the box).
    """
    return submit_checked(
        model,
        world_error,
        lambda: set_object_job(model, inputs.object_address(model.ville, address), inputs.object_state(state)),
    )


@solara.component
def WorldBox(model):
    """Pick an object of the world and type its new state, e.g. the stove: burning (a live town only)."""
    update_counter.get()
    address, set_address = picked_object.value, picked_object.set
    state, set_state = solara.use_state("")
    agent = model.by_name.get(chosen(town_of(model).names()))
    here = model.ville.arena_address_at(agent.tile) if agent is not None else ""
    choices = solara.use_memo(lambda: objects_near_first(model.ville, here), [here])

    def apply() -> None:
        if set_object(model, address, state):
            set_state("")

    with solara.Column(style=WORLD_STYLE, classes=["world-box"]) as main:
        solara.v.Autocomplete(
            label="An object of the world", items=choices, v_model=address, on_v_model=set_address, dense=True,
            class_="world-object",
        )  # fmt: skip
        solara.InputText(
            "Its new state, e.g. burning", value=state, on_value=set_state, continuous_update=True,
            classes=["world-state"],
        )  # fmt: skip
        solara.Button("Set", on_click=apply, disabled=not (address and state.strip()))
        if world_note.value:
            solara.Text(world_note.value, classes=["world-note"])
        if world_error.value:
            solara.Error(world_error.value, classes=["world-error"])
    return main


WORLD_STYLE = "padding: 4px 0; font-size: 13px; gap: 2px; border-bottom: 1px solid #ddd;"
