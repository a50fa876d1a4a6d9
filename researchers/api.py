"""The researchers part of the JSON API: find researchers by name, one researcher's profile, their papers."""

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from core.api import (
    ERROR_RESPONSES,
    WITHOUT_NUL,
    ErrorOut,
    PageOut,
    Pagination,
    detail_response,
    page_of,
)
from core.links import absolute_url
from institutions.models import Institution
from institutions.schemas import InstitutionBriefOut
from papers.api import PaperOut
from papers.models import Paper
from researchers.models import RemovedResearcher, Researcher, ResearcherRedirect

router = Router(tags=["researchers"])

# An absorbed researcher id answers 301 to the survivor, as its page does; a removed non-person, 410.
REDIRECT_RESPONSE = {301: None, 410: ErrorOut}
FIELDS_SHOWN = 5


class ResearcherOut(Schema):
    id: int
    display_name: str
    orcid: str = Field(description="Empty when not known.")
    h_index: int | None = Field(description="From Semantic Scholar or OpenAlex; null until known.")
    citation_count: int | None = Field(description="Citations of all their works upstream; null until known.")
    works_count: int | None = Field(description="All their works upstream, not only those here.")
    paper_count: int = Field(description="Their papers in this corpus.")
    url: str = Field(description="The researcher's canonical page here.")
    api_url: str

    @staticmethod
    def resolve_url(researcher: Researcher) -> str:
        return absolute_url(researcher.get_absolute_url())

    @staticmethod
    def resolve_api_url(researcher: Researcher) -> str:
        return absolute_url(reverse("api:researcher", kwargs={"researcher_id": researcher.pk}))


class FieldOut(Schema):
    category: str = Field(description="An arXiv category.")
    papers: int = Field(description="Their papers here with it as primary category.")


class AffiliationOut(InstitutionBriefOut):
    last_known: bool = Field(description="Their current institution, as far as the sources know.")
    years: list[int]


class ResearcherDetailOut(ResearcherOut):
    openalex_id: str | None
    s2_id: str | None = Field(description="Semantic Scholar author id.")
    fields: list[FieldOut] = Field(description="Their commonest categories here, commonest first.")
    institutions: list[AffiliationOut] = Field(description="Current institutions first.")


class NameQuery(Pagination):
    name: str = Field(
        ...,
        min_length=1,
        max_length=200,
        pattern=WITHOUT_NUL,
        description="A name or part of one; accents and order are forgiven.",
    )


def researcher_or_redirect(researcher_id: int, url_name: str) -> Researcher | HttpResponse:
    """The researcher with their paper count, a 301 to the survivor's same address for an absorbed id, or
    410 for an id removed as no person."""
    researcher = Researcher.objects.with_paper_counts().filter(pk=researcher_id).first()
    if researcher is not None:
        return researcher
    absorbed = ResearcherRedirect.objects.filter(old_id=researcher_id).first()
    if absorbed is None:
        if RemovedResearcher.objects.filter(old_id=researcher_id).exists():
            raise HttpError(410, f"Researcher {researcher_id} was not a person and was removed")
        raise Http404(f"No researcher {researcher_id}")
    return HttpResponsePermanentRedirect(
        absolute_url(reverse(url_name, kwargs={"researcher_id": absorbed.researcher_id}))
    )


@router.get(
    "",
    response={200: PageOut[ResearcherOut], **ERROR_RESPONSES},
    url_name="researchers",
    summary="Find researchers by name",
)
def researcher_search(request: HttpRequest, query: Query[NameQuery]) -> dict[str, object]:
    """Researchers with a word of their name starting with each word of `name`, in any order (the filter
    of /researchers?q=), the exact name first, then the most alike."""
    named = Researcher.objects.people().named(query.name).alike_first(query.name)
    return page_of(request, named.with_paper_counts(), query)


@router.get(
    "/{int:researcher_id}",
    response={200: ResearcherDetailOut, 304: None, **REDIRECT_RESPONSE, **ERROR_RESPONSES},
    url_name="researcher",
    summary="One researcher",
)
def researcher_detail(request: HttpRequest, researcher_id: int) -> HttpResponse:
    """A researcher's profile: metrics, fields and institutions. Answers 304 to a matching If-None-Match
    or If-Modified-Since."""
    researcher = researcher_or_redirect(researcher_id, "api:researcher")
    if isinstance(researcher, HttpResponse):
        return researcher
    # The profile's two lists, fetched here and read by the schema like the row's own fields.
    researcher.fields = [
        {"category": row["category"], "papers": row["paper_count"]}
        for row in Paper.objects.by_researcher(researcher).category_counts()[:FIELDS_SHOWN]
    ]
    researcher.institutions = institutions = list(Institution.objects.of_researcher(researcher))
    profile = ResearcherDetailOut.from_orm(researcher)
    changes = [researcher.updated_at] + [institution.updated_at for institution in institutions]
    return detail_response(request, profile, last_modified=max(changes))


@router.get(
    "/{int:researcher_id}/papers",
    response={200: PageOut[PaperOut], **REDIRECT_RESPONSE, **ERROR_RESPONSES},
    url_name="researcher-papers",
    summary="A researcher's papers",
)
def researcher_papers(
    request: HttpRequest, researcher_id: int, pagination: Query[Pagination]
) -> dict[str, object] | HttpResponse:
    """Their papers in the corpus, newest first."""
    researcher = researcher_or_redirect(researcher_id, "api:researcher-papers")
    if isinstance(researcher, HttpResponse):
        return researcher
    return page_of(request, Paper.objects.by_researcher(researcher).newest_first().for_records(), pagination)
