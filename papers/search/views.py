from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from analysis.models import Topic  # the Topic control names the topics
from core.negotiation import markdown_alternative
from core.ratelimits import too_many_requests, wait_seconds
from papers.models import Paper
from papers.paper_types import PAPER_TYPE_LABELS
from papers.search import engine
from papers.search.links import SearchLinks, changed
from papers.search.params import SEARCH_RATE_GROUP, InvalidSearch, SearchParams, read_params
from papers.search.query import MAX_TERMS

RESULTS_REGION = "search-results"  # the id htmx swaps; the fragment is its content
CATEGORY_CHOICES_SHOWN = 12
# The Topic control's topics change only when they are computed again: read once per PAGE_FIGURES_TTL.
TOPIC_CHOICES_KEY = "search-topic-choices"


@require_GET
@markdown_alternative
@vary_on_headers("HX-Request")
def search(request: HttpRequest) -> HttpResponse:
    # Fails open: with Redis away, searches go on uncounted (core.ratelimits).
    wait = wait_seconds(request, group=SEARCH_RATE_GROUP, rate=settings.SEARCH_RATE_LIMIT, fail_open=True)
    if wait:
        return too_many_requests(request, wait)
    fragment = bool(request.htmx) and not request.htmx.history_restore_request
    template = "papers/search.html#results" if fragment else "papers/search.html"
    try:
        params = read_params(request.GET)
    except InvalidSearch as error:
        fallback = SearchParams(q=request.GET.get("q", ""))
        context = _context(request, fallback, results=None) | {"error": str(error)}
        return TemplateResponse(request, template, context, status=400)
    arxiv_id = params.arxiv_id
    paper = Paper.objects.by_arxiv_id(arxiv_id).first() if arxiv_id else None
    if paper is not None and not request.htmx:
        return redirect(paper)
    results = engine.run(params.parsed(), page=params.page)
    missing = arxiv_id if arxiv_id is not None and paper is None else None
    context = _context(request, params, results) | {"id_paper": paper, "missing_arxiv_id": missing}
    response = TemplateResponse(request, template, context)
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
        "type_choices": [
            (value, label, value in params.filters.paper_types) for value, label in PAPER_TYPE_LABELS.items()
        ],
        "topic_choices": [
            (value, label, value in params.filters.topics)
            for value, label in cache.get_or_set(
                TOPIC_CHOICES_KEY, Topic.objects.choices, settings.PAGE_FIGURES_TTL
            )
        ],
        "max_query_length": settings.SEARCH_MAX_QUERY_LENGTH,
        "max_terms": MAX_TERMS,
        "region": RESULTS_REGION,
    }
