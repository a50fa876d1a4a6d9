"""The bundled model exported to ONNX, once: sentence-transformers' own ONNX backend needs optimum, whose
releases pin transformers below the 5.x sentence-transformers 6 runs on, so the model's transformer is
traced here by torch's exporter and fused by ONNX Runtime's BERT optimizer (attention, GELU, layer norms).
A model that declares anything but a transformer, mean pooling and normalising is not exported
(papers.embedding then uses torch)."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import torch
from onnxruntime.transformers import optimizer
from sentence_transformers import SentenceTransformer

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# What the model must declare to be run here: a transformer, mean pooling, then unit length.
SUPPORTED_MODULES = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


class UnsupportedModel(Exception):
    pass


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


def export(location: str, target: Path, *, threads: int) -> None:
    """Trace the model's transformer to ONNX and fuse it, once: concurrent processes (two gunicorn
    workers starting together) wait on a lock for the first one's file, which appears whole or not at
    all (written aside, then renamed)."""
    _check_supported(Path(location))
    torch.set_num_threads(threads)  # a process's share of the cores, as for embedding (TORCH_THREADS)
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
