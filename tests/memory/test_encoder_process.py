"""The encoder's child process: same vectors as in the process, survives its child's death, reports its errors."""

import logging
import os
import signal
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from memory import HashingEmbedder, MiniLMEmbedder
from memory.encoder_process import EncoderProcessError, ProcessEmbedder, ProcessPoolEmbedder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hashing_child():
    embedder = ProcessEmbedder("memory.embeddings:HashingEmbedder", "hashing", 256)
    yield embedder
    embedder.close()


@pytest.mark.slow  # starts Python processes that load MiniLM
def test_the_child_gives_the_vectors_the_encoder_gives_in_this_process():
    texts = ["Isabella is planning a party", "the bed is idle", "Klaus is reading about gentrification"]
    child = ProcessEmbedder("memory.minilm:MiniLMEmbedder", "minilm", 384)
    try:
        np.testing.assert_array_equal(child.embed(texts), MiniLMEmbedder().embed(texts))
    finally:
        child.close()


def test_a_child_that_dies_is_replaced_with_a_warning(hashing_child, caplog):
    texts = ["a", "b"]
    first = hashing_child.embed(texts)
    hashing_child._child.kill()
    hashing_child._child.wait()
    with caplog.at_level(logging.WARNING, logger="memory.encoder_process"):
        again = hashing_child.embed(texts)
    np.testing.assert_array_equal(again, first)
    assert "encoder process exited" in caplog.text


def test_an_error_in_the_child_reaches_the_caller_as_itself():
    child = ProcessEmbedder("memory.embeddings:NoSuchEncoder", "nothing", 3)
    try:
        with pytest.raises(AttributeError, match="NoSuchEncoder"):
            child.embed(["text"])
        with pytest.raises(AttributeError):  # and again: the child stays up
            child.embed(["text"])
    finally:
        child.close()


@pytest.mark.slow  # starts child processes, one killed
def test_close_stops_the_child_and_a_later_call_starts_another(hashing_child):
    hashing_child.embed(["x"])
    process = hashing_child._child
    hashing_child.close()
    assert process.poll() is not None
    np.testing.assert_array_equal(hashing_child.embed(["x"]), HashingEmbedder().embed(["x"]))


@pytest.mark.slow  # starts Python processes that load MiniLM
def test_a_script_without_a_main_guard_can_use_the_minilm_embedder(tmp_path):
    """A multiprocessing "spawn" child would re-run such a script and fail; the worker is started on its own."""
    script = tmp_path / "notebook_style.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(ROOT)!r})
            from memory import make_embedder
            print(make_embedder("minilm").embed(["hello"]).shape)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1, 384)"


def test_the_child_outlives_a_ctrl_c_to_the_process_group(hashing_child, caplog):
    """Ctrl-C reaches the whole group; the run then checkpoints, which may still need the child's vectors."""
    hashing_child.embed(["before"])
    hashing_child._child.send_signal(signal.SIGINT)
    hashing_child._child.send_signal(signal.SIGTERM)
    with caplog.at_level(logging.WARNING, logger="memory.encoder_process"):
        np.testing.assert_array_equal(hashing_child.embed(["after"]), HashingEmbedder().embed(["after"]))
    assert hashing_child._child.poll() is None
    assert caplog.text == ""


class Dying:
    """An encoder whose process exits as it starts (imported by the child from this module)."""

    def __init__(self):
        os._exit(3)


@pytest.mark.slow  # starts child processes, one killed
def test_a_child_that_dies_twice_in_one_call_is_one_clear_error(caplog):
    child = ProcessEmbedder("tests.memory.test_encoder_process:Dying", "dying", 3)
    try:
        with (
            caplog.at_level(logging.WARNING, logger="memory.encoder_process"),
            pytest.raises(EncoderProcessError) as error,
        ):
            child.embed(["text"])
        assert str(error.value).startswith("the dying encoder process exited (code 3;")
        assert "starting another" in caplog.text
    finally:
        child.close()


@pytest.mark.slow  # starts Python processes that load MiniLM
def test_a_pool_serves_two_callers_at_once_from_two_processes_with_the_vectors_of_one():
    texts = [f"Isabella tells {name} about the party" for name in ("Klaus", "Maria", "Sam", "Tom")]
    pool = ProcessPoolEmbedder("memory.minilm:MiniLMEmbedder", "minilm", 384, processes=2)
    try:
        assert pool.workers == 2
        with ThreadPoolExecutor(max_workers=2) as callers:
            answers = list(callers.map(pool.embed, [texts[:2], texts[2:]] * 3))
        np.testing.assert_array_equal(np.vstack(answers[:2]), MiniLMEmbedder().embed(texts))
        for index, answer in enumerate(answers[2:]):
            np.testing.assert_array_equal(answer, answers[index % 2])
        children = [child._child for child in pool._children]
        assert all(children) and len({child.pid for child in children}) == 2
    finally:
        pool.close()
    assert all(child.poll() is not None for child in children)
