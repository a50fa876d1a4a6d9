"""Researcher identity on the weaker evidence (researchers/evidence.py): groups of one name that share no
co-author are joined only when several signals agree, and the commoner the name, the more it takes."""

from __future__ import annotations

import datetime

import numpy as np
import pytest
from django.conf import settings

from harvest.models import HarvestRun
from harvest.records import PaperRecord
from harvest.runs import RunRecorder
from harvest.sweeps.common import store_papers
from harvest.tasks import regroup_researchers_of
from papers.models import Authorship, Paper
from researchers.evidence import NameCommonness
from researchers.models import Researcher, ResearcherRedirect
from researchers.services import names_commonness, researchers_group_by_names
from tests.factories import make_paper

pytestmark = pytest.mark.django_db

rng = np.random.default_rng(7)


def topic() -> np.ndarray:
    return rng.normal(size=settings.EMBEDDING_DIMENSIONS)


def near(vector: np.ndarray, noise: float = 0.3) -> list[float]:
    """A paper on the same topic: cosine about 0.9 with `vector`."""
    return list(vector + noise * rng.normal(size=vector.shape) * np.linalg.norm(vector) / vector.size**0.5)


def other_names(count: int, given: str = "", family: str = "") -> list[str]:
    return [f"{given or f'Given{i}'} {family or f'Family{i}'}" for i in range(count)]


def paper_on(vector: list[float] | None, authors: list[str], year: int = 2025) -> Paper:
    paper = make_paper(authors=authors, published=datetime.date(year, 5, 1))
    if vector is not None:
        Paper.objects.filter(pk=paper.pk).update(embedding=vector)
    return paper


def researcher_of(paper: Paper, name: str) -> Researcher:
    return Authorship.objects.get(paper=paper, name=name).researcher


def test_the_commonness_of_a_name_comes_from_its_given_and_family_names():
    commonness = NameCommonness.of_names(
        ["yang liu", "yang wang", "yang chen", "hao liu", "wei liu", "dacheng tao", "jie tao", "ada lovelace"]
    )
    assert commonness.expected_holders("yang liu") == pytest.approx(3 * 3 / 8)
    assert commonness.expected_holders("dacheng tao") == pytest.approx(1 * 2 / 8)
    assert commonness.expected_holders("plato") == float("inf")  # one word: never rare


def test_the_commonness_counted_in_the_database_is_that_of_every_name_in_one_query(
    django_assert_num_queries,
):
    make_paper(authors=["Yang Liu", "Yang Wang", "Hao Liu", "Yang Q. Liu", "Dacheng Tao", "Plato"])
    make_paper(authors=["Yang Liu", "Jie Tao", "José Liu-Tao", "Ada Lovelace", "Yang Chen"])
    team = make_paper(authors=["Yang Team Liu"])
    Authorship.objects.filter(paper=team).update(is_collaboration=True)  # no person: not counted
    people = Authorship.objects.people().values_list("normalised_name", flat=True)
    every_name = NameCommonness.of_names(people)
    asked = ["yang liu", "dacheng tao", "jose liu tao", "hao chen", "nobody here", "plato"]
    with django_assert_num_queries(1):  # the three counts in one statement: never the names themselves
        counted = names_commonness(names=asked)
    assert [counted.expected_holders(name) for name in asked] == [
        every_name.expected_holders(name) for name in asked
    ]
    assert counted.expected_holders("yang liu") == pytest.approx(4 * 3 / 9)


def test_a_rare_name_on_related_papers_in_the_same_years_is_one_researcher_and_the_old_id_redirects():
    make_paper(authors=other_names(40))  # a corpus in which "Zoltan Weftmaker" is a rare name
    subject = topic()
    first = paper_on(None, ["Zoltan Weftmaker", "Ada Lovelace"])
    second = paper_on(None, ["Zoltan Weftmaker", "Grace Hopper"], year=2026)
    researchers_group_by_names()
    assert researcher_of(first, "Zoltan Weftmaker") != researcher_of(second, "Zoltan Weftmaker")
    absorbed = max(researcher_of(first, "Zoltan Weftmaker").pk, researcher_of(second, "Zoltan Weftmaker").pk)

    # Their papers are embedded: both are about one topic, and the name is looked at again.
    for paper in (first, second):
        Paper.objects.filter(pk=paper.pk).update(embedding=near(subject))
    researchers_group_by_names(names=["zoltan weftmaker"])

    assert researcher_of(first, "Zoltan Weftmaker") == researcher_of(second, "Zoltan Weftmaker")
    assert ResearcherRedirect.objects.get(old_id=absorbed).researcher == researcher_of(
        first, "Zoltan Weftmaker"
    )


def test_a_rare_name_years_apart_or_on_unrelated_papers_stays_two_researchers():
    make_paper(authors=other_names(40))
    subject = topic()
    first = paper_on(near(subject), ["Zoltan Weftmaker", "Ada Lovelace"], year=2007)
    decade_later = paper_on(near(subject), ["Zoltan Weftmaker", "Grace Hopper"], year=2025)
    unrelated = paper_on(near(topic()), ["Zoltan Weftmaker", "Alan Turing"], year=2007)
    researchers_group_by_names()
    assert len({researcher_of(p, "Zoltan Weftmaker") for p in (first, decade_later, unrelated)}) == 3


def test_a_common_name_on_one_topic_without_a_lab_link_stays_two_researchers():
    # "Wei Zhang" is common here: many a Wei, many a Zhang.
    make_paper(authors=other_names(12, given="Wei") + other_names(12, family="Zhang"))
    subject = topic()
    first = paper_on(near(subject), ["Wei Zhang", "Ada Lovelace"])
    second = paper_on(near(subject), ["Wei Zhang", "Grace Hopper"])
    researchers_group_by_names()
    assert researcher_of(first, "Wei Zhang") != researcher_of(second, "Wei Zhang")


def test_a_common_name_whose_coauthors_wrote_together_on_one_topic_is_one_researcher():
    make_paper(authors=other_names(12, given="Wei") + other_names(12, family="Zhang"))
    subject = topic()
    first = paper_on(near(subject), ["Wei Zhang", "Ada Lovelace", "Charles Babbage"])
    second = paper_on(near(subject), ["Wei Zhang", "Grace Hopper", "Alan Turing"])
    # Without Wei Zhang, the co-authors of both papers wrote together: one lab.
    paper_on(None, ["Ada Lovelace", "Grace Hopper"])
    paper_on(None, ["Charles Babbage", "Alan Turing"])
    researchers_group_by_names()
    assert researcher_of(first, "Wei Zhang") == researcher_of(second, "Wei Zhang")


def test_coauthors_who_wrote_together_only_in_a_long_author_list_are_no_lab_link():
    make_paper(authors=other_names(12, given="Wei") + other_names(12, family="Zhang"))
    subject = topic()
    first = paper_on(near(subject), ["Wei Zhang", "Ada Lovelace", "Charles Babbage"])
    second = paper_on(near(subject), ["Wei Zhang", "Grace Hopper", "Alan Turing"])
    paper_on(None, ["Ada Lovelace", "Grace Hopper", "Charles Babbage", "Alan Turing", *other_names(30)])
    researchers_group_by_names()
    assert researcher_of(first, "Wei Zhang") != researcher_of(second, "Wei Zhang")


def test_the_task_after_an_embedded_batch_groups_its_authors_names_again():
    make_paper(authors=other_names(40))
    subject = topic()
    first = paper_on(None, ["Zoltan Weftmaker", "Ada Lovelace"])
    second = paper_on(None, ["Zoltan Weftmaker", "Grace Hopper"])
    researchers_group_by_names()
    for paper in (first, second):
        Paper.objects.filter(pk=paper.pk).update(embedding=near(subject))

    regroup_researchers_of(paper_ids=[second.pk])  # as the embed worker's signal queues it

    assert researcher_of(first, "Zoltan Weftmaker") == researcher_of(second, "Zoltan Weftmaker")
    assert Researcher.objects.filter(normalised_name="zoltan weftmaker").count() == 1


def initials_and_full_name(*, shared: list[str], other_full: str = "") -> tuple[Paper, Paper, Paper | None]:
    """ "D. Zhao" and "Dan Zhao" (and maybe another full name "D." may stand for) in a corpus where the
    name is rare, grouped before their papers are embedded and again after, as the embed worker does."""
    make_paper(authors=other_names(40))
    subject = topic()
    short = paper_on(None, ["D. Zhao", "Ada Lovelace", *shared])
    full = paper_on(None, ["Dan Zhao", "Grace Hopper", *shared])
    other = paper_on(None, [other_full, "Alan Turing", *shared]) if other_full else None
    researchers_group_by_names()
    for paper in (short, full, other):
        if paper is not None:
            Paper.objects.filter(pk=paper.pk).update(embedding=near(subject))
    regroup_researchers_of(paper_ids=[short.pk])
    return short, full, other


def test_an_initialled_name_with_a_coauthor_topic_field_and_years_in_common_is_the_full_name():
    short, full, _other = initials_and_full_name(shared=["Hedy Shuttlecock"])
    dan = researcher_of(full, "Dan Zhao")
    assert researcher_of(short, "D. Zhao") == dan
    assert (dan.display_name, dan.normalised_name) == ("Dan Zhao", "dan zhao")  # the fuller name
    assert ResearcherRedirect.objects.filter(researcher=dan).count() == 1


def test_an_initialled_name_with_no_coauthor_in_common_stays_apart_from_the_full_name():
    short, full, _other = initials_and_full_name(shared=[])
    assert researcher_of(short, "D. Zhao") != researcher_of(full, "Dan Zhao")


def test_an_initialled_name_that_could_be_either_of_two_full_names_joins_neither():
    short, full, other = initials_and_full_name(shared=["Hedy Shuttlecock"], other_full="Di Zhao")
    assert (
        len(
            {
                researcher_of(short, "D. Zhao"),
                researcher_of(full, "Dan Zhao"),
                researcher_of(other, "Di Zhao"),
            }
        )
        == 3
    )


def test_an_initialled_name_and_a_full_one_on_one_paper_are_two_people():
    make_paper(authors=other_names(40))
    subject = topic()
    both = paper_on(near(subject), ["D. Zhao", "Dan Zhao", "Hedy Shuttlecock"])
    full = paper_on(near(subject), ["Dan Zhao", "Hedy Shuttlecock"])
    researchers_group_by_names()
    assert (
        researcher_of(both, "D. Zhao") != researcher_of(full, "Dan Zhao") == researcher_of(both, "Dan Zhao")
    )


def test_a_harvest_page_joins_on_strong_evidence_and_leaves_the_weaker_to_the_regroup_after_embedding():
    # A rare name on two papers with no co-author in common, whose co-authors wrote together: the weaker
    # evidence joins them (a bridge and a shared field), but only once the papers are embedded.
    make_paper(authors=other_names(40))
    paper_on(None, ["Ada Lovelace", "Grace Hopper"])
    records = [
        PaperRecord(arxiv_id=f"2501.0000{n}", title=f"Weaving {n}", published=datetime.date(2025, 5, 1),
                    authors=("Zoltan Weftmaker", coauthor), primary_category="cs.LG", categories=("cs.LG",))
        for n, coauthor in enumerate(("Ada Lovelace", "Grace Hopper"), start=1)
    ]  # fmt: skip
    recorder = RunRecorder.start(HarvestRun.Source.ARXIV_OAI, {"test": "strong evidence"})
    first, second = Paper.objects.filter(pk__in=store_papers(recorder, records, {})).order_by("arxiv_id")
    assert researcher_of(first, "Zoltan Weftmaker") != researcher_of(second, "Zoltan Weftmaker")

    subject = topic()
    Paper.objects.filter(pk__in=[first.pk, second.pk]).update(embedding=near(subject))
    regroup_researchers_of(paper_ids=[first.pk, second.pk])  # as the embed worker's signal queues it
    assert researcher_of(first, "Zoltan Weftmaker") == researcher_of(second, "Zoltan Weftmaker")
