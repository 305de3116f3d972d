"""The numpy all-MiniLM-L6-v2 encoder: same vectors as sentence-transformers, meaningful similarities, offline."""

import itertools
import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from memory import MiniLMEmbedder, make_embedder
from memory import minilm as minilm_module

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"


@pytest.fixture(scope="module")
def minilm():
    return MiniLMEmbedder()


@pytest.fixture(scope="module")
def reference():
    data = json.loads(REFERENCE.read_text())
    return data["sentences"], np.array(data["vectors"], dtype=np.float32)


def test_vectors_match_sentence_transformers_in_a_batch(minilm, reference):
    sentences, expected = reference
    ours = minilm.embed(sentences)
    assert ours.dtype == np.float32 and ours.shape == (len(sentences), 384)
    assert np.abs(ours - expected).max() < 1e-5


def test_vectors_match_sentence_transformers_one_at_a_time(minilm, reference):
    sentences, expected = reference
    ours = np.concatenate([minilm.embed([sentence]) for sentence in sentences])
    assert np.abs(ours - expected).max() < 1e-5


def test_a_vector_does_not_depend_on_the_other_sentences_of_its_batch(minilm, reference):
    sentences, _ = reference
    alone = np.concatenate([minilm.embed([sentence]) for sentence in sentences])
    np.testing.assert_array_equal(minilm.embed(sentences), alone)
    np.testing.assert_array_equal(minilm.embed([*reversed(sentences), "the bed is idle"])[-2::-1], alone)


@pytest.mark.slow  # encodes a corpus in every pack size
def test_a_vector_is_the_same_in_packs_of_any_size_and_order(minilm, reference):
    """Sentences share matrix products in packs: each must still get the vector it gets alone, wherever it sits."""
    sentences, _ = reference
    corpus = [*sentences, *(f"{sentence} Then {other.lower()}" for sentence, other in itertools.pairwise(sentences))]
    alone = {text: minilm.embed([text])[0] for text in corpus}
    rng = random.Random(0)
    for size in (2, 3, 7, 40):  # 40 sentences fill several packs, encoded on two threads
        batch = [rng.choice(corpus) for _ in range(size)]
        vectors = minilm.embed(batch)
        for text, vector in zip(batch, vectors, strict=True):
            np.testing.assert_array_equal(vector, alone[text])


def test_a_short_ended_and_a_long_ended_sentence_share_a_tile_and_keep_their_vectors(minilm):
    """A sentence whose last tile is nearly empty and one whose last tile is nearly full fit in one tile fewer."""
    minilm.embed(["load the weights"])
    if not minilm._shared_tiles:
        pytest.skip("this BLAS mixes the rows of a tile: sentences do not share tiles here")
    tile = minilm._tile
    invitation = "the party at Hobbs Cafe on Valentine's Day starts at five and everyone in town is invited"
    sentences = [invitation.rsplit(" ", cut)[0] for cut in range(invitation.count(" "), -1, -1)]
    tails = {text: len(minilm._tokenizer.encode(text).ids) % tile for text in sentences}
    short = next(text for text in sentences if 0 < tails[text] <= tile * minilm_module.END_ALIGNED_BEYOND)
    long = next(text for text in sentences if tails[text] > tile * minilm_module.END_ALIGNED_BEYOND and
                tails[short] + tails[text] <= tile)  # fmt: skip
    lengths = [len(minilm._tokenizer.encode(text).ids) for text in (short, long)]
    _, rows = minilm._layout(lengths)
    assert rows == sum(minilm._rows(length) for length in lengths) - tile
    alone = np.vstack([minilm.embed([short]), minilm.embed([long])])
    np.testing.assert_array_equal(minilm.embed([short, long]), alone)
    np.testing.assert_array_equal(minilm.embed([long, "the bed is idle", short])[[2, 0]], alone)


def test_the_row_tile_probe_tries_every_size_it_knows(minilm, monkeypatch):
    """Another CPU's kernel may need a larger tile than this one's: probing the large sizes must work too."""
    minilm.embed(["load the weights"])
    weights = [minilm._layers[0]["qkv"][0], minilm._layers[0]["output"][0]]
    monkeypatch.setattr(minilm_module, "ROW_TILES", (32, 48, 64))
    with threadpool_limits(limits=minilm_module.BLAS_THREADS, user_api="blas"):
        tile = minilm_module._row_tile(weights)
    assert tile is None or tile in (32, 48, 64)
    if minilm._tile is not None:  # a multiple of this machine's tile keeps rows apart as well
        assert tile is not None and tile % minilm._tile == 0


@pytest.mark.slow  # loads MiniLM once per thread
def test_encoders_called_from_several_threads_at_once_give_the_vectors_each_gives_alone(reference):
    """Two embedders in one process (with different vector-cache files, say) may encode at once. One BLAS thread per
    sentence is a process-wide limit that threadpoolctl lets only one thread hold, so their encodings must not overlap.
    """
    sentences, _ = reference
    alone = np.concatenate([MiniLMEmbedder().embed([sentence]) for sentence in sentences])
    encoders = [MiniLMEmbedder() for _ in range(3)]  # each loads its weights during the race
    asked = [sentences[index::3] * 3 for index in range(3)]
    with ThreadPoolExecutor(max_workers=3) as callers:
        answers = list(callers.map(lambda encoder, texts: encoder.embed(texts), encoders, asked))
    for index, answer in enumerate(answers):
        np.testing.assert_array_equal(answer, np.tile(alone[index::3], (3, 1)))


def test_related_sentences_score_higher_than_unrelated_ones():
    query, party, paper = make_embedder("minilm").embed(
        ["Valentine's Day party", "Isabella is planning a party at Hobbs Cafe", "Klaus is writing a research paper"]
    )
    assert query @ party > query @ paper + 0.2


def test_text_past_256_tokens_is_cut_as_sentence_transformers_does(minilm):
    long = " ".join(f"word{i}" for i in range(400))
    first, longer, changed_early = minilm.embed(
        [long, long + " and a different ending about Valentine's Day", "a different start " + long]
    )
    assert np.linalg.norm(first) == pytest.approx(1.0, abs=1e-6)
    # Past the cut nothing counts: only float rounding of the batch (~1e-8) separates the two vectors, while a change
    # before the cut moves the vector by orders of magnitude more.
    assert np.abs(first - longer).max() < 1e-6
    assert np.abs(first - changed_early).max() > 1e-3


def test_no_texts_give_an_empty_matrix(minilm):
    assert minilm.embed([]).shape == (0, 384)


def test_weights_load_on_first_use_and_a_bad_folder_is_named(tmp_path):
    embedder = MiniLMEmbedder(folder=tmp_path)  # nothing is read yet
    with pytest.raises(FileNotFoundError, match=f"{tmp_path}: .* lacks tokenizer.json, model.safetensors"):
        embedder.embed(["hello"])
