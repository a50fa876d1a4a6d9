"""The embedding model run by ONNX Runtime: the same vectors as sentence-transformers on torch (cosine
above 0.999 on the demo abstracts, tested), in a fraction of the time per query.

sentence-transformers' own ONNX backend needs optimum, whose releases pin transformers below the 5.x
sentence-transformers 6 runs on, so the model is exported here: the bundled model's transformer, traced by
torch's exporter on first use and fused by ONNX Runtime's BERT optimizer (attention, GELU, layer norms),
cached under EMBEDDING_ONNX_DIR and reused by every later process. Tokenising (the model's own
tokenizer.json), mean pooling and normalising are what the model's modules.json declares; a model that
declares anything else is not exported (papers.embedding then uses torch).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import onnxruntime
import torch
from onnxruntime.transformers import optimizer
from sentence_transformers import SentenceTransformer
from tokenizers import Tokenizer

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# What the model must declare to be run here: a transformer, mean pooling, then unit length.
SUPPORTED_MODULES = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


class UnsupportedModel(Exception):
    pass


def exported_path(location: str, directory: Path) -> Path:
    """Where the export of this model is kept: named by the model's files and the exporting versions, so
    a changed model or runtime is exported again rather than read stale."""
    model_dir = Path(location)
    stamp = hashlib.sha256()
    for file in sorted(model_dir.glob("*")):
        if file.is_file():
            stat = file.stat()
            stamp.update(f"{file.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    stamp.update(f"torch {torch.__version__}, onnxruntime {onnxruntime.__version__}".encode())
    return directory / f"{model_dir.name}-{stamp.hexdigest()[:16]}" / "model.onnx"


def _check_supported(model_dir: Path) -> None:
    try:
        modules = [module["type"] for module in json.loads((model_dir / "modules.json").read_text())]
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
    except (OSError, ValueError, KeyError) as error:
        raise UnsupportedModel(f"cannot read the model's modules: {error}") from error
    mean_only = pooling.get("pooling_mode_mean_tokens") and not any(
        value
        for key, value in pooling.items()
        if key.startswith("pooling_mode_") and key != "pooling_mode_mean_tokens"
    )
    if modules != SUPPORTED_MODULES or not mean_only or not (model_dir / "tokenizer.json").is_file():
        raise UnsupportedModel(
            f"{model_dir.name} is not a transformer with mean pooling and a tokenizer.json"
        )


def export(location: str, target: Path) -> None:
    """Trace the model's transformer to ONNX and fuse it, once: concurrent processes (two gunicorn
    workers starting together) wait on a lock for the first one's file, which appears whole or not at
    all (written aside, then renamed)."""
    _check_supported(Path(location))
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / "export.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists():
            return
        # Eager attention traces to the plain MatMul/Softmax pattern ONNX Runtime's optimizer fuses into
        # one Attention operator; the default (SDPA) traces to a graph it cannot fuse.
        model = SentenceTransformer(location, device="cpu", model_kwargs={"attn_implementation": "eager"})
        transformer = _LastHiddenState(model[0].auto_model.eval())
        example = model.tokenizer(
            ["an example", "a longer example sentence"], padding=True, return_tensors="pt"
        )
        traced = target.with_name("traced.onnx")
        with torch.inference_mode():
            torch.onnx.export(
                transformer,
                tuple(example[name] for name in INPUTS),
                str(traced),
                input_names=list(INPUTS),
                output_names=["last_hidden_state"],
                dynamic_axes={name: {0: "batch", 1: "tokens"} for name in [*INPUTS, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,  # the torch.export-based exporter needs onnxscript, and traces no faster
            )
        config = model[0].auto_model.config
        fused = optimizer.optimize_model(
            str(traced),
            model_type="bert",
            num_heads=config.num_attention_heads,
            hidden_size=config.hidden_size,
        )
        partial = target.with_name("model.onnx.partial")
        fused.save_model_to_file(str(partial))
        os.replace(partial, target)
        traced.unlink()


class _LastHiddenState(torch.nn.Module):
    """The transformer with positional inputs and one output, as the exporter traces it."""

    def __init__(self, transformer: torch.nn.Module) -> None:
        super().__init__()
        self.transformer = transformer

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        return self.transformer(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state


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
