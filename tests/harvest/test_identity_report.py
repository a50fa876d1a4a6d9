"""`manage.py identity_report`: B³ against OpenAlex's author ids on real works, the scoring itself, and the
affiliation evidence the grouping uses."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from harvest.identity_report import Scores, b_cubed
from papers.models import Authorship, Paper
from researchers.services import researchers_group_by_names
from tests.factories import make_paper


def test_b_cubed_scores_a_split_and_a_merge():
    truth = {"a1": "A", "a2": "A", "b1": "B"}
    assert b_cubed({"a1": 1, "a2": 1, "b1": 2}, truth) == Scores(1.0, 1.0, 3)
    split = b_cubed({"a1": 1, "a2": 2, "b1": 3}, truth)
    assert (split.precision, round(split.recall, 3)) == (1.0, round((0.5 + 0.5 + 1) / 3, 3))
    merged = b_cubed({"a1": 1, "a2": 1, "b1": 1}, truth)
    assert (round(merged.precision, 3), merged.recall) == (round((2 / 3 + 2 / 3 + 1 / 3) / 3, 3), 1.0)


@pytest.mark.django_db
def test_the_same_name_at_the_same_affiliation_is_one_researcher():
    first = make_paper(authors=["Wei Loomwang", "Ada Lovelace"])
    second = make_paper(authors=["Wei Loomwang", "Grace Hopper"])
    third = make_paper(authors=["Wei Loomwang", "Alan Turing"])
    Authorship.objects.filter(paper__in=[first, second], position=1).update(
        affiliations=["Tsinghua University"]
    )
    Authorship.objects.filter(paper=third, position=1).update(affiliations=["University of Oxford"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk, third.pk])
    owner = {
        p.pk: p.authorships.get(position=1).researcher_id
        for p in Paper.objects.filter(pk__in=[first.pk, second.pk, third.pk])
    }
    assert owner[first.pk] == owner[second.pk] != owner[third.pk]


@pytest.mark.django_db(transaction=True)
def test_the_report_scores_the_openalex_works_and_stores_nothing(capsys):
    call_command("identity_report")
    out = capsys.readouterr().out
    scores = {
        label: (float(precision), float(recall))
        for label, precision, recall in re.findall(
            r"(before|after): OpenAlex works, B³ over 511 authorships: precision ([\d.]+), recall ([\d.]+)",
            out,
        )
    }
    assert scores["before"][0] >= 0.98 and scores["before"][1] >= 0.95  # co-authors and affiliations
    assert scores["after"][0] >= 0.98 and scores["after"][1] >= 0.98  # and the weaker evidence
    assert "researchers per common name, before → after: yang liu" in out
    assert not Paper.objects.exists()
