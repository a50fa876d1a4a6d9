"""Issue 18's "done when", on the demo corpus as `load_demo` stores it: every researcher a real name,
teams shown as collaborations, author lists as arXiv's own parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harvest.parsers.authors import authors_from_kaggle_parsed, names_a_group
from papers.models import Authorship, Paper
from researchers.models import Researcher

pytestmark = pytest.mark.django_db

KAGGLE = Path(__file__).resolve().parents[2] / "harvest" / "demo_data" / "arxiv_kaggle_snapshot_head200.jsonl"


def test_every_researcher_of_the_demo_corpus_has_a_real_name(demo_corpus):
    names = list(Researcher.objects.values_list("display_name", flat=True))
    assert len(names) > 5000
    assert [n for n in names if sum(c.isalpha() for c in n) < 2 or not n[0].isalpha()] == []
    assert [n for n in names if names_a_group(n)] == []
    teams = set(Authorship.objects.filter(is_collaboration=True).values_list("name", flat=True))
    assert {"Xiaomi LLM-Core Team", "The BABAR Collaboration"} <= teams  # in the first 1,500 and Kaggle
    assert not Authorship.objects.filter(is_collaboration=True, researcher__isnull=False).exists()


def test_the_kaggle_author_lists_are_arxivs_own_parse_and_names_carry_no_affiliation(demo_corpus):
    with open(KAGGLE, encoding="utf-8") as lines:
        kaggle = [json.loads(line) for line in lines]
    stored = dict(
        Paper.objects.filter(arxiv_id__in=[k["id"] for k in kaggle]).values_list("arxiv_id", "authors")
    )
    differences = [
        item["id"]
        for item in kaggle
        if stored[item["id"]]
        != [a.display_name for a in authors_from_kaggle_parsed(item["authors_parsed"]).authors]
    ]
    assert differences == []
    glued = [
        (authorship.name, affiliation)
        for authorship in Authorship.objects.filter(paper__arxiv_id__in=stored).exclude(affiliations=[])
        for affiliation in authorship.affiliations
        if affiliation in authorship.name
    ]
    assert glued == []
    # the 40 names main had glued an affiliation onto, now kept apart
    assert Authorship.objects.filter(paper__arxiv_id__in=stored).exclude(affiliations=[]).count() >= 40
