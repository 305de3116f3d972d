"""Rules of English shared by the agent and both offline stand-ins.

The agent keeps whispers and seeds in its own voice (voice.py) whichever model answers; the offline mind retells news
in another voice and reads persona text; the offline judge reads answers. Each inflects verbs with one morphology
and reads names, dates and sentences with one set of words, so no stand-in reaches into another's room.
"""
