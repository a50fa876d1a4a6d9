"""Authorships written from real demo records: persons become researchers, teams stay collaboration
authors, affiliations sit on the authorship and never in the name, and no author string fails a harvest."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harvest.models import HarvestRun
from harvest.parsers.arxiv import paper_from_kaggle, paper_from_listing
from harvest.parsers.authors import authors_from_kaggle_parsed
from harvest.runs import RunRecorder
from harvest.services.papers import papers_upsert
from harvest.sweeps.common import store_papers
from papers.models import Authorship, Paper
from researchers.models import Researcher
from researchers.services import researchers_group_by_names

pytestmark = pytest.mark.django_db

DEMO_DATA = Path(__file__).resolve().parents[2] / "harvest" / "demo_data"
LISTING_IDS = {"2505.07608", "2506.10910", "2506.14645", "2506.02197", "2506.13468"}


def _demo_records() -> list:
    with gzip.open(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", "rt", encoding="utf-8") as lines:
        listing = [
            paper_from_listing(item) for line in lines if (item := json.loads(line))["id"] in LISTING_IDS
        ]
    with open(DEMO_DATA / "arxiv_kaggle_snapshot_head200.jsonl", encoding="utf-8") as lines:
        kaggle = [json.loads(line) for line in lines]
    return listing, kaggle


def _store(records: list) -> list[int]:
    _counts, touched = papers_upsert(records=records)
    researchers_group_by_names(paper_ids=touched)
    return touched


def test_it_writes_teams_as_collaboration_authors_and_persons_as_researchers():
    listing, _kaggle = _demo_records()
    _store(listing)

    xiaomi = Paper.objects.get(arxiv_id="2505.07608")
    *_people, team = xiaomi.authorships.order_by("position")
    assert (team.name, team.is_collaboration, team.researcher) == ("Xiaomi LLM-Core Team", True, None)
    assert team.position == len(xiaomi.authors)  # teams after the people: no position among them
    assert ":" not in xiaomi.authors
    assert xiaomi.authors[0] == "Xiaomi LLM-Core Team"  # still shown in the author list

    names = set(Researcher.objects.values_list("display_name", flat=True))
    assert {":", "Xiaomi LLM-Core Team", "Mistral-AI", ". Pazzaglia"}.isdisjoint(names)
    assert "Pazzaglia" in names
    assert {"Xiangyu Kong", "Xiaoxia Xing", "Watchara Ruangsang"} <= names
    assert {"Hal Daumé III", "Alvin Grissom II"} <= names  # the suffix printed, not compared
    assert Authorship.objects.filter(is_collaboration=True, researcher__isnull=False).count() == 0


def test_every_kaggle_author_list_is_stored_as_arxivs_own_parse_with_affiliations_apart():
    _listing, kaggle = _demo_records()
    _store([paper_from_kaggle(item) for item in kaggle])

    stored = dict(Paper.objects.values_list("arxiv_id", "authors"))
    arxivs = {
        item["id"]: [a.display_name for a in authors_from_kaggle_parsed(item["authors_parsed"]).authors]
        for item in kaggle
    }
    differences = [
        f"{arxiv_id}: {stored[arxiv_id]} != {names}"
        for arxiv_id, names in arxivs.items()
        if stored[arxiv_id] != names
    ]
    assert differences == [], "\n".join(differences)
    botella = Authorship.objects.get(paper__arxiv_id="0704.0174", position=1)
    assert (botella.name, botella.affiliations) == (
        "Francisco J. Botella",
        ["Valencia U. & Valencia U., IFIC"],
    )
    assert Researcher.objects.filter(display_name="A. A. Schekochihin").exists()
    assert not Researcher.objects.filter(display_name__endswith=" Oxford").exists()
    babar = Authorship.objects.get(paper__arxiv_id="0704.0020", is_collaboration=True)
    assert (babar.name, babar.researcher_id) == ("The BABAR Collaboration", None)
    assert babar == Authorship.objects.filter(paper__arxiv_id="0704.0020").last()  # after the people


def test_positions_count_only_people_so_the_name_after_a_team_heading_is_the_first_author():
    listing, _kaggle = _demo_records()  # "Xiaomi LLM-Core Team", ":", "Bingquan Xia", …, "Zihao Yue"
    _store(listing)
    xiaomi = Paper.objects.get(arxiv_id="2505.07608")
    people = list(xiaomi.authorships.people().order_by("position"))
    assert [a.position for a in people] == list(range(1, len(people) + 1))
    assert (people[0].name, people[-1].name) == ("Bingquan Xia", xiaomi.authors[-1])
    first, last = people[0].researcher, people[-1].researcher
    assert Authorship.objects.filter(researcher=first).author_position_counts()["first"] == 1
    assert Authorship.objects.filter(researcher=last).author_position_counts()["last"] == 1
    middle = Authorship.objects.filter(researcher=people[1].researcher).author_position_counts()
    assert (middle["first"], middle["middle"]) == (0, 1)


def test_a_team_is_no_researchers_co_author():
    listing, _kaggle = _demo_records()
    _store(listing)
    member = Authorship.objects.get(paper__arxiv_id="2505.07608", position=2).researcher
    assert list(Researcher.objects.coauthors_of(member).filter(display_name__icontains="team")) == []


HOSTILE_AUTHOR_LISTS = [
    [],
    [""],
    [":", ";", "...", "—"],
    ["A" * 10_000, "Ann Short"],
    ["Ann (Short", "Bo) Li", "((1) Oxford"],
    ["Ann\x00Short", "Bo\x1bLi\u202e"],
    ["<script>alert(1)</script>Ann Short", "<b>Bo Li</b>", "&lt;i&gt;Cy Young"],
    ["Ann Shortand Bo Liand Cy Youngand Di Wuand"],
]


@pytest.mark.parametrize("authors", HOSTILE_AUTHOR_LISTS)
def test_no_author_list_fails_a_harvest(authors):
    record = paper_from_listing(
        {"id": "2101.00009", "title": "Hostile authors", "published": "2021-01-04", "authors": authors}
    )
    _store([record])
    paper = Paper.objects.get(arxiv_id="2101.00009")
    for authorship in paper.authorships.all():
        assert authorship.name[0].isalpha() and len(authorship.name) <= 300
        assert not set(authorship.name) & set("<>\x00\x1b\u202e")
    assert len(paper.authors) == paper.authorships.count()


def test_a_harvest_summary_counts_the_names_it_repaired_and_dropped():
    listing, _kaggle = _demo_records()  # 2506.02197's glued run, the teams' ":", ". Pazzaglia"
    recorder = RunRecorder.start(HarvestRun.Source.ARXIV_API, {"test": "summary"})
    store_papers(recorder, listing, {})
    line = recorder.finish(HarvestRun.State.SUCCEEDED).line("harvest")
    repaired = sum(record.names_repaired for record in listing)
    dropped = sum(record.names_dropped for record in listing)
    assert repaired >= 36 and dropped >= 2
    assert f"{repaired} author names repaired, {dropped} author entries dropped" in line
