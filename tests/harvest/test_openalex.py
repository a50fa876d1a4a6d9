"""OpenAlex enrichment against recorded OpenAlex responses, chained through their own cursors."""

from __future__ import annotations

import gzip
import json

import pytest

from harvest.models import HarvestRun, UpstreamCheck
from harvest.sweeps.enrichment import openalex_enrich
from institutions.models import Affiliation, Institution
from papers.models import Authorship, Citation, Paper
from researchers.models import Researcher
from researchers.services import researchers_group_by_names
from tests.factories import make_researcher
from tests.harvest.replay import Reply, cut_short, entity_list, fixture, json_reply
from tests.harvest.upstream_corpus import clean_slate, corpus_paper

pytestmark = pytest.mark.django_db

SEEDS = fixture("openalex/works_filter_openalex_2ids_cursor_page1.json")  # 2007.14454 and a non-arXiv work
CITED = fixture("openalex/works_filter_cited_by_2ids_cursor_page1.json")  # 1310.4546 1609.08144 1806.03537 …
EMPTY = fixture("openalex/works_filter_openalex_2ids_cursor_last_page_empty.json")
SEEDS_NEXT = json.loads(SEEDS)["meta"]["next_cursor"]
CITED_NEXT = json.loads(CITED)["meta"]["next_cursor"]
FOUR = ["2007.14454", "1806.03537", "1310.4546", "1609.08144"]


def serve_works(replay) -> None:
    """Three real pages, linked by the cursors they carry: the citing paper first, the cited ones after."""
    replay.route("/openalex/works", json_reply(SEEDS), cursor="*")
    replay.route("/openalex/works", json_reply(CITED), cursor=SEEDS_NEXT)
    replay.route("/openalex/works", json_reply(EMPTY), cursor=CITED_NEXT)


def works_only(limit: int = 50):
    return openalex_enrich(limit=limit, stages=("works",))


def test_it_asks_for_arxiv_dois_in_one_or_filter_with_key_mailto_and_select(replay, settings):
    clean_slate()
    papers = [corpus_paper(arxiv_id) for arxiv_id in FOUR]
    serve_works(replay)

    works_only()

    first = replay.seen("/openalex/works")[0]
    dois = first.query["filter"].removeprefix("doi:").split("|")
    assert {f"10.48550/arXiv.{p.arxiv_id}" for p in papers} <= set(dois)
    assert len(dois) <= 50
    assert first.query["api_key"] == "test-openalex-key"
    assert first.query["mailto"] == settings.CONTACT_EMAIL
    assert first.query["per_page"] == "200"
    assert "authorships" in first.query["select"].split(",")
    assert settings.CONTACT_EMAIL in first.headers["user-agent"]


def test_it_pages_through_cursors_and_weaves_citations_between_corpus_papers(replay):
    clean_slate()
    papers = {arxiv_id: corpus_paper(arxiv_id) for arxiv_id in FOUR}
    serve_works(replay)

    summary = works_only()

    assert [r.query["cursor"] for r in replay.seen("/openalex/works")] == ["*", SEEDS_NEXT, CITED_NEXT]
    assert summary.state == "succeeded" and summary.created == 4
    citing = Paper.objects.get(pk=papers["2007.14454"].pk)
    assert citing.openalex_id == "W3045921891"
    assert (citing.reference_count, citing.cited_by_count) == (37, 0)  # all 37 references, 3 in the corpus
    assert citing.citations_refreshed_at is not None
    # The cited papers arrived a page after the citing one: the edges appear all the same.
    cited = set(Citation.objects.filter(citing=citing).values_list("cited__arxiv_id", flat=True))
    assert cited == {"1806.03537", "1310.4546", "1609.08144"}
    assert Paper.objects.get(arxiv_id="1609.08144").cited_by_count == 5625
    edges = set(
        Citation.objects.filter(citing__arxiv_id__in=FOUR).values_list("citing__arxiv_id", "cited__arxiv_id")
    )
    assert edges == {
        ("2007.14454", "1806.03537"),
        ("2007.14454", "1310.4546"),
        ("2007.14454", "1609.08144"),
        ("1806.03537", "1310.4546"),  # the survey of word embeddings cites word2vec
    }
    assert summary.extra["citations added"] == 4


def test_it_links_authors_by_position_even_where_names_differ(replay):
    clean_slate()
    paper = corpus_paper("1609.08144")
    serve_works(replay)

    works_only()

    researcher_at = {
        a.position: a.researcher for a in Authorship.objects.filter(paper=paper).select_related("researcher")
    }
    assert researcher_at[6].openalex_id == "A5018646392"  # Wolfgang Macherey
    assert researcher_at[10].openalex_id == "A5008084569"  # Klaus Macherey: same surname, own researcher
    assert researcher_at[31].openalex_id == "A5043872671"  # "Jeffrey Dean" on arXiv, "Jay B. Dean" upstream
    assert researcher_at[31].display_name == "Jeffrey Dean"  # the name as written on the paper
    assert researcher_at[21].openalex_id == "A5085787384"  # George Kurian / George Thomas Kurian
    assert researcher_at[15].orcid == "0000-0003-1092-6010"  # Łukasz Kaiser
    assert len({r.pk for r in researcher_at.values()}) == 31


def test_name_similarity_places_authors_where_positions_disagree(replay):
    clean_slate()
    # arXiv's list lacks the second author OpenAlex has: from there on, positions disagree.
    paper = corpus_paper("1806.03537", authors=["Andrey Kutuzov", "Terrence Szymanski", "Erik Velldal"])
    serve_works(replay)

    works_only()

    linked = dict(Authorship.objects.filter(paper=paper).values_list("name", "researcher__openalex_id"))
    assert linked == {
        "Andrey Kutuzov": "A5071409817",
        "Terrence Szymanski": "A5067082279",
        "Erik Velldal": "A5080146945",
    }
    assert not Researcher.objects.filter(openalex_id="A5080614776").exists()  # Øvrelid is not on this paper


def test_it_stores_institutions_with_ror_ids_and_affiliations(replay):
    clean_slate()
    corpus_paper("1806.03537")
    serve_works(replay)

    works_only()

    oslo = Institution.objects.get(openalex_id="I184942183")
    assert (oslo.name, oslo.ror_id, oslo.country_code, oslo.type) == (
        "University of Oslo",
        "01xtthb56",
        "NO",
        "education",
    )
    kutuzov = Researcher.objects.get(openalex_id="A5071409817")
    affiliation = Affiliation.objects.get(researcher=kutuzov)
    assert (affiliation.institution, affiliation.years, affiliation.last_known) == (oslo, [2018], True)
    szymanski = Researcher.objects.get(openalex_id="A5067082279")
    assert szymanski.affiliations.get().institution.ror_id == "05m7pjf47"  # University College Dublin


def test_a_local_researcher_takes_on_its_upstream_identity(replay):
    clean_slate()
    paper = corpus_paper("2007.14454")
    researchers_group_by_names(paper_ids=[paper.pk])
    local = Authorship.objects.get(paper=paper, position=3).researcher
    assert not local.has_upstream_identity

    serve_works(replay)
    works_only()

    local.refresh_from_db()
    assert (local.openalex_id, local.orcid) == ("A5007426895", "0000-0001-5765-0416")  # same id, same URL


def test_a_page_cut_short_once_is_asked_for_again_and_the_run_goes_on(replay):
    """A connection dropped mid-body under a response without a length reaches the parser as a complete
    body that does not decode: asked again with the same cursor, like a 5xx, not the end of the run."""
    clean_slate()
    papers = [corpus_paper(arxiv_id) for arxiv_id in FOUR]
    serve_works(replay)
    replay.route("/openalex/works", cut_short(json_reply(CITED), 3000), json_reply(CITED), cursor=SEEDS_NEXT)

    summary = works_only()

    assert summary.state == "succeeded"
    assert [r.query["cursor"] for r in replay.seen("/openalex/works")] == [
        "*",
        SEEDS_NEXT,
        SEEDS_NEXT,
        CITED_NEXT,
    ]
    assert all(Paper.objects.get(pk=p.pk).openalex_id for p in papers)
    assert Citation.objects.filter(citing__arxiv_id="2007.14454").exists()


def test_truncated_json_after_its_attempts_stops_the_run_without_writing_and_the_next_run_resumes(
    replay, settings
):
    settings.HARVEST_MAX_ATTEMPTS = 3
    clean_slate()
    paper = corpus_paper("2007.14454")
    replay.route("/openalex/works", cut_short(json_reply(SEEDS), 3000), cursor="*")

    failed = works_only()

    assert failed.state == "failed"
    assert [r.query["cursor"] for r in replay.seen("/openalex/works")] == ["*"] * 3
    run = HarvestRun.objects.filter(source="openalex").recent().first()
    [error] = run.errors
    assert error["source"] == "OpenAlex"
    assert "/openalex/works?" in error["request"] and "api_key=%3Csecret%3E" in error["request"]
    assert "test-openalex-key" not in json.dumps(run.errors)  # the key is never stored
    assert error["position"].startswith("works of 2007.14454")
    assert error["message"].startswith("gave up after 3 attempts: truncated or malformed JSON (3000 bytes)")
    paper.refresh_from_db()
    assert (
        paper.openalex_id is None
        and not Authorship.objects.filter(paper=paper, researcher__isnull=False).exists()
    )
    assert run.checkpoint == {}  # nothing stored yet: the batch starts over

    replay.reset()
    serve_works(replay)
    resumed = works_only()

    assert resumed.state == "succeeded" and resumed.resumed
    run.refresh_from_db()
    assert run.state == "succeeded"
    assert Paper.objects.get(pk=paper.pk).openalex_id == "W3045921891"


def test_a_later_page_cut_short_every_time_fails_with_its_cursor_kept(replay, settings):
    settings.HARVEST_MAX_ATTEMPTS = 2
    clean_slate()
    for arxiv_id in FOUR:
        corpus_paper(arxiv_id)
    serve_works(replay)
    replay.route("/openalex/works", cut_short(json_reply(CITED), 1000), cursor=SEEDS_NEXT)

    assert works_only().state == "failed"

    run = HarvestRun.objects.filter(source="openalex").recent().first()
    assert run.checkpoint["cursor"] == SEEDS_NEXT
    assert run.errors[-1]["message"].startswith("gave up after 2 attempts: truncated or malformed JSON")
    assert [r.query["cursor"] for r in replay.seen("/openalex/works")] == ["*", SEEDS_NEXT, SEEDS_NEXT]


def test_a_run_stopped_between_cursor_pages_resumes_at_its_cursor(replay):
    clean_slate()
    papers = [corpus_paper(arxiv_id) for arxiv_id in FOUR]
    replay.route("/openalex/works", json_reply(SEEDS), cursor="*")
    replay.route("/openalex/works", Reply(status=400, body=b'{"error": "Invalid cursor"}'), cursor=SEEDS_NEXT)

    assert works_only().state == "failed"

    run = HarvestRun.objects.filter(source="openalex").recent().first()
    assert run.checkpoint["cursor"] == SEEDS_NEXT
    assert sorted(arxiv_id for _, arxiv_id in run.checkpoint["batch"]) == sorted(FOUR)
    replay.reset()
    serve_works(replay)

    assert works_only().state == "succeeded"
    assert [r.query["cursor"] for r in replay.seen("/openalex/works")] == [SEEDS_NEXT, CITED_NEXT]
    assert all(Paper.objects.get(pk=p.pk).openalex_id for p in papers)


def test_it_honours_retry_after_on_a_429(replay):
    clean_slate()
    corpus_paper("2007.14454")
    too_many = json_reply(b'{"error": "Too many requests"}', status=429, **{"Retry-After": "1"})
    replay.route("/openalex/works", too_many, json_reply(SEEDS), cursor="*")
    replay.route("/openalex/works", json_reply(EMPTY), cursor=SEEDS_NEXT)

    summary = works_only()

    assert summary.state == "succeeded"
    refused, served, _last = replay.seen("/openalex/works")
    assert served.at - refused.at >= 1.0


def test_an_invalid_key_fails_at_once_with_the_sources_words(replay):
    clean_slate()
    corpus_paper("2007.14454")
    replay.route(
        "/openalex/works", json_reply(fixture("openalex/error_401_rate_limit_invalid_key.json"), status=401)
    )

    summary = works_only()

    assert summary.state == "failed"
    assert len(replay.seen("/openalex/works")) == 1  # a 401 is not retried
    assert (
        'HTTP 401: {"error":"Invalid or missing API key","message":"API key not found"}' in summary.last_error
    )


def test_papers_openalex_does_not_know_are_asked_again_only_after_a_week(replay):
    clean_slate()
    known, unknown = corpus_paper("2007.14454"), corpus_paper("1806.03537")
    replay.route("/openalex/works", json_reply(SEEDS), cursor="*")
    replay.route("/openalex/works", json_reply(EMPTY), cursor=SEEDS_NEXT)

    works_only()

    checks = dict(
        UpstreamCheck.objects.filter(
            subject="paper", source="openalex", subject_id__in=[known.pk, unknown.pk]
        ).values_list("subject_id", "found")
    )
    assert checks == {known.pk: True, unknown.pk: False}
    replay.reset()
    second = works_only()
    assert second.created == second.updated == 0
    asked = [r.query["filter"] for r in replay.seen("/openalex/works")]
    assert not any("2007.14454" in f or "1806.03537" in f for f in asked)  # neither is due again yet


def test_applying_the_same_works_twice_changes_nothing(replay):
    clean_slate()
    for arxiv_id in FOUR:
        corpus_paper(arxiv_id)
    serve_works(replay)
    works_only()

    def snapshot() -> tuple:
        return (
            sorted(
                Paper.objects.filter(arxiv_id__in=FOUR).values_list(
                    "pk", "openalex_id", "cited_by_count", "updated_at"
                )
            ),
            sorted(
                Citation.objects.filter(citing__arxiv_id__in=FOUR).values_list("pk", "citing_id", "cited_id")
            ),
            sorted(Authorship.objects.filter(paper__arxiv_id__in=FOUR).values_list("pk", "researcher_id")),
            sorted(
                Researcher.objects.exclude(openalex_id=None).values_list(
                    "pk", "openalex_id", "orcid", "updated_at"
                )
            ),
            sorted(Affiliation.objects.values_list("pk", "years", "last_known")),
        )

    before = snapshot()
    UpstreamCheck.objects.filter(source="openalex").delete()  # make every paper due again
    replay.reset()
    serve_works(replay)
    summary = works_only()

    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, 4)
    assert snapshot() == before


def test_author_profiles_bring_metrics_orcid_and_last_known_institutions(replay):
    priem = make_researcher("Jason Priem", openalex_id="A5023888391")
    replay.route("/openalex/authors", entity_list(fixture("openalex/author_A5023888391.json")))

    summary = openalex_enrich(limit=50, stages=("authors",))

    assert summary.state == "succeeded"
    assert replay.seen("/openalex/authors")[0].query["filter"].startswith("openalex:")
    priem.refresh_from_db()
    assert (priem.h_index, priem.citation_count, priem.works_count) == (17, 3890, 62)
    assert priem.orcid == "0000-0001-6187-6610" and priem.metrics_refreshed_at is not None
    last_known = priem.affiliations.get(last_known=True).institution
    assert (last_known.name, last_known.ror_id) == ("OurResearch", "02nr0ka47")
    unc = priem.affiliations.get(institution__ror_id="0130frc33")
    assert (unc.years, unc.last_known) == ([2010, 2011, 2012, 2013, 2014], False)


def test_institution_details_come_from_the_institutions_endpoint(replay):
    michigan = Institution.objects.update_or_create(openalex_id="I27837315", defaults={"name": "U Michigan"})[
        0
    ]
    replay.route("/openalex/institutions", entity_list(fixture("openalex/institution_I27837315.json")))

    openalex_enrich(limit=50, stages=("institutions",))

    michigan.refresh_from_db()
    assert (michigan.name, michigan.ror_id, michigan.country_code) == (
        "University of Michigan",
        "00jmfr291",
        "US",
    )
    assert (michigan.type, michigan.homepage) == ("funder", "https://www.umich.edu")


def test_a_dry_run_fetches_and_counts_but_writes_nothing(replay):
    clean_slate()
    paper = corpus_paper("2007.14454")
    runs = HarvestRun.objects.count()
    serve_works(replay)

    summary = openalex_enrich(limit=50, stages=("works",), dry_run=True)

    assert summary.created == 1 and len(replay.seen("/openalex/works")) >= 2
    paper.refresh_from_db()
    assert paper.openalex_id is None
    assert HarvestRun.objects.count() == runs
    assert not UpstreamCheck.objects.filter(subject="paper", subject_id=paper.pk).exists()


def test_the_recorded_gzip_fixture_is_what_the_demo_uses():
    # The S2 author batch is stored compressed; make sure it is intact (the demo and tests read it).
    assert json.loads(
        gzip.decompress(fixture("semantic_scholar/author_batch_3_authors_all_fields_with_papers.json.gz"))
    )
