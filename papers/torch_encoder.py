"""The embedding model on torch (sentence-transformers): the reference, and what runs when ONNX Runtime
cannot (papers/onnx_encoder.py)."""

from __future__ import annotations

import numpy as np
import torch
from sentence_transformers import SentenceTransformer


def limit_threads(count: int) -> None:
    """Per process (see TORCH_THREADS)."""
    torch.set_num_threads(count)


class TorchEncoder:
    backend = "torch"

    def __init__(self, location: str, *, max_tokens: int) -> None:
        self.model = SentenceTransformer(location, device="cpu")
        self.model.max_seq_length = max_tokens

    def encode(self, texts: list[str], *, batch_size: int) -> np.ndarray:
        return self.model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
        )
