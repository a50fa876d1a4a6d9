from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from core.cards import card_response
from core.negotiation import markdown_alternative
from core.pagination import paginate
from core.responses import canonical_redirect, wants_fragment
from papers.listing import PaperListing
from papers.models import Paper
from researchers.cards import researcher_card, researcher_card_url
from researchers.coauthor_graph import coauthor_graph
from researchers.figures import profile_figures
from researchers.models import RemovedResearcher, Researcher, ResearcherRedirect
from researchers.profiles import external_profiles
from researchers.structured_data import researcher_description, researcher_jsonld

PAPERS_PER_PAGE = 24
RESEARCHERS_PER_PAGE = 50
# /researchers?sort=: by name (the index on display name walks it), or most papers here first.
INDEX_ORDERS = {"name": ("display_name", "id"), "papers": ("-paper_count", "display_name", "id")}


@require_GET
@markdown_alternative
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def researcher_index(request: HttpRequest) -> HttpResponse:
    name = request.GET.get("q", "").strip()[:200]
    sort = request.GET.get("sort", "name")
    sort = sort if sort in INDEX_ORDERS else "name"
    researchers = Researcher.objects.people()
    # Filtered by a name, each row says what tells people of that name apart.
    researchers = researchers.named(name).with_identity_summary() if name else researchers.with_paper_counts()
    ordered = researchers.order_by(*INDEX_ORDERS[sort])
    page = paginate(request, ordered, RESEARCHERS_PER_PAGE)
    kept = {"q": name} if name else {}
    context = {
        "researchers": page,
        "name": name,
        "sort": sort,
        "filter_query": urlencode(kept | ({"sort": sort} if sort != "name" else {})),
        "sort_query": {order: urlencode(kept | {"sort": order}) for order in INDEX_ORDERS},
    }
    template = "researchers/index.html#results" if wants_fragment(request) else "researchers/index.html"
    return TemplateResponse(request, template, context)


@require_GET
@markdown_alternative
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def researcher_detail(request: HttpRequest, researcher_id: int, slug: str | None = None) -> HttpResponse:
    # The paper count and the Follow control's follower count and state come with the researcher.
    researcher = (
        Researcher.objects.with_paper_counts().with_followers(request.user).filter(pk=researcher_id).first()
    )
    if researcher is None:
        absorbed = ResearcherRedirect.objects.select_related("researcher").filter(old_id=researcher_id)
        absorbed = absorbed.first()
        if absorbed is not None:
            return canonical_redirect(request, absorbed.researcher)
        removed = get_object_or_404(RemovedResearcher, old_id=researcher_id)
        return TemplateResponse(request, "researchers/gone.html", {"removed": removed}, status=410)
    if slug != researcher.slug:
        return canonical_redirect(request, researcher)
    listing = PaperListing.from_query(request.GET)
    figures = profile_figures(researcher)
    their_papers = listing.apply(Paper.objects.by_researcher(researcher))
    # Unfiltered, the count came with the researcher; a cached one could cut the last page short.
    count = None if listing.category else researcher.paper_count
    context = {
        "researcher": researcher,
        "papers": paginate(request, their_papers.for_lists().with_authors(), PAPERS_PER_PAGE, count=count),
        "listing": listing,
        "field_bars": listing.field_bars(figures.fields, researcher.paper_count),
    }
    if wants_fragment(request):
        # The list, and the field bars out of band: their links and aria-current follow the filter.
        return TemplateResponse(request, "researchers/detail.html#paper-list-update", context)

    context |= {
        "positions": figures.positions,
        "positions_known": figures.positions_known,
        "most_cited": figures.most_cited,
        "citations": figures.citations,
        "same_name": figures.same_name,
        "topics": figures.topics,
        "institutions": figures.institutions,
        "coauthors": figures.coauthors,
        "coauthor_total": figures.coauthor_total,
        "coauthor_graph": coauthor_graph(researcher, figures.coauthors, figures.coauthor_pairs),
        "external_profiles": external_profiles(researcher),
        "description": researcher_description(researcher),
        "jsonld": researcher_jsonld(researcher, institutions=figures.institutions),
    }
    card = researcher_card(researcher, institutions=figures.institutions)
    context |= {"card": card, "card_url": researcher_card_url(researcher, card)}
    return TemplateResponse(request, "researchers/detail.html", context)


@require_GET
def researcher_card_image(request: HttpRequest, researcher_id: int) -> HttpResponse:
    """The researcher's social card, 1200×630 PNG."""
    researcher = get_object_or_404(Researcher.objects.with_paper_counts(), pk=researcher_id)
    return card_response(
        request, researcher_card(researcher, institutions=profile_figures(researcher).institutions)
    )
