"""Regular expressions compiled once per text.

Patterns built from a speaker's name (one set per person) overflow re's own cache of 512 in a town of a thousand,
and were compiled again at every use.
"""

import re
from functools import lru_cache

compiled_pattern = lru_cache(maxsize=8192)(re.compile)
