"""Scenarios and the towns they name.

Scenario files, which agents a smaller town holds, bigger towns derived from the 25 and their new names, and an
agent's name as a user types it.
"""
