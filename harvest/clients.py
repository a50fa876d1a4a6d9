"""One client per upstream source. Each asks the source's API in its own terms and returns parsed pages of
plain records (with the request that produced them); none of them writes anything."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings

from harvest.parsers.arxiv import ParsedPage, parse_atom_feed, parse_oai_page
from harvest.parsers.jsonbody import UpstreamPage
from harvest.parsers.openalex import (
    parse_openalex_authors,
    parse_openalex_institutions,
    parse_openalex_works,
)
from harvest.parsers.semantic_scholar import parse_s2_author_batch, parse_s2_paper_batch
from harvest.ratelimit import RateLimiter
from harvest.records import AuthorRecord, InstitutionRecord, UpstreamWork
from harvest.upstream import Fetched, UpstreamClient
from papers.identifiers import arxiv_doi

OPENALEX_BATCH = 50  # ids in one OR filter
OPENALEX_PER_PAGE = 200
S2_PAPER_BATCH = 500
S2_AUTHOR_BATCH = 500
ARXIV_API_BATCH = 100


def arxiv_limiter() -> RateLimiter:
    # The OAI-PMH interface and the API are one arXiv: one budget, one connection.
    return RateLimiter("arxiv", interval_ms=settings.ARXIV_MIN_INTERVAL_MS, single_connection=True)


class ArxivOaiClient(UpstreamClient):
    def __init__(self) -> None:
        super().__init__(source="arXiv OAI-PMH", base_url=settings.ARXIV_OAI_URL, limiter=arxiv_limiter())

    def list_records(
        self,
        *,
        set_spec: str,
        from_date: datetime.date,
        until: datetime.date | None,
        metadata_prefix: str = "arXiv",
    ) -> Fetched[ParsedPage]:
        params = {"verb": "ListRecords", "metadataPrefix": metadata_prefix, "set": set_spec}
        params["from"] = from_date.isoformat()
        if until is not None:
            params["until"] = until.isoformat()
        return self.fetch(parse_oai_page, params=params)

    def resume(self, token: str) -> Fetched[ParsedPage]:
        return self.fetch(parse_oai_page, params={"verb": "ListRecords", "resumptionToken": token})


class ArxivApiClient(UpstreamClient):
    def __init__(self) -> None:
        super().__init__(source="arXiv API", base_url=settings.ARXIV_API_URL, limiter=arxiv_limiter())

    def papers(self, arxiv_ids: Sequence[str]) -> Fetched[ParsedPage]:
        params = {"id_list": ",".join(arxiv_ids), "max_results": str(len(arxiv_ids))}
        return self.fetch(parse_atom_feed, params=params)


class OpenAlexClient(UpstreamClient):
    WORK_FIELDS = (
        "id,doi,ids,primary_location,cited_by_count,referenced_works,referenced_works_count,authorships"
    )
    AUTHOR_FIELDS = (
        "id,display_name,orcid,works_count,cited_by_count,summary_stats,affiliations,last_known_institutions"
    )
    INSTITUTION_FIELDS = "id,ror,display_name,country_code,type,homepage_url"

    def __init__(self) -> None:
        super().__init__(
            source="OpenAlex",
            base_url=settings.OPENALEX_API_URL,
            limiter=RateLimiter("openalex", interval_ms=settings.OPENALEX_MIN_INTERVAL_MS),
            params={"api_key": settings.OPENALEX_API_KEY, "mailto": settings.CONTACT_EMAIL},
        )

    def works(self, arxiv_ids: Sequence[str], cursor: str = "*") -> Fetched[UpstreamPage[UpstreamWork]]:
        """One cursor page of the works with these papers' arXiv DOIs (at most OPENALEX_BATCH ids)."""
        params = {
            "filter": "doi:" + "|".join(arxiv_doi(arxiv_id) for arxiv_id in arxiv_ids),
            "select": self.WORK_FIELDS,
            "per_page": OPENALEX_PER_PAGE,
            "cursor": cursor,
        }
        return self.fetch(parse_openalex_works, path="/works", params=params)

    def authors(self, author_ids: Sequence[str]) -> Fetched[UpstreamPage[AuthorRecord]]:
        params = {
            "filter": "openalex:" + "|".join(author_ids),
            "select": self.AUTHOR_FIELDS,
            "per_page": OPENALEX_PER_PAGE,
        }
        return self.fetch(parse_openalex_authors, path="/authors", params=params)

    def institutions(self, institution_ids: Sequence[str]) -> Fetched[UpstreamPage[InstitutionRecord]]:
        params = {
            "filter": "openalex:" + "|".join(institution_ids),
            "select": self.INSTITUTION_FIELDS,
            "per_page": OPENALEX_PER_PAGE,
        }
        return self.fetch(parse_openalex_institutions, path="/institutions", params=params)


class SemanticScholarClient(UpstreamClient):
    PAPER_FIELDS = "paperId,externalIds,citationCount,referenceCount,authors,references.externalIds"
    AUTHOR_FIELDS = "name,externalIds,hIndex,citationCount,paperCount"

    def __init__(self) -> None:
        super().__init__(
            source="Semantic Scholar",
            base_url=settings.S2_API_URL,
            limiter=RateLimiter("s2", interval_ms=settings.S2_MIN_INTERVAL_MS),
            headers={"x-api-key": settings.S2_API_KEY} if settings.S2_API_KEY else None,
        )

    def papers(self, arxiv_ids: Sequence[str]) -> Fetched[UpstreamPage[UpstreamWork]]:
        requested = list(arxiv_ids)
        return self.fetch(
            lambda content: parse_s2_paper_batch(content, requested),
            method="POST",
            path="/paper/batch",
            params={"fields": self.PAPER_FIELDS},
            json={"ids": [f"ARXIV:{arxiv_id}" for arxiv_id in requested]},
        )

    def authors(self, author_ids: Sequence[str]) -> Fetched[UpstreamPage[AuthorRecord]]:
        requested = list(author_ids)
        return self.fetch(
            lambda content: parse_s2_author_batch(content, requested),
            method="POST",
            path="/author/batch",
            params={"fields": self.AUTHOR_FIELDS},
            json={"ids": requested},
        )
