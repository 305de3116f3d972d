"""One helper object per live model: a page's trails and work queue live as long as the model they serve.

Keyed weakly, so a model the page lets go of takes its helpers with it; made under a lock, since Solara renders and
the work thread may ask for the same model's helper at once.
"""

import threading
import weakref
from collections.abc import Callable
from typing import Any


class PerModel[T]:
    """Makes one T for each model on first use and hands back that same T after."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._made: weakref.WeakKeyDictionary[Any, T] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def of(self, model: Any) -> T:
        """The model's T, made now if it has none yet."""
        with self._lock:
            made = self._made.get(model)
            if made is None:
                made = self._made[model] = self._make()
            return made
