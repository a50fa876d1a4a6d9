from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.decorators import ratelimit

from papers.identifiers import parse_arxiv_id
from papers.models import Paper
from papers.search import engine
from papers.search.links import SearchLinks, changed
from papers.search.params import InvalidSearch, SearchParams, read_params
from papers.search.query import MAX_TERMS, Filters, Mode, Sort

RESULTS_REGION = "search-results"  # the id htmx swaps; the fragment is its content
CATEGORY_CHOICES_SHOWN = 12


def search_rate(group: str, request: HttpRequest) -> str:
    return settings.SEARCH_RATE_LIMIT


@require_GET
@vary_on_headers("HX-Request")
@ratelimit(key="ip", rate=search_rate, block=True)
def search(request: HttpRequest) -> HttpResponse:
    fragment = bool(request.htmx) and not request.htmx.history_restore_request
    template = "papers/search.html#results" if fragment else "papers/search.html"
    try:
        params = read_params(request.GET)
    except InvalidSearch as error:
        fallback = SearchParams(request.GET.get("q", ""), Mode.HYBRID, Sort.RELEVANCE, Filters(), 1)
        context = _context(request, fallback, results=None) | {"error": str(error)}
        return render(request, template, context, status=400)
    arxiv_id = parse_arxiv_id(params.q) if params.q.strip() else None
    paper = Paper.objects.filter(arxiv_id=arxiv_id.id).first() if arxiv_id else None
    if paper is not None and not request.htmx:
        return redirect(paper)
    results = engine.run(params.parsed(), page=params.page)
    missing = arxiv_id if arxiv_id is not None and paper is None else None
    context = _context(request, params, results) | {"id_paper": paper, "missing_arxiv_id": missing}
    response = render(request, template, context)
    if request.htmx:  # the address bar shows the search without the form's empty fields
        page = str(results.page) if results.page > 1 else None
        response["HX-Push-Url"] = reverse("search:search") + changed(request.GET, {"page": page}).rstrip("?")
    return response


def _context(request: HttpRequest, params: SearchParams, results: engine.SearchResults | None) -> dict:
    chosen = list(params.filters.categories)
    seen = [category for hit in (results.hits if results else []) for category in hit.paper.categories]
    categories = list(dict.fromkeys(chosen + seen))[: max(CATEGORY_CHOICES_SHOWN, len(chosen))]
    return {
        "params": params,
        "q": results.query.text if results else params.q[: settings.SEARCH_MAX_QUERY_LENGTH],
        "results": results,
        "links": SearchLinks.build(request.GET, params, results),
        "category_choices": [(category, category in chosen) for category in categories],
        "max_query_length": settings.SEARCH_MAX_QUERY_LENGTH,
        "max_terms": MAX_TERMS,
        "region": RESULTS_REGION,
    }
