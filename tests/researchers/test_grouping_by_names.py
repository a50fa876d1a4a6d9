"""Researcher identity from arXiv names alone: one normalised name, linked through shared co-authors."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from harvest.models import HarvestRun
from harvest.records import PaperRecord
from harvest.runs import RunRecorder
from harvest.sweeps.common import store_papers
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


def _print_affiliation(paper: Paper, name: str, affiliation: str) -> None:
    Authorship.objects.filter(paper=paper, normalised_name=normalise_name(name)).update(
        affiliations=[affiliation]
    )


@pytest.mark.parametrize("weak_evidence", [True, False], ids=["all evidence", "strong evidence only"])
def test_a_new_paper_joins_the_one_known_researcher_it_shares_a_coauthor_with(weak_evidence):
    # The harvest groups on the strong evidence only, reading one authorship a researcher and pair.
    ada_papers = [make_paper(authors=["Wei Zhang", "Ada Lovelace"]) for _ in range(3)]
    grace_paper = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[p.pk for p in [*ada_papers, grace_paper]], weak_evidence=False)
    with_ada, with_grace = researcher_of(ada_papers[0], "Wei Zhang"), researcher_of(grace_paper, "Wei Zhang")
    assert with_ada != with_grace

    new = make_paper(authors=["Ada Lovelace", "Wei Zhang", "Alan Turing"])
    assert researchers_group_by_names(paper_ids=[new.pk], weak_evidence=weak_evidence) == 3

    assert researcher_of(new, "Wei Zhang") == with_ada
    assert {researcher_of(p, "Wei Zhang") for p in ada_papers} == {with_ada}
    assert researcher_of(grace_paper, "Wei Zhang") == with_grace


@pytest.mark.parametrize("weak_evidence", [True, False], ids=["all evidence", "strong evidence only"])
def test_a_new_paper_bridging_two_known_researchers_merges_them_on_either_evidence(weak_evidence):
    first = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    second = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk], weak_evidence=False)
    kept = min(researcher_of(first, "Wei Zhang").pk, researcher_of(second, "Wei Zhang").pk)

    bridge = make_paper(authors=["Grace Hopper", "Wei Zhang", "Ada Lovelace"])
    researchers_group_by_names(paper_ids=[bridge.pk], weak_evidence=weak_evidence)

    assert {researcher_of(p, "Wei Zhang").pk for p in (first, second, bridge)} == {kept}


@pytest.mark.parametrize("weak_evidence", [True, False], ids=["all evidence", "strong evidence only"])
def test_a_new_paper_joins_the_known_researcher_printing_the_same_affiliation(weak_evidence):
    known = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    other = make_paper(authors=["Wei Zhang", "Grace Hopper"])
    _print_affiliation(known, "Wei Zhang", "Loom Institute, Paris")
    _print_affiliation(other, "Wei Zhang", "Shuttle University")
    researchers_group_by_names(paper_ids=[known.pk, other.pk], weak_evidence=False)

    new = make_paper(authors=["Wei Zhang", "Alan Turing"])  # no co-author in common with either
    _print_affiliation(new, "Wei Zhang", "LOOM INSTITUTE, PARIS")  # as normalise_name reads it, the same
    researchers_group_by_names(paper_ids=[new.pk], weak_evidence=weak_evidence)

    assert researcher_of(new, "Wei Zhang") == researcher_of(known, "Wei Zhang")
    assert researcher_of(other, "Wei Zhang") != researcher_of(known, "Wei Zhang")


def test_every_affiliation_a_known_researcher_printed_joins_them_not_only_their_first():
    """The grouping reads one authorship of each researcher, name and affiliation list: one of the lists,
    printed on the researcher's last paper only, must still join a new paper to them."""
    papers = [make_paper(authors=["Wei Zhang", "Ada Lovelace"]) for _ in range(3)]
    printed = ["Loom Institute", "Loom Institute", "Shuttle University"]
    for paper, affiliation in zip(papers, printed, strict=True):
        _print_affiliation(paper, "Wei Zhang", affiliation)
    researchers_group_by_names(paper_ids=[paper.pk for paper in papers], weak_evidence=False)
    assert len({researcher_of(paper, "Wei Zhang") for paper in papers}) == 1

    new = make_paper(authors=["Wei Zhang", "Alan Turing"])  # no co-author in common
    _print_affiliation(new, "Wei Zhang", "Shuttle University")
    researchers_group_by_names(paper_ids=[new.pk], weak_evidence=False)

    assert researcher_of(new, "Wei Zhang") == researcher_of(papers[0], "Wei Zhang")


def test_a_harvest_page_writes_each_new_authorship_once_with_its_researcher():
    known = make_paper(authors=["Wei Zhang", "Ada Lovelace"])
    researchers_group_by_names(paper_ids=[known.pk])
    records = [
        PaperRecord(arxiv_id="2501.00001", title="Weaving", published=datetime.date(2025, 5, 1),
                    authors=("Ada Lovelace", "Wei Zhang", "Linus Loom", "ATLAS Collaboration")),
        PaperRecord(arxiv_id="2501.00002", title="Warp", published=datetime.date(2025, 5, 2),
                    authors=("Linus Loom", "Wei Zhang")),
    ]  # fmt: skip
    recorder = RunRecorder.start(HarvestRun.Source.ARXIV_OAI, {"test": "written once"})
    with CaptureQueriesContext(connection) as queries:
        first, second = Paper.objects.filter(pk__in=store_papers(recorder, records, {})).order_by("arxiv_id")

    assert not [query for query in queries if re.match(r'\s*UPDATE "?papers_authorship', str(query["sql"]))]
    assert researcher_of(first, "Wei Zhang") == researcher_of(known, "Wei Zhang")  # Ada, a co-author
    assert researcher_of(first, "Ada Lovelace") == researcher_of(known, "Ada Lovelace")
    assert researcher_of(first, "Linus Loom") == researcher_of(second, "Linus Loom")  # through Wei Zhang
    assert researcher_of(second, "Wei Zhang") == researcher_of(known, "Wei Zhang")
    team = Authorship.objects.get(paper=first, is_collaboration=True)
    assert team.name == "ATLAS Collaboration" and team.researcher is None
    assert Researcher.objects.filter(normalised_name="linus loom").count() == 1


def test_unsaved_authorships_are_grouped_on_the_strong_evidence_only():
    paper = make_paper(authors=["Wei Zhang"])
    with pytest.raises(ValueError, match="strong evidence only"):
        researchers_group_by_names(paper_ids=[], unsaved=[Authorship(paper=paper, position=2, name="A B")])
