"""Talking to the selected agent, as in the paper: an interview question, and the inner voice (a memory given).

Both go through the model's gateway like the agents' own calls (offline by default, counted in the ledger) and run
on the model's event loop, which waits for a step in progress. A replay only shows: it has no minds to ask.
"""

import logging

import solara
from mesa.visualization.utils import force_update, update_counter

from smallville.app.html import PANEL_STYLE, heading
from smallville.app.selection import chosen
from smallville.app.source import town_of

logger = logging.getLogger(__name__)


@solara.component
def VoiceBox(model):
    """Interview the selected agent, or whisper to it."""
    update_counter.get()
    town = town_of(model)
    name = chosen(town.names())
    question, set_question = solara.use_state("")
    statement, set_statement = solara.use_state("")
    answer, set_answer = solara.use_state("")
    error, set_error = solara.use_state("")

    def interview() -> None:
        try:
            set_answer(f"{name}: {model.interview(name, question.strip())}")
            set_error("")
        except Exception as problem:  # shown to the user and logged
            logger.exception("interview of %s failed", name)
            set_error(f"The interview failed: {problem}")

    def whisper() -> None:
        try:
            model.whisper(name, statement.strip())
            set_answer(f"{name} will remember: {statement.strip()}")
            set_statement("")
            set_error("")
            force_update()
        except Exception as problem:  # shown to the user and logged
            logger.exception("whisper to %s failed", name)
            set_error(f"The whisper failed: {problem}")

    with solara.Column(style=PANEL_STYLE, classes=["voice-box"]) as main:
        solara.HTML(unsafe_innerHTML=heading(f"Talk to {name}"))
        if not town.live:
            solara.Info("A replay only shows the run; interview its agents with `run.py interview RUN AGENT QUESTION`.")
        else:
            solara.InputText("Interview question", value=question, on_value=set_question, continuous_update=True)
            solara.Button("Ask", on_click=interview, disabled=not question.strip(), color="primary")
            solara.InputText(
                "Inner voice (a memory to give)", value=statement, on_value=set_statement, continuous_update=True
            )
            solara.Button("Whisper", on_click=whisper, disabled=not statement.strip())
            if answer:
                solara.Text(answer, classes=["voice-answer"])
            if error:
                solara.Error(error)
    return main
