"""The embedding model run by ONNX Runtime: the same vectors as sentence-transformers on torch (cosine
above 0.999 on the demo abstracts, tested), in a fraction of the time per query, and without importing
torch: a process that runs the exported model holds ONNX Runtime and the tokenizer only.

The export (papers/onnx_export.py) is made once, on first use, and kept under EMBEDDING_ONNX_DIR for every
later process. Tokenising (the model's own tokenizer.json), mean pooling and normalising are what the
model's modules.json declares (the export checks it).
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from pathlib import Path

import numpy as np
import onnxruntime
from tokenizers import Tokenizer


def exported_path(location: str, directory: Path) -> Path:
    """Where the export of this model is kept: named by the model's files and the exporting versions, so
    a changed model or runtime is exported again rather than read stale."""
    model_dir = Path(location)
    stamp = hashlib.sha256()
    for file in sorted(model_dir.glob("*")):
        if file.is_file():
            stat = file.stat()
            stamp.update(f"{file.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    stamp.update(f"torch {version('torch')}, onnxruntime {version('onnxruntime')}".encode())
    return directory / f"{model_dir.name}-{stamp.hexdigest()[:16]}" / "model.onnx"


class OnnxEncoder:
    """Unit-length sentence vectors from an exported model, as SentenceTransformer.encode gives them."""

    backend = "onnx"

    def __init__(self, location: str, path: Path, *, max_tokens: int, threads: int) -> None:
        self.tokenizer = Tokenizer.from_file(str(Path(location) / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        # As torch's threads: each process that embeds gets its share of the cores, not all of them.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.inputs = [item.name for item in self.session.get_inputs()]

    def encode(self, texts: list[str], *, batch_size: int) -> np.ndarray:
        # Longest first, in batches of similar length (as sentence-transformers does): padding is work.
        order = sorted(range(len(texts)), key=lambda index: -len(texts[index]))
        vectors: list[np.ndarray] = []
        for start in range(0, len(order), batch_size):
            vectors.append(self._encode_batch([texts[index] for index in order[start : start + batch_size]]))
        if not vectors:
            return np.zeros((0, 0), dtype=np.float32)
        result = np.empty_like(np.concatenate(vectors))
        result[order] = np.concatenate(vectors)
        return result

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feed = {
            "input_ids": np.array([encoding.ids for encoding in encodings], dtype=np.int64),
            "attention_mask": mask,
            "token_type_ids": np.array([encoding.type_ids for encoding in encodings], dtype=np.int64),
        }
        hidden = self.session.run(None, {name: feed[name] for name in self.inputs})[0]
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return (pooled / np.linalg.norm(pooled, axis=1, keepdims=True)).astype(np.float32)
