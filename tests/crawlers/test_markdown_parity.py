"""Every page type rendered both ways on the demo corpus: the Markdown twin carries the HTML's key facts, in
the same words and with the same numbers, and never a fact with nothing after it."""

import re

import pytest
from django.db.models import Count, Q
from django.utils.http import urlencode

from institutions.models import Institution
from papers.models import Paper
from researchers.models import Researcher
from tests.html import squashed, text_of, tree

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"
EMPTY_FACT = re.compile(r"^- [^:\n]+:[ \t]*$", re.MULTILINE)
COUNT = re.compile(r"\d{1,3}(?:,\d{3})*")
MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")


def both(client, path: str) -> tuple[object, str]:
    html = client.get(path)
    markdown = client.get(path, headers={"Accept": "text/markdown"})
    assert html.status_code == markdown.status_code == 200, path
    assert html["Content-Type"].startswith("text/html"), path
    assert markdown["Content-Type"] == "text/markdown; charset=utf-8", path
    assert "Accept" in html["Vary"] and "Accept" in markdown["Vary"], path
    text = markdown.content.decode()
    assert not EMPTY_FACT.search(text), (path, EMPTY_FACT.search(text).group(0))
    assert "<html" not in text, path
    return tree(html), squashed(text)


def linked_paths(page, xpath: str) -> list[str]:
    return [href.split("?")[0] for href in page.xpath(xpath)]


def markdown_paths(text: str, prefix: str) -> list[str]:
    return re.findall(rf"\]\({re.escape(SITE)}({prefix}[^)?]+)\)", text)


def test_home(client, demo_corpus):
    page, text = both(client, "/")
    for figure in page.xpath("//ul[@class='counts']/li"):
        assert f"- {text_of(figure)}" in text  # "- 1,792 papers"
    latest = linked_paths(page, "//section[@aria-labelledby='latest-heading']//h3/a/@href")
    assert latest and markdown_paths(text, "/papers/") == latest


@pytest.mark.parametrize("path", ["/researchers", "/researchers?q=zhang&page=2", "/institutions",
                                  "/institutions?q=univ"])  # fmt: skip
def test_indexes(client, demo_corpus, path):
    page, text = both(client, path)
    summary = text_of(page.xpath("//section[@id='results']/p[@class='list-summary']")[0])
    assert COUNT.match(summary).group(0) in text.split(".")[0] + text  # the same count, as written
    assert summary.split(",")[0] in text
    prefix = "/researchers/" if path.startswith("/researchers") else "/institutions/"
    listed = linked_paths(page, "//section[@id='results']/ul/li/a/@href")
    assert listed and markdown_paths(text, prefix) == listed


@pytest.mark.parametrize(
    "query", ["diffusion models", 'author:"Dan Zhao"', "cat:cs.CV", "graph -neural", "zzzqqqxxx"]
)
def test_search(client, demo_corpus, query):
    page, text = both(client, f"/search?{urlencode({'q': query})}")
    understood = text_of(page.xpath("//p[@class='understood']")[0])
    assert understood in text  # "Showing papers matching …, by words and meaning · 137 results"
    hits = linked_paths(page, "//ol[contains(@class, 'search-hits')]//h3/a/@href")
    assert markdown_paths(text, "/papers/") == hits
    for name in page.xpath("//section[@class='name-matches']//li/a[1]/@href"):
        assert f"({SITE}{name})" in text
    if not hits:
        assert "Nothing found for" in text


def sample_papers() -> list[Paper]:
    cited = Paper.objects.filter(cited_by_count__isnull=False).order_by("-cited_by_count")[:2]
    linked = Paper.objects.annotate(refs=Count("references_out")).filter(refs__gt=0)[:2]
    many_authors = Paper.objects.annotate(n=Count("authorships")).order_by("-n")[:1]
    no_category = Paper.objects.filter(primary_category="")[:1]
    tex = Paper.objects.filter(Q(title__contains="$") | Q(arxiv_id="0704.0011"))[:2]
    return [*cited, *linked, *many_authors, *no_category, *tex, *Paper.objects.order_by("?")[:3]]


def test_papers(client, demo_corpus):
    papers = sample_papers()
    assert len(papers) >= 8
    for paper in papers:
        page, text = both(client, paper.get_absolute_url())
        for fact in page.xpath("//ul[@class='facts']/li"):
            assert f"- {text_of(fact)}" in text, (paper.arxiv_id, text_of(fact))
        authors = text_of(page.xpath("//p[@class='paper-authors']")[-1])
        names = MARKDOWN_LINK.sub(r"\1", text).replace("\\", "")  # [Name](url) is Name
        assert f"By {authors}" in names, paper.arxiv_id
        for category in paper.categories:
            assert category in text
        assert ("Primary category:" in text) == bool(paper.primary_category)
        for heading in ("Builds on", "Built on by"):
            caption = page.xpath(f"//h2[text()='{heading}']/following-sibling::p[@class='caption']")
            if caption:
                total = re.search(r"shown of ([\d,]+)", text_of(caption[0])).group(1)
                assert f"## {heading} ({total} in this corpus)" in text


def test_researchers(client, demo_corpus):
    busiest = Researcher.objects.annotate(n=Count("authorships")).order_by("-n", "id")[:3]
    upstream = Researcher.objects.filter(h_index__isnull=False)[:2]
    for researcher in [*busiest, *upstream]:
        page, text = both(client, researcher.get_absolute_url())
        assert text.startswith(f"# {researcher.display_name}")
        for badge in page.xpath("//ul[@class='badges']/li"):
            assert f"- {text_of(badge)}" in text, (researcher.pk, text_of(badge))
        for institution in page.xpath("//section[@aria-labelledby='institutions-heading']//a/@href"):
            assert f"({SITE}{institution})" in text
        for bar in page.xpath("//section[@id='field-bars']//a[@class='bar-row']"):
            label = bar.xpath(".//span[contains(@class, 'bar-label')]")[0]
            category = label.get("title") or text_of(label)  # the code's readable name, as Markdown says it
            count = text_of(bar.xpath(".//span[@class='bar-count']")[0])
            assert f"- {category}: {count} paper" in text
        papers = linked_paths(page, "//section[@id='paper-list']//h3/a/@href")
        assert papers and markdown_paths(text, "/papers/") == papers


def test_institutions(client, demo_corpus):
    institutions = Institution.objects.with_papers()[:3]
    assert institutions
    for institution in institutions:
        page, text = both(client, institution.get_absolute_url())
        assert text.startswith(f"# {institution.name}")
        researchers_badge = text_of(page.xpath("//ul[@class='badges']/li[1]")[0])
        assert f"- {researchers_badge}" in text  # "- 5 researchers here"
        papers_summary = text_of(page.xpath("//section[@id='paper-list']//p[@class='list-summary']")[0])
        assert f"- {papers_summary.split(' · ')[0]} here" in text  # "- 2 papers here"
        people = linked_paths(page, "//section[@id='researcher-list']//li/a/@href")
        assert markdown_paths(text, "/researchers/")[: len(people)] == people
        papers = linked_paths(page, "//section[@id='paper-list']//h3/a/@href")
        assert [path for path in markdown_paths(text, "/papers/")] == papers
