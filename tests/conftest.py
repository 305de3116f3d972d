"""Test-wide settings: the stack's environment before any test module imports litellm or solara."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("SOLARA_TELEMETRY_MIXPANEL_ENABLE", "False")
