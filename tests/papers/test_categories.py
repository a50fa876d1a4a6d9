"""arXiv's categories by name, from the committed taxonomy: the rule, and every place a code is shown."""

import pytest

from papers.categories import category_info, category_label, research_field
from tests.factories import make_paper
from tests.html import tree

WORD = "quillomantic"  # no real paper has it


def test_it_names_current_retired_and_alias_categories():
    assert category_label("cs.LG") == "Machine Learning (cs.LG)"
    assert category_label("cmp-lg") == "Computation and Language (cmp-lg)"  # subsumed by cs.CL in 1998
    assert category_label("math.MP") == "Mathematical Physics (math.MP)"  # an alias of math-ph
    assert category_info("cs.LG").archive == "Computer Science"


def test_it_gives_the_research_field_with_its_archive_or_group():
    assert research_field("cs.LG") == "Machine Learning (cs.LG), Computer Science"
    assert research_field("cond-mat.mes-hall") == (
        "Mesoscale and Nanoscale Physics (cond-mat.mes-hall), Condensed Matter"
    )
    # An archive of one category is named by its group, not twice.
    assert research_field("hep-th") == "High Energy Physics - Theory (hep-th), Physics"


def test_a_code_arxiv_never_had_stays_as_written():
    assert category_info("cs.ZZ") is None
    assert category_label("cs.ZZ") == "cs.ZZ"
    assert research_field("cs.ZZ") == "cs.ZZ"
    assert research_field("") == ""


@pytest.mark.django_db
def test_the_paper_page_badges_carry_the_category_names(client):
    paper = make_paper(categories=["cs.LG", "math.CO", "cs.ZZ"], primary_category="cs.LG")
    page = tree(client.get(paper.get_absolute_url()))
    titles = page.xpath("//span[@class='categories']/span/@title")
    assert titles == [
        "Primary category: Machine Learning (cs.LG)",
        "Combinatorics (math.CO)",
        "cs.ZZ",
    ]


@pytest.mark.django_db
def test_the_search_filters_and_hits_show_category_names(client):
    make_paper(title=f"The {WORD} lattice", categories=["math.CO"], primary_category="math.CO")
    page = tree(client.get("/search", {"q": WORD, "mode": "keyword"}))
    label = page.xpath("//fieldset[legend='Categories']/label")[0]
    assert " ".join(label.text_content().split()) == "math.CO Combinatorics"
    assert page.xpath("//a[@class='category']/@title") == ["Only papers in Combinatorics (math.CO)"]


@pytest.mark.django_db
def test_the_markdown_twin_names_the_primary_category(client):
    paper = make_paper(primary_category="cs.LG")
    text = client.get(paper.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert "- Primary category: Machine Learning (cs.LG)" in text
