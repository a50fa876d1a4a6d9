"""The analysis's speed on the benchmark corpus: papers analysed a second (field, type, TL;DR, novelty with
the closest earlier papers, significance, the percentiles re-ranked), embedding excluded, and the time
to compute the corpus's topics.

Embedding excluded means what it means in production: the worker embeds a paper and encodes its
abstract's sentences (chat.sentences) before it analyses it, so the analysis finds the sentence vectors
stored. Here they are stored, untimed, before the clock starts: random unit vectors of the right shape,
as the corpus's own vectors are synthetic too (what the TL;DR picks means nothing here; the work of
picking it is the work done in production)."""

from __future__ import annotations

import random
import time

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from pgvector.django import CosineDistance
from tqdm import tqdm

from analysis.management.commands.analyse import BATCH_SIZE
from analysis.models import PaperAnalysis
from analysis.paper_types import paper_types_of
from analysis.services import CLOSEST_EARLIER_COUNT, papers_analyse, percentiles_refresh
from analysis.topics import topics_compute
from chat.models import PaperSentenceVectors
from chat.sentences import sentences_digest, split_sentences
from papers.models import Paper

TARGET_PAPERS_PER_SECOND = 500
TARGET_TOPICS_SECONDS = 300
SAMPLE_PAPERS = 4096


def _store_sentence_vectors(paper_ids: list[int], rng: np.random.Generator) -> None:
    rows = []
    for paper_id, abstract in Paper.objects.filter(pk__in=paper_ids).values_list("pk", "abstract"):
        sentences = split_sentences(abstract)
        vectors = rng.normal(size=(len(sentences), settings.EMBEDDING_DIMENSIONS)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        raw = vectors.astype(np.float16).tobytes()
        rows.append(PaperSentenceVectors(paper_id=paper_id, digest=sentences_digest(abstract), vectors=raw))
    PaperSentenceVectors.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["paper"], update_fields=["digest", "vectors"]
    )


def _exact_closest_earlier(paper_ids: list[int]) -> dict[int, list[int]]:
    """The true nearest earlier papers of these, by an exact scan (no index): recall's reference."""
    found: dict[int, list[int]] = {}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")  # or the HNSW index answers, approximately
        for paper in Paper.objects.filter(pk__in=paper_ids).only("id", "published", "arxiv_id", "embedding"):
            found[paper.pk] = list(
                Paper.objects.filter(embedding__isnull=False, published__lte=paper.published)
                .exclude(published=paper.published, arxiv_id__gte=paper.arxiv_id)
                .alias(distance=CosineDistance("embedding", paper.embedding))
                .order_by("distance", "pk")
                .values_list("pk", flat=True)[:CLOSEST_EARLIER_COUNT]
            )
    return found


def measure(papers: int, seed: int, *, sample: int = SAMPLE_PAPERS, recall_papers: int = 50) -> dict:
    """Analyse `sample` random papers in the analyse command's batches and rank their percentiles, timed
    (what `manage.py analyse` does); then the parts alone on the first batch; the recall@3 of the closest
    earlier papers against an exact scan; the topics."""
    picker = random.Random(seed)
    ids = sorted(picker.sample(range(1, papers + 1), min(sample, papers)))
    ids = list(Paper.objects.filter(pk__in=ids).values_list("pk", flat=True))
    _store_sentence_vectors(ids, np.random.default_rng(seed))
    PaperAnalysis.objects.filter(paper__in=ids).delete()
    # As `manage.py analyse` does it: batches, then the percentiles ranked once.
    started = time.perf_counter()
    for start in tqdm(range(0, len(ids), BATCH_SIZE), desc="analysis", unit=" batches"):
        papers_analyse(paper_ids=ids[start : start + BATCH_SIZE], rerank=False)
    batches_seconds = time.perf_counter() - started
    percentiles_refresh()
    analysis_seconds = time.perf_counter() - started

    batch = ids[:BATCH_SIZE]
    rows = list(Paper.objects.filter(pk__in=batch).only("id", "title", "abstract", "comments", "embedding"))
    started = time.perf_counter()
    paper_types_of(rows)
    types_seconds = time.perf_counter() - started
    started = time.perf_counter()
    earlier = Paper.objects.closest_earlier(batch, count=CLOSEST_EARLIER_COUNT)
    earlier_seconds = time.perf_counter() - started

    checked = picker.sample(batch, min(recall_papers, len(batch)))
    exact = _exact_closest_earlier(checked)
    hits = sum(
        len(set(exact[paper_id]) & {found for found, _ in earlier.get(paper_id, [])}) for paper_id in checked
    )
    nearest_hits = sum(
        1 for paper_id in checked if exact[paper_id][:1] == [pk for pk, _ in earlier.get(paper_id, [])[:1]]
    )
    wanted = sum(len(exact[paper_id]) for paper_id in checked)

    started = time.perf_counter()
    topics = topics_compute(seed=seed)
    topics_seconds = time.perf_counter() - started
    return {
        "sample_papers": len(ids),
        "batch_size": BATCH_SIZE,
        "analysis_seconds": round(analysis_seconds, 2),
        "percentiles_seconds": round(analysis_seconds - batches_seconds, 2),
        "papers_per_second": round(len(ids) / analysis_seconds, 1),
        "one_batch": {
            "paper_types_seconds": round(types_seconds, 3),
            "closest_earlier_seconds": round(earlier_seconds, 3),
        },
        "closest_earlier_recall_at_3": round(hits / wanted, 3) if wanted else None,
        "closest_earlier_nearest_found": round(nearest_hits / len(checked), 3) if checked else None,
        "recall_papers": len(checked),
        "topics": {
            "seconds": round(topics_seconds, 1),
            "writing_seconds": round(topics.writing_seconds, 1),  # the rest is loading and clustering
            "topics": topics.topics,
            "papers": topics.papers,
        },
    }


def table(results: dict) -> str:
    rate, topics = results["papers_per_second"], results["topics"]
    rate_verdict = "met" if rate >= TARGET_PAPERS_PER_SECOND else "missed"
    topics_verdict = "met" if topics["seconds"] <= TARGET_TOPICS_SECONDS else "missed"
    return "\n".join(
        [
            f"analysis ({results['sample_papers']:,} papers in batches of {results['batch_size']}, "
            "embedding excluded)",
            f"  {rate:.0f} papers a second (≥ {TARGET_PAPERS_PER_SECOND}: {rate_verdict}); one batch: types "
            f"{results['one_batch']['paper_types_seconds']:.2f} s, closest earlier "
            f"{results['one_batch']['closest_earlier_seconds']:.2f} s; closest-earlier recall@3 "
            f"{results['closest_earlier_recall_at_3']} against an exact scan "
            f"(nearest found for {results['closest_earlier_nearest_found']:.0%})",
            f"  topics: {topics['topics']} for {topics['papers']:,} papers in {topics['seconds']:.0f} s "
            f"(≤ {TARGET_TOPICS_SECONDS} s: {topics_verdict}), {topics['writing_seconds']:.0f} s writing",
        ]
    )
