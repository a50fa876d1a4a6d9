"""The shared read questions every page and the API ask of the corpus."""

import datetime

import numpy as np
import pytest
from django.db import connection

from institutions.models import Affiliation, Institution
from papers.models import Authorship, Citation, Paper
from researchers.models import Researcher
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384)
    return vector / np.linalg.norm(vector)


def test_it_answers_what_a_paper_builds_on_and_what_builds_on_it():
    base, follow_up, unrelated = make_paper(), make_paper(), make_paper()
    Citation.objects.create(citing=follow_up, cited=base)
    assert list(Paper.objects.references_of(follow_up)) == [base]
    assert list(Paper.objects.citations_of(base)) == [follow_up]
    assert not Paper.objects.citations_of(unrelated).exists()


def test_it_ranks_similar_papers_by_embedding_and_leaves_out_the_paper_itself():
    anchor = make_paper(embedding=unit(1))
    near = make_paper(embedding=unit(1) + 0.05 * unit(2))
    far = make_paper(embedding=unit(3))
    ranked = list(Paper.objects.similar_to(anchor).filter(pk__in=[near.pk, far.pk, anchor.pk]))
    assert ranked == [near, far]
    assert not Paper.objects.similar_to(make_paper()).exists()  # no embedding yet: nothing to compare


def near(seed: int, offset: int, weight: float) -> np.ndarray:
    vector = unit(seed) + weight * unit(offset)
    return vector / np.linalg.norm(vector)


def test_the_most_similar_list_is_full_though_gone_rows_hold_places_in_the_index():
    anchor = make_paper(embedding=unit(1))
    kept = [make_paper(embedding=near(1, 1000 + n, 0.6)) for n in range(10)]
    # Nearer still, and gone: their index entries stay until a vacuum and take the walk's candidates.
    Paper.objects.filter(pk__in=[make_paper(embedding=near(1, 2000 + n, 0.2)).pk for n in range(45)]).delete()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # on a table this small PostgreSQL would sort it
        cursor.execute("SET LOCAL hnsw.ef_search = 40")
    assert len(list(Paper.objects.similar_to(anchor)[:10])) < 10  # the plain walk, the control

    found = Paper.objects.most_similar_to(anchor, count=10)
    assert found == sorted(kept, key=lambda paper: -float(np.dot(paper.embedding, unit(1))))


def test_it_finds_papers_by_the_institution_of_their_authors():
    institution = Institution.objects.create(name="University of Woven Studies", ror_id="042nb2s44")
    member = make_researcher("Grace Hopper")
    Affiliation.objects.create(researcher=member, institution=institution, last_known=True)
    paper = make_paper(authors=[member, make_researcher("Ada Lovelace")])
    make_paper()
    assert list(Paper.objects.by_institution(institution)) == [paper]


def test_it_resolves_an_institution_by_id_ror_or_exact_name():
    institution = Institution.objects.create(name="Wovepaper Test Institute", ror_id="0wvpr0t99")
    for key in (str(institution.pk), "0wvpr0t99", "https://ror.org/0wvpr0t99", "wovepaper test institute"):
        assert Institution.objects.resolve(key) == institution
    assert Institution.objects.resolve("https://ror.org/zzz") is None


def test_it_matches_researcher_names_by_similarity_and_counts_their_papers():
    exact = make_researcher("Dan Zhao")
    close = make_researcher("Dan Zhou")
    make_researcher("Grace Hopper")
    make_paper(authors=[exact])
    make_paper(authors=[exact, close])
    matches = list(Researcher.objects.matching_name("dan zhao").with_paper_counts())
    assert matches[0] == exact and matches[0].paper_count == 2
    assert close in matches and all(m.display_name != "Grace Hopper" for m in matches)


def test_it_finds_the_date_the_newest_papers_begin_and_estimates_the_table_from_its_statistics():
    dates = [datetime.date(2024, month, 1) for month in (1, 3, 3, 7, 9)]
    papers = Paper.objects.filter(pk__in=[make_paper(published=date).pk for date in dates])
    assert papers.start_of_newest(1) == datetime.date(2024, 9, 1)
    assert papers.start_of_newest(3) == datetime.date(2024, 3, 1)  # a tie at the boundary: both are in
    assert papers.start_of_newest(5) == datetime.date(2024, 1, 1)
    assert papers.start_of_newest(6) is None  # fewer papers than that
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE papers_paper")
    assert Paper.objects.estimated_total() == Paper.objects.count()


def test_coauthors_among_pairs_only_the_names_asked_on_short_author_lists():
    make_paper(authors=["Ada Lovelace", "Grace Hopper", "Alan Turing"])
    make_paper(authors=["Ada Lovelace", "Charles Babbage", *(f"Given{n} Family{n}" for n in range(20))])
    make_paper(authors=["Hedy Lamarr"])
    asked = ["ada lovelace", "grace hopper", "charles babbage", "hedy lamarr"]
    assert Authorship.objects.coauthors_among(asked, most_authors=15) == {
        "ada lovelace": {"grace hopper"},  # not Alan Turing (not asked), not Babbage (a long list)
        "grace hopper": {"ada lovelace"},
    }
    assert Authorship.objects.coauthors_among(asked, most_authors=30)["ada lovelace"] == {
        "grace hopper",
        "charles babbage",
    }


def test_one_authorship_for_each_coauthor_pair_gives_each_researcher_its_first_authorship_of_a_pair():
    ada, linked = make_researcher("Ada Lovelace"), make_researcher("Grace Hopper", openalex_id="A123")
    first = make_paper(authors=[ada, "Charles Babbage"])
    second = make_paper(authors=[ada, "Charles Babbage", "Alan Turing"])  # Babbage again: no second row
    make_paper(authors=[ada, "Alan Turing"])  # Turing again: the second paper's is the first stored
    make_paper(authors=[linked, "Charles Babbage"])  # linked upstream: not among these researchers
    make_paper(authors=["Ada Lovelace", "Charles Babbage"])  # no researcher yet: nobody's authorship
    pairs = [
        ("ada lovelace", "charles babbage"),
        ("ada lovelace", "alan turing"),
        ("grace hopper", "charles babbage"),
        ("ada lovelace", "hedy lamarr"),  # on no paper
    ]
    rows = Researcher.objects.from_arxiv_names_alone().one_authorship_for_each_coauthor_pair(pairs)
    on = {paper.pk: paper.authorships.get(researcher=ada).pk for paper in (first, second)}
    assert sorted(rows) == [
        (on[first.pk], first.pk, "ada lovelace", ada.pk, "charles babbage"),
        (on[second.pk], second.pk, "ada lovelace", ada.pk, "alan turing"),
    ]
