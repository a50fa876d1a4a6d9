"""The sentence-transformers model that turns text into the vectors papers are searched by: run by ONNX
Runtime (papers/onnx_encoder.py, EMBEDDING_BACKEND=onnx, the default), or by torch.

Loaded once per process: by gunicorn workers and the embed worker's children when they start
(`load_model`), so no reader or task waits the seconds loading takes; elsewhere on first use. Importing
this module is cheap: ONNX Runtime is imported when the model is opened, torch and sentence-transformers
(seconds and hundreds of megabytes) only to export it once or to run the torch fallback. Migrations, beat
and every other manage.py command, which import this module through the URLconf and the harvest's tasks,
load none of them, and a web worker running the exported model holds no torch.
"""

from __future__ import annotations

import logging
import resource
import time
from functools import cache
from typing import Protocol

import numpy as np
from django.conf import settings

from papers.model_files import model_location

logger = logging.getLogger(__name__)


class Encoder(Protocol):
    backend: str

    def encode(self, texts: list[str], *, batch_size: int) -> np.ndarray: ...


def open_encoder(backend: str) -> Encoder:
    """The model on `backend` ("onnx", exported on first use and cached, or "torch"); ONNX falls back to
    torch, with a warning, if the export or the runtime fails. Not cached: get_model is."""
    location = model_location()
    if backend == "onnx":
        try:
            return _onnx_encoder(location)
        except Exception as error:  # any failure of the fast path leaves the reference path
            logger.warning(
                "ONNX Runtime cannot run the embedding model (%s: %s); embedding with torch",
                type(error).__name__,
                error,
            )
    return _torch_encoder(location)


def _onnx_encoder(location: str) -> Encoder:
    # ONNX Runtime, not torch: only a process that embeds pays for importing it (import cost).
    from papers import onnx_encoder

    path = onnx_encoder.exported_path(location, settings.EMBEDDING_ONNX_DIR)
    if not path.exists():
        logger.info("exporting the embedding model to ONNX (once): %s", path)
        # torch traces the export: once per model and versions, by the first process (import cost).
        from papers import onnx_export

        onnx_export.export(location, path, threads=settings.TORCH_THREADS)
    return onnx_encoder.OnnxEncoder(
        location, path, max_tokens=settings.EMBEDDING_MAX_TOKENS, threads=settings.TORCH_THREADS
    )


def _torch_encoder(location: str) -> Encoder:
    # torch and sentence-transformers: seconds and hundreds of megabytes (import cost), only here.
    from papers import torch_encoder

    torch_encoder.limit_threads(settings.TORCH_THREADS)
    return torch_encoder.TorchEncoder(location, max_tokens=settings.EMBEDDING_MAX_TOKENS)


@cache
def get_model() -> Encoder:
    started = time.monotonic()
    encoder = open_encoder(settings.EMBEDDING_BACKEND)
    dimensions = encoder.encode(["how many dimensions"], batch_size=1).shape[1]
    if dimensions != settings.EMBEDDING_DIMENSIONS:
        raise RuntimeError(
            f"EMBEDDING_MODEL gives {dimensions}-dimensional vectors; the embedding column holds "
            f"{settings.EMBEDDING_DIMENSIONS}"
        )
    # Each process holding the model costs hundreds of megabytes: the log says how many, per process.
    logger.info(
        "embedding model loaded (%s) in %.1f s; this process now holds %d MB at most",
        encoder.backend,
        time.monotonic() - started,
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    )
    return encoder


def load_model() -> None:
    """Load the model in a process about to serve. get_model runs it once (its dimension check), so the
    first encode's one-time costs (the tokenizer, the runtime's allocations) are paid here too, not by a
    reader's first search."""
    get_model()


def paper_text(title: str, abstract: str) -> str:
    return f"{title}. {abstract}".strip()


def embed_texts(texts: list[str]) -> np.ndarray:
    """Unit-length vectors, so cosine distance is what the HNSW index compares."""
    return get_model().encode(texts, batch_size=settings.EMBEDDING_BATCH_SIZE)
