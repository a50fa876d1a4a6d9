from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from papers.models import Authorship, Paper
from researchers.models import Researcher

pytestmark = pytest.mark.django_db


def load_demo(*args: str) -> str:
    out = StringIO()
    call_command(
        "load_demo", "--limit", "300", "--no-embed", *args, stdout=out, stderr=StringIO(), verbosity=0
    )
    return out.getvalue()


def snapshot() -> tuple:
    return (
        sorted(Paper.objects.values_list("arxiv_id", "title", "updated_at")),
        sorted(Authorship.objects.values_list("paper__arxiv_id", "position", "name", "researcher_id")),
        sorted(Researcher.objects.values_list("id", "display_name")),
    )


def test_it_loads_real_papers_with_their_authors_in_order():
    summary = load_demo()
    assert (
        "600 created" in summary
    )  # 300 from the listing, 200 from the Kaggle snapshot, 100 from the API feed
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
    assert "0 created, 0 updated, 600 unchanged" in summary
    assert snapshot() == before


def test_it_refuses_a_limit_below_one():
    with pytest.raises(CommandError, match="--limit must be at least 1"):
        call_command("load_demo", "--limit", "0")
