"""The minds: generative agents, their cognition, prompts, and the one gateway to language models."""

import os

# litellm fetches its model-cost map from the internet at import unless told to use its local copy;
# set it here so that every entry point gets it before anything imports litellm.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

__all__: list[str] = []
