"""Keyword relevance through the BM25 index: old papers that match best come first, known items are found,
filters hold, the index follows the embedding, and search falls back to PostgreSQL without it."""

import datetime
import io

import pytest
from django.core.cache import cache
from django.core.management import call_command

from analysis.models import Topic
from papers.models import Paper, paper_slug
from papers.search import engine, keyword_index
from papers.search.query import Filters, Mode, parse
from papers.services import papers_embed
from tests.factories import make_paper, make_researcher, next_arxiv_id

pytestmark = pytest.mark.django_db

WEAK_ABSTRACT = (
    "We study scheduling for warehouse robots over many shifts, with a long discussion of fleets, aisles, "
    "batteries, chargers and pickers, and mention quasicrystal tilings once in passing as an aside."
)


@pytest.fixture
def index_dir(settings, tmp_path):
    settings.SEARCH_KEYWORD_INDEX_DIR = tmp_path / "keyword-index"
    keyword_index.forget_opened_index()
    cache.delete("search:keyword-index:papers")
    yield settings.SEARCH_KEYWORD_INDEX_DIR
    keyword_index.forget_opened_index()
    cache.delete("search:keyword-index:papers")


def newer_weak_matches(count: int) -> None:
    Paper.objects.bulk_create(
        Paper(
            arxiv_id=next_arxiv_id(),
            title=f"Warehouse robot scheduling, part {number}",
            abstract=WEAK_ABSTRACT,
            published=datetime.date(2024, 1, 1) + datetime.timedelta(days=number),
            categories=["cs.RO"],
            primary_category="cs.RO",
            slug=paper_slug("warehouse robot scheduling"),
        )
        for number in range(count)
    )


def build() -> None:
    call_command("build_keyword_index", verbosity=0)


def keyword_ids(text: str, **options) -> list[int]:
    return [hit.paper.pk for hit in engine.run(parse(text, mode=Mode.KEYWORD, **options)).hits]


def test_an_old_paper_that_matches_best_comes_before_many_newer_weak_matches(index_dir, settings):
    settings.SEARCH_KEYWORD_CANDIDATES = 100
    old = make_paper(
        title="Quasicrystal tilings and their diffraction",
        abstract="Quasicrystal tilings: aperiodic quasicrystal order, quasicrystal diffraction patterns.",
        published=datetime.date(2001, 3, 1),
    )
    newer_weak_matches(150)
    # PostgreSQL's ranking reaches only the newest 100 matches: the best paper is not among them.
    assert old.pk not in keyword_ids("quasicrystal")
    build()
    found = engine.run(parse("quasicrystal", mode=Mode.KEYWORD))
    assert found.hits[0].paper.pk == old.pk
    assert found.total == 151 and not found.total_is_lower_bound
    assert found.hits[0].why == "words" and found.hits[0].title.marked_words
    hybrid = engine.run(parse("quasicrystal", mode=Mode.HYBRID))
    assert old.pk in [hit.paper.pk for hit in hybrid.hits[:3]]


def test_a_known_item_query_of_distinctive_abstract_words_finds_its_paper_first(index_dir):
    target = make_paper(
        title="Scheduling robots in warehouses",
        abstract="Our planner couples battery swapping with aisle congestion forecasts and zeolite sensors.",
        published=datetime.date(2003, 6, 1),
    )
    newer_weak_matches(30)
    build()
    assert keyword_ids("battery swapping zeolite congestion")[0] == target.pk


def test_a_fields_length_counts_its_stop_words_and_a_phrase_keeps_their_places(index_dir):
    # Both name the word once. Counted without stop words the wordy abstract would be one word long and
    # rank first; every word counted, the short abstract about the word comes first, as in plain BM25.
    wordy = make_paper(
        title="Notes",
        abstract="Of all that is here and all that was there, it is for them to be what they were: "
        "quasicrystal.",
    )
    short = make_paper(title="Notes", abstract="Quasicrystal diffraction patterns measured in alloys.")
    phrase = make_paper(title="Theory of mind in artificial agents", abstract="A test.")
    build()
    assert keyword_ids("quasicrystal") == [short.pk, wordy.pk]
    assert keyword_ids('"theory of mind"') == [phrase.pk]
    assert keyword_ids('"theory mind"') == []  # the stop word's place is kept in the index
    assert keyword_ids("the of quasicrystal") == keyword_ids("quasicrystal")  # and never asked for


def test_a_word_stemmed_as_a_stop_word_finds_only_the_papers_that_have_it(index_dir):
    # "underlying" stems to "under", a stop word: PostgreSQL drops "under" before stemming, so only the
    # paper with "underlying" matches there, and in the index itself (where the SQL check after it would
    # hide a mismatch on a page this small, and leave a page short or its count too high at scale).
    make_paper(title="Graphs under load", abstract="Graph partitioning under load, with other graphs.")
    underlying = make_paper(title="Graphs", abstract="The underlying graph partitioning, and others.")
    build()
    for text in ("underlying graph", "others graph"):
        matches = keyword_index.search(parse(text, mode=Mode.KEYWORD), limit=10)
        assert (matches.ids, matches.total) == ([underlying.pk], 1), text
        assert keyword_ids(text) == [underlying.pk]
    assert keyword_ids(f"graph {keyword_index.STOP_WORD_MARK}") == []  # no paper has it, as in PostgreSQL


def test_filters_are_applied_in_the_index_and_in_sql(index_dir):
    def paper(**fields):
        return make_paper(
            title="Holographic tensor networks", abstract="Tensor networks in holography.", **fields
        )

    physics_old = paper(categories=["hep-th"], primary_category="hep-th", published=datetime.date(2010, 1, 1))
    physics_new = paper(
        categories=["hep-th", "quant-ph"], primary_category="hep-th", published=datetime.date(2024, 1, 1)
    )
    survey = paper(
        paper_type="survey",
        topics=[Topic.objects.create(label="tensors", centroid=[1.0] * 384)],
        cited_by_count=3,
        authors=["Zora Quimby"],
        published=datetime.date(2015, 1, 1),
    )
    build()
    assert set(keyword_ids("holographic tensor", filters=parse("cat:hep-th").filters)) == {
        physics_old.pk,
        physics_new.pk,
    }
    assert keyword_ids("holographic tensor year:2020..2025") == [physics_new.pk]
    assert keyword_ids("holographic tensor -cat:quant-ph cat:hep-th") == [physics_old.pk]
    assert keyword_ids("holographic tensor type:survey") == [survey.pk]
    assert keyword_ids(f"holographic tensor topic:{survey.topic_links.get().topic_id}") == [survey.pk]
    assert keyword_ids('holographic author:"Zora Quimby"') == [survey.pk]
    assert keyword_ids("holographic tensor", filters=Filters(cited_only=True)) == [survey.pk]
    # Stop words ask nothing, as in PostgreSQL (an author field keeps them: not a reason to miss)
    assert len(keyword_ids("holographic over the")) == 3
    assert keyword_ids('"tensor holographic"') == []  # a phrase is words in a row
    assert set(keyword_ids('"holographic tensor" -quimby')) == {physics_old.pk, physics_new.pk}


def test_hostile_text_is_words_to_the_index_never_its_query_syntax(index_dir):
    make_paper(title="Robust parsing", abstract="Parsing of brackets and stars.")
    build()
    for text in ['title:"(parsing" AND -^2 *', "parsing OR ) ] } ~ :: \\", "' OR 1=1; --", "☃ 𝟘 ☃"]:
        results = engine.run(parse(text, mode=Mode.KEYWORD))
        assert results.strategy == "keyword"


def test_hostile_titles_and_abstracts_are_indexed_as_words(index_dir):
    hostile = (
        "<script>alert(1)</script> $\\frac{a}{b}$ " + "(" * 1000 + " " + "x" * 10_000 + " \\u0000 the of"
    )
    paper = make_paper(title=f"Zeolite {hostile}", abstract=f"{hostile} zeolite membranes")
    build()
    assert keyword_ids("zeolite membranes") == [paper.pk]
    assert keyword_index._marked_stop_words("x\x00y The OF ☃") == "x y stopword0 stopword0"


def test_a_word_is_common_when_enough_titles_or_abstracts_hold_it(index_dir):
    assert not keyword_index.every_word_common("tilings", share=0.1)  # no index yet: it cannot say
    for number in range(10):
        make_paper(title=f"Tilings, part {number}", abstract="Aperiodic tilings of the plane.")
    make_paper(title="Looms", abstract="Quasicrystal looms.")
    build()
    assert keyword_index.every_word_common("aperiodic tilings", share=0.5)  # in 10 of 11 papers
    assert keyword_index.every_word_common("Tiling", share=0.5)  # as the index reads words: stems
    assert not keyword_index.every_word_common("aperiodic quasicrystal", share=0.5)  # one is rare
    assert not keyword_index.every_word_common("zorblaxain", share=0.0001)  # in no paper
    assert not keyword_index.every_word_common("of the", share=0.0)  # stop words: no word it indexes
    for hostile in ["\x00", "<script>alert(1)</script>", "$\\frac{a}{b}$", "x" * 10_000, "☃ 𝟘 ☃", "((" * 500]:
        assert keyword_index.every_word_common(hostile, share=0.5) is False  # words, never syntax


def test_names_alike_are_looked_for_only_when_a_word_could_be_a_misspelt_name(index_dir):
    lookalike = make_researcher("Quasicrystel Smith")  # no word starts "quasicrystal": alike by trigrams
    grace = make_researcher("Grace Zorblaxian")
    make_paper(title="Woven tilings", authors=[lookalike, grace])
    for number in range(3):
        make_paper(title=f"Quasicrystal tilings, part {number}")

    def people(text: str) -> list:
        return engine.run(parse(text, mode=Mode.KEYWORD)).researchers

    assert people("quasicrystal") == [lookalike]  # without the index nobody can tell it is common
    build()
    assert people("quasicrystal") == []  # in 3 of the 4 papers: a topic
    assert people("grace zorblaxain") == [grace]  # a word no paper holds: a typo is looked for
    assert people("author:quasicrystal") == [lookalike]  # asked for as a name


def test_without_an_index_keyword_search_ranks_with_postgresql_and_readyz_says_so(index_dir, client):
    paper = make_paper(title="Zeolite membranes for desalination", abstract="Zeolite membranes.")
    assert keyword_index.state() == "missing"
    assert keyword_index.search(parse("zeolite", mode=Mode.KEYWORD), limit=10) is None
    assert keyword_ids("zeolite") == [paper.pk]
    body = client.get("/readyz").json()
    assert body["keyword_index"] == "missing: PostgreSQL ranks"
    build()
    assert keyword_index.state() == "ok"
    assert client.get("/readyz").json()["keyword_index"] == "ok"


def test_a_stale_index_is_left_for_postgresql_until_it_is_rebuilt(index_dir):
    make_paper(title="Zeolite membranes for desalination", abstract="Zeolite membranes.")
    build()
    newer_weak_matches(50)  # not indexed: no embedding ran
    cache.delete("search:keyword-index:papers")
    assert keyword_index.state() == "stale"
    assert len(keyword_ids("quasicrystal")) == 20  # PostgreSQL found them
    build()
    assert keyword_index.state() == "ok"


def test_a_deployment_start_builds_the_index_only_when_it_is_missing_or_stale(index_dir):
    make_paper(title="Zeolite membranes for desalination", abstract="Zeolite membranes.")
    out = io.StringIO()
    call_command("build_keyword_index", "--if-needed", stdout=out, verbosity=0)
    assert out.getvalue().startswith("keyword index: 1 papers indexed")
    out = io.StringIO()
    call_command("build_keyword_index", "--if-needed", stdout=out, verbosity=0)
    assert out.getvalue() == f"keyword index: current at {index_dir}, kept\n"
    newer_weak_matches(50)
    cache.delete("search:keyword-index:papers")
    out = io.StringIO()
    call_command("build_keyword_index", "--if-needed", stdout=out, verbosity=0)
    assert out.getvalue().startswith("keyword index: 51 papers indexed")
    # An index another schema version wrote (its analysers read words differently) is built again.
    (index_dir / "wovepaper-schema-version").write_text("1")
    keyword_index.forget_opened_index()
    assert keyword_index.state() == "missing"
    out = io.StringIO()
    call_command("build_keyword_index", "--if-needed", stdout=out, verbosity=0)
    assert out.getvalue().startswith("keyword index: 51 papers indexed")
    assert keyword_index.state() == "ok"


def test_the_index_follows_the_embedding(index_dir, settings):
    settings.SEARCH_KEYWORD_INDEX_MAX_MISSING = 0.5  # the one paper not indexed yet leaves it in use
    make_paper(title="Zeolite membranes for desalination", abstract="Zeolite membranes.")
    build()
    paper = make_paper(title="Perovskite ferroelectrics", abstract="Ferroelectric perovskite thin films.")
    assert keyword_index.search(parse("perovskite", mode=Mode.KEYWORD), limit=10).ids == []
    assert papers_embed(paper_ids=[paper.pk]) == 1
    keyword_index.forget_opened_index()  # another process would see the commit within a second
    assert keyword_index.search(parse("perovskite", mode=Mode.KEYWORD), limit=10).ids == [paper.pk]
    Paper.objects.filter(pk=paper.pk).update(title="Something else", abstract="Nothing alike.")
    assert keyword_ids("perovskite") == []  # SQL checks what the index found
