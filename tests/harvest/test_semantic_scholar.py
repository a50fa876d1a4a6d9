"""Semantic Scholar enrichment against recorded Graph API bodies.

The batch endpoints answer with one entry per requested id, in order, null for an unknown id. The
recorded bodies answer other requests than ours, so the server assembles each batch answer from the
recorded records, by id, exactly in that shape."""

from __future__ import annotations

import gzip
import json

import pytest

from harvest.models import UpstreamCheck
from harvest.sweeps.enrichment import s2_enrich
from papers.models import Authorship, Paper
from researchers.models import Researcher
from tests.factories import make_researcher
from tests.harvest.replay import Seen, cut_short, fixture, json_reply
from tests.harvest.upstream_corpus import clean_slate, corpus_paper

pytestmark = pytest.mark.django_db

PAPERQA = json.loads(fixture("semantic_scholar/paper_DOI_10.48550_arxiv.2312.07559_arXiv_paper.json"))
AUTHORS = json.loads(
    gzip.decompress(fixture("semantic_scholar/author_batch_3_authors_all_fields_with_papers.json.gz"))
)
PAPERS_BY_ARXIV = {"ARXIV:2312.07559": PAPERQA} | {
    f"ARXIV:{paper['externalIds']['ArXiv']}": paper
    for author in AUTHORS
    for paper in author["papers"]
    if (paper.get("externalIds") or {}).get("ArXiv")
}
AUTHORS_BY_ID = {author["authorId"]: {k: v for k, v in author.items() if k != "papers"} for author in AUTHORS}


def paper_batch(seen: Seen):
    return json_reply(json.dumps([PAPERS_BY_ARXIV.get(i) for i in seen.json()["ids"]]).encode())


def author_batch(seen: Seen):
    return json_reply(json.dumps([AUTHORS_BY_ID.get(i) for i in seen.json()["ids"]]).encode())


def test_it_posts_arxiv_ids_in_a_batch_and_links_authors_by_position(replay, settings):
    settings.S2_API_KEY = "test-s2-key"
    clean_slate()
    paper = corpus_paper("2312.07559")
    replay.route("/s2/graph/v1/paper/batch", paper_batch, method="POST")

    summary = s2_enrich(limit=20, stages=("papers",))

    assert summary.state == "succeeded"
    [request] = replay.seen("/s2/graph/v1/paper/batch")
    assert "ARXIV:2312.07559" in request.json()["ids"] and len(request.json()["ids"]) <= 20
    assert request.headers["x-api-key"] == "test-s2-key"
    assert "authors" in request.query["fields"].split(",")
    paper.refresh_from_db()
    assert (paper.s2_id, paper.cited_by_count) == ("7e55d8701785818776323b4147cb13354c820469", 111)
    linked = list(
        Authorship.objects.filter(paper=paper).order_by("position").values_list("name", "researcher__s2_id")
    )
    assert linked[0] == ("Jakub Lála", "2219926382")  # "Jakub L'ala" upstream
    assert linked[5] == ("Andrew D. White", "2273941271")
    # Papers the source does not know are remembered as such, and asked again later.
    unknown = UpstreamCheck.objects.filter(subject="paper", source="s2", found=False).values_list(
        "subject_id", flat=True
    )
    assert paper.pk not in set(unknown) and len(unknown) == len(request.json()["ids"]) - 1


def test_openalex_counts_win_over_semantic_scholars(replay):
    clean_slate()
    paper = corpus_paper("2312.07559")
    Paper.objects.filter(pk=paper.pk).update(openalex_id="W0000000001", cited_by_count=99)
    replay.route("/s2/graph/v1/paper/batch", paper_batch, method="POST")

    s2_enrich(limit=20, stages=("papers",))

    paper.refresh_from_db()
    assert (paper.s2_id, paper.cited_by_count) == ("7e55d8701785818776323b4147cb13354c820469", 99)


def test_the_author_batch_brings_h_index_papers_and_citations(replay):
    sommerville = make_researcher("I. Sommerville", s2_id="1711844")
    replay.route("/s2/graph/v1/author/batch", author_batch, method="POST")

    summary = s2_enrich(limit=20, stages=("authors",))

    assert summary.state == "succeeded"
    [request] = replay.seen("/s2/graph/v1/author/batch")
    assert "1711844" in request.json()["ids"]
    assert set(request.query["fields"].split(",")) >= {"hIndex", "paperCount", "citationCount"}
    sommerville.refresh_from_db()
    assert (sommerville.h_index, sommerville.works_count, sommerville.citation_count) == (57, 344, 14416)


def test_a_refusal_is_recorded_with_the_sources_words(replay):
    clean_slate()
    corpus_paper("2312.07559")
    forbidden = json_reply(fixture("semantic_scholar/error_403_forbidden.json"), status=403)
    replay.route("/s2/graph/v1/paper/batch", forbidden, method="POST")

    summary = s2_enrich(limit=20, stages=("papers",))

    assert summary.state == "failed"
    assert summary.last_error == 'papers of 2312.07559: HTTP 403: {"message":"Forbidden"}'


def test_a_batch_cut_short_once_is_posted_again_and_the_run_goes_on(replay):
    clean_slate()
    paper = corpus_paper("2312.07559")
    answers = iter([lambda seen: cut_short(paper_batch(seen), 500)])
    replay.route("/s2/graph/v1/paper/batch", lambda seen: next(answers, paper_batch)(seen), method="POST")

    summary = s2_enrich(limit=20, stages=("papers",))

    assert summary.state == "succeeded"
    first, second = replay.seen("/s2/graph/v1/paper/batch")
    assert first.json() == second.json()  # the same batch asked again
    paper.refresh_from_db()
    assert paper.s2_id == "7e55d8701785818776323b4147cb13354c820469"


def test_a_batch_cut_short_every_time_fails_after_its_attempts(replay, settings):
    settings.HARVEST_MAX_ATTEMPTS = 3
    clean_slate()
    paper = corpus_paper("2312.07559")
    replay.route("/s2/graph/v1/paper/batch", lambda seen: cut_short(paper_batch(seen), 500), method="POST")

    summary = s2_enrich(limit=20, stages=("papers",))

    assert summary.state == "failed"
    assert len(replay.seen("/s2/graph/v1/paper/batch")) == 3
    assert summary.last_error.startswith(
        "papers of 2312.07559: gave up after 3 attempts: truncated or malformed JSON (500 bytes)"
    )
    paper.refresh_from_db()
    assert paper.s2_id is None


def test_one_researcher_carries_both_ids_when_both_sources_know_the_person(replay):
    clean_slate()
    paper = corpus_paper("2312.07559")
    # OpenAlex identified Andrew D. White first (on this paper); Semantic Scholar now names him too.
    white = make_researcher("Andrew D. White", openalex_id="A5000000001")
    Authorship.objects.filter(paper=paper, position=6).update(researcher=white)
    replay.route("/s2/graph/v1/paper/batch", paper_batch, method="POST")

    s2_enrich(limit=20, stages=("papers",))

    white.refresh_from_db()
    assert (white.openalex_id, white.s2_id) == ("A5000000001", "2273941271")
    assert Researcher.objects.filter(s2_id="2273941271").get() == white
