"""The ONNX Runtime path gives the torch path's vectors, is exported once and reused, and falls back to
torch when it cannot run."""

from __future__ import annotations

import gzip
import itertools
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from django.test import override_settings

from harvest.demo import DEMO_DATA
from papers.embedding import open_encoder, paper_text
from papers.model_files import model_location
from papers.onnx_encoder import OnnxEncoder, exported_path
from papers.torch_encoder import TorchEncoder

DEMO_LISTING = (
    Path(__file__).resolve().parents[2] / "harvest/demo_data/arxiv_cs_daily_2025-05_2025-06.jsonl.gz"
)


def demo_papers(count: int) -> list[str]:
    """Title and abstract of real papers, as papers are embedded (the demo listing's first ones)."""
    with gzip.open(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in itertools.islice(lines, count)]
    return [paper_text(" ".join(r["title"].split()), " ".join(r["summary"].split())) for r in records]


@pytest.fixture(scope="module")
def onnx_dir(tmp_path_factory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("onnx")
    with override_settings(EMBEDDING_ONNX_DIR=directory):
        yield directory


def test_its_vectors_are_the_torch_models_on_real_abstracts(onnx_dir):
    texts = demo_papers(200) + ["graph neural networks", "reinforcement learning", "LLM"]
    onnx = open_encoder("onnx")
    assert isinstance(onnx, OnnxEncoder)
    torch_vectors = TorchEncoder(model_location(), max_tokens=128).encode(texts, batch_size=64)
    onnx_vectors = onnx.encode(texts, batch_size=64)
    assert onnx_vectors.shape == torch_vectors.shape == (len(texts), 384)
    cosines = (onnx_vectors * torch_vectors).sum(axis=1)
    assert cosines.min() >= 0.99, cosines.min()
    assert np.allclose(np.linalg.norm(onnx_vectors, axis=1), 1, atol=1e-5)
    # Batches are sorted by length inside: each vector still comes back in its text's place.
    assert np.allclose(onnx.encode(texts[::-1], batch_size=7)[::-1], onnx_vectors, atol=1e-5)


def test_it_exports_once_and_later_processes_reuse_the_file(onnx_dir):
    path = exported_path(model_location(), onnx_dir)
    open_encoder("onnx")
    exported_at = path.stat().st_mtime_ns
    assert isinstance(open_encoder("onnx"), OnnxEncoder)
    assert path.stat().st_mtime_ns == exported_at
    assert sorted(file.name for file in path.parent.iterdir()) == ["export.lock", "model.onnx"]


def test_it_embeds_with_torch_when_the_export_fails(settings, tmp_path, caplog):
    blocked = tmp_path / "a file"
    blocked.write_text("not a directory")
    settings.EMBEDDING_ONNX_DIR = blocked / "onnx"  # cannot be created
    with caplog.at_level(logging.WARNING, logger="papers.embedding"):
        encoder = open_encoder("onnx")
    assert isinstance(encoder, TorchEncoder)
    assert "ONNX Runtime cannot run the embedding model" in caplog.text
    assert encoder.encode(["still embedded"], batch_size=1).shape == (1, 384)
