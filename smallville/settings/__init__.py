"""A town's settings, decided once for every door.

The one parameter table, the types of command-line values, the checks every door shares, the type of a simulated
time, and the reading of a user's text files.
"""
