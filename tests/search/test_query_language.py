"""The search box's query language: each operator, fields, garbage, and the sentence that explains it."""

import pytest
from django.test import override_settings

from papers.search.query import Field, Filters, Mode, Sort, Term, parse


def terms(query) -> list[list[Term]]:
    return [list(clause.alternatives) for clause in query.clauses]


def test_it_reads_plain_words_as_one_clause_each():
    query = parse("network   bottleneck")
    assert terms(query) == [[Term("network")], [Term("bottleneck")]]
    assert query.semantic_text == "network bottleneck"
    assert query.describe() == "papers matching 'network bottleneck'"


def test_it_reads_a_quoted_phrase():
    query = parse('"graph neural networks" pooling')
    assert terms(query) == [[Term("graph neural networks", phrase=True)], [Term("pooling")]]
    assert query.describe() == "papers matching 'pooling' with the phrase “graph neural networks”"


def test_it_reads_excluded_words_and_phrases():
    query = parse('transformers -survey -"vision transformer"')
    assert terms(query) == [[Term("transformers")]]
    assert query.excluded == (Term("survey"), Term("vision transformer", phrase=True))
    assert query.semantic_text == "transformers"
    assert "but not matching 'survey' or with the phrase “vision transformer”" in query.describe()


def test_it_joins_words_around_or_into_one_clause():
    query = parse("pruning graph OR network")
    assert terms(query) == [[Term("pruning")], [Term("graph"), Term("network")]]
    assert query.describe() == "papers matching 'pruning' matching 'graph' or 'network'"


def test_a_lower_case_or_and_a_dangling_or_are_not_operators():
    assert terms(parse("cats or dogs")) == [[Term("cats")], [Term("or")], [Term("dogs")]]
    assert terms(parse("OR cats OR")) == [[Term("cats")]]


def test_it_reads_an_author_field_quoted_or_bare():
    query = parse('author:"Dan Zhao" sparse attention au:Lovelace')
    assert query.authors == ("Dan Zhao", "Lovelace")
    assert query.semantic_text == "sparse attention"  # names do not shape the meaning
    assert query.describe() == "papers by Dan Zhao and Lovelace matching 'sparse attention'"


def test_it_reads_title_and_abstract_fields():
    query = parse('title:"diffusion model" abs:pruning ti:video abstract:sparsity')
    assert terms(query) == [
        [Term("diffusion model", Field.TITLE, phrase=True)],
        [Term("pruning", Field.ABSTRACT)],
        [Term("video", Field.TITLE)],
        [Term("sparsity", Field.ABSTRACT)],
    ]
    assert "with “diffusion model” in the title with 'pruning' in the abstract" in query.describe()


def test_it_reads_categories_as_filters_and_merges_them_with_the_form():
    query = parse("scheduling cat:cs.DC -cat:cs.CV", filters=Filters(categories=("cs.LG",)))
    assert query.filters.categories == ("cs.LG", "cs.DC")
    assert query.filters.excluded_categories == ("cs.CV",)
    assert query.describe() == "papers in cs.LG or cs.DC outside cs.CV matching 'scheduling'"


@pytest.mark.parametrize(
    ("typed", "years", "said"),
    [
        ("year:2020..2022", (2020, 2022), "from 2020 to 2022"),
        ("year:2021", (2021, 2021), "in 2021"),
        ("year:2020..", (2020, None), "since 2020"),
        ("year:..2019", (None, 2019), "until 2019"),
        ("year:2022-2020", (2020, 2022), "from 2020 to 2022"),
    ],
)
def test_it_reads_year_ranges(typed, years, said):
    query = parse(f"network bottleneck cat:cs.DC {typed}")
    assert (query.filters.year_from, query.filters.year_to) == years
    assert query.describe() == f"papers in cs.DC {said} matching 'network bottleneck'"


def test_year_ranges_from_the_query_and_the_form_must_both_hold():
    query = parse("year:2018..2024", filters=Filters(year_from=2020, year_to=2030))
    assert (query.filters.year_from, query.filters.year_to) == (2020, 2024)
    disjoint = parse("year:2010", filters=Filters(year_from=2020))
    assert "do not overlap" in disjoint.notes[0]


def test_a_field_that_does_not_parse_is_searched_as_words_with_a_note():
    query = parse("year:soon cat:!!bad graph")
    assert [clause.alternatives[0].text for clause in query.clauses] == ["soon", "!!bad", "graph"]
    assert query.filters == Filters()
    assert any("year:soon is not a year" in note for note in query.notes)
    assert any("cat:!!bad is not an arXiv category" in note for note in query.notes)


def test_unknown_fields_urls_and_sql_are_plain_text():
    query = parse("Q: https://example.org/x '; DROP TABLE papers_paper; --")
    texts = [clause.alternatives[0].text for clause in query.clauses]
    assert texts == [
        "Q:",
        "https://example.org/x",
        "DROP",
        "TABLE",
        "papers_paper;",
    ]  # "';" and "--": no letters
    assert all(term.field is Field.ANY for clause in query.clauses for term in clause.alternatives)


@pytest.mark.parametrize(
    "garbage",
    [
        '"unclosed phrase',
        "((((",
        ")))",
        "&&& ||| !!!",
        "-",
        "--",
        '""',
        "😀🎉",
        "OR",
        ":::",
        "title:",
        "-cat:",
    ],
)
def test_garbage_always_parses(garbage):
    query = parse(garbage)
    assert query.text == garbage.strip()
    for clause in query.clauses:
        assert all(any(char.isalnum() for char in term.text) for term in clause.alternatives)


def test_an_unclosed_quote_runs_to_the_end():
    assert terms(parse('"sparse mixture of experts')) == [[Term("sparse mixture of experts", phrase=True)]]


def test_emoji_and_punctuation_alone_give_a_browse_listing_with_a_note():
    query = parse("😀 🎉 !!!")
    assert not query.has_topic and not query.clauses
    assert query.notes == ("The query has no letters or digits to search for; showing the latest papers.",)


def test_other_scripts_are_words():
    query = parse("神经网络 нейронные сети")
    assert query.semantic_text == "神经网络 нейронные сети"


def test_control_and_invisible_characters_are_dropped_and_compatibility_forms_folded():
    query = parse("graph\x00\x07 net\u200bwork\t\n ｆｕｌｌｗｉｄｔｈ “quoted words”")
    assert query.text == 'graph net work fullwidth "quoted words"'
    assert Term("quoted words", phrase=True) in terms(query)[-1]


@override_settings(SEARCH_MAX_QUERY_LENGTH=40)
def test_a_very_long_query_is_cut_at_the_limit_with_a_note():
    query = parse("word " * 100)
    assert len(query.text) <= 40
    assert "The query was cut to its first 40 characters." in query.notes


def test_more_than_the_term_limit_is_cut_with_a_note():
    query = parse(" ".join(f"w{number}" for number in range(50)))
    assert len(query.clauses) == 32
    assert "Only the first 32 terms were searched." in query.notes


def test_mode_and_sort_ride_along_and_filters_only_make_a_browse_query():
    query = parse("cat:cs.DC year:2024", mode=Mode.SEMANTIC, sort=Sort.CITED)
    assert (query.mode, query.sort) == (Mode.SEMANTIC, Sort.CITED)
    assert not query.has_topic
    assert query.describe() == "papers in cs.DC in 2024"


def test_it_can_give_the_query_back_without_its_filters_or_exclusions():
    query = parse('graph cat:cs.LG -survey year:2020 "message passing"')
    assert query.text_without("filter") == 'graph -survey "message passing"'
    assert query.text_without("excluded") == 'graph cat:cs.LG year:2020 "message passing"'


def test_short_plain_queries_and_author_fields_are_matched_against_names():
    assert parse("Yann LeCun").name_like_text == "Yann LeCun"
    assert parse('author:"Dan Zhao" pruning').name_like_text == "Dan Zhao"
    assert parse('"graph networks"').name_like_text == ""  # a phrase is a topic, not a name
    assert parse("one two three four five").name_like_text == ""
