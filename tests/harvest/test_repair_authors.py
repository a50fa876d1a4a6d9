"""`manage.py repair_authors` on rows stored the way the writer stored them before the author parser: real
demo author lists, teams and ":" made researchers, affiliations glued onto names."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from harvest.parsers.arxiv import paper_from_kaggle
from harvest.services.repairs import authors_repair
from papers.models import Authorship, Paper
from researchers.models import Researcher, ResearcherRedirect
from researchers.services import researchers_group_by_names
from tests.factories import make_account, make_paper

pytestmark = pytest.mark.django_db

DEMO_DATA = Path(__file__).resolve().parents[2] / "harvest" / "demo_data"


def _listing(arxiv_id: str) -> list[str]:
    with gzip.open(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", "rt", encoding="utf-8") as lines:
        return next(item["authors"] for line in lines if (item := json.loads(line))["id"] == arxiv_id)


def _kaggle(arxiv_id: str) -> dict:
    with open(DEMO_DATA / "arxiv_kaggle_snapshot_head200.jsonl", encoding="utf-8") as lines:
        return next(item for line in lines if (item := json.loads(line))["id"] == arxiv_id)


def _stored_as_before(arxiv_id: str, names: list[str]) -> Paper:
    paper = make_paper(arxiv_id=arxiv_id, authors=names)
    researchers_group_by_names(paper_ids=[paper.pk])
    return paper


def _researcher_named(name: str) -> Researcher:
    return Researcher.objects.get(display_name=name)


def test_it_repairs_stored_authors_and_keeps_every_researcher_url_answering(client):
    xiaomi = _stored_as_before("2505.07608", _listing("2505.07608"))
    pazzaglia = _stored_as_before("2506.14645", _listing("2506.14645"))
    kaggle = _kaggle("0704.0044")
    # What the old paper_from_kaggle stored: "A. A. Schekochihin Oxford"
    glued = [
        " ".join(p for p in (first, last, *rest) if p) for last, first, *rest in kaggle["authors_parsed"]
    ]
    _stored_as_before("0704.0044", glued)
    team, colon = _researcher_named("Xiaomi LLM-Core Team"), _researcher_named(":")
    dot, oxford = _researcher_named(". Pazzaglia"), _researcher_named("A. A. Schekochihin Oxford")
    follower = make_account()
    oxford.follows.create(user=follower)

    report = authors_repair(records=[paper_from_kaggle(kaggle)])

    assert (report.removed, report.collaborations) == (2, 1)  # the team and ":"
    assert report.merged >= 2  # ". Pazzaglia", the four glued Kaggle names, the names after ":"
    schekochihin = _researcher_named("A. A. Schekochihin")
    assert ResearcherRedirect.objects.get(old_id=oxford.pk).researcher == schekochihin
    assert schekochihin.follows.filter(user=follower).exists()
    assert client.get(f"/researchers/{oxford.pk}").status_code == 301
    assert (
        client.get(f"/researchers/{oxford.pk}")
        .headers["Location"]
        .startswith(f"/researchers/{schekochihin.pk}-")
    )
    dot.refresh_from_db()  # ". Pazzaglia" and "Pazzaglia" compare equal: the same researcher, renamed
    assert dot.display_name == "Pazzaglia"
    for gone in (team, colon):
        assert client.get(f"/researchers/{gone.pk}").status_code == 410
        assert client.get(f"/api/researchers/{gone.pk}").status_code == 410
    # People first: the name after the team heading is the first author; the team follows the people.
    first, team = Authorship.objects.get(paper=xiaomi, position=1), xiaomi.authorships.last()
    assert (team.name, team.is_collaboration, team.researcher) == ("Xiaomi LLM-Core Team", True, None)
    assert first.name == "Bingquan Xia"
    assert Authorship.objects.filter(researcher=first.researcher).author_position_counts()["first"] == 1
    assert Paper.objects.get(pk=xiaomi.pk).authors == [a for a in _listing("2505.07608") if a != ":"]
    assert Authorship.objects.get(paper=pazzaglia, position=1).researcher.display_name == "Pazzaglia"
    assert not Researcher.objects.filter(
        display_name__in=[":", ". Pazzaglia", "Xiaomi LLM-Core Team"]
    ).exists()
    assert Authorship.objects.get(paper__arxiv_id="0704.0044", position=1).affiliations == ["Oxford"]

    again = authors_repair(records=[paper_from_kaggle(kaggle)])
    assert (again.papers, again.authorships, again.merged, again.removed) == (0, 0, 0, 0)


def test_the_command_reports_what_it_changed(capsys):
    _stored_as_before("2506.10910", _listing("2506.10910"))  # "Mistral-AI", ":", ...
    call_command("repair_authors", verbosity=0)
    out = capsys.readouterr().out
    assert "1 papers repaired" in out and "2 removed as no person (410)" in out
    call_command("repair_authors", verbosity=0)
    assert "0 papers repaired" in capsys.readouterr().out
