"""The Markdown twins of the paper, researcher and institution pages, rendered straight from their
templates with the context the HTML views give them."""

import datetime
import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from institutions.models import Affiliation, Institution
from papers.models import Citation, Paper
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"
HOSTILE_TITLE = "# Ranking <script>alert(1)</script> [click](https://evil.example) `rm -rf`\n- and \\[more\\]"


def render(template: str, context: dict) -> str:
    return render_to_string(template, context, request=RequestFactory().get("/"))


@pytest.fixture
def paper_page():
    """A paper with two references (one shown), one citation, a similar paper and a BibTeX entry."""
    hopper = make_researcher("Grace Hopper")
    paper = make_paper(
        title="Woven graphs of scholarly work",
        authors=[hopper, "Ada Lovelace"],
        abstract="We weave\n  papers together.\n1. Not a list.",
        categories=["cs.DL", "cs.IR"],
        primary_category="cs.DL",
        published=datetime.date(2025, 5, 2),
        updated=datetime.date(2025, 6, 1),
        version=2,
        doi="10.48550/arXiv.9912.00001",
        cited_by_count=12,
        reference_count=40,
        license="http://creativecommons.org/licenses/by/4.0/",
    )
    older = make_paper(
        title="Graphs of old", authors=["Alan Turing", "B", "C", "D"], published=datetime.date(2020, 1, 1)
    )
    also = make_paper(title="Also cited")
    follow_up = make_paper(title=HOSTILE_TITLE)
    for cited in (older, also):
        Citation.objects.create(citing=paper, cited=cited)
    Citation.objects.create(citing=follow_up, cited=paper)
    return {
        "paper": Paper.objects.with_authors().get(pk=paper.pk),
        "references": [older],
        "references_total": 2,
        "citations": [follow_up],
        "citations_total": 1,
        "similar": [also],
        "bibtex": "@article{hopper2025,\n  title = {Woven graphs of scholarly work},\n}",
    }


def test_a_papers_markdown_has_its_title_links_key_facts_abstract_and_graph(paper_page):
    paper = paper_page["paper"]
    hopper = paper.authorships.all()[0].researcher
    text = render("papers/detail.md", paper_page)
    assert text.startswith("# Woven graphs of scholarly work\n\n")
    assert f"By [Grace Hopper]({SITE}{hopper.get_absolute_url()}), Ada Lovelace\n" in text
    assert (
        f"- arXiv: [arXiv:{paper.arxiv_id}](https://arxiv.org/abs/{paper.arxiv_id}) · [PDF](https://arxiv.org/pdf/{paper.arxiv_id})"
        in text
    )
    assert f"- This page: <{SITE}{paper.get_absolute_url()}>" in text
    for fact in (
        "## Key facts",
        "- Cited by 1 paper in the map",  # the same sentences as the HTML's key facts
        "- Builds on 2 of its 40 references that are in the map",
        "- First posted on arXiv 2 May 2025",
        "- 12 citations in all, as the sources count them",
        f"- arXiv id: {paper.arxiv_id} (latest version v2)",
        "- Latest version posted 1 June 2025",
        "- Primary category: Digital Libraries (cs.DL)",
        "- Categories: cs.DL, cs.IR",
        "- DOI: [10.48550/arXiv.9912.00001](https://doi.org/10.48550/arXiv.9912.00001)",
        "- Licence: <http://creativecommons.org/licenses/by/4.0/>",
    ):
        assert fact + "\n" in text, fact
    assert "## Abstract\n\nWe weave papers together. 1. Not a list.\n" in text
    older = paper_page["references"][0]
    assert "## Builds on (2 in this corpus)\n\n" in text
    older_line = f"- [Graphs of old]({SITE}{older.get_absolute_url()}) — Alan Turing, B, C et al."
    assert f"{older_line} (2020, arXiv:{older.arxiv_id})\n" in text
    assert f"All 2: <{SITE}/api/papers/{paper.arxiv_id}/references>" in text
    assert "## Built on by (1 in this corpus)\n\n- [" in text
    assert "All 1:" not in text  # every one is shown
    assert "## Similar papers\n\n- [Also cited](" in text
    assert (
        "## Cite\n\n```bibtex\n@article{hopper2025,\n  title = {Woven graphs of scholarly work},\n}\n```\n"
        in text
    )


def test_harvested_text_cannot_break_out_of_its_place(paper_page):
    text = render("papers/detail.md", paper_page)
    follow_up = paper_page["citations"][0]
    line = next(line for line in text.splitlines() if follow_up.arxiv_id in line and line.startswith("- ["))
    escaped = r"# Ranking \<script>alert(1)\</script> \[click\](https://evil.example) \`rm -rf\`"
    assert line.startswith(f"- [{escaped} - and \\\\\\[more\\\\\\]](")
    assert not re.search(r"(?<!\\)<script", text) and "[click](" not in text
    follow_up.abstract = "1. Introduction\n# Results"
    follow_up.save()
    bare = render(
        "papers/detail.md", paper_page | {"paper": Paper.objects.with_authors().get(pk=follow_up.pk)}
    )
    assert "## Abstract\n\n1\\. Introduction # Results\n" in bare  # a paragraph, not a list and a heading
    assert bare.startswith("# # Ranking \\<script>alert(1)\\</script>")  # still one heading, on one line


def test_a_paper_without_graph_says_so(paper_page):
    text = render(
        "papers/detail.md",
        paper_page
        | {
            "references": [],
            "references_total": 0,
            "citations": [],
            "citations_total": 0,
            "similar": [],
            "bibtex": "",
        },
    )
    assert "No paper in this corpus that it cites is known yet." in text
    assert "No paper in this corpus that cites it is known yet." in text
    assert "## Similar papers" not in text and "## Cite" not in text


@pytest.fixture
def people():
    institution = Institution.objects.create(
        name="University of Woven Studies",
        ror_id="042nb2s44",
        country_code="GB",
        type="education",
        homepage="https://woven.example/a(b)",
    )
    hopper = make_researcher(
        "Grace Hopper",
        h_index=7,
        citation_count=120,
        works_count=30,
        orcid="0000-0002-1825-0097",
        openalex_id="A123",
    )
    lovelace = make_researcher("Ada Lovelace")
    other = Institution.objects.create(name="Earlier Institute")
    Affiliation.objects.create(
        researcher=hopper, institution=institution, last_known=True, years=[2024, 2025]
    )
    Affiliation.objects.create(researcher=hopper, institution=other, years=[2019])
    Affiliation.objects.create(researcher=lovelace, institution=institution)
    papers = [
        make_paper(
            title=f"Paper {n}",
            authors=[hopper],
            categories=["cs.PL"],
            primary_category="cs.PL",
            published=datetime.date(2025, 1, n + 1),
        )
        for n in range(25)
    ]
    papers.append(make_paper(title="Lovelace and Hopper", authors=[lovelace, hopper], categories=["cs.DL"]))
    return institution, hopper, lovelace


def test_a_researchers_markdown_has_metrics_fields_institutions_and_papers(people, client):
    institution, hopper, _ = people
    response = client.get(hopper.get_absolute_url(), HTTP_ACCEPT="text/markdown")
    text = response.content.decode()
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert text.startswith("# Grace Hopper\n\nResearcher on wovepaper.\n\n")
    assert "arXiv author names only" not in text  # hopper has an upstream identity
    for line in (
        f"- JSON: <{SITE}/api/researchers/{hopper.pk}>",
        f"- New papers (RSS): <{SITE}/rss/researchers/{hopper.pk}.xml>",
        "- 26 papers here",  # the words of the HTML's figures
        "- h-index 7",
        "- 120 citations",
        "- 30 works total",
        "- ORCID: [0000-0002-1825-0097](https://orcid.org/0000-0002-1825-0097)",
        "- OpenAlex: <https://openalex.org/A123>",
        "## Fields\n\n- Programming Languages (cs.PL): 25 papers\n- Digital Libraries (cs.DL): 1 paper\n",
        "## Last known institutions\n\n"
        f"- [University of Woven Studies]({SITE}{institution.get_absolute_url()})\n",
        "## Papers (26; page 1 of 2)",
        f"Next page: <{SITE}{hopper.get_absolute_url()}?page=2>",
    ):
        assert line in text, line
    assert "Earlier Institute" not in text
    assert text.count("\n- [Paper ") + text.count("\n- [Lovelace and Hopper]") == 24


def test_a_researcher_known_only_by_name_says_so_and_has_no_metrics_yet(people, client):
    _, _, lovelace = people
    text = client.get(lovelace.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert "identity comes from arXiv author names only" in text
    assert "- h-index: not known yet" in text and "Next page" not in text


def test_an_institutions_markdown_has_its_facts_fields_researchers_and_papers(people, client):
    institution, hopper, lovelace = people
    text = client.get(institution.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert text.startswith("# University of Woven Studies\n\n")
    for line in (
        "- ROR: <https://ror.org/042nb2s44>",
        "- Homepage: <https://woven.example/a%28b%29>",
        "- Country: GB",
        "- Type: education",
        "- 2 researchers here",
        "- 26 papers here",
        "## Fields\n\n- Programming Languages (cs.PL): 25 papers\n- Digital Libraries (cs.DL): 1 paper\n",
        f"## Researchers (2)\n\n- [Grace Hopper]({SITE}{hopper.get_absolute_url()})\n"
        f"- [Ada Lovelace]({SITE}{lovelace.get_absolute_url()})\n",  # most cited first
        "## Papers (26; page 1 of 2)",
        f"All of them: <{SITE}/api/institutions/{institution.pk}/papers>",
        f"- New papers (RSS): <{SITE}/rss/institutions/{institution.pk}.xml>",
    ):
        assert line in text, line
