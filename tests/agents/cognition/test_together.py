"""Steps of a thought run at once, and none outlives a failed one."""

import asyncio

import pytest

from agents.cognition.asking import together


def test_steps_run_at_once_and_return_in_order():
    running: list[str] = []
    seen: list[int] = []

    async def step(name: str, seconds: float) -> str:
        running.append(name)
        await asyncio.sleep(seconds)
        seen.append(len(running))
        running.remove(name)
        return name

    done = asyncio.run(together(step("slow", 0.02), step("fast", 0.01)))
    assert done == ["slow", "fast"]
    assert seen[0] == 2  # the first to finish had the other under way beside it


def test_a_failing_step_cancels_the_others_before_its_error_goes_on():
    finished: list[str] = []

    async def fails() -> None:
        await asyncio.sleep(0.01)
        raise RuntimeError("the model stays down")

    async def long() -> None:
        await asyncio.sleep(0.5)
        finished.append("long")

    async def main() -> None:
        with pytest.raises(RuntimeError, match="stays down"):
            await together(long(), fails())
        await asyncio.sleep(0.6)

    asyncio.run(main())
    assert finished == []
