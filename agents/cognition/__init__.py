"""The steps of an agent's cognition, each a small module: plan, act, perceive, react, converse, reflect.

Each function takes only what it reads and an `ask` callable that sends one typed request through the gateway.
"""
