import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from institutions.models import Affiliation, Institution
from papers.models import Authorship, Citation, Paper
from researchers.models import Researcher, ResearcherRedirect

pytestmark = pytest.mark.django_db


def load_demo(*args: str, limit: int = 300) -> str:
    out = StringIO()
    call_command(
        "load_demo", "--limit", str(limit), "--no-embed", *args, stdout=out, stderr=StringIO(), verbosity=0
    )
    return out.getvalue()


def snapshot() -> tuple:
    return (
        sorted(
            Paper.objects.values_list(
                "arxiv_id", "title", "updated_at", "cited_by_count", "openalex_id", "s2_id"
            )
        ),
        sorted(Authorship.objects.values_list("paper__arxiv_id", "position", "name", "researcher_id")),
        sorted(
            Researcher.objects.values_list(
                "id", "display_name", "openalex_id", "s2_id", "h_index", "updated_at"
            )
        ),
        sorted(Citation.objects.values_list("citing_id", "cited_id", "created_at")),
        sorted(Institution.objects.values_list("id", "name", "ror_id", "homepage", "updated_at")),
        sorted(
            Affiliation.objects.values_list("id", "researcher_id", "institution_id", "years", "last_known")
        ),
        sorted(ResearcherRedirect.objects.values_list("old_id", "researcher_id")),
    )


def test_it_loads_real_papers_with_their_authors_in_order():
    summary = load_demo()
    # 300 from the listing, 200 from the Kaggle snapshot, 92 from the API feed (first posted by 30 June 2025)
    assert "592 created" in summary
    paper = Paper.objects.get(arxiv_id="2504.21040")
    assert paper.title.startswith("Can a Large Language Model Assess Urban Design Quality?")
    assert paper.authors[:2] == ["Chenyi Cai", "Kosuke Kuriyama"]
    assert list(paper.authorships.values_list("position", "name"))[-1] == (5, "Pieter Herthogs")
    assert paper.categories == ["cs.CV"] and paper.primary_category == "cs.CV"
    assert paper.abs_url == "https://arxiv.org/abs/2504.21040"
    assert not Authorship.objects.filter(paper=paper, researcher__isnull=True).exists()


def test_it_keeps_what_the_kaggle_snapshot_knows():
    load_demo()
    paper = Paper.objects.get(arxiv_id="0704.0001")
    assert paper.doi == "10.1103/PhysRevD.76.013009"
    assert paper.journal_ref == "Phys.Rev.D76:013009,2007"
    assert paper.version == 2 and str(paper.published) == "2007-04-02"
    assert paper.authors[0] == "C. Balázs"  # TeX accents (Bal\\'azs) become letters


def test_a_second_run_changes_nothing():
    load_demo()
    before = snapshot()
    summary = load_demo()
    assert "0 created, 0 updated, 592 unchanged" in summary
    assert "upstream demo: 0 created, 21 unchanged papers" in summary
    assert snapshot() == before


def test_it_refuses_a_limit_below_one():
    with pytest.raises(CommandError, match="--limit must be at least 1"):
        call_command("load_demo", "--limit", "0")


def test_openalex_records_give_researchers_ids_orcids_and_institutions_with_ror_ids():
    load_demo(limit=1)  # the upstream part is loaded whole
    survey = Paper.objects.get(arxiv_id="1806.03537")
    assert survey.title == "Diachronic word embeddings and semantic shifts: a survey"
    assert survey.abstract.startswith("Recent years have witnessed a surge of publications")
    kutuzov = Authorship.objects.get(paper=survey, position=1).researcher
    assert (kutuzov.display_name, kutuzov.openalex_id, kutuzov.orcid) == (
        "Andrey Kutuzov",
        "A5071409817",
        "0000-0003-2540-5912",
    )
    oslo = kutuzov.affiliations.get(last_known=True).institution
    assert (oslo.name, oslo.ror_id, oslo.country_code) == ("University of Oslo", "01xtthb56", "NO")


def test_the_demo_has_citations_between_its_papers():
    load_demo(limit=1)  # the upstream part is loaded whole
    citing = Paper.objects.get(arxiv_id="2007.14454")
    assert set(Paper.objects.references_of(citing).values_list("arxiv_id", flat=True)) == {
        "1806.03537",
        "1310.4546",
        "1609.08144",
    }
    assert citing.reference_count == 37  # all its references, not only those in the corpus
    assert Paper.objects.get(arxiv_id="1310.4546").published.isoformat() == "2013-10-01"


def test_semantic_scholar_records_give_a_researcher_metrics_and_absorb_name_only_records(client):
    load_demo(limit=1)  # the upstream part is loaded whole
    sommerville = Researcher.objects.get(s2_id="1711844")
    assert (sommerville.h_index, sommerville.works_count, sommerville.citation_count) == (57, 344, 14416)
    assert Paper.objects.by_researcher(sommerville).count() == 16
    # His name-only records (papers without a shared co-author) were absorbed; their URLs redirect.
    absorbed = ResearcherRedirect.objects.filter(researcher=sommerville).first()
    assert absorbed is not None
    assert client.get(f"/researchers/{absorbed.old_id}").status_code == 301
    paperqa = Paper.objects.get(arxiv_id="2312.07559")
    assert (paperqa.s2_id, paperqa.cited_by_count) == ("7e55d8701785818776323b4147cb13354c820469", 111)


def test_ror_records_become_institutions():
    load_demo(limit=1)  # the upstream part is loaded whole
    monash = Institution.objects.get(ror_id="02bfwt286")
    assert (monash.name, monash.country_code, monash.type, monash.homepage) == (
        "Monash University",
        "AU",
        "education",
        "http://www.monash.edu/",
    )
    assert Institution.objects.get(ror_id="02atag894").name == "Office of Nuclear Physics"
    assert Institution.objects.filter(ror_id__isnull=False).count() >= 21


def test_the_api_sample_stops_where_the_listing_does():
    """The arXiv API sample's entries first posted after the listing's last day (8 real papers of July
    2025 to April 2026, all about software testing) would be the home page's latest papers."""
    load_demo()
    assert Paper.objects.filter(arxiv_id="2202.12139").exists()  # in the sample, from 2022
    assert not Paper.objects.filter(published__gt=datetime.date(2025, 6, 30)).exists()
    assert not Paper.objects.filter(arxiv_id="2604.03438").exists()
