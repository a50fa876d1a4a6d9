"""Folding researchers into others, many at once: what moves, what wins where both have it, what redirects."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Follow
from institutions.models import Affiliation
from papers.models import Authorship
from researchers.models import Researcher, ResearcherRedirect
from researchers.services import researcher_absorb, researchers_absorb
from tests.factories import (
    make_account,
    make_affiliation,
    make_follow,
    make_institution,
    make_paper,
    make_researcher,
)

pytestmark = pytest.mark.django_db


def authored_by(researcher: Researcher, *names: str) -> None:
    paper = make_paper(authors=list(names))
    Authorship.objects.filter(paper=paper, position=1).update(researcher=researcher)


def test_several_absorbed_into_one_survivor_move_everything_and_keep_one_of_each_link():
    survivor = make_researcher("Wei Zhang")
    first, second = make_researcher("Wei Zhang"), make_researcher("W. Zhang")
    for researcher in (survivor, first, second):
        authored_by(researcher, researcher.display_name, "Ada Lovelace")
    shared, own = make_institution("Shared University"), make_institution("Second's Institute")
    for researcher in (survivor, first, second):
        make_affiliation(researcher, shared)
    make_affiliation(second, own)
    reader, other_reader = make_account(), make_account()
    make_follow(reader, survivor)
    make_follow(reader, first)
    make_follow(other_reader, first)
    make_follow(other_reader, second)

    researchers_absorb(survivor_of={first.pk: survivor.pk, second.pk: survivor.pk})

    assert set(Researcher.objects.values_list("id", flat=True)) == {survivor.pk}
    assert Authorship.objects.filter(researcher=survivor).count() == 3
    assert sorted(Affiliation.objects.values_list("researcher_id", "institution__name")) == [
        (survivor.pk, "Second's Institute"),
        (survivor.pk, "Shared University"),
    ]
    assert sorted(Follow.objects.values_list("user_id", "researcher_id")) == sorted(
        [(reader.pk, survivor.pk), (other_reader.pk, survivor.pk)]
    )
    assert dict(ResearcherRedirect.objects.values_list("old_id", "researcher_id")) == {
        first.pk: survivor.pk,
        second.pk: survivor.pk,
    }


def test_ids_absorbed_earlier_follow_to_the_new_survivor():
    survivor, middle, oldest = make_researcher(), make_researcher(), make_researcher()
    researchers_absorb(survivor_of={oldest.pk: middle.pk})
    researchers_absorb(survivor_of={middle.pk: survivor.pk})
    assert dict(ResearcherRedirect.objects.values_list("old_id", "researcher_id")) == {
        oldest.pk: survivor.pk,
        middle.pk: survivor.pk,
    }


def test_upstream_ids_and_metrics_fill_the_survivors_gaps_and_never_overwrite():
    survivor = make_researcher("Grace Hopper", h_index=12)
    absorbed = make_researcher(
        "Grace Hopper", openalex_id="A5023888391", h_index=40, orcid="0000-0002-1825-0097"
    )
    kept = researcher_absorb(survivor=survivor, absorbed=absorbed)
    assert (kept.openalex_id, kept.orcid, kept.h_index) == ("A5023888391", "0000-0002-1825-0097", 12)
    stored = Researcher.objects.get(pk=survivor.pk)
    assert (stored.openalex_id, stored.h_index) == ("A5023888391", 12)


def test_the_number_of_statements_does_not_grow_with_the_number_absorbed():
    def statements(count: int) -> int:
        survivors = [make_researcher() for _ in range(count)]
        absorbed = [make_researcher() for _ in range(count)]
        for researcher in absorbed:
            authored_by(researcher, "Grace Hopper", "Ada Lovelace")
        with CaptureQueriesContext(connection) as queries:
            researchers_absorb(survivor_of={a.pk: s.pk for a, s in zip(absorbed, survivors, strict=True)})
        return len(queries)

    assert statements(2) == statements(20)


def test_a_researcher_cannot_absorb_and_be_absorbed_at_once():
    first, second, third = make_researcher(), make_researcher(), make_researcher()
    with pytest.raises(ValueError, match="both absorb and be absorbed"):
        researchers_absorb(survivor_of={first.pk: second.pk, second.pk: third.pk})
    assert Researcher.objects.count() == 3
