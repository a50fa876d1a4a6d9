"""`python -m bench.embedding`: the embedding model's speed on ONNX Runtime and on torch, in one process.

Papers per second over real demo papers (title and abstract, 128 word pieces, batches of
EMBEDDING_BATCH_SIZE, with the embed worker's threads) and the time to embed one query (one thread, as a
web worker does), for both paths, in rounds that alternate which path goes first, so a busy stretch of
the machine falls on both alike. Also the cosine between the two paths' vectors. Writes
bench/results/embedding.json and prints a table. Needs no database.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import itertools
import json
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

import django
import numpy as np
import torch
from django.test.utils import override_settings

BASE_DIR = Path(__file__).resolve().parent.parent
DEMO_LISTING = BASE_DIR / "harvest/demo_data/arxiv_cs_daily_2025-05_2025-06.jsonl.gz"
BACKENDS = ("onnx", "torch")


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.embedding", description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=512, help="demo papers embedded per round (512)")
    parser.add_argument("--queries", type=int, default=100, help="single queries embedded per round (100)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, alternating the paths (4)")
    parser.add_argument("--threads", type=int, default=2, help="threads for papers, as the embed worker (2)")
    parser.add_argument(
        "--output", type=Path, default=BASE_DIR / "bench" / "results", help="where the JSON goes"
    )
    return parser.parse_args(argv)


def demo_texts(count: int) -> list[str]:
    with gzip.open(DEMO_LISTING, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in itertools.islice(lines, count)]
    return [f"{' '.join(r['title'].split())}. {' '.join(r['summary'].split())}" for r in records]


def query_texts(count: int, papers: list[str]) -> list[str]:
    """Distinct two- and three-word queries from the papers' titles (a cached query never reaches the model,
    so every one is new)."""
    words = [word.lower() for text in papers for word in text.split(".")[0].split() if word.isalpha()]
    return [" ".join(words[index : index + 2 + index % 2]) for index in range(0, 3 * count, 3)][:count]


def _percentile(values: list[float], percent: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, int(np.ceil(percent / 100 * len(ordered)))) - 1]


def _summary(milliseconds: list[float]) -> dict[str, float]:
    return {"n": len(milliseconds)} | {
        f"p{percent}": round(_percentile(milliseconds, percent), 2) for percent in (50, 95, 99)
    }


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wovepaper.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    django.setup()
    # needs Django configured (above): the settings put HF_HUB_OFFLINE in the environment first
    from papers.embedding import open_encoder

    papers, started_load = demo_texts(args.papers), os.getloadavg()[0]
    queries = query_texts(args.queries * args.rounds, papers)
    encoders = {}
    for backend in BACKENDS:  # ONNX Runtime fixes its threads per session: one for batches, one for queries
        with override_settings(TORCH_THREADS=args.threads):
            encoders[backend, "papers"] = open_encoder(backend)
        with override_settings(TORCH_THREADS=1):
            encoders[backend, "queries"] = open_encoder(backend)
        assert encoders[backend, "papers"].backend == backend, f"{backend} did not load"
    rates: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
    query_ms: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
    # CPU time as well as wall time: on cores shared with other work the wall clock mostly measures the
    # wait for a core; CPU time is what the path itself costs (papers: all its threads together).
    cpu_rates: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
    query_cpu_ms: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
    vectors: dict[str, np.ndarray] = {}
    for round_ in range(args.rounds):
        for backend in BACKENDS if round_ % 2 == 0 else BACKENDS[::-1]:
            torch.set_num_threads(args.threads)
            started, cpu_started = time.perf_counter(), time.process_time()
            vectors[backend] = encoders[backend, "papers"].encode(papers, batch_size=64)
            rates[backend].append(len(papers) / (time.perf_counter() - started))
            cpu_rates[backend].append(len(papers) / (time.process_time() - cpu_started))
            torch.set_num_threads(1)
            for text in queries[round_ * args.queries : (round_ + 1) * args.queries]:
                started, cpu_started = time.perf_counter(), time.thread_time()
                encoders[backend, "queries"].encode([text], batch_size=1)
                query_ms[backend].append((time.perf_counter() - started) * 1000)
                query_cpu_ms[backend].append((time.thread_time() - cpu_started) * 1000)
            print(f"round {round_ + 1} {backend}: {rates[backend][-1]:.0f} papers/s", file=sys.stderr)
    cosines = (vectors["onnx"] * vectors["torch"]).sum(axis=1)
    report = {
        "generated_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            # 1-minute averages; above 2.0 the two cores are shared with other work
            "load_average_at_start": started_load,
            "load_average_at_end": os.getloadavg()[0],
        },
        "papers": len(papers),
        "max_tokens": 128,
        "paper_threads": args.threads,
        "rounds": args.rounds,
        "cosine_onnx_torch": {"min": round(float(cosines.min()), 5), "mean": round(float(cosines.mean()), 5)},
    } | {
        backend: {
            "papers_per_second": {
                "median": round(statistics.median(rates[backend]), 1),
                "best": round(max(rates[backend]), 1),
                "rounds": [round(rate, 1) for rate in rates[backend]],
            },
            "papers_per_cpu_second": {
                "median": round(statistics.median(cpu_rates[backend]), 1),
                "rounds": [round(rate, 1) for rate in cpu_rates[backend]],
            },
            "query_ms": _summary(query_ms[backend]),
            "query_cpu_ms": _summary(query_cpu_ms[backend]),
        }
        for backend in BACKENDS
    }
    args.output.mkdir(parents=True, exist_ok=True)
    path = args.output / "embedding.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    for backend in BACKENDS:
        result = report[backend]
        rate, query, cpu = result["papers_per_second"], result["query_ms"], result["query_cpu_ms"]
        print(
            f"{backend:<6} {rate['median']:>7.0f} papers/s (best {rate['best']:.0f}, "
            f"{result['papers_per_cpu_second']['median']:.0f} per CPU-second)   query p50 "
            f"{query['p50']:.1f} ms, p95 {query['p95']:.1f} ms "
            f"(CPU p50 {cpu['p50']:.1f}, p95 {cpu['p95']:.1f})"
        )
    print(f"cosine onnx/torch: min {cosines.min():.5f}; load average {started_load:.1f} → "
          f"{report['machine']['load_average_at_end']:.1f}; written to {path}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
