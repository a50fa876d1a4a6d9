"""The shared template tags: links that change one parameter, and page links."""

from django.http import QueryDict
from django.template import Context, Template


def render(source: str, **context: object) -> str:
    return Template("{% load wovepaper %}" + source).render(Context(context))


def test_query_with_changes_one_parameter_and_always_starts_with_a_question_mark():
    query = QueryDict("sort=cited&category=cs.LG")
    assert render("{% query_with q category='cs.AI' %}", q=query) == "?sort=cited&amp;category=cs.AI"
    assert render("{% query_with q sort=None category=None %}", q=query) == "?"


def test_page_query_keeps_the_other_parameters_and_leaves_page_one_out():
    source = "{% page_query 'page' number %}"
    assert (
        render(source, kept_params=QueryDict("category=cs.LG&page=3"), number=4)
        == "?category=cs.LG&amp;page=4"
    )
    assert render(source, kept_params="q=zhao", number=1) == "?q=zhao"
    assert render(source, kept_params="q=zhao", number=2) == "?q=zhao&amp;page=2"
    assert render("{% page_query 'researchers_page' 2 %}") == "?researchers_page=2"


def test_absolute_makes_a_path_a_url_on_this_site():
    assert render("{{ path|absolute }}", path="/researchers/1-a") == "http://127.0.0.1:8000/researchers/1-a"
