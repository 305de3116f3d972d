"""The agent the inspector shows, shared by the map (click a marker) and the inspector's list; one per browser tab."""

import solara

selected_agent = solara.reactive("")


def chosen(names: list[str]) -> str:
    """The selected agent if it is in this town, else the first one."""
    return selected_agent.value if selected_agent.value in names else names[0]
