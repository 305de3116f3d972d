"""Interventions: what a user does to a town and when, as data (records), and applied to a running town (applying)."""
