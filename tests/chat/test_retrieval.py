"""Retrieval within each scope, and its quality on the real demo corpus: the evaluation set's hit@5 for
the whole-corpus scope (the number in the README)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from chat.retrieval import distinctive_words, retrieve, search_text
from chat.scopes import CORPUS, Scope, ScopeKind, resolve_scope
from papers.services import papers_embed
from tests.factories import make_affiliation, make_institution, make_paper, make_researcher

QUESTION = "How much stronger are twill weaves than plain ones?"


def test_a_question_is_searched_as_plain_words_and_its_names_by_keyword():
    assert (
        search_text('What does "GPT-4o" score on -5 dB author:x OR y?')
        == "What does GPT-4o score on 5 dB author x y"
    )
    assert distinctive_words("Can a 7B model beat GPT-4o on RAGTruth, as X-CLIP did in 2024?") == [
        "7B",
        "GPT-4o",
        "RAGTruth",
        "X-CLIP",
        "2024",
    ]
    assert distinctive_words("Which method is better?") == []


@pytest.mark.django_db
def test_a_paper_scope_leads_with_the_paper_then_its_neighbours(weaving):
    scope = resolve_scope(f"paper:{weaving.looms.arxiv_id}")
    found = retrieve(QUESTION, scope)
    assert found.focus_id == weaving.looms.pk
    ranked = found.ranked_paper_ids()
    assert weaving.twill.pk in ranked  # cited by the looms paper: what it builds on
    # The twill paper the looms paper cites answers clearly better; the looms paper is next.
    assert ranked[:2] == [weaving.twill.pk, weaving.looms.pk]
    assert found.passages[0].text.startswith("Twill weaves were fourteen percent stronger")
    on_dyes = retrieve("What does this paper compare?", resolve_scope(f"paper:{weaving.dyes.arxiv_id}"))
    assert on_dyes.ranked_paper_ids()[0] == weaving.dyes.pk
    assert on_dyes.passages[0].text == "We compare their wash fastness."


@pytest.mark.django_db
def test_a_researcher_or_institution_scope_reads_only_their_papers(weaving):
    weaver = make_researcher("Anni Albers")
    bauhaus = make_institution("Bauhaus Dessau")
    make_affiliation(weaver, bauhaus)
    theirs = make_paper(
        authors=[weaver],
        title="On weaving",
        abstract="Weaving is a construction of threads. We describe how a loom builds a plane from them.",
    )
    papers_embed(paper_ids=[theirs.pk])
    for token in (f"researcher:{weaver.pk}", f"institution:{bauhaus.pk}"):
        found = retrieve(QUESTION, resolve_scope(token))
        assert found.ranked_paper_ids() == [theirs.pk]
    assert resolve_scope(f"researcher:{weaver.pk}").describe() == "the papers of Anni Albers"


@pytest.mark.django_db
def test_a_search_scope_reads_only_that_searchs_results(weaving):
    scope = resolve_scope("search:q=looms+jacquard&mode=keyword")
    assert scope == Scope(
        ScopeKind.SEARCH, "q=looms+jacquard&mode=keyword", "papers matching 'looms jacquard'"
    )
    found = retrieve(QUESTION, scope)
    assert found.ranked_paper_ids() == [weaving.looms.pk]
    assert resolve_scope("search:q=x&mode=telepathy") is None


@pytest.mark.django_db
def test_a_follow_up_keeps_the_papers_cited_before(weaving):
    found = retrieve(
        "And how was it measured?", CORPUS, context=QUESTION, earlier_paper_ids=[weaving.twill.pk]
    )
    assert weaving.twill.pk in found.ranked_paper_ids()[:2]
    assert any("universal testing machine" in passage.text for passage in found.passages[:3])


@pytest.mark.django_db
def test_a_question_without_words_finds_nothing(weaving):
    assert retrieve("?!", CORPUS).passages == []


def test_the_evaluation_set_finds_its_source_in_the_first_five_on_the_demo_corpus(
    demo_corpus, django_db_blocker
):
    """The whole-corpus scope's hit@5 over the 62 committed questions (all of whose papers the test corpus
    loads), as `manage.py chat_eval` reports it."""
    out = io.StringIO()
    with django_db_blocker.unblock():
        call_command("chat_eval", verbosity=0, stdout=out)
    summary = out.getvalue().strip().splitlines()[-1]
    assert summary.startswith("chat retrieval: hit@5 ")
    hit_at_5 = float(summary.split()[3])
    assert hit_at_5 >= 0.9, summary
    assert "(" in summary and "of 62)" in summary and "skipped" not in summary
