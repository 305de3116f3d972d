"""The one sentence said beside any figure a reader may compare with the paper's, when the offline mind made it.

The offline mind answers each request from that request's own fields by generic rules: it shows that the code runs
end to end (agents plan, talk, remember, pass news on), not how believable language-model agents are. Its density,
awareness and ratings look like the paper's numbers and are not comparable with them; the terminal, the page,
summary.md and the README say so in these words.
"""

OFFLINE_BASELINE = (
    "The offline mind is a baseline that tests code, not minds: these figures show the simulation runs, "
    "and are not comparable with the paper's (name a language model with --llm for that)."
)

# Where offline answers are read (the page's feed, inspector and interview; `run.py interview --as`): what made them.
OFFLINE_ANSWERS = (
    "Offline baseline: plans, lines and answers here are made by rules from the agents' memories, not by a language "
    "model; a persona (Ask as, who you are) changes none of them. Name a model with --llm for that."
)


def is_offline(llm: str | None, routes: dict | None = None) -> bool:
    """Whether every request of a run went to the offline mind (no --llm, no route to a model)."""
    return (llm or "offline") == "offline" and not any(model != "offline" for model in (routes or {}).values())
