"""What the benchmark measures: search latency per mode, with and without filters, recall of the HNSW
search against exact search, and the server time of the pages that list many papers."""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from tqdm import tqdm

from bench import relevance as bench_relevance
from bench.corpus import ONE_PERCENT_CATEGORY, Plan, query_vector_near
from bench.sources import Sources
from institutions.models import Institution
from papers.models import Paper
from papers.search import engine
from papers.search.query import Filters, Mode, ParsedQuery, parse
from papers.search.vectors import query_vector_key
from researchers.models import Researcher

COMMON_WORDS = ["learning", "model", "network"]  # each matches a large share of the corpus
TOPICAL = [
    "graph neural networks", "large language models", "diffusion models", "reinforcement learning",
    "image segmentation", "federated learning privacy", "object detection", "speech recognition",
    "knowledge distillation", "retrieval augmented generation", "3d reconstruction", "medical image analysis",
]  # fmt: skip
SAMPLED_FROM_TITLES = 15
CATEGORY = "cs.LG"  # a broad category: about a fifth of the corpus
CATEGORY_FILTER = Filters(categories=(CATEGORY,))
ONE_PERCENT_FILTER = Filters(categories=(ONE_PERCENT_CATEGORY,))
POSTGRES = " (PostgreSQL)"  # a case run with the keyword index out of the way: the fallback's ranking
CASES = [
    ("keyword", Mode.KEYWORD, Filters()),
    (f"keyword + {CATEGORY}", Mode.KEYWORD, CATEGORY_FILTER),
    ("keyword" + POSTGRES, Mode.KEYWORD, Filters()),
    (f"keyword + {CATEGORY}" + POSTGRES, Mode.KEYWORD, CATEGORY_FILTER),
    ("semantic", Mode.SEMANTIC, Filters()),
    (f"semantic + {CATEGORY}", Mode.SEMANTIC, CATEGORY_FILTER),
    ("semantic + 1% filter", Mode.SEMANTIC, ONE_PERCENT_FILTER),
    ("hybrid", Mode.HYBRID, Filters()),
    (f"hybrid + {CATEGORY}", Mode.HYBRID, CATEGORY_FILTER),
]
TARGETS_P95_MS = {"keyword": 50, "semantic": 30, "hybrid": 80}
_WORD = re.compile(r"^[A-Za-z][a-z]{3,}$")
_STOP = {
    "with",
    "from",
    "that",
    "this",
    "using",
    "towards",
    "through",
    "their",
    "when",
    "into",
    "based",
    "via",
}


@dataclass(frozen=True)
class BenchQuery:
    text: str
    vector: np.ndarray


@dataclass
class Timing:
    milliseconds: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        values = sorted(self.milliseconds)
        return {
            "n": len(values),
            "p50_ms": round(_percentile(values, 50), 2),
            "p95_ms": round(_percentile(values, 95), 2),
            "p99_ms": round(_percentile(values, 99), 2),
            "mean_ms": round(statistics.fmean(values), 2),
        }


def _percentile(values: list[float], percent: float) -> float:
    """Nearest-rank percentile of sorted values."""
    rank = max(1, int(np.ceil(percent / 100 * len(values))))
    return values[rank - 1]


def queries(plan: Plan, sources: Sources, seed: int) -> list[BenchQuery]:
    """Common words, topical phrases and word pairs from real titles, each with a vector about the demo
    paper it came from (or a random one), planted in the query-vector cache as the model's answer.

    Every text is distinct: the cache holds one vector per text, so a title pair repeating a phrase
    ("reinforcement learning" at 100,000 papers, seed 1) would be searched with the other's vector and
    scored against its own, reading recall 0 whatever the index did."""
    rng = np.random.default_rng([seed, 100])
    picker = random.Random(seed)
    texts: list[tuple[str, int]] = [
        (text, int(rng.integers(len(sources.papers)))) for text in COMMON_WORDS + TOPICAL
    ]
    while len(texts) < len(COMMON_WORDS) + len(TOPICAL) + SAMPLED_FROM_TITLES:
        source = int(plan.source[int(rng.integers(len(plan.source)))])
        words = [
            w.lower()
            for w in sources.papers[source].title.split()
            if _WORD.match(w) and w.lower() not in _STOP
        ]
        if len(words) >= 2:
            start = picker.randrange(len(words) - 1)
            text = " ".join(words[start : start + 2])
            if all(text != taken for taken, _source in texts):
                texts.append((text, source))
    return [BenchQuery(text, query_vector_near(plan, source, rng)) for text, source in texts]


def plant_query_vectors(bench_queries: list[BenchQuery]) -> None:
    for query in bench_queries:
        cache.set(query_vector_key(query.text), query.vector.tobytes(), timeout=None)


def exact_nearest(vector: np.ndarray, filters: Filters, k: int = 10) -> list[int]:
    """The true nearest papers: the same filters with index scans off, so every distance is computed."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")
        return list(Paper.objects.filtered_by(filters).nearest_to(vector).values_list("pk", flat=True)[:k])


@contextmanager
def keyword_index_off(off: bool = True) -> Iterator[None]:
    """Inside: the keyword index looks missing, so keyword search ranks with PostgreSQL (its fallback)."""
    if not off:
        yield
        return
    with override_settings(SEARCH_KEYWORD_INDEX_DIR=settings.SEARCH_KEYWORD_INDEX_DIR / "absent"):
        yield


def search_cases(bench_queries: list[BenchQuery], repeat: int) -> dict[str, dict]:
    """Per case: the full search (engine.run: ranking, the page's rows, snippets, authors, matching
    names) and retrieval alone (engine.rank: the ranked ids), then recall against exact search in a
    separate pass, so exact search's full scans never sit between timed runs. The rounds alternate
    between the cases (every case once per round), so a slow spell of the machine hits them alike."""
    full = {name: Timing() for name, _mode, _filters in CASES}
    retrieval = {name: Timing() for name, _mode, _filters in CASES}
    full_pages = dict.fromkeys(full, 0)
    parsed = {
        name: [parse(query.text, mode=mode, filters=filters) for query in bench_queries]
        for name, mode, filters in CASES
    }
    for name, _mode, _filters in CASES:  # warm: first runs read from disk and fill caches
        with keyword_index_off(name.endswith(POSTGRES)):
            for query in parsed[name]:
                engine.run(query)
    for _round in tqdm(range(max(2, repeat)), desc="search cases", unit=" rounds"):
        for name, _mode, _filters in CASES:
            with keyword_index_off(name.endswith(POSTGRES)):
                for query in parsed[name]:
                    started = time.perf_counter()
                    found = engine.run(query)
                    full[name].milliseconds.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    engine.rank(query, needed=found.per_page)
                    retrieval[name].milliseconds.append((time.perf_counter() - started) * 1000)
                    full_pages[name] += len(found.hits) == found.per_page
    results: dict[str, dict] = {}
    for name, mode, filters in CASES:
        results[name] = full[name].summary() | {
            "retrieval": retrieval[name].summary(),
            "full_pages": round(full_pages[name] / len(full[name].milliseconds), 3),
        }
        if mode is Mode.SEMANTIC:
            recalls = [
                _recall(query, parsed_query, filters)
                for query, parsed_query in zip(bench_queries, parsed[name], strict=True)
            ]
            results[name]["recall_at_10"] = round(statistics.fmean(recalls), 4)
            results[name]["worst_recall_at_10"] = round(min(recalls), 2)
    return results


def relevance(bench_queries: list[BenchQuery], papers: int, seed: int) -> dict:
    """Known-item MRR@10 and overlap with the BM25 reference, for the keyword index and for PostgreSQL's
    ranking (the fallback), and MRR@10 of hybrid search (see bench.relevance)."""
    reference = bench_relevance.Reference()
    items = bench_relevance.known_items(reference, papers, seed)
    texts = [query.text for query in bench_queries]
    report: dict = {"reference_build_seconds": reference.build_seconds, "known_items": [
        {"paper": item.paper_id, "query": item.text, "older": item.older_than_newest_candidates}
        for item in items
    ]}  # fmt: skip
    for label, off in (("keyword", False), ("keyword" + POSTGRES, True)):
        with keyword_index_off(off):
            report[label] = bench_relevance.mrr(items, Mode.KEYWORD) | {
                "reference": bench_relevance.overlap(texts, reference, Filters()),
                f"reference + {CATEGORY}": bench_relevance.overlap(texts, reference, CATEGORY_FILTER),
            }
    report["hybrid"] = bench_relevance.mrr(items, Mode.HYBRID)
    report["BM25 reference"] = bench_relevance.reference_mrr(items, reference)
    return report


def _recall(query: BenchQuery, parsed: ParsedQuery, filters: Filters) -> float:
    """Recall@10 of the engine's first ten against the exact ten nearest."""
    top = [hit.paper.pk for hit in engine.run(parsed).hits[:10]]
    exact = exact_nearest(query.vector, filters)
    return len(set(top) & set(exact)) / max(1, len(exact))


def _timed_pages(client: Client, urls: list[str], repeat: int, description: str) -> dict:
    timing = Timing()
    query_counts = []
    for url in urls:  # warm
        assert client.get(url).status_code == 200, url
    for _ in tqdm(range(repeat), desc=description, unit=" rounds"):
        for url in urls:
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(url)
                timing.milliseconds.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            query_counts.append(len(captured))
    return timing.summary() | {"queries": max(query_counts)}


def pages(bench_queries: list[BenchQuery], repeat: int, seed: int) -> dict[str, dict]:
    """Server time of whole pages (view, queries, template), through Django's test client."""
    client = Client()
    researcher = Researcher.objects.with_paper_counts().get(pk=1)
    institution = Institution.objects.get(pk=1)
    paper_ids = random.Random(seed).sample(range(1, Paper.objects.count() + 1), 20)
    papers = list(Paper.objects.filter(pk__in=paper_ids))
    search_urls = [f"/search?q={query.text.replace(' ', '+')}" for query in bench_queries[:10]]
    measured = {
        f"researcher page ({researcher.paper_count} papers)": [researcher.get_absolute_url()],
        "paper page": [paper.get_absolute_url() for paper in papers],
        f"institution page ({institution.affiliations.count()} researchers)": [
            institution.get_absolute_url()
        ],
        "search page (hybrid, HTML)": search_urls,
    }
    # about 20 × repeat requests per page kind, whatever the number of distinct URLs
    return {
        name: _timed_pages(client, urls, max(1, repeat * 20 // len(urls)), name)
        for name, urls in measured.items()
    }
