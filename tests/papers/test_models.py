import numpy as np
import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import IntegrityError, connection
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from papers.models import Authorship, Citation, Paper
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def explain(queryset: QuerySet) -> str:
    """The plan PostgreSQL picks when sequential scans are off: which index can serve the query."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        return queryset.explain()


def test_it_refuses_a_second_paper_with_the_same_arxiv_id():
    paper = make_paper()
    with pytest.raises(IntegrityError):
        make_paper(arxiv_id=paper.arxiv_id)


def test_it_writes_the_weighted_search_vector():
    paper = make_paper(
        title="Graph neural networks", abstract="We study message passing.", authors=["Ada Lovelace"]
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_vector::text FROM papers_paper WHERE id = %s", [paper.pk])
        (vector,) = cursor.fetchone()
    assert "'graph':1A" in vector
    assert "'messag':" in vector and vector.split("'messag':")[1].split()[0].endswith("B")
    assert "'lovelace':" in vector  # authors go through the simple dictionary: no stemming


def test_it_finds_papers_by_full_text_through_the_gin_index():
    wanted = make_paper(title="Sparse attention for long documents")
    make_paper(title="Protein folding with diffusion")
    found = Paper.objects.filter(search_vector=SearchQuery("attention", config="english")).order_by()
    assert list(found) == [wanted]
    assert "paper_search_vector_gin" in explain(found)


def test_it_finds_the_nearest_embedding_through_the_hnsw_index():
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(5, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    papers = [make_paper(embedding=vector) for vector in vectors]
    query = vectors[3] + 0.01 * rng.normal(size=384)
    nearest = Paper.objects.filter(embedding__isnull=False).order_by(CosineDistance("embedding", query))
    assert nearest.first() == papers[3]
    assert "paper_embedding_hnsw" in explain(nearest[:5])


def test_it_refuses_duplicate_author_positions():
    paper = make_paper(authors=["A. Author"])
    with pytest.raises(IntegrityError):
        Authorship.objects.create(paper=paper, position=1, name="B. Author", normalised_name="b author")


def test_it_refuses_a_duplicate_citation_and_a_self_citation():
    citing, cited = make_paper(), make_paper()
    Citation.objects.create(citing=citing, cited=cited)
    with pytest.raises(IntegrityError):
        Citation.objects.create(citing=citing, cited=cited)


def test_it_refuses_a_paper_citing_itself():
    paper = make_paper()
    with pytest.raises(IntegrityError):
        Citation.objects.create(citing=paper, cited=paper)


def test_the_hnsw_index_is_built_with_200_candidates_per_insert():
    # With pgvector's default of 64, some bench probes found 2 of their true 10 (see Paper.Meta).
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'paper_embedding_hnsw'")
        assert sorted(cursor.fetchone()[0]) == ["ef_construction=200", "m=16"]
