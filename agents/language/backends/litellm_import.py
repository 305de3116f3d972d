"""litellm, imported in one place, the way this project needs it: its local data, no banners, no telemetry.

litellm takes 3 s to import, so nothing imports it at module level; every module that calls it asks
`import_litellm()`, which also sets what litellm reads as it loads (DESIGN: its local cost map). The settings are
written here, just before the import, and not at the import of a package: a process that never calls a litellm
model never has its environment touched.
"""

import os
from types import ModuleType

# What litellm reads from the environment as it loads: its local copies of the model-cost map and of Anthropic's
# beta headers (it would fetch both from GitHub otherwise: a warning, or a 5 s wait, on a machine without internet).
LITELLM_ENVIRONMENT = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "True"}


def import_litellm() -> ModuleType:
    """litellm, imported on first use with its local data and without its console banners or telemetry.

    A value the user set already is kept.
    """
    for variable, value in LITELLM_ENVIRONMENT.items():
        os.environ.setdefault(variable, value)
    import litellm  # noqa: PLC0415 - 3 s: only when a litellm model or embedder is used

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm
