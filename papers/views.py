from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from analysis.models import Topic  # the analysis box links the paper's topics
from core.cards import card_response
from core.negotiation import markdown_alternative
from core.responses import canonical_redirect
from harvest.on_demand import paper_fetch_request
from pages.views import not_found
from papers.bibtex import bibtex_entry
from papers.cards import paper_card, paper_card_url
from papers.identifiers import parse_arxiv_id
from papers.models import Paper
from papers.structured_data import paper_jsonld

LINKED_PAPERS_SHOWN = 10  # builds on / built on by
SIMILAR_PAPERS_SHOWN = 6


@require_GET
@markdown_alternative
def paper_detail(request: HttpRequest, arxiv_id: str, slug: str | None = None) -> HttpResponse:
    parsed = parse_arxiv_id(arxiv_id)
    if parsed is None:
        raise Http404("Not an arXiv identifier")
    paper = (
        Paper.objects.defer("search_vector")
        .select_related("analysis")
        .with_authors()
        .by_arxiv_id(parsed)
        .first()
    )
    if paper is None:
        queued = paper_fetch_request(arxiv_id=parsed.id)
        return not_found(request, queued_arxiv_id=parsed.id if queued else None)
    if parsed.version is not None or slug != paper.slug:
        return canonical_redirect(request, paper)
    references = list(
        Paper.objects.references_of(paper).most_cited().for_lists().with_total_count()[:LINKED_PAPERS_SHOWN]
    )
    citations = list(
        Paper.objects.citations_of(paper).most_cited().for_lists().with_total_count()[:LINKED_PAPERS_SHOWN]
    )
    context = {
        "paper": paper,
        "references": references,
        "references_total": references[0].total_count if references else 0,
        "citations": citations,
        "citations_total": citations[0].total_count if citations else 0,
        "similar": Paper.objects.for_lists().most_similar_to(paper, count=SIMILAR_PAPERS_SHOWN),
        "closest_earlier": Paper.objects.for_lists().closest_earlier_of(paper),
        "topics": Topic.objects.of_paper(paper),
        "bibtex": bibtex_entry(paper),
        "jsonld": paper_jsonld(paper),
    }
    card = paper_card(paper)
    context |= {"card": card, "card_url": paper_card_url(paper, card)}
    return TemplateResponse(request, "papers/detail.html", context)


@require_GET
def paper_card_image(request: HttpRequest, arxiv_id: str) -> HttpResponse:
    """The paper's social card, 1200×630 PNG."""
    parsed = parse_arxiv_id(arxiv_id)
    paper = Paper.objects.defer("search_vector", "embedding").by_arxiv_id(parsed).first() if parsed else None
    if paper is None:
        raise Http404("No such paper here")
    return card_response(request, paper_card(paper))
