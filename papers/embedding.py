"""The sentence-transformers model that turns text into the vectors papers are searched by.

Loaded once per process: by gunicorn workers and the embed worker's children when they start
(`load_model`), so no reader or task waits the seconds loading takes; elsewhere on first use. Importing
this module imports torch: only the processes that embed (web workers for queries, the embed worker)
import it; start-up, migrations and beat do not.
"""

from __future__ import annotations

import logging
import resource
import time
from functools import cache

import numpy as np
import torch
from django.conf import settings
from sentence_transformers import SentenceTransformer

from papers.model_files import model_location

logger = logging.getLogger(__name__)


@cache
def get_model() -> SentenceTransformer:
    started = time.monotonic()
    torch.set_num_threads(settings.TORCH_THREADS)  # per process: see the setting
    model = SentenceTransformer(model_location(), device="cpu")
    model.max_seq_length = settings.EMBEDDING_MAX_TOKENS
    dimensions = model.get_embedding_dimension()
    if dimensions != settings.EMBEDDING_DIMENSIONS:
        raise RuntimeError(
            f"EMBEDDING_MODEL gives {dimensions}-dimensional vectors; the embedding column holds "
            f"{settings.EMBEDDING_DIMENSIONS}"
        )
    # Each process holding the model costs hundreds of megabytes: the log says how many, per process.
    logger.info(
        "embedding model loaded in %.1f s; this process now holds %d MB at most",
        time.monotonic() - started,
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    )
    return model


def load_model() -> None:
    """Load the model and run it once, in a process about to serve: the first encode also pays one-time
    costs (the tokenizer, torch's allocator), which a reader's first search would otherwise wait for."""
    embed_texts(["loaded before the first request"])


def paper_text(title: str, abstract: str) -> str:
    return f"{title}. {abstract}".strip()


def embed_texts(texts: list[str]) -> np.ndarray:
    """Unit-length vectors, so cosine distance is what the HNSW index compares."""
    return get_model().encode(
        texts, batch_size=settings.EMBEDDING_BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False
    )
