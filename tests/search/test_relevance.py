"""Relevance on the real demo corpus: distinctive words, paraphrases, and hybrid search finding both."""

import pytest

from papers.search import engine
from papers.search.query import Mode, parse

pytestmark = pytest.mark.django_db

# Papers of the demo listing (harvest/demo_data), with their distinctive title words and a paraphrase of
# their abstract that avoids those words.
KNOWN = [
    (
        "2505.05768",  # Predicting Diabetic Macular Edema Treatment Responses Using OCT
        "macular edema treatment responses",
        "predicting how patients with diabetic eye swelling respond to injections from retinal scans",
    ),
    (
        "2505.07007",  # MELLM: ... LLM-Powered Micro-Expression Understanding ...
        "micro-expression subtle motion",
        "recognising fleeting facial movements that reveal hidden emotions with multimodal chatbots",
    ),
    (
        "2505.04660",  # AI-Generated Fall Data: ... Diffusion Model for Wearable Fall Detection
        "wearable fall detection synthetic data",
        "using generative AI to create training examples for detecting when elderly people tumble",
    ),
    (
        "2505.04488",  # "I Can See Forever!": Evaluating Real-time VideoLLMs for ... Visual Impairments
        "real-time VideoLLMs visual impairments",
        "helping blind people with live video assistants",
    ),
]


def arxiv_ids(results: engine.SearchResults) -> list[str]:
    return [hit.paper.arxiv_id for hit in results.hits]


@pytest.mark.parametrize(("arxiv_id", "title_words", "paraphrase"), KNOWN)
def test_it_puts_a_paper_first_for_its_distinctive_title_words_in_keyword_mode(
    demo_corpus, arxiv_id, title_words, paraphrase
):
    results = engine.run(parse(title_words, mode=Mode.KEYWORD))
    assert arxiv_ids(results)[0] == arxiv_id
    assert results.hits[0].why == "words" and results.hits[0].title.marked_words


@pytest.mark.parametrize(("arxiv_id", "title_words", "paraphrase"), KNOWN)
def test_it_finds_a_paper_in_the_top_five_for_a_paraphrase_in_semantic_mode(
    demo_corpus, arxiv_id, title_words, paraphrase
):
    assert not engine.run(parse(paraphrase, mode=Mode.KEYWORD)).hits  # the words alone find nothing
    results = engine.run(parse(paraphrase, mode=Mode.SEMANTIC))
    assert arxiv_id in arxiv_ids(results)[:5]
    assert all(hit.matched_meaning for hit in results.hits)


@pytest.mark.parametrize(("arxiv_id", "title_words", "paraphrase"), KNOWN)
def test_hybrid_finds_a_paper_both_by_its_words_and_by_a_paraphrase(
    demo_corpus, arxiv_id, title_words, paraphrase
):
    by_words = engine.run(parse(title_words))
    assert arxiv_ids(by_words)[0] == arxiv_id and by_words.hits[0].why == "words and meaning"
    by_meaning = engine.run(parse(paraphrase))
    assert arxiv_id in arxiv_ids(by_meaning)[:5]


def test_hybrid_fuses_papers_found_only_by_words_with_papers_found_only_by_meaning(demo_corpus):
    results = engine.run(parse("fall detection"))
    why = {hit.paper.arxiv_id: hit.why for hit in results.hits}
    assert why["2505.04660"] == "words and meaning"  # wearable fall detection: both lists
    assert "words" in why.values()  # e.g. a physics paper about free fall: words, far in meaning
    assert "meaning" in why.values()  # e.g. activity recognition for the elderly: meaning, other words
    assert results.strategy == "hybrid"


def test_common_words_rank_among_a_bounded_candidate_set(demo_corpus, settings):
    settings.SEARCH_KEYWORD_CANDIDATES = 100
    results = engine.run(parse("learning", mode=Mode.KEYWORD))
    assert results.total == 100 and results.total_is_lower_bound
    assert len(results.hits) == 20 and all(hit.why == "words" for hit in results.hits)
    scores = [hit.keyword_rank for hit in results.hits]
    assert scores == sorted(scores)


@pytest.mark.parametrize("recent_papers", [20, 60, 200])
@pytest.mark.parametrize("words", ["learning", "model", "detection", "graph neural"])
def test_searching_recent_papers_first_finds_the_same_candidates(demo_corpus, settings, words, recent_papers):
    """However many papers count as recent, the candidates are the newest matches: the recent part alone
    when it has enough of them, the older part for the rest."""
    settings.SEARCH_KEYWORD_CANDIDATES = 100
    query = parse(words, mode=Mode.KEYWORD)
    settings.SEARCH_KEYWORD_RECENT_PAPERS = 10**9  # more than there are: one search over every paper
    whole = engine.rank(query, needed=20)
    settings.SEARCH_KEYWORD_RECENT_PAPERS = recent_papers
    in_parts = engine.rank(query, needed=20)
    assert whole.entries and [entry.paper_id for entry in in_parts.entries] == [
        entry.paper_id for entry in whole.entries
    ]
    assert (in_parts.total, in_parts.total_is_lower_bound) == (whole.total, whole.total_is_lower_bound)
