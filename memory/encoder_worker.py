"""The child process of memory/encoder_process.py: `python encoder_worker.py module:Class`.

Reads pickled lists of texts from stdin until it closes, and answers each with a pickled (True, vectors) or
(False, exception). Its stdout carries only answers; anything it logs goes to stderr, which it shares with the parent.
It ignores Ctrl-C and SIGTERM, which reach the whole process group: the parent stops cleanly on them and may still need
vectors for its checkpoint. It ends when its stdin closes, that is when the parent closes it or dies.
"""

import importlib
import pickle
import signal
import sys
from pathlib import Path


def main() -> None:
    """Serve requests until stdin closes."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, whatever the parent's directory
    import numpy as np  # noqa: PLC0415 - after the path is set

    module, _, name = sys.argv[1].partition(":")
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers
    encoder = None
    while True:
        try:
            texts = pickle.load(requests)
        except EOFError:
            return
        try:
            if encoder is None:
                encoder = getattr(importlib.import_module(module), name)()
            answer = (True, np.asarray(encoder.embed(texts), dtype=np.float32))
        except Exception as error:  # every error goes back to the caller, as itself if it pickles
            try:
                pickle.dumps(error)
                answer = (False, error)
            except Exception:  # an exception that does not pickle goes back as its text
                answer = (False, RuntimeError(f"{type(error).__name__}: {error}"))
        pickle.dump(answer, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()


if __name__ == "__main__":
    main()
