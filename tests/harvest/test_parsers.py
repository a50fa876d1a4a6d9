"""Parsing recorded upstream bodies into plain records: what is kept, and what is refused with a reason."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from harvest.parsers.arxiv import parse_atom_feed
from harvest.parsers.openalex import (
    abstract_from_inverted_index,
    paper_from_openalex_work,
    parse_openalex_works,
)
from harvest.parsers.ror import parse_ror_records
from harvest.parsers.semantic_scholar import parse_s2_paper_batch
from harvest.records import MalformedResponse, posted_date
from harvest.services.papers import papers_upsert
from papers.models import Paper
from tests.harvest.replay import fixture

CITED = fixture("openalex/works_filter_cited_by_2ids_cursor_page1.json")


def test_openalex_works_keep_arxiv_works_and_say_why_others_are_left_out():
    page = parse_openalex_works(CITED)

    assert sorted(work.arxiv_id for work in page.items) == ["1310.4546", "1609.08144", "1806.03537"]
    assert len(page.skipped) == 35
    assert page.skipped[0].reason == "W2250539671: not an arXiv work (no arXiv DOI or landing page)"
    word2vec = next(work for work in page.items if work.arxiv_id == "1310.4546")
    assert word2vec.upstream_id == "W2153579005"  # known by its arXiv landing page: its DOI is not arXiv's
    assert [a.raw_name for a in word2vec.authorships][-1] == "Jeff Dean"
    assert word2vec.authorships[0].institutions[0].ror_id == "00njsd438"


def test_a_paper_from_an_openalex_record_has_its_abstract_in_order_and_an_arxiv_date():
    item = next(w for w in json.loads(CITED)["results"] if w["id"].endswith("W2153579005"))

    record = paper_from_openalex_work(item)

    assert record.title == "Distributed representations of words and phrases and their compositionality"
    assert record.abstract.startswith(
        "The recently introduced continuous Skip-gram model is an efficient method"
    )
    assert record.published == datetime.date(2013, 10, 1)  # OpenAlex says 2025-01-01; the id says 2013-10
    assert abstract_from_inverted_index({"world": [1], "hello": [0]}) == "hello world"


@pytest.mark.django_db
def test_control_characters_in_an_openalex_record_never_reach_the_store():
    # JSON may carry "\u0000", which no PostgreSQL text column takes: one such title failed a whole page.
    item = next(w for w in json.loads(CITED)["results"] if w["id"].endswith("W2153579005"))
    item = item | {
        "title": "Distributed\x00 representations\x1b[31m of words\x7f",
        "abstract_inverted_index": {"Skip\x00gram": [0], "model\x07": [1]},
    }

    record = paper_from_openalex_work(item)
    papers_upsert(records=[record])

    stored = Paper.objects.get(arxiv_id=record.arxiv_id)
    assert (stored.title, stored.abstract) == ("Distributed representations[31m of words", "Skipgram model")


def test_truncated_json_is_refused_whole():
    with pytest.raises(MalformedResponse, match=r"truncated or malformed JSON \(1000 bytes\)"):
        parse_openalex_works(CITED[:1000])


def test_the_s2_batch_answer_must_match_the_request():
    with pytest.raises(MalformedResponse, match="asked for 2 papers, got 1 answers"):
        parse_s2_paper_batch(b"[null]", ["2312.07559", "2401.00001"])
    assert parse_s2_paper_batch(b"[null]", ["2401.00001"]).not_found == ["2401.00001"]


def test_ror_records_give_name_country_type_and_homepage():
    page = parse_ror_records(fixture("ror/ror_v2_records.json"))

    assert len(page.items) == 21 and not page.skipped
    uq = next(i for i in page.items if i.ror_id == "00rqy9422")
    assert (uq.name, uq.country_code, uq.type) == ("University of Queensland", "AU", "education")
    assert uq.homepage.startswith("http")


@pytest.mark.parametrize(
    ("arxiv_id", "claimed", "posted"),
    [
        ("1310.4546", "2025-01-01", "2013-10-01"),
        ("2007.14454", "2020-07-28", "2020-07-28"),
        ("hep-th/9901001", "2001-05-01", "1999-01-01"),
        ("math.GT/0309136", "2003-09-09", "2003-09-09"),
    ],
)
def test_an_upstream_date_outside_the_ids_month_gives_way(arxiv_id, claimed, posted):
    assert posted_date(arxiv_id, datetime.date.fromisoformat(claimed)) == datetime.date.fromisoformat(posted)


def test_it_repairs_names_that_were_decoded_as_latin_1_upstream():
    """The recorded 2026 API page spells 'Betül Karagöz' as 'BetÃ¼l KaragÃ¶z'."""
    demo_page = Path(__file__).resolve().parents[2] / "harvest" / "demo_data" / "2026_q_testing_s0_m100.xml"
    page = parse_atom_feed(demo_page.read_bytes())
    authors = {name for record in page.records for name in record.authors}
    assert "Betül Karagöz" in authors
    assert not any("Ã" in name for name in authors)
