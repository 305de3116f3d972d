"""The town: the Smallville model, its clock and scenarios, social metrics, the CLI and the Solara app."""

import os

# Solara posts usage telemetry unless told not to; litellm must use its local cost map (see agents/).
os.environ.setdefault("SOLARA_TELEMETRY_MIXPANEL_ENABLE", "False")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

__all__: list[str] = []
