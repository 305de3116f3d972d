"""The offline backend: the deterministic offline mind behind the same interface as a model."""

from agents.language.backends.base import Completion, estimate_tokens
from agents.language.offline import offline_answer
from agents.language.request import Request


class OfflineBackend:
    """Free, instant and reproducible; tokens are estimated from the text so a run shows what a model would read."""

    name = "offline"

    def __init__(self, seed: int = 0):
        self.seed = seed

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """The offline mind's answer to the request (it reads the request's fields, the prompt's facts)."""
        del parameters
        text = offline_answer(request, self.seed)
        prompt = sum(estimate_tokens(message["content"]) for message in messages)
        return Completion(text=text, prompt_tokens=prompt, completion_tokens=estimate_tokens(text), cost=0.0)
