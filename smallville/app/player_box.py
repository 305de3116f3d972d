"""Join the town from the page: your name and who you are, a place on the map, then walk, say lines, and leave.

The player is one more person to the agents (smallville/players/): a marker on the map, seen by those within vision,
answered turn by turn with the agents' own conversation code. Each move and line is an intervention kept in the
town's timeline, run as background work like a whisper (work.py); a line's job steps the town until the agent's
answer comes, and the box shows it, with the lines agents came up and said to the player themselves. A place is
picked from the list or by clicking a building on the map.
"""

import solara
from mesa.visualization.utils import update_counter

from smallville.app import inputs
from smallville.app.html import heading
from smallville.app.selection import chosen, selected_agent
from smallville.app.source import offline, town_of
from smallville.app.work import Job, submit_checked, then_redraw, work_of
from smallville.players.places import place_addresses
from smallville.players.visit import Reply, go, join, joined_at, leave, said_to, say

# The tab's player (its name, "" before joining), what the box last heard, what went wrong, and the place picked
# (here, or by a click on a building of the map: map_panel.py sets it).
player_name = solara.reactive("")
player_note = solara.reactive("")
player_error = solara.reactive("")
picked_place = solara.reactive("")
# Who the player is when the box is left empty.
DEFAULT_PERSONA = "a visitor to the town"
# How many of the lines said to the player the box shows (the latest).
HEARD_SHOWN = 5
OFFLINE_PERSONA = "Offline baseline: the agents answer by rules from their memories; who you say you are is only seen."


def places_of(ville) -> list[str]:
    """The places a player may go, as a person reads them: "Hobbs Cafe", "Hobbs Cafe:cafe"."""
    return [address.split(":", 1)[1] for address in place_addresses(ville)]


def join_job(model, name: str, persona: str, place: str | None, beside: str) -> Job:
    """Put the player (a checked name) in the town at a place's address, or beside the agent in the inspector."""

    def show(_) -> None:
        player_name.set(name)
        where = model.ville.arena_address_at(model.players.get(name).tile).split(":", 1)[1]
        player_note.set(f"At {model.now:%H:%M:%S} you are in {where}.")

    return Job(
        "player",
        f"{name} joins the town…",
        lambda: join(model, name, persona, place, None if place else beside),
        done=then_redraw(show),
        failed=_failed("Joining"),
    )


def go_job(model, name: str, place: str) -> Job:
    """Walk the player to a place (its address, checked)."""
    where = place.split(":", 1)[1]
    return Job("player", f"{name} goes to {where}…", lambda: go(model, name, place),
               done=then_redraw(lambda _: player_note.set(f"At {model.now:%H:%M:%S} you are in {where}.")),
               failed=_failed("Going"))  # fmt: skip


def say_job(model, name: str, agent: str, text: str) -> Job:
    """Say a line to an agent and wait for its answer (the town steps meanwhile)."""
    return Job(
        "player",
        f"{agent} is thinking about what you said…",
        lambda: say(model, name, agent, text),
        done=then_redraw(lambda reply: player_note.set(_heard(model, name, text, reply))),
        failed=_failed("Saying"),
    )


def leave_job(model, name: str) -> Job:
    """The player leaves; the agent keeps any talk in progress."""

    def show(_) -> None:
        player_name.set("")
        player_note.set(f"At {model.now:%H:%M:%S} you left the town; it goes on.")

    return Job(
        "player", f"{name} leaves…", lambda: leave(model, name), done=then_redraw(show), failed=_failed("Leaving")
    )


def join_town(model, name: str, persona: str, place: str, beside: str) -> bool:
    """The Join button: name, persona and place checked as `run.py join` checks them, then joined in the background.

    Returns whether the join was queued (a refusal is one line in the box).
    """
    return submit_checked(
        model,
        player_error,
        lambda: join_job(
            model,
            inputs.player_name(model, name),
            inputs.persona(persona, "Who you are") or DEFAULT_PERSONA,
            inputs.place(model, place) if isinstance(place, str) and place.strip() else None,
            inputs.agent_name(model, beside, "Beside"),
        ),
    )


def go_to(model, name: str, place: str) -> bool:
    """The Go there button: the place checked as `run.py join --at` checks it."""
    return submit_checked(model, player_error, lambda: go_job(model, _joined(model, name), inputs.place(model, place)))


def say_to(model, name: str, agent: str, text: str) -> bool:
    """The Say button: the agent and the line checked as `run.py join --say AGENT TEXT` checks them."""
    return submit_checked(
        model,
        player_error,
        lambda: say_job(model, _joined(model, name), inputs.agent_name(model, agent), inputs.player_line(text)),
    )


def leave_town(model, name: str) -> bool:
    """The Leave button."""
    return submit_checked(model, player_error, lambda: leave_job(model, _joined(model, name)))


def _joined(model, name: str) -> str:
    if name not in model.players:
        raise inputs.Refused(f"{name or 'You'}: not in the town; join first")
    return name


def said_to_player(model, name: str) -> list[str]:
    """The latest lines agents said to the player since it joined, as the box shows them ("08:40:00 Isabella: Hi")."""
    since = joined_at(model, name)
    if since is None:
        return []
    return [f"{when:%H:%M:%S} {reply.describe()}" for when, reply in said_to(model, name, since)[-HEARD_SHOWN:]]


def _heard(model, name: str, text: str, reply: Reply) -> str:
    return f"{model.now:%H:%M:%S} you: {text} — {reply.describe()}"


def _failed(what: str):
    return lambda message: player_error.set(f"{what} failed: {message}")


def clear_player_box() -> None:
    """Forget what the box showed (a new town after Reset has no player)."""
    for state in (player_name, player_note, player_error, picked_place):
        state.set("")


@solara.component
def PlayerBox(model):
    """Join the town; then walk, say a line to an agent, leave (a live town only)."""
    update_counter.get()
    name, set_name = solara.use_state("")
    persona, set_persona = solara.use_state("")
    line, set_line = solara.use_state("")
    places = solara.use_memo(lambda: places_of(model.ville), [model.ville])
    town = town_of(model)
    if not town.live:
        return solara.Info(
            "Joining needs a live town; join a run itself with `run.py join RUN --as NAME --say AGENT TEXT`."
        )
    names = town.names()
    player = player_name.value if player_name.value in model.players else ""
    work = work_of(model)
    busy = work.pending("player")

    def send() -> None:
        if say_to(model, player, chosen(names), line):
            set_line("")

    with solara.Column(style=PLAYER_STYLE, classes=["player-box"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Join the town" if not player else f"You are {player}"))
        if offline(model):
            solara.Text(OFFLINE_PERSONA, classes=["player-offline-note"], style="color: #555; margin-bottom: 12px;")
        solara.v.Autocomplete(
            label="A place (or click a building on the map)", items=places, v_model=picked_place.value,
            on_v_model=picked_place.set, dense=True, class_="player-place",
        )  # fmt: skip
        if not player:
            solara.InputText(
                "Your name", value=name, on_value=set_name, continuous_update=True, classes=["player-name"]
            )
            solara.InputText("Who you are, e.g. a reporter", value=persona, on_value=set_persona,
                             continuous_update=True, classes=["player-persona"])  # fmt: skip
            solara.Button("Join", color="primary", disabled=busy or not name.strip(),
                          on_click=lambda: join_town(model, name, persona, picked_place.value,
                                                     chosen(names)))  # fmt: skip
        else:
            with solara.Row(style="gap: 4px; flex-wrap: wrap;"):
                solara.Button("Go there", disabled=busy or not picked_place.value, outlined=True,
                              on_click=lambda: go_to(model, player, picked_place.value))  # fmt: skip
                solara.Button("Leave", disabled=busy, outlined=True, on_click=lambda: leave_town(model, player))
            solara.Select("Say to", values=names, value=chosen(names), on_value=selected_agent.set, dense=True)
            solara.InputText("What you say", value=line, on_value=set_line, continuous_update=True,
                             classes=["player-line"])  # fmt: skip
            solara.Button("Say", color="primary", disabled=busy or not line.strip(), on_click=send)
        for job in work.queue.value:
            if job.kind == "player":
                with solara.Row(classes=["player-pending"], style="align-items: center;"):
                    solara.v.ProgressCircular(indeterminate=True, size=16, width=2, color="primary")
                    solara.Text(job.label)
        if player:
            heard = said_to_player(model, player)
            if heard:
                solara.Text("Said to you:", style="color: #555; margin-top: 6px;")
            for line in heard:
                solara.Text(line, classes=["player-heard"])
        if player_note.value:
            solara.Text(player_note.value, classes=["player-note"], style="font-weight: 500;")
        if player_error.value:
            solara.Error(player_error.value, classes=["player-error"])
    return main


PLAYER_STYLE = "padding: 4px 8px; font-size: 13px; gap: 2px; border: 1px solid #ddd; border-radius: 4px;"
