from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from core.cards import card_response
from core.negotiation import markdown_alternative
from core.pagination import paginate
from core.responses import canonical_redirect, wants_fragment
from institutions.cards import institution_card, institution_card_url
from institutions.figures import institution_fields
from institutions.models import Affiliation, Institution
from institutions.structured_data import institution_description, institution_jsonld
from papers.listing import PaperListing
from papers.models import Paper
from researchers.models import Researcher

INSTITUTIONS_PER_PAGE = 50
RESEARCHERS_PER_PAGE = 20
PAPERS_PER_PAGE = 24
RESEARCHERS_PAGE_PARAM = "researchers_page"
CHOICES_SHOWN = 50  # institutions on the page that asks which one a shared name meant


@require_GET
@markdown_alternative
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def institution_index(request: HttpRequest) -> HttpResponse:
    name = request.GET.get("q", "").strip()[:200]
    # Unasked, the institutions whose members have papers here; asked by name, every match, those first.
    institutions = (
        Institution.objects.name_contains(name).with_papers_first()
        if name
        else Institution.objects.with_papers().order_by("name", "id")
    )
    page = paginate(request, institutions.with_researcher_counts(), INSTITUTIONS_PER_PAGE)
    context = {"institutions": page, "name": name, "filter_query": urlencode({"q": name}) if name else ""}
    template = "institutions/index.html#results" if wants_fragment(request) else "institutions/index.html"
    return TemplateResponse(request, template, context)


@require_GET
def institution_resolve(request: HttpRequest, key: str) -> HttpResponse:
    """/institutions/<ROR id, ROR URL or name>: 301 to the institution's canonical page; a name that several
    institutions share (in part) gets a page to choose from, with 300 Multiple Choices."""
    institution = Institution.objects.resolve(key)
    if institution is not None:
        return canonical_redirect(request, institution)
    name = " ".join(key.split())[:200]
    choices = paginate(
        request, Institution.objects.name_contains(name).most_researchers_first(), CHOICES_SHOWN
    )
    if not choices.paginator.count:
        raise Http404("No institution by that ROR id or name")
    return TemplateResponse(
        request, "institutions/choose.html", {"name": name, "institutions": choices}, status=300
    )


@require_GET
@markdown_alternative
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def institution_detail(request: HttpRequest, institution_id: int, slug: str | None = None) -> HttpResponse:
    institution = get_object_or_404(Institution, pk=institution_id)
    if slug != institution.slug:
        return canonical_redirect(request, institution)
    listing = PaperListing.from_query(request.GET)
    fields = institution_fields(institution)
    their_papers = Paper.objects.by_institution(institution)
    researchers = Researcher.objects.at_institution(institution).most_cited_first().with_paper_counts()
    researchers_page = paginate(
        request,
        researchers,
        RESEARCHERS_PER_PAGE,
        page_param=RESEARCHERS_PAGE_PARAM,
        count=Affiliation.objects.filter(institution=institution).count(),  # from the index alone
    )
    # Unfiltered, the count cached with the fields serves every page but the last (see paginate()).
    papers_page = paginate(
        request,
        listing.apply(their_papers).for_lists().with_authors(),
        PAPERS_PER_PAGE,
        estimated_count=None if listing.category else fields.paper_count,
    )
    # Where both lists stand, so paging one keeps the other where it was.
    state = listing.query()
    if researchers_page.number > 1:
        state[RESEARCHERS_PAGE_PARAM] = str(researchers_page.number)
    if papers_page.number > 1:
        state["page"] = str(papers_page.number)
    context = {
        "institution": institution,
        "listing": listing,
        "state": state,
        "researchers": researchers_page,
        "researchers_page_param": RESEARCHERS_PAGE_PARAM,
        "papers": papers_page,
        "field_bars": listing.field_bars(fields.categories, fields.paper_count),
    }
    if wants_fragment(request):
        fragment = "researcher-list" if request.htmx.target == "researcher-list" else "paper-list-update"
        return TemplateResponse(request, f"institutions/detail.html#{fragment}", context)
    context |= {
        "description": institution_description(
            institution,
            researcher_count=context["researchers"].paginator.count,
            paper_count=context["papers"].paginator.count,
        ),
        "jsonld": institution_jsonld(institution),
    }
    card = institution_card(
        institution, researcher_count=researchers_page.paginator.count, paper_count=fields.paper_count
    )
    context |= {"card": card, "card_url": institution_card_url(institution, card)}
    return TemplateResponse(request, "institutions/detail.html", context)


@require_GET
def institution_card_image(request: HttpRequest, institution_id: int) -> HttpResponse:
    """The institution's social card, 1200×630 PNG."""
    institution = get_object_or_404(Institution, pk=institution_id)
    researcher_count = Affiliation.objects.filter(institution=institution).count()
    paper_count = institution_fields(institution).paper_count
    card = institution_card(institution, researcher_count=researcher_count, paper_count=paper_count)
    return card_response(request, card)
