"""all-MiniLM-L6-v2 as an ONNX graph written with onnx.helper from the numpy encoder's own weights, for bench_embed.py.

No torch and no network: the graph (embeddings, 6 post-norm BERT layers with exact erf GELU, mean pooling, L2 norm,
opset 17) is built in memory from the weights MiniLMEmbedder loads, then run with onnxruntime. It needs the optional
packages `onnx` and `onnxruntime`, which the project does not depend on (see bench_embed.py for why).
Two gotchas: IR version 8 (onnx writes a newer one than onnxruntime accepts), and position ids are an input (a
Shape-Gather-Range subgraph was rewritten by onnxruntime's optimizer into an invalid Slice).
"""

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from memory import MiniLMEmbedder
from memory.minilm import HEADS, LAYER_NORM_EPS

# Sentences per onnxruntime call (the numpy encoder takes one at a time for exact replays; see memory/minilm.py).
BATCH = 32


def build_graph(encoder: MiniLMEmbedder) -> bytes:
    """The serialized ONNX model: inputs input_ids (batch, tokens), attention_mask, position_ids; output embedding."""
    from onnx import TensorProto, helper, numpy_helper

    encoder._load()
    dim, head = encoder.dim, encoder.dim // HEADS
    initializers, nodes = [], []
    names = iter(range(1_000_000))

    def const(value, dtype=np.float32) -> str:
        name = f"c{next(names)}"
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(np.asarray(value, dtype=dtype)), name))
        return name

    def op(kind: str, inputs: list[str], outputs: int = 1, **attributes) -> str | list[str]:
        made = [f"t{next(names)}" for _ in range(outputs)]
        nodes.append(helper.make_node(kind, inputs, made, **attributes))
        return made[0] if outputs == 1 else made

    def linear(x: str, pair) -> str:
        return op("Add", [op("MatMul", [x, const(pair[0])]), const(pair[1])])

    def norm(x: str, pair) -> str:
        return op("LayerNormalization", [x, const(pair[0]), const(pair[1])], axis=-1, epsilon=LAYER_NORM_EPS)

    words = op("Gather", [const(encoder._word), "input_ids"])
    x = op(
        "Add",
        [op("Add", [words, op("Gather", [const(encoder._position), "position_ids"])]), const(encoder._token_type)],
    )
    x = norm(x, encoder._embedding_norm)
    padding = op("Mul", [op("Sub", [const(1.0), "attention_mask"]), const(-1e9)])
    bias = op("Unsqueeze", [padding, const([1, 2], np.int64)])
    split_heads, merge_heads = const([0, 0, HEADS, head], np.int64), const([0, 0, dim], np.int64)
    for layer in encoder._layers:
        q, k, v = op("Split", [linear(x, layer["qkv"]), const([dim] * 3, np.int64)], outputs=3, axis=2)
        q = op("Transpose", [op("Reshape", [q, split_heads])], perm=[0, 2, 1, 3])
        k = op("Transpose", [op("Reshape", [k, split_heads])], perm=[0, 2, 3, 1])
        v = op("Transpose", [op("Reshape", [v, split_heads])], perm=[0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), const(1 / np.sqrt(head))]), bias])
        context = op("MatMul", [op("Softmax", [scores], axis=-1), v])
        context = op("Reshape", [op("Transpose", [context], perm=[0, 2, 1, 3]), merge_heads])
        x = norm(op("Add", [x, linear(context, layer["attention_out"])]), layer["attention_norm"])
        hidden = linear(x, layer["intermediate"])
        gate = op("Add", [op("Erf", [op("Mul", [hidden, const(1 / np.sqrt(2.0))])]), const(1.0)])
        hidden = op("Mul", [op("Mul", [hidden, const(0.5)]), gate])
        x = norm(op("Add", [x, linear(hidden, layer["output"])]), layer["output_norm"])
    mask = op("Unsqueeze", ["attention_mask", const([2], np.int64)])
    summed = op("ReduceSum", [op("Mul", [x, mask]), const([1], np.int64)], keepdims=0)
    counts = op("ReduceSum", ["attention_mask", const([1], np.int64)], keepdims=1)
    pooled = op("Div", [summed, op("Max", [counts, const(1e-9)])])
    length = op("Max", [op("ReduceL2", [pooled], axes=[1], keepdims=1), const(1e-12)])
    nodes.append(helper.make_node("Div", [pooled, length], ["embedding"]))
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", "tokens"]),
        helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["tokens"]),
    ]
    output = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", dim])
    model = helper.make_model(
        helper.make_graph(nodes, "all-MiniLM-L6-v2", inputs, [output], initializers),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    model.ir_version = 8
    return model.SerializeToString()


class OnnxMiniLMEmbedder:
    """The numpy encoder's tokenizer and weights, run by onnxruntime, BATCH sentences of similar length at a time.

    Args:
        threads: onnxruntime's intra-op threads.
        batch: Sentences of similar length run together (1: each alone, as the numpy encoder does).
    """

    name = "minilm"
    dim = 384

    def __init__(self, threads: int = 2, batch: int = BATCH):
        import onnxruntime

        self._batch = batch
        self._encoder = MiniLMEmbedder()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # its shape-merge warnings about Unsqueeze are harmless
        graph = build_graph(self._encoder)
        self._session = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed sentences: (n, 384) float32, L2-normalized."""
        texts = list(texts)
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return result
        encodings = self._encoder._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self._batch):
            batch = order[start : start + self._batch]
            length = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), length), dtype=np.int64)
            mask = np.zeros((len(batch), length), dtype=np.float32)
            for row, index in enumerate(batch):
                tokens = encodings[index].ids
                ids[row, : len(tokens)] = tokens
                mask[row, : len(tokens)] = 1.0
            feed = {"input_ids": ids, "attention_mask": mask, "position_ids": np.arange(length, dtype=np.int64)}
            result[batch] = self._session.run(["embedding"], feed)[0]
        return result


class DayOnnxEncoder:
    """The encoder `bench_day.py minilm-onnx` runs in the town's encoder process, in place of MiniLMEmbedder.

    One sentence at a time on one intra-op thread, and the two halves of a batch on two threads, as the numpy encoder
    uses the second core for a batch's other pack.
    """

    name = "minilm"
    dim = 384

    def __init__(self):
        self._encoder = OnnxMiniLMEmbedder(threads=1, batch=1)
        self._halves = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ort")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if len(texts) < 2:
            return self._encoder.embed(texts)
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        result[0::2], result[1::2] = self._halves.map(self._encoder.embed, (texts[0::2], texts[1::2]))
        return result
