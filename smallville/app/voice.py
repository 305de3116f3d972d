"""Talking to the selected agent, as in the paper: an interview question, and the inner voice (a memory given).

Both go through the model's gateway like the agents' own calls (offline by default, counted in the ledger) and run
as background work (work.py), after a step in flight: the box says who is thinking meanwhile, the rest of the page
stays usable, and the answer or a one-line error appears when the call returns. A replay only shows: it has no minds
to ask.
"""

import solara
from mesa.visualization.utils import update_counter

from smallville.app import inputs
from smallville.app.html import heading
from smallville.app.selection import chosen
from smallville.app.source import town_of
from smallville.app.work import Job, submit_checked, then_redraw, work_of

# What the box last heard back, and what went wrong; one per browser tab, kept while the agent selection changes.
answer = solara.reactive("")
voice_error = solara.reactive("")


def interview_job(model, name: str, question: str, asker: str = "") -> Job:
    """Ask `name` a question, as the person `asker` describes if given; the answer, or why there is none, lands here."""
    return Job(
        "interview",
        f"{name} is thinking about your question…",
        lambda: model.interview(name, question, asker=asker),
        done=lambda reply: answer.set(f"{name}: {reply}"),
        failed=lambda message: voice_error.set(f"The interview failed: {message}"),
    )


def whisper_job(model, name: str, statement: str) -> Job:
    """Give `name` a memory; then the panels redraw (the inspector lists it among the newest memories)."""
    return Job(
        "whisper",
        f"{name} is thinking about the whisper…",
        lambda: model.whisper(name, statement),
        done=then_redraw(lambda _: answer.set(f"{name} will remember: {statement}")),
        failed=lambda message: voice_error.set(f"The whisper failed: {message}"),
    )


def ask(model, name: str, question: str, asker: str) -> bool:
    """The Ask button: the question and persona checked as `run.py interview` checks them, then asked in the background.

    Returns whether the interview was queued (a refusal is one line in the box).
    """
    return submit_checked(
        model,
        voice_error,
        lambda: interview_job(model, name, inputs.interview_question(question), inputs.persona(asker)),
    )


def give(model, name: str, statement: str) -> bool:
    """The Whisper button: the statement checked as `run.py whisper` checks it, then given in the background."""
    return submit_checked(model, voice_error, lambda: whisper_job(model, name, inputs.whisper_statement(statement)))


@solara.component
def VoiceBox(model):
    """Interview the selected agent, or whisper to it."""
    update_counter.get()
    town = town_of(model)
    name = chosen(town.names())
    question, set_question = solara.use_state("")
    asker, set_asker = solara.use_state("")
    statement, set_statement = solara.use_state("")
    work = work_of(model)
    queue = work.queue.value
    in_flight = [
        job.label if index == 0 else f"{job.label} (after the work in flight)"
        for index, job in enumerate(queue)
        if job.kind in {"interview", "whisper"}
    ]

    def interview() -> None:
        ask(model, name, question, asker)

    def whisper() -> None:
        if give(model, name, statement):
            set_statement("")

    with solara.Column(style=VOICE_STYLE, classes=["voice-box"]) as main:
        solara.HTML(unsafe_innerHTML=heading(f"Talk to {name}"))
        if not town.live:
            solara.Info("A replay only shows the run; interview its agents with `run.py interview RUN AGENT QUESTION`.")
        else:
            # Each part of the box is a row of its own: a new way to talk to an agent is one more row here.
            solara.InputText("Interview question", value=question, on_value=set_question, continuous_update=True)
            solara.InputText(  # the paper's user persona: whom the agent believes it faces
                "Ask as (optional), e.g. a news reporter",
                value=asker,
                on_value=set_asker,
                continuous_update=True,
                classes=["voice-persona"],
            )
            solara.Button("Ask", on_click=interview, disabled=not question.strip(), color="primary")
            with solara.Column(gap="2px", classes=["voice-answer-area"]):  # right under Ask, where the eye is
                for label in in_flight:
                    with solara.Row(classes=["voice-pending"], style="align-items: center;"):
                        solara.v.ProgressCircular(indeterminate=True, size=16, width=2, color="primary")
                        solara.Text(label)
                if answer.value:
                    solara.Text(answer.value, classes=["voice-answer"], style="font-weight: 500;")
                if voice_error.value:
                    solara.Error(voice_error.value, classes=["voice-error"])
            solara.InputText(
                "Inner voice (a memory to give)", value=statement, on_value=set_statement, continuous_update=True
            )
            solara.Button("Whisper", on_click=whisper, disabled=not statement.strip())
    return main


VOICE_STYLE = "padding: 4px 0; font-size: 13px; gap: 2px; border-top: 1px solid #ddd; border-bottom: 1px solid #ddd;"
