"""Researcher identity from upstream authorships: by position, names only as a tie-breaker, equal names
never merging distinct upstream ids, local researchers absorbed (and redirected) when their identity
arrives."""

from __future__ import annotations

import pytest

from papers.models import Authorship, Paper
from researchers.models import Researcher, ResearcherRedirect
from researchers.services import (
    UpstreamAuthor,
    name_similarity,
    pair_authorships,
    researchers_group_by_names,
    researchers_link_upstream,
)
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def upstream(*authors: tuple[str, str]) -> list[UpstreamAuthor]:
    return [UpstreamAuthor(upstream_id, (name,)) for upstream_id, name in authors]


def researcher_at(paper: Paper, position: int) -> Researcher:
    return Authorship.objects.select_related("researcher").get(paper=paper, position=position).researcher


def test_the_position_decides_between_two_people_of_one_surname():
    paper = make_paper(authors=["Wolfgang Macherey", "Klaus Macherey"])
    authorships = list(paper.authorships.order_by("position"))

    pairs = pair_authorships(authorships, upstream(("A1", "W. Macherey"), ("A2", "K. Macherey")))

    assert {index: a.position for index, a in pairs.items()} == {0: 1, 1: 2}


def test_names_break_the_tie_when_positions_disagree():
    paper = make_paper(authors=["Ada Lovelace", "Grace Hopper", "Alan Turing"])
    authorships = list(paper.authorships.order_by("position"))
    # Upstream lists an extra author first and the others in another order.
    authors = upstream(
        ("A0", "Charles Babbage"), ("A3", "A. M. Turing"), ("A1", "Ada King Lovelace"), ("A2", "G. Hopper")
    )

    pairs = pair_authorships(authorships, authors)

    assert {authors[i].upstream_id: a.name for i, a in pairs.items()} == {
        "A3": "Alan Turing",
        "A1": "Ada Lovelace",
        "A2": "Grace Hopper",
    }


def test_name_similarity_rests_on_the_family_name():
    assert name_similarity("Jeffrey Dean", "Jay B. Dean") >= 0.7
    assert name_similarity("Wei Wang", "Wei Zhang") < 0.5
    assert name_similarity("Zhang Wei", "Wei Zhang") > 0.9


def test_same_name_researchers_with_distinct_upstream_ids_stay_apart():
    first = make_paper(authors=["Wei Wang", "Ada Lovelace"])
    second = make_paper(authors=["Ada Lovelace", "Wei Wang"])
    researchers_group_by_names(paper_ids=[first.pk, second.pk])
    assert researcher_at(first, 1) == researcher_at(second, 2)  # one local researcher from names alone

    researchers_link_upstream(
        paper_id=first.pk, source="openalex", authors=upstream(("A100", "Wei Wang"), ("A200", "Ada Lovelace"))
    )
    researchers_link_upstream(
        paper_id=second.pk,
        source="openalex",
        authors=upstream(("A200", "Ada Lovelace"), ("A300", "Wei Wang")),
    )

    one, other = researcher_at(first, 1), researcher_at(second, 2)
    assert (one.openalex_id, other.openalex_id) == ("A100", "A300")
    assert one != other and one.normalised_name == other.normalised_name == "wei wang"
    assert list(Researcher.objects.with_same_name_as(one)) == [other]
    assert researcher_at(first, 2) == researcher_at(second, 1)  # Ada: one id on both papers, one researcher


def test_a_local_researcher_is_absorbed_when_its_identity_arrives_and_its_url_answers_301(client):
    first = make_paper(authors=["Maria Liakata", "Ada Lovelace"])
    second = make_paper(authors=["Maria Liakata", "Grace Hopper"])  # no shared co-author: two researchers
    researchers_group_by_names(paper_ids=[first.pk, second.pk])
    kept, absorbed = researcher_at(first, 1), researcher_at(second, 1)
    assert kept != absorbed
    old_url = absorbed.get_absolute_url()

    researchers_link_upstream(
        paper_id=first.pk, source="openalex", authors=upstream(("A5007426895", "Maria Liakata"))
    )
    researchers_link_upstream(
        paper_id=second.pk, source="openalex", authors=upstream(("A5007426895", "Maria Liakata"))
    )

    assert researcher_at(second, 1) == researcher_at(first, 1) == kept
    assert not Researcher.objects.filter(pk=absorbed.pk).exists()
    assert ResearcherRedirect.objects.get(old_id=absorbed.pk).researcher == kept
    response = client.get(old_url)
    assert response.status_code == 301
    assert response["Location"] == Researcher.objects.get(pk=kept.pk).get_absolute_url()


def test_both_sources_identifying_one_person_leave_one_researcher_with_both_ids(client):
    first = make_paper(authors=["Andrew D. White", "Sam Cox"])
    second = make_paper(authors=["Andrew White", "Odhran O'Donoghue"])
    researchers_link_upstream(
        paper_id=first.pk, source="openalex", authors=upstream(("A7", "Andrew D. White"))
    )
    researchers_link_upstream(
        paper_id=second.pk, source="s2", authors=upstream(("2273941271", "Andrew White"))
    )
    from_openalex, from_s2 = researcher_at(first, 1), researcher_at(second, 1)
    assert from_openalex != from_s2

    # Semantic Scholar then describes the first paper: its author there is the person it knows.
    researchers_link_upstream(
        paper_id=first.pk, source="s2", authors=upstream(("2273941271", "Andrew D. White"))
    )

    white = researcher_at(first, 1)
    assert (white.openalex_id, white.s2_id) == ("A7", "2273941271")
    assert researcher_at(second, 1) == white
    assert white.pk == min(from_openalex.pk, from_s2.pk)  # the older id survives, the other redirects
    gone = max(from_openalex.pk, from_s2.pk)
    assert client.get(f"/researchers/{gone}").status_code == 301


def test_an_authorship_a_source_gives_to_another_person_moves_to_that_person():
    paper = make_paper(authors=["Wei Wang", "Grace Hopper"])
    researchers_link_upstream(paper_id=paper.pk, source="openalex", authors=upstream(("A1", "Wei Wang")))
    wrong = researcher_at(paper, 1)

    # A later answer from the same source puts a different person at that position.
    researchers_link_upstream(paper_id=paper.pk, source="openalex", authors=upstream(("A2", "Wei Wang")))

    assert researcher_at(paper, 1).openalex_id == "A2"
    assert Researcher.objects.get(pk=wrong.pk).openalex_id == "A1"  # never merged, never renamed
