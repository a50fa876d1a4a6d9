"""Harvested text and links are hostile input: what one upstream record can do to the pages that show it.

Finding 2 of issue 15: one abstract of nested braces inside maths made four page types answer 500.
Finding 7: a `javascript:` homepage (OpenAlex, ROR) or licence became a clickable link.
"""

import json

import ftfy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.latex import MAX_MATH_DEPTH, readable_html, readable_text
from harvest.parsers.arxiv import paper_from_kaggle, paper_from_listing
from harvest.parsers.openalex import institution_record
from harvest.parsers.ror import ror_institution
from harvest.parsers.text import MAX_NAME_LENGTH, MAX_TEXT_LENGTH, MAX_TITLE_LENGTH, squash
from tests.factories import make_affiliation, make_institution, make_paper, make_researcher
from tests.html import tree

MARKDOWN = "text/markdown, text/html;q=0.5"
DEEP_ABSTRACT = "Deep $" + "{" * 600 + "$ learning."  # longer than maths is read: plain text
HOSTILE_URLS = [
    "javascript:alert(document.domain)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example/",
    "https://example.org/\x00",
    "https://exa mple.org/",
]


@given(st.text() | st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_squash_repairs_and_cleans_text_as_ftfy_does_on_every_input(text):
    """squash leaves ASCII out of ftfy (it is never mojibake): the result must be ftfy's all the same."""
    expected = " ".join(ftfy.fix_encoding(text).split()).translate(
        dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)])
    )
    assert squash(text) == expected[:MAX_TEXT_LENGTH]


def test_squash_repairs_mojibake():
    assert squash("BetÃ¼l  KaragÃ¶z\n") == "Betül Karagöz"


@pytest.mark.django_db
def test_it_shows_every_page_of_a_paper_with_an_abstract_nested_600_deep(client):
    """Finding 2: the paper page (HTML and Markdown), its author's page and the author's institution's
    page all answered 500 (RecursionError in the TeX reader)."""
    author = make_researcher("Deep Thinker")
    institution = make_institution("Institute of Deep Braces")
    make_affiliation(author, institution)
    deep_title = "Deep $" + "{" * 100 + "$ titles"  # short enough to be read as maths, too deep: as written
    paper = make_paper(title=deep_title, abstract=DEEP_ABSTRACT, authors=[author])
    for url, accept in [
        (paper.get_absolute_url(), "text/html"),
        (paper.get_absolute_url(), MARKDOWN),
        (author.get_absolute_url(), "text/html"),
        (author.get_absolute_url(), MARKDOWN),
        (institution.get_absolute_url(), "text/html"),
        (institution.get_absolute_url(), MARKDOWN),
        (f"/rss/researchers/{author.pk}.xml", "*/*"),
    ]:
        response = client.get(url, HTTP_ACCEPT=accept)
        assert response.status_code == 200, url
    page = tree(client.get(paper.get_absolute_url()))
    assert page.xpath("string(//p[@class='abstract'])") == "Deep $$ learning."
    assert page.xpath("string(//h1)").strip() == "Deep " + "{" * 100 + " titles"


def test_maths_nested_past_the_bound_is_shown_as_written():
    """Finding 2: beyond the depth bound the maths is plain text, and below it still read."""
    shallow = "$" + "{" * (MAX_MATH_DEPTH - 5) + "x^2" + "}" * (MAX_MATH_DEPTH - 5) + "$"
    assert readable_text(shallow) == "x²"
    for deep in ("$" + "{" * 600 + "$", "$" + "^" * 600 + "x$", "$" + "\\sqrt" * 600 + "x$",
                 "$" + "\\frac" * 600 + "$", "$" + "\\hat" * 600 + "x$"):  # fmt: skip
        assert readable_text(f"a {deep} b").startswith("a ")


TEX_PIECES = st.sampled_from(
    ["$", "$$", "\\(", "\\)", "\\[", "\\]", "{", "}", "^", "_", "~", "\\", "\\frac", "\\sqrt", "\\mathbb",
     "\\hat", "\\text", "\\alpha", "\\'", '\\"', "\\v", "\\unknown", "\\O", "\\ss", "``", "''", "\\%",
     "\\$", " ", "\n", "x", "2", "<", "&", "é", "\x00", "\u202e", "①"]
)  # fmt: skip
TEX_LIKE = st.lists(st.one_of(TEX_PIECES, st.text(max_size=5)), max_size=400).map("".join)


@settings(max_examples=300, deadline=None, database=None)
@given(TEX_LIKE)
def test_no_text_makes_the_tex_reader_raise_or_emit_markup(source):
    """Finding 2: the TeX reader never raises, whatever a harvest brings, and its HTML holds no markup
    but its own maths spans."""
    text = readable_text(source)
    html = readable_html(source)
    assert isinstance(text, str)
    assert "<" not in html.replace('<span class="math">', "").replace("</span>", "")


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_the_parsers_keep_only_http_links(url):
    """Finding 7: ROR and OpenAlex homepages and arXiv licences that are not http(s) are dropped."""
    ror = ror_institution(
        {"id": "https://ror.org/0weftmo86", "names": [{"value": "Loom U", "types": ["ror_display"]}],
         "links": [{"type": "website", "value": url}]}
    )  # fmt: skip
    openalex = institution_record({"display_name": "Loom U", "homepage_url": url})
    kaggle = paper_from_kaggle(
        {"id": "2101.00001", "title": "T", "versions": [{"created": "Mon, 4 Jan 2021 00:00:00 GMT"}],
         "categories": "cs.DL", "license": url}
    )  # fmt: skip
    assert ror.homepage == openalex.homepage == kaggle.license == ""


def test_the_parsers_keep_an_http_homepage():
    """Finding 7, the other side: real homepages stay."""
    record = institution_record({"display_name": "Loom U", "homepage_url": "https://loom.example/"})
    assert record.homepage == "https://loom.example/"


def test_the_parsers_bound_the_length_of_harvested_text():
    """Finding 2: harvested titles, abstracts and names are cut at the parser."""
    record = paper_from_listing(
        {"id": "2101.00002", "title": "T" * 50_000, "summary": "A" * 1_000_000, "published": "2021-01-04",
         "authors": ["N" * 10_000, "Ann Short"], "categories": ["cs.DL"]}
    )  # fmt: skip
    assert len(record.title) == MAX_TITLE_LENGTH
    assert len(record.abstract) == MAX_TEXT_LENGTH
    assert record.authors == ("Ann Short",)  # 10,000 characters are no person's name: left out
    institution = institution_record({"display_name": "I" * 10_000})
    assert len(institution.name) == MAX_NAME_LENGTH


@pytest.mark.django_db
@pytest.mark.parametrize("url", HOSTILE_URLS[:4])
def test_pages_never_link_a_stored_hostile_url(client, url):
    """Finding 7: a hostile homepage or licence already stored is not a link on any page, nor in the
    Markdown, the JSON-LD or the API."""
    institution = make_institution("Institute of Hostile Links", homepage=url)
    researcher = make_researcher("Linked Person")
    make_affiliation(researcher, institution)
    paper = make_paper(title="Licensed", authors=[researcher], license=url)
    html = client.get(institution.get_absolute_url())
    assert html.status_code == 200
    assert "Homepage" not in html.content.decode()
    hrefs = tree(html).xpath("//a/@href")
    assert not [href for href in hrefs if "script" in href.lower() or href.strip().startswith("data:")]
    jsonld = "".join(tree(html).xpath("//script[@type='application/ld+json']/text()"))
    assert "script:" not in jsonld.lower() and "data:" not in jsonld
    for markdown in (
        client.get(institution.get_absolute_url(), HTTP_ACCEPT=MARKDOWN),
        client.get(paper.get_absolute_url(), HTTP_ACCEPT=MARKDOWN),
    ):
        text = markdown.content.decode()
        assert markdown.status_code == 200
        assert "Homepage:" not in text and "Licence:" not in text
    api_institution = json.loads(client.get(f"/api/institutions/{institution.pk}").content)
    api_paper = json.loads(client.get(f"/api/papers/{paper.arxiv_id}").content)
    assert api_institution["homepage"] == "" and api_paper["license"] == ""
