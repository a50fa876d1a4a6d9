"""The search's `type:` field and Type control: papers of the analysis's types, and a type that is
none answered with an empty page that says which types there are."""

import pytest

from papers.search.query import parse
from tests.factories import make_paper
from tests.html import text_of, tree

WORD = "filamentrix"  # no real paper has it
TYPES = "method, survey, benchmark, empirical, theory, position, system, other"


def test_it_reads_a_type_its_other_names_and_a_left_out_type():
    query = parse(f"type:survey {WORD}")
    assert query.filters.paper_types == ("survey",)
    assert query.describe() == f"papers of type survey/review matching '{WORD}'"
    assert parse("type:Review type:dataset").filters.paper_types == ("survey", "benchmark")
    left_out = parse("-type:method")
    assert left_out.filters.excluded_paper_types == ("method",)
    assert left_out.describe() == "papers not of type method"


def test_a_type_that_is_none_filters_everything_out_and_says_which_there_are():
    query = parse(f"type:nonsense {WORD}")
    assert query.filters.paper_types == ("nonsense",)
    assert query.notes == (f"type:nonsense is not a paper type; the types are {TYPES}",)


@pytest.fixture
def typed_papers():
    survey = make_paper(title=f"A survey of {WORD} looms", paper_type="survey")
    method = make_paper(title=f"Faster {WORD} looms", paper_type="method")
    unanalysed = make_paper(title=f"Untyped {WORD} looms")
    return survey, method, unanalysed


def titles(client, **params) -> list[str]:
    page = tree(client.get("/search", {"mode": "keyword", **params}))
    return sorted(text_of(link) for link in page.xpath("//li[contains(@class, 'search-hit')]/h3/a"))


@pytest.mark.django_db
def test_the_query_field_and_the_form_control_filter_by_type(client, typed_papers):
    survey, method, unanalysed = typed_papers
    assert titles(client, q=f"type:survey {WORD}") == [survey.title]
    assert titles(client, q=WORD, type="survey") == [survey.title]
    assert titles(client, q=f"-type:survey {WORD}") == sorted([method.title, unanalysed.title])
    page = tree(client.get("/search", {"q": WORD, "type": "survey"}))
    assert page.xpath("//select[@name='type']/option[@selected]/@value") == ["survey"]
    assert page.xpath("//ul[@aria-label='Filters in use']//a/text()")[0].strip() == "type survey/review"


@pytest.mark.django_db
def test_type_nonsense_gives_a_helpful_empty_page_not_an_error(client, typed_papers):
    response = client.get("/search", {"q": f"type:nonsense {WORD}", "mode": "keyword"})
    assert response.status_code == 200
    page = tree(response)
    assert page.xpath("//ul[@class='search-notes']/li/text()") == [
        f"type:nonsense is not a paper type; the types are {TYPES}"
    ]
    nothing = text_of(page.xpath("//div[@class='nothing-found']")[0])
    assert "Nothing found" in nothing and "Search every type of paper" in nothing
    # The suggestion's link searches the words alone.
    [again] = page.xpath("//div[@class='nothing-found']//a[text()='Search every type of paper']/@href")
    assert titles(client, **dict(pair.split("=") for pair in again.lstrip("?").split("&"))) == sorted(
        paper.title for paper in typed_papers
    )


@pytest.mark.django_db
def test_a_type_parameter_that_is_none_is_a_400_naming_the_types(client):
    response = client.get("/search", {"q": WORD, "type": "<script>"})
    assert response.status_code == 400
    assert f"type must be one of {TYPES}; got &#x27;&lt;script&gt;&#x27;" in response.content.decode()


@pytest.mark.django_db
def test_the_api_filters_by_type(client, typed_papers):
    survey, _, _ = typed_papers
    body = client.get("/api/search", {"q": WORD, "type": "survey", "mode": "keyword"}).json()
    assert [hit["paper"]["arxiv_id"] for hit in body["results"]] == [survey.arxiv_id]
    assert client.get("/api/search", {"q": WORD, "type": "nonsense"}).status_code == 400
