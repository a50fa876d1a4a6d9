"""The papers part of the JSON API: lists with filters, one paper by any form of its arXiv id, and what it
builds on, what builds on it and what is like it."""

from datetime import date, datetime
from typing import Literal

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Field, Path, Query, Router, Schema

from core.api import (
    ERROR_RESPONSES,
    PageOut,
    Pagination,
    detail_response,
    page_of,
)
from core.links import absolute_url, web_url
from papers.categories import ARXIV_CATEGORY, CATEGORY_MAX_LENGTH
from papers.identifiers import FIRST_ARXIV_YEAR, LAST_YEAR, parse_arxiv_id
from papers.models import Paper
from papers.paper_types import PAPER_TYPE_LABELS
from papers.querysets import PaperQuerySet

router = Router(tags=["papers"])

ARXIV_ID_DESCRIPTION = (
    "An arXiv id in any form: 2201.12423, 2201.12423v2, arXiv:2201.12423, astro-ph/9901001."
)
ArxivIdPath = Path[str, {"description": ARXIV_ID_DESCRIPTION}]
MAX_SIMILAR = 25  # below pgvector's default hnsw.ef_search (40), so the index returns every one asked for


class AuthorOut(Schema):
    name: str = Field(description="As written on the paper.")
    researcher_id: int | None = Field(description="The researcher this author is, when matched.")
    researcher_url: str | None = Field(description="That researcher's page.")
    collaboration: bool = Field(description="A team, collaboration or company: never a researcher.")
    affiliations: list[str] = Field(description="As printed on the paper for this author.")


class PaperBriefOut(Schema):
    """What every API answer that lists papers says of each; PaperOut adds the rest of the record."""

    arxiv_id: str = Field(description="Without version: 2201.12423 or astro-ph/9901001.")
    title: str
    primary_category: str
    categories: list[str]
    published: date = Field(description="First posted on arXiv.")
    cited_by_count: int | None = Field(
        description="Citations anywhere, as the sources count them; null until known."
    )
    url: str = Field(description="The paper's canonical page here.")
    abs_url: str = Field(description="Its abstract page on arXiv.")
    pdf_url: str
    api_url: str = Field(description="The whole record in this API.")

    @staticmethod
    def resolve_url(paper: Paper) -> str:
        return absolute_url(paper.get_absolute_url())

    @staticmethod
    def resolve_api_url(paper: Paper) -> str:
        return absolute_url(reverse("api:paper", kwargs={"arxiv_id": paper.arxiv_id}))


class PaperAnalysisOut(Schema):
    """What the analysis found (analysis/services.py); each field says how it is computed."""

    analysed_at: datetime = Field(description="When the analysis last ran.")
    paper_type: str | None = Field(
        description="One of " + ", ".join(PAPER_TYPE_LABELS) + ": from clear phrases in the title, abstract "
        "and comments, else a classifier on the embedding trained on those phrases' labels."
    )
    research_field: str | None = Field(
        description="The names of the primary category and its archive: "
        "'Machine Learning (cs.LG), Computer Science'."
    )
    summary: str | None = Field(
        description="The abstract's sentence closest in meaning to the whole abstract (quoted, not written)."
    )
    novelty: float | None = Field(
        description="Percentile (0–100) of novelty_distance among the papers of the same primary category "
        "and year; null without an earlier paper in the corpus."
    )
    novelty_distance: float | None = Field(
        description="1 − the cosine similarity of the embeddings of this paper and the nearest earlier one."
    )
    significance: float | None = Field(
        description="Percentile (0–100) of citations a year since posting among the papers of the same "
        "primary category and year; null when no citation count is known."
    )


class PaperOut(PaperBriefOut):
    version: int | None = Field(description="The latest version seen.")
    abstract: str
    authors: list[AuthorOut] = Field(description="In the paper's order.")
    updated: date | None = Field(description="The latest version's date.")
    doi: str
    journal_ref: str
    comments: str
    license: str = Field(description="The licence's http(s) URL; empty when not known.")
    reference_count: int | None = Field(
        description="References anywhere, in the corpus or not; null until known."
    )
    analysis: PaperAnalysisOut | None = Field(description="Null until the paper has been analysed.")

    @staticmethod
    def resolve_analysis(paper: Paper) -> dict[str, object] | None:
        if paper.analysed is None:
            return None
        return {
            "analysed_at": paper.analysed,
            "paper_type": paper.paper_type,
            "research_field": paper.research_field,
            "summary": paper.summary,
            "novelty": paper.novelty,
            "novelty_distance": paper.novelty_distance,
            "significance": paper.significance_score,
        }

    @staticmethod
    def resolve_license(paper: Paper) -> str:
        return web_url(paper.license)

    @staticmethod
    def resolve_authors(paper: Paper) -> list[dict[str, object]]:
        return [
            {
                "name": authorship.name,
                "researcher_id": authorship.researcher_id,
                "researcher_url": absolute_url(authorship.researcher.get_absolute_url())
                if authorship.researcher
                else None,
                "collaboration": authorship.is_collaboration,
                "affiliations": authorship.affiliations,
            }
            for authorship in paper.authorships.all()
        ]


class PaperDetailOut(PaperOut):
    closest_earlier: list[PaperBriefOut] = Field(
        description="The analysis's closest papers posted before this one, closest first (up to 3)."
    )

    @staticmethod
    def resolve_closest_earlier(paper: Paper) -> list[Paper]:
        return paper.closest_earlier_papers  # looked up by the view, in one query


class SimilarPaperOut(PaperOut):
    similarity: float = Field(description="Cosine similarity of the two papers' embeddings, up to 1.")

    @staticmethod
    def resolve_similarity(paper: Paper) -> float:
        return round(1 - paper.distance, 4)


class SimilarOut(Schema):
    arxiv_id: str = Field(description="The paper they are similar to.")
    count: int
    results: list[SimilarPaperOut] = Field(
        description="Most similar first; empty until the paper is embedded."
    )


class PaperFilters(Pagination):
    category: str | None = Field(
        None,
        max_length=CATEGORY_MAX_LENGTH,
        pattern=ARXIV_CATEGORY.pattern,
        description="An arXiv category, e.g. cs.LG (primary or cross-listed).",
    )
    year_from: int | None = Field(
        None, ge=FIRST_ARXIV_YEAR, le=LAST_YEAR, description="First posted in or after this year."
    )
    year_to: int | None = Field(
        None, ge=FIRST_ARXIV_YEAR, le=LAST_YEAR, description="First posted in or before this year."
    )
    has_citations: bool | None = Field(
        None, description="true: only papers cited at least once; false: only papers not known to be cited."
    )
    sort: Literal["newest", "most_cited"] = Field("newest", description="newest first, or most cited first.")


def filtered_papers(filters: PaperFilters) -> PaperQuerySet:
    papers = Paper.objects.all()
    if filters.category:
        papers = papers.in_category(filters.category)
    if filters.year_from:
        papers = papers.filter(published__gte=date(filters.year_from, 1, 1))
    if filters.year_to:
        papers = papers.filter(published__lt=date(filters.year_to + 1, 1, 1))
    if filters.has_citations is True:
        papers = papers.filter(cited_by_count__gt=0)
    elif filters.has_citations is False:
        papers = papers.filter(Q(cited_by_count=0) | Q(cited_by_count__isnull=True))
    ordered = papers.most_cited() if filters.sort == "most_cited" else papers.newest_first()
    return ordered.with_authors()


def paper_or_404(arxiv_id: str, queryset: PaperQuerySet) -> Paper:
    parsed = parse_arxiv_id(arxiv_id)
    if parsed is None:
        raise Http404(
            f"No paper {arxiv_id[:100]!r}: not an arXiv identifier (2201.12423, astro-ph/9901001, …)"
        )
    paper = queryset.by_arxiv_id(parsed).first()
    if paper is None:
        raise Http404(f"No paper {parsed.id} in the corpus")
    return paper


@router.get("", response={200: PageOut[PaperOut], **ERROR_RESPONSES}, url_name="papers", summary="Papers")
def paper_list(request: HttpRequest, filters: Query[PaperFilters]) -> dict[str, object]:
    """Every paper in the corpus, newest or most cited first, narrowed by category, years and citations."""
    return page_of(request, filtered_papers(filters), filters)


# The sub-resources come before the detail: an old-style id has a slash, so the detail's {path:…} would
# otherwise swallow "…/references".
@router.get(
    "/{path:arxiv_id}/references",
    response={200: PageOut[PaperOut], **ERROR_RESPONSES},
    url_name="paper-references",
    summary="What a paper builds on",
)
def paper_references(
    request: HttpRequest, arxiv_id: ArxivIdPath, pagination: Query[Pagination]
) -> dict[str, object]:
    """The papers in the corpus that this paper cites, newest first."""
    paper = paper_or_404(arxiv_id, Paper.objects.only("pk"))
    return page_of(request, Paper.objects.references_of(paper).newest_first().with_authors(), pagination)


@router.get(
    "/{path:arxiv_id}/citations",
    response={200: PageOut[PaperOut], **ERROR_RESPONSES},
    url_name="paper-citations",
    summary="What builds on a paper",
)
def paper_citations(
    request: HttpRequest, arxiv_id: ArxivIdPath, pagination: Query[Pagination]
) -> dict[str, object]:
    """The papers in the corpus that cite this paper, newest first."""
    paper = paper_or_404(arxiv_id, Paper.objects.only("pk"))
    return page_of(request, Paper.objects.citations_of(paper).newest_first().with_authors(), pagination)


@router.get(
    "/{path:arxiv_id}/similar",
    response={200: SimilarOut, **ERROR_RESPONSES},
    url_name="paper-similar",
    summary="Papers like a paper",
)
def paper_similar(
    request: HttpRequest, arxiv_id: ArxivIdPath, limit: int = Query(10, ge=1, le=MAX_SIMILAR)
) -> dict[str, object]:
    """The nearest papers by meaning (embeddings of title and abstract): a ranking, not a paginated list."""
    paper = paper_or_404(arxiv_id, Paper.objects.only("pk", "arxiv_id", "embedding"))
    results = list(Paper.objects.similar_to(paper).with_authors()[:limit])
    return {"arxiv_id": paper.arxiv_id, "count": len(results), "results": results}


@router.get(
    "/{path:arxiv_id}",
    response={200: PaperDetailOut, 304: None, **ERROR_RESPONSES},
    url_name="paper",
    summary="One paper",
)
def paper_detail(request: HttpRequest, arxiv_id: ArxivIdPath) -> HttpResponse:
    """A paper by its arXiv id in any form: `2201.12423`, `2201.12423v2`, `arXiv:2201.12423`,
    `astro-ph/9901001` or an arXiv URL. Answers 304 to a matching If-None-Match or If-Modified-Since."""
    paper = paper_or_404(arxiv_id, Paper.objects.with_authors())
    paper.closest_earlier_papers = Paper.objects.for_lists().closest_earlier_of(paper)
    # The analysis writes its columns without touching updated_at: its time is a change of its own.
    changes = [paper.updated_at, paper.analysed or paper.updated_at]
    changes += [a.researcher.updated_at for a in paper.authorships.all() if a.researcher]
    body = PaperDetailOut.from_orm(paper)
    return detail_response(request, body, last_modified=max(changes))
