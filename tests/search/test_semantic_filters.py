"""Filtered semantic search through the HNSW index still fills a page (pgvector iterative scans)."""

import re

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.models import Paper
from papers.search import engine
from papers.search.query import Filters, Mode, parse
from papers.search.querysets import iterative_index_scan
from papers.search.vectors import query_vector
from tests.factories import make_paper

pytestmark = pytest.mark.django_db
NARROW = Filters(categories=("zz.narrow",))


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384)
    return vector / np.linalg.norm(vector)


@pytest.fixture
def narrow_papers(demo_corpus):
    """25 papers in a category of their own, far from everything, among ~1,800 embedded demo papers;
    the planner is kept on the HNSW index (on a corpus this small it would rather sort them all)."""
    papers = [
        make_paper(title=f"Narrow paper {n}", categories=["zz.narrow"], embedding=unit(n)) for n in range(25)
    ]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
    return papers


def test_the_scan_settings_hold_inside_the_block_only(db):
    with iterative_index_scan(ef_search=123), connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('hnsw.iterative_scan'), current_setting('hnsw.ef_search')")
        assert cursor.fetchone() == ("relaxed_order", "123")


def test_a_narrow_filter_still_fills_a_page_of_nearest_papers(narrow_papers):
    results = engine.run(parse("wearable fall detection", mode=Mode.SEMANTIC, filters=NARROW))
    assert len(results.hits) == 20 and results.has_next
    assert {hit.paper for hit in results.hits} <= set(narrow_papers)
    distances = [hit.distance for hit in results.hits]
    assert distances == sorted(distances)  # relaxed order from the index, sorted again
    second = engine.run(parse("wearable fall detection", mode=Mode.SEMANTIC, filters=NARROW), page=2)
    assert len(second.hits) == 5 and not {hit.paper for hit in second.hits} & {
        hit.paper for hit in results.hits
    }


def test_without_iterative_scans_the_same_filter_would_leave_the_page_short(narrow_papers):
    """The control: a plain HNSW scan stops after ef_search candidates, few of which pass the filter."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = off")
        cursor.execute("SET LOCAL hnsw.ef_search = 40")
    vector = query_vector("wearable fall detection")
    found = list(Paper.objects.filtered_by(NARROW).nearest_to(vector).values_list("pk", flat=True)[:20])
    assert len(found) < 20


def _ef_search_asked(query) -> list[str]:
    """The candidate lists (hnsw.ef_search) the search's index walks were given."""
    with CaptureQueriesContext(connection) as captured:
        engine.run(query)
    return [
        re.search(r"'hnsw\.ef_search', '(\d+)'", statement["sql"]).group(1)
        for statement in captured.captured_queries
        if "hnsw.ef_search" in statement["sql"]
    ]


def test_a_filtered_search_walks_with_a_longer_candidate_list_and_keeps_the_nearest(narrow_papers, settings):
    """Relaxed order hands filtered rows back batch by batch, not strictly nearest first: a filtered walk
    gets SEARCH_HNSW_FILTERED_EF_SEARCH candidates a batch, an unfiltered one SEARCH_HNSW_EF_SEARCH."""
    settings.SEARCH_HNSW_EF_SEARCH, settings.SEARCH_HNSW_FILTERED_EF_SEARCH = 100, 250
    query = parse("wearable fall detection", mode=Mode.SEMANTIC, filters=NARROW)
    assert _ef_search_asked(query) == ["250"]
    assert _ef_search_asked(parse("wearable fall detection", mode=Mode.SEMANTIC)) == ["100"]

    vector = query_vector("wearable fall detection")
    nearest = sorted(narrow_papers, key=lambda paper: -float(np.dot(paper.embedding, vector)))[:20]
    assert [hit.paper for hit in engine.run(query).hits] == nearest
