"""An embedding model behind litellm ("openai/text-embedding-3-small", "ollama/nomic-embed-text"), as an Embedder.

The memory layer takes any object with `name`, `dim` and `embed`; this one calls litellm's `embedding` with a timeout
and bounded retries, and learns its dimension from one probe at construction, so that a wrong name, an unreachable
server or a missing key is one clear error before the run starts, not a traceback in its first step.
"""

import logging
import time
from collections.abc import Sequence

import numpy as np

from agents.language.backends import providers
from agents.language.backends.litellm_import import import_litellm
from agents.language.backends.model_names import check_model_name, placeholder_key
from memory import is_local_embedder

logger = logging.getLogger(__name__)

# Texts sent in one embedding request (providers cap a batch; OpenAI's limit is 2,048 inputs).
BATCH = 256
# Tries of one request before giving up, with this many seconds between the first two (doubled after).
TRIES, FIRST_WAIT_S = 3, 0.5


def check_embedder(name: str, api_base: str | None = None) -> None:
    """Say in one line what is wrong with a litellm embedder's name or key, given its `api_base`, before it is built.

    The same check as a chat model's (`check_model_name`): a key missing from the environment is found at once, not
    after the probe's tries. A local embedder (memory's "minilm", "hashing") needs nothing.

    Raises:
        ValueError: For an unknown provider, or a missing API key.
    """
    if is_local_embedder(name) or "/" not in name:
        return  # a local one, or a name make_agent_embedder refuses in its own words
    try:
        check_model_name(name, api_base)
    except ValueError as error:
        raise ValueError(f"embedder {str(error).removeprefix('model ')}") from None


class EmbedderUnavailable(ValueError):
    """The embedding model could not be reached or refused the request (a ValueError: the run cannot start)."""


class LiteLLMEmbedder:
    """Vectors from an embedding model through litellm, L2-normalized as the memory stream expects.

    Args:
        model: A litellm embedding model name ("provider/model").
        api_base: Base URL of the server (an OpenAI-compatible or ollama server).
        timeout_s: Seconds one request may take.

    Raises:
        EmbedderUnavailable: If the probe at construction fails.
    """

    def __init__(self, model: str, *, api_base: str | None = None, timeout_s: float = 60.0):
        self.name = model
        self.model = model
        self.api_base = api_base
        self.timeout_s = timeout_s
        self.litellm = import_litellm()
        self._api_key = placeholder_key(self.litellm, model, api_base)
        self.dim = int(self._request(["probe"]).shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch of texts, in requests of at most BATCH texts."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._request(list(texts[start : start + BATCH])) for start in range(0, len(texts), BATCH)]
        return np.vstack(parts)

    def _request(self, texts: list[str]) -> np.ndarray:
        wait = FIRST_WAIT_S
        for attempt in range(1, TRIES + 1):
            try:
                response = self.litellm.embedding(
                    model=self.model,
                    input=texts,
                    api_base=self.api_base,
                    api_key=self._api_key,
                    timeout=self.timeout_s,
                    num_retries=0,
                )
                break
            except Exception as error:  # litellm raises provider-specific types; all are reported the same way
                if attempt == TRIES or not providers.is_transient(error, self.litellm):  # a refusal: no retry helps
                    raise EmbedderUnavailable(
                        f"embedder {self.model!r}: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
                    ) from error
                logger.warning("embedder %s failed (%s); trying again in %.1f s", self.model, error, wait)
                time.sleep(wait)
                wait *= 2
        rows = sorted(response.data, key=lambda item: item["index"])
        vectors = np.asarray([item["embedding"] for item in rows], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)
