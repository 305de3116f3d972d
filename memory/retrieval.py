"""The arithmetic of the paper's retrieval score, on numpy columns: normalization, cosine relevance, top-k order.

Kept apart from the stream so the formula can be read (and tested) in one place:
score = w_recency * recency + w_relevance * relevance + w_importance * importance, each component min-max
normalized over the candidates (Park et al. 2023, section 4.1).
"""

from dataclasses import dataclass

import numpy as np

from memory.nodes import MemoryNode

# OpenBLAS (numpy's BLAS here) runs a product on every core once it exceeds about 460,000 multiply-adds for a
# matrix-vector product and about 1,000,000 for a matrix product (measured on OpenBLAS 0.3.34 by the CPU time of
# its worker threads). A threaded product stalls for milliseconds whenever another process holds the other core,
# so relevance is computed in row blocks small enough to stay on one thread.
GEMV_BLOCK_ELEMENTS = 1024 * 384
GEMM_BLOCK_ELEMENTS = 2048 * 384
# A matrix product with few columns is slow in OpenBLAS (1,024 x 384 by 3 columns: 190 us; three matrix-vector
# products: 120 us; measured single-threaded), so up to this many queries are scored one vector at a time.
GEMV_MAX_QUERIES = 4
# Top-k selection first discards candidates below the k-th best maximum of blocks of this many scores.
PREFILTER_BLOCK = 100
# Min-max normalization gives this when all candidates are equal (the issue: "all equal: 0.5").
ALL_EQUAL = 0.5


@dataclass(frozen=True, slots=True)
class Retrieved:
    """A retrieved memory with its score and the three normalized components (0-1), for the memory inspector.

    Attributes:
        node: The memory.
        score: The weighted sum of the three components.
        recency: Normalized decay ** (hours since last access) before this retrieval.
        relevance: Normalized cosine similarity to the query.
        importance: Normalized importance.
    """

    node: MemoryNode
    score: float
    recency: float
    relevance: float
    importance: float


def normalize(values: np.ndarray) -> np.ndarray:
    """Min-max normalize to [0, 1] along the first axis; ALL_EQUAL where all values are equal."""
    low, high = values.min(axis=0), values.max(axis=0)
    if values.ndim == 1:
        return (values - low) / (high - low) if high > low else np.full(values.shape, ALL_EQUAL)
    span = high - low
    safe = np.where(span > 0, span, 1.0)
    return np.where(span > 0, (values - low) / safe, ALL_EQUAL)


def cosine(rows: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Cosine of each (unit-length or zero) row with each query: (n, q). Zero queries give 0.

    Computed in row blocks that keep OpenBLAS on one thread (see GEMV_BLOCK_ELEMENTS).
    """
    norms = np.linalg.norm(queries, axis=1, keepdims=True)
    unit = (queries / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    count, dim = rows.shape
    if len(unit) <= GEMV_MAX_QUERIES:
        out = np.empty((len(unit), count), dtype=np.float32)
        block = max(1, GEMV_BLOCK_ELEMENTS // dim)
        for column, vector in enumerate(unit):
            for start in range(0, count, block):
                np.matmul(rows[start : start + block], vector, out=out[column, start : start + block])
        return out.T
    out = np.empty((count, len(unit)), dtype=np.float32)
    columns = np.ascontiguousarray(unit.T)
    block = max(1, GEMM_BLOCK_ELEMENTS // (dim * len(unit)))
    for start in range(0, count, block):
        np.matmul(rows[start : start + block], columns, out=out[start : start + block])
    return out


def best_first(scores: np.ndarray, ids: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k best scores, best first; equal scores go newest (highest id) first, also at the cut.

    Args:
        scores: One score per candidate.
        ids: The candidates' node ids (same length).
        k: How many to keep (k >= 1).
    """
    blocks = len(scores) // PREFILTER_BLOCK
    if k < len(scores) and blocks >= k:
        # k blocks have a maximum >= the k-th largest block maximum, so at least k scores reach it: the k best
        # scores (ties included) all do. Selecting among those few is ~4x faster than over all 10,000.
        maxima = scores[: blocks * PREFILTER_BLOCK].reshape(blocks, PREFILTER_BLOCK).max(axis=1)
        keep = np.flatnonzero(scores >= np.partition(maxima, blocks - k)[blocks - k])
        return keep[_best_first(scores[keep], ids[keep], k)]
    return _best_first(scores, ids, k)


def _best_first(scores: np.ndarray, ids: np.ndarray, k: int) -> np.ndarray:
    if k < len(scores):
        kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)
        tied = tied[np.argsort(-ids[tied], kind="stable")][: k - len(above)]
        chosen = np.concatenate([above, tied])
    else:
        chosen = np.arange(len(scores))
    return chosen[np.lexsort((-ids[chosen], -scores[chosen]))]
