"""Researcher identity from arXiv names alone: one normalised name, linked through shared co-authors."""

import pytest

from papers.models import Authorship, Paper
from researchers.models import Researcher, ResearcherRedirect
from researchers.names import normalise_name
from researchers.services import researchers_group_by_names
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def researcher_of(paper: Paper, name: str) -> Researcher:
    return Authorship.objects.get(paper=paper, normalised_name=normalise_name(name)).researcher


def test_it_keeps_one_name_with_a_shared_coauthor_as_one_researcher():
    first = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    second = make_paper(authors=["Ada Lovelace", "Wei  Zhang"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk])
    assert researcher_of(first, "Wei Zhang") == researcher_of(second, "Wei Zhang")


def test_it_keeps_one_name_without_a_shared_coauthor_as_separate_researchers():
    first = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    second = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk])
    assert researcher_of(first, "Wei Zhang") != researcher_of(second, "Wei Zhang")
    assert Researcher.objects.filter(normalised_name="wei zhang").count() == 2


def test_it_follows_a_chain_of_papers():
    first = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    second = make_paper(authors=["Wei Zhang", "Ada Lovelace", "Grace Hopper"])
    third = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk, third.pk])
    assert researcher_of(first, "Wei Zhang") == researcher_of(third, "Wei Zhang")


def test_a_later_paper_that_bridges_two_researchers_merges_them_and_the_old_id_redirects():
    first = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    second = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk])
    kept, absorbed = sorted([researcher_of(first, "Wei Zhang").pk, researcher_of(second, "Wei Zhang").pk])

    bridge = make_paper(authors=["Wei Zhang", "Ada Lovelace", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[bridge.pk])

    assert {researcher_of(p, "Wei Zhang").pk for p in (first, second, bridge)} == {kept}
    assert ResearcherRedirect.objects.get(old_id=absorbed).researcher_id == kept
    assert not Researcher.objects.filter(pk=absorbed).exists()


def test_running_it_again_changes_nothing():
    paper = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    assert researchers_group_by_names(paper_ids=[paper.pk]) == 2
    before = list(Researcher.objects.values_list("id", flat=True))
    assert researchers_group_by_names(paper_ids=[paper.pk]) == 0
    assert list(Researcher.objects.values_list("id", flat=True)) == before
