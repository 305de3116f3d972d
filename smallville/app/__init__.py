"""The browser app: the Ville in SolaraViz's layout, live or replaying a run folder (`run.py serve`)."""
