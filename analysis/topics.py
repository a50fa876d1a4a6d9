"""The corpus's topics: spherical k-means on the papers' unit embeddings, each cluster named by its most
distinctive words (class-based TF-IDF over titles and abstracts). A recomputation starts from the
current topics' centroids and gives a new cluster the id of the old topic it matches, so topic
addresses outlive it; an old topic without a match is merged into the nearest new one."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Sum
from scipy.optimize import linear_sum_assignment
from sklearn.feature_extraction.text import CountVectorizer

from analysis.models import Topic
from core.latex import readable_text
from papers.models import Paper

PAPERS_PER_TOPIC = 200  # the corpus's size over this is how many topics it gets (within the bounds)
MIN_TOPICS, MAX_TOPICS = 2, 200
MATCH_SIMILARITY = 0.8  # a new cluster this close (cosine of centroids) to an old topic keeps its id
KEYWORDS = 8
LABEL_WORDS = 3
TOPICS_PER_PAPER = 3
OTHER_TOPIC_MARGIN = 0.05  # a paper's second and third topics: at most this much less similar than its first
ITERATIONS = 30
WORD = r"(?u)\b[a-zA-Z][a-zA-Z\-]{2,}\b"  # three letters or more: no numbers, no "x" or "al"


@dataclass(frozen=True)
class TopicsResult:
    topics: int
    kept: int  # ids that survived
    created: int
    merged: int
    papers: int
    writing_seconds: float = 0.0  # saving the topics and the papers' rows; the rest found them


def topics_need_recomputing() -> bool:
    """Whether the embedded papers have grown by TOPICS_RECOMPUTE_GROWTH_PERCENT since the topics were
    found (the topics' sizes add up to the papers they were found from), or were never found."""
    embedded = Paper.objects.filter(embedding__isnull=False).count()
    counted = Topic.objects.current().aggregate(papers=Sum("size"))["papers"] or 0
    growth = 1 + settings.TOPICS_RECOMPUTE_GROWTH_PERCENT / 100
    return embedded >= MIN_TOPICS and (counted == 0 or embedded >= counted * growth)


def topic_count(papers: int) -> int:
    return max(MIN_TOPICS, min(MAX_TOPICS, papers // PAPERS_PER_TOPIC))


def spherical_kmeans(
    vectors: np.ndarray, count: int, *, start: np.ndarray, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Cluster unit vectors by cosine similarity: (each vector's cluster, the clusters' unit centroids).
    Starts from the `start` centroids (the current topics'), the rest drawn from the vectors."""
    rng = np.random.default_rng(seed)
    extra = max(0, count - len(start))
    drawn = vectors[rng.choice(len(vectors), size=extra, replace=False)] if extra else vectors[:0]
    centroids = np.vstack([start[:count], drawn]).astype(np.float32)
    assigned = np.full(len(vectors), -1)
    for _ in range(ITERATIONS):
        previous, assigned = assigned, (vectors @ centroids.T).argmax(axis=1)
        if np.array_equal(previous, assigned):
            break
        for cluster in range(count):
            members = vectors[assigned == cluster]
            if len(members):  # an emptied cluster keeps its centroid and may win papers back
                mean = members.sum(axis=0)
                centroids[cluster] = mean / np.linalg.norm(mean)
    return assigned, centroids


def distinctive_words(texts: list[str], assigned: np.ndarray, count: int) -> list[list[str]]:
    """Each cluster's KEYWORDS most distinctive words by class-based TF-IDF: a word's share of the
    cluster's words, times log(1 + the average words per cluster / the word's count in the corpus)."""
    vectorizer = CountVectorizer(stop_words="english", token_pattern=WORD, min_df=2, max_features=60_000)
    counts = vectorizer.fit_transform(texts)
    words = vectorizer.get_feature_names_out()
    per_cluster = np.zeros((count, len(words)), dtype=np.float64)
    for cluster in range(count):
        rows = np.flatnonzero(assigned == cluster)
        if len(rows):
            per_cluster[cluster] = np.asarray(counts[rows].sum(axis=0)).ravel()
    totals = per_cluster.sum(axis=1, keepdims=True)
    frequency = np.divide(per_cluster, totals, out=np.zeros_like(per_cluster), where=totals > 0)
    idf = np.log(1 + totals.mean() / np.maximum(per_cluster.sum(axis=0), 1))
    scores = frequency * idf
    return [[str(words[index]) for index in np.argsort(-row)[:KEYWORDS] if row[index] > 0] for row in scores]


def topics_compute(*, seed: int = 0) -> TopicsResult:
    """Find the topics again and give every embedded paper its nearest 1–3 (in one transaction)."""
    rows = list(Paper.objects.filter(embedding__isnull=False).order_by("pk").values_list("pk", "embedding"))
    if len(rows) < MIN_TOPICS:
        return TopicsResult(topics=0, kept=0, created=0, merged=0, papers=0)
    ids = np.asarray([pk for pk, _ in rows])
    vectors = np.asarray([vector for _, vector in rows], dtype=np.float32)
    del rows
    old = list(Topic.objects.filter(merged_into=None).order_by("pk"))
    old_centroids = np.asarray([topic.centroid for topic in old], dtype=np.float32).reshape(
        -1, vectors.shape[1]
    )
    count = min(topic_count(len(ids)), len(ids))
    assigned, centroids = spherical_kmeans(vectors, count, start=old_centroids, seed=seed)
    texts = dict(Paper.objects.filter(pk__in=ids.tolist()).values_list("pk", "title"))
    abstracts = dict(Paper.objects.filter(pk__in=ids.tolist()).values_list("pk", "abstract"))
    keywords = distinctive_words(
        [readable_text(f"{texts[pk]}. {abstracts[pk]}") for pk in ids.tolist()], assigned, count
    )
    sizes = np.bincount(assigned, minlength=count)
    similarity = vectors @ centroids.T
    writing = time.perf_counter()
    with transaction.atomic():
        topics, kept = _match_and_save(old, centroids, keywords, sizes)
        _assign_papers(ids, similarity, topics)
    created = len([topic for topic in topics if topic is not None]) - kept
    return TopicsResult(
        topics=int((sizes > 0).sum()),
        kept=kept,
        created=created,
        merged=len(old) - kept,
        papers=len(ids),
        writing_seconds=time.perf_counter() - writing,
    )


def _match_and_save(
    old: list[Topic], centroids: np.ndarray, keywords: list[list[str]], sizes: np.ndarray
) -> tuple[list[Topic | None], int]:
    """The Topic of each new cluster (None for an empty one): the matched old topic's row, or a new
    row; unmatched old topics merged into their nearest new one. Returns them and how many were kept."""
    matches: dict[int, Topic] = {}
    if old:
        old_centroids = np.asarray([topic.centroid for topic in old], dtype=np.float32)
        closeness = centroids @ old_centroids.T
        for new_index, old_index in zip(*linear_sum_assignment(-closeness), strict=True):
            if closeness[new_index, old_index] >= MATCH_SIMILARITY and sizes[new_index]:
                matches[int(new_index)] = old[old_index]
    topics: list[Topic | None] = []
    for index, centroid in enumerate(centroids):
        if not sizes[index]:
            topics.append(None)
            continue
        topic = matches.get(index) or Topic()
        topic.label = ", ".join(keywords[index][:LABEL_WORDS]) or f"topic {index + 1}"
        topic.keywords = keywords[index]
        topic.size = int(sizes[index])
        topic.centroid = centroid
        topic.save()
        topics.append(topic)
    live = [topic for topic in topics if topic is not None]
    live_centroids = np.asarray([topic.centroid for topic in live], dtype=np.float32)
    kept_ids = {topic.pk for topic in matches.values()}
    for topic in old:
        if topic.pk not in kept_ids:
            nearest = live[int((live_centroids @ np.asarray(topic.centroid, dtype=np.float32)).argmax())]
            # Topics merged into this one before follow it, so every old address is one redirect away.
            Topic.objects.filter(merged_into=topic).update(merged_into=nearest)
            Topic.objects.filter(pk=topic.pk).update(merged_into=nearest, size=0)
    return topics, len(matches)


def _assign_papers(ids: np.ndarray, similarity: np.ndarray, topics: list[Topic | None]) -> None:
    """Each paper's nearest topics, nearest first, as PaperTopic rows: those that changed are deleted and
    written again, the rest left alone (a recomputation that keeps most topics writes few rows)."""
    live = np.asarray([index for index, topic in enumerate(topics) if topic is not None])
    topic_ids = np.asarray([topics[index].pk for index in live])
    scores = similarity[:, live]
    order = np.argsort(-scores, axis=1)[:, :TOPICS_PER_PAPER]
    papers, nearest, ranks = [], [], []
    for row, ranked in enumerate(order):
        best = scores[row, ranked[0]]
        near = [ranked[0], *(i for i in ranked[1:] if scores[row, i] >= best - OTHER_TOPIC_MARGIN)]
        for rank, index in enumerate(near):
            papers.append(int(ids[row]))
            nearest.append(int(topic_ids[index]))
            ranks.append(rank)
    assigned = [papers, nearest, ranks]
    with connection.cursor() as cursor:
        cursor.execute(_UNASSIGN_CHANGED, assigned)
        cursor.execute(_ASSIGN_NEW, assigned)


_NEW = "unnest(%s::integer[], %s::integer[], %s::smallint[]) AS new(paper_id, topic_id, rank)"
_UNASSIGN_CHANGED = f"""
    DELETE FROM analysis_papertopic AS old
    WHERE NOT EXISTS (
        SELECT FROM {_NEW}
        WHERE new.paper_id = old.paper_id AND new.topic_id = old.topic_id AND new.rank = old.rank
    )
"""  # noqa: S608 - constants
# What is left of a paper's rows is what it keeps, so a conflict is only ever an unchanged row.
_ASSIGN_NEW = f"""
    INSERT INTO analysis_papertopic (paper_id, topic_id, rank)
    SELECT paper_id, topic_id, rank FROM {_NEW}
    ON CONFLICT DO NOTHING
"""  # noqa: S608 - constants
