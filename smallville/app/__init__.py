"""The browser app: Mesa's SolaraViz page of the Ville, live or replaying a run folder (`run.py serve`)."""
