"""The institutions part of the JSON API: one institution by id or ROR id, its researchers, its papers."""

from django.http import Http404, HttpRequest, HttpResponse
from ninja import Field, Path, Query, Router

from core.api import (
    ERROR_RESPONSES,
    WITHOUT_NUL,
    PageOut,
    Pagination,
    detail_response,
    page_of,
)
from core.links import web_url
from institutions.models import Institution
from institutions.schemas import InstitutionBriefOut
from papers.api import PaperOut
from papers.models import Paper
from researchers.api import ResearcherOut
from researchers.models import Researcher

router = Router(tags=["institutions"])

InstitutionKeyPath = Path[
    str,
    {
        "description": "Our id (`42`), a ROR id (`042nb2s44`) or the exact name.",
        "max_length": 255,
        "pattern": WITHOUT_NUL,
    },
]


class InstitutionOut(InstitutionBriefOut):
    ror_url: str | None
    openalex_id: str | None
    type: str = Field(description="education, company, facility, … as ROR says; empty when not known.")
    homepage: str = Field(description="Its http(s) homepage; empty when not known.")
    researcher_count: int = Field(description="Researchers here affiliated with it.")
    paper_count: int = Field(description="Papers here with an author affiliated with it.")

    @staticmethod
    def resolve_ror_url(institution: Institution) -> str | None:
        return institution.ror_url or None

    @staticmethod
    def resolve_homepage(institution: Institution) -> str:
        return web_url(institution.homepage)


def institution_or_404(key: str) -> Institution:
    institution = Institution.objects.resolve(key)
    if institution is None:
        raise Http404(
            f"No institution {key[:100]!r}: give our id, a ROR id, the name or a part of it that names one"
        )
    return institution


@router.get(
    "/{key}",
    response={200: InstitutionOut, 304: None, **ERROR_RESPONSES},
    url_name="institution",
    summary="One institution",
)
def institution_detail(request: HttpRequest, key: InstitutionKeyPath) -> HttpResponse:
    """An institution by our id, its ROR id or its exact name. Answers 304 to a matching If-None-Match or
    If-Modified-Since."""
    institution = institution_or_404(key)
    institution.researcher_count = institution.affiliations.count()
    institution.paper_count = Paper.objects.by_institution(institution).count()
    return detail_response(
        request, InstitutionOut.from_orm(institution), last_modified=institution.updated_at
    )


@router.get(
    "/{key}/researchers",
    response={200: PageOut[ResearcherOut], **ERROR_RESPONSES},
    url_name="institution-researchers",
    summary="An institution's researchers",
)
def institution_researchers(
    request: HttpRequest, key: InstitutionKeyPath, pagination: Query[Pagination]
) -> dict[str, object]:
    """Researchers affiliated with it, now or before, by name."""
    institution = institution_or_404(key)
    members = Researcher.objects.filter(affiliations__institution=institution).with_paper_counts()
    return page_of(request, members.order_by("display_name", "id"), pagination)


@router.get(
    "/{key}/papers",
    response={200: PageOut[PaperOut], **ERROR_RESPONSES},
    url_name="institution-papers",
    summary="An institution's papers",
)
def institution_papers(
    request: HttpRequest, key: InstitutionKeyPath, pagination: Query[Pagination]
) -> dict[str, object]:
    """Papers with an author affiliated with it, newest first."""
    institution = institution_or_404(key)
    return page_of(
        request, Paper.objects.by_institution(institution).newest_first().for_records(), pagination
    )
