"""core.bulk.copy_create and copy_creating: many new rows by COPY, read back as the ORM would store them."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from analysis.models import PaperAnalysis
from core.bulk import copy_create, copy_creating
from papers.models import Authorship, Paper

pytestmark = pytest.mark.django_db

# What COPY's text format must escape: its delimiter, line breaks, its escape character, its null marker.
AWKWARD = (
    "tab\there, line\nbreak, carriage\rreturn, back\\slash, \\N, \"quotes\", 'apostrophes', {braces}, ∑ ü 中"
)


def test_rows_are_stored_exactly_with_their_ids_and_defaults():
    papers = [
        Paper(
            arxiv_id=f"2601.0000{n}",
            title=f"{AWKWARD} {n}",
            abstract=AWKWARD,
            authors=[AWKWARD, "Ada Lovelace"],
            categories=["cs.LG", "stat.ML"],
            published=datetime.date(2026, 1, n + 1),
            version=n or None,
        )
        for n in range(3)
    ]
    before = datetime.datetime.now(datetime.UTC)
    copy_create(papers)

    assert all(paper.pk for paper in papers)
    for paper in papers:
        stored = Paper.objects.get(pk=paper.pk)
        assert (stored.arxiv_id, stored.title, stored.abstract) == (paper.arxiv_id, paper.title, AWKWARD)
        assert stored.authors == [AWKWARD, "Ada Lovelace"]
        assert stored.categories == ["cs.LG", "stat.ML"]
        assert stored.version == paper.version
        assert stored.embedding is None and stored.doi == ""
        assert stored.created_at >= before
    assert Paper.objects.filter(search_vector="tab").count() == 3  # the generated column is computed

    authorships = [
        Authorship(paper=papers[0], position=1, name=AWKWARD, normalised_name="x", affiliations=[AWKWARD]),
        Authorship(paper=papers[0], position=2, name="Team", normalised_name="team", is_collaboration=True),
    ]
    copy_create(authorships)
    stored = list(Authorship.objects.filter(paper=papers[0]).values_list("id", "name", "affiliations"))
    assert stored == [(authorships[0].pk, AWKWARD, [AWKWARD]), (authorships[1].pk, "Team", [])]


def test_later_inserts_take_ids_after_the_copied_ones():
    copied = [
        Paper(arxiv_id=f"2601.1000{n}", title="t", published=datetime.date(2026, 1, 1)) for n in range(2)
    ]
    copy_create(copied)
    saved = Paper.objects.create(arxiv_id="2601.10009", title="t", published=datetime.date(2026, 1, 1))
    assert saved.pk > max(paper.pk for paper in copied)


def test_a_thousand_rows_take_two_statements():
    papers = [
        Paper(arxiv_id=f"2602.{n:05d}", title="t", published=datetime.date(2026, 2, 1)) for n in range(1000)
    ]
    with CaptureQueriesContext(connection) as queries:
        copy_create(papers)
    ids, rows = (str(query["sql"]) for query in queries.captured_queries)
    assert "nextval" in ids and "COPY" in rows
    assert Paper.objects.count() == 1000


def test_nothing_to_create_asks_nothing():
    with CaptureQueriesContext(connection) as queries:
        copy_create([])
    assert len(queries) == 0


def test_a_model_whose_key_is_no_sequence_is_refused():
    paper = Paper.objects.create(arxiv_id="2603.00001", title="t", published=datetime.date(2026, 3, 1))
    with pytest.raises(ValueError, match="not taken from a sequence"):
        copy_create([PaperAnalysis(paper=paper)])
    assert not PaperAnalysis.objects.exists()


def test_the_block_of_copy_creating_sees_the_ids_and_the_rows_are_stored_after_it():
    papers = [
        Paper(arxiv_id=f"2603.0000{n}", title="t", published=datetime.date(2026, 3, 1)) for n in range(2)
    ]
    with copy_creating(papers):
        seen_ids = [paper.pk for paper in papers]
    assert all(seen_ids)
    assert sorted(Paper.objects.values_list("pk", flat=True)) == sorted(seen_ids)


def test_an_error_in_the_block_of_copy_creating_stores_none_of_the_rows():
    papers = [Paper(arxiv_id="2603.00010", title="t", published=datetime.date(2026, 3, 1))]
    failure = pytest.raises(RuntimeError, match="building the authorships failed")
    with failure, transaction.atomic(), copy_creating(papers):
        raise RuntimeError("building the authorships failed")
    assert not Paper.objects.exists()


def test_a_row_the_table_refuses_raises_when_copy_creating_ends():
    Paper.objects.create(arxiv_id="2603.00020", title="t", published=datetime.date(2026, 3, 1))
    duplicate = [Paper(arxiv_id="2603.00020", title="again", published=datetime.date(2026, 3, 1))]
    block_ran = False
    with pytest.raises(IntegrityError), transaction.atomic(), copy_creating(duplicate):
        block_ran = True
    assert block_ran
    assert list(Paper.objects.values_list("title", flat=True)) == ["t"]
