"""Search in the JSON API: the site's search (the same query language, modes, filters and ranking) as
JSON, with why each paper matched and the researchers and institutions whose names match."""

from typing import Annotated, Literal

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Field, Query, Router, Schema

from core.api import (
    ERROR_RESPONSES,
    MAX_PAGE,
    WITHOUT_NUL,
    error_response,
    page_link,
    too_many_requests_error,
)
from core.links import absolute_url
from core.ratelimits import wait_seconds
from core.rates import Rate
from institutions.schemas import InstitutionBriefOut
from papers.api import AuthorOut, PaperBriefOut
from papers.categories import ARXIV_CATEGORY, CATEGORY_MAX_LENGTH
from papers.identifiers import FIRST_ARXIV_YEAR, LAST_YEAR
from papers.models import Paper
from papers.paper_types import PAPER_TYPE_LABELS
from papers.search import engine
from papers.search.params import MAX_CATEGORIES, MAX_TOPICS, SEARCH_RATE_GROUP, InvalidSearch, read_params
from researchers.api import ResearcherOut

router = Router(tags=["search"])

MAX_PER_PAGE = 50
# Longer text is cut to SEARCH_MAX_QUERY_LENGTH, as on the site; past this it is refused outright.
MAX_QUERY_PARAMETER = 2000


class SearchFilters(Schema):
    """The site's own search parameters (/search?q=…&cat=…&from=…), documented; papers.search.params reads
    them, for both."""

    q: str = Field(
        "",
        max_length=MAX_QUERY_PARAMETER,
        pattern=WITHOUT_NUL,
        description=(
            'Words, "exact phrases", -excluded words, OR, and the fields author:"Name", cat:cs.DC, '
            "type:survey, topic:12, year:2020..2022, title:… and abs:…, as in the site's search box. Empty: "
            "the latest papers."
        ),
    )
    mode: Literal["hybrid", "keyword", "semantic"] = Field(
        "hybrid", description="keyword (full-text), semantic (by meaning), or hybrid (both, fused)."
    )
    sort: Literal["relevance", "newest", "cited"] = Field("relevance")
    cat: list[Annotated[str, Field(max_length=CATEGORY_MAX_LENGTH, pattern=ARXIV_CATEGORY.pattern)]] = Field(
        default_factory=list,
        max_length=MAX_CATEGORIES,
        description="arXiv categories, e.g. cs.LG (primary or cross-listed); repeat for several.",
    )
    type: list[Literal[*PAPER_TYPE_LABELS]] = Field(  # type: ignore[valid-type]
        default_factory=list,
        description="Paper types found by the analysis (" + ", ".join(PAPER_TYPE_LABELS) + "); repeat for "
        "several. As type:survey in the query.",
    )
    topic: list[Annotated[str, Field(pattern=r"^[0-9]{1,9}$")]] = Field(
        default_factory=list,
        max_length=MAX_TOPICS,
        description="Topic ids (/topics lists them); repeat for several. As topic:12 in the query.",
    )
    year_from: int | None = Field(
        None, alias="from", ge=FIRST_ARXIV_YEAR, le=LAST_YEAR, description="First posted in or after."
    )
    year_to: int | None = Field(
        None, alias="to", ge=FIRST_ARXIV_YEAR, le=LAST_YEAR, description="First posted in or before."
    )
    cited: bool = Field(False, description="true (or 1): only papers cited at least once.")
    page: int = Field(
        1, ge=1, le=MAX_PAGE, description=f"1-based; results end at {settings.SEARCH_MAX_RESULTS}."
    )
    per_page: int = Field(20, ge=1, le=MAX_PER_PAGE, description=f"1 to {MAX_PER_PAGE}.")


class SearchPaperOut(PaperBriefOut):
    author_count: int = Field(description="All the paper's authors; the hit lists the first few.")

    @staticmethod
    def resolve_author_count(paper: Paper) -> int:
        return len(paper.authors)


class SearchHitOut(Schema):
    paper: SearchPaperOut
    authors: list[AuthorOut] = Field(description=f"The first {engine.AUTHORS_SHOWN}, in the paper's order.")
    snippet: str = Field(description="Where the abstract matches the query's words, or its beginning.")
    highlights: list[str] = Field(description="The words of title and snippet that matched the query.")
    matched: list[Literal["words", "meaning"]] = Field(
        description="Why it is here: it has the query's words, it is among the nearest by meaning, or both."
    )
    similarity: float | None = Field(description="Cosine similarity to the query, when compared by meaning.")

    @staticmethod
    def resolve_authors(hit: engine.PaperHit) -> list[dict[str, object]]:
        return [
            {
                "name": author.name,
                "researcher_id": author.researcher_id,
                "researcher_url": absolute_url(author.url) if author.researcher_id else None,
                "collaboration": author.is_collaboration,
                "affiliations": list(author.affiliations),
            }
            for author in hit.authors
        ]

    @staticmethod
    def resolve_snippet(hit: engine.PaperHit) -> str:
        return hit.snippet.text

    @staticmethod
    def resolve_highlights(hit: engine.PaperHit) -> list[str]:
        return list(dict.fromkeys(hit.title.marked_words + hit.snippet.marked_words))

    @staticmethod
    def resolve_matched(hit: engine.PaperHit) -> list[str]:
        return [
            reason for reason, yes in (("words", hit.matched_words), ("meaning", hit.matched_meaning)) if yes
        ]

    @staticmethod
    def resolve_similarity(hit: engine.PaperHit) -> float | None:
        return round(1 - hit.distance, 4) if hit.distance is not None else None


class SearchOut(Schema):
    query: str = Field(description="The query as searched (cleaned, and cut when too long).")
    understood: str = Field(description="How the query was read, in words.")
    notes: list[str] = Field(description="What was changed or ignored in reading the query, and why.")
    mode: str = Field(description="The mode asked for.")
    strategy: Literal["browse", "keyword", "semantic", "hybrid"] = Field(
        description="What ran: browse when the query has nothing to search for (the latest papers)."
    )
    count: int | None = Field(
        description=(
            "Results in all pages together, when counted: a semantic ranking has no set size, and a "
            "list in date or citation order is followed by `next` instead."
        )
    )
    count_is_lower_bound: bool = Field(description="More papers match than were ranked.")
    page: int = Field(description="The page given: a page past the end gives the last one.")
    per_page: int
    pages: int | None
    next: str | None
    previous: str | None
    paper: str | None = Field(description="The API address of the paper when the query is its arXiv id.")
    researchers: list[ResearcherOut] = Field(description="On page 1: researchers whose names match.")
    institutions: list[InstitutionBriefOut] = Field(description="On page 1: institutions whose names match.")
    results: list[SearchHitOut]


@router.get(
    "",
    response={200: SearchOut, **ERROR_RESPONSES},
    url_name="search",
    summary="Search papers",
    description=(
        "Papers by keyword, by meaning, or both (hybrid, the default), with the site's query language and "
        "filters. Searches are also limited to "
        f"{Rate.parse(settings.SEARCH_RATE_LIMIT).in_words('search', 'searches')} per client address, as on "
        "the site; past that the answer is 429 with Retry-After."
    ),
)
def search(request: HttpRequest, filters: Query[SearchFilters]) -> HttpResponse | dict[str, object]:
    wait = wait_seconds(request, group=SEARCH_RATE_GROUP, rate=settings.SEARCH_RATE_LIMIT, fail_open=True)
    if wait:
        limit = Rate.parse(settings.SEARCH_RATE_LIMIT).in_words("search", "searches")
        return too_many_requests_error(f"Too many searches: at most {limit} per client address.", wait)
    try:
        params = read_params(request.GET)
    except InvalidSearch as error:
        return error_response(400, str(error))
    query = params.parsed()
    results = engine.run(query, page=params.page, per_page=filters.per_page)
    arxiv_id = params.arxiv_id
    named = arxiv_id is not None and Paper.objects.by_arxiv_id(arxiv_id).exists()
    return {
        "query": query.text,
        "understood": query.describe(),
        "notes": list(query.notes),
        "mode": query.mode.value,
        "strategy": results.strategy,
        "count": results.total,
        "count_is_lower_bound": results.total_is_lower_bound,
        "page": results.page,
        "per_page": results.per_page,
        "pages": results.num_pages,
        "next": page_link(request, results.page + 1) if results.has_next else None,
        "previous": page_link(request, results.page - 1) if results.has_previous else None,
        "paper": absolute_url(reverse("api:paper", kwargs={"arxiv_id": arxiv_id.id})) if named else None,
        "researchers": results.researchers,
        "institutions": results.institutions,
        "results": results.hits,
    }
