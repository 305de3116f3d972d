"""The town: the Smallville model, its clock and scenarios, social metrics, the CLI and the Solara app.

Nothing here touches the environment at import: the page's server gets Solara's settings from `run.py serve`
(commands/serve.py), and litellm gets its own where the gateway imports it (agents/).
"""

__all__: list[str] = []
