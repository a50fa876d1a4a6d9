"""Saved searches through the search feature's public interface (papers.search): a search is kept as the
query string /search reads, and run again, newest first, for its feed and its digest."""

from __future__ import annotations

import datetime
from dataclasses import replace

from django.conf import settings
from django.http import QueryDict
from django.urls import reverse

from accounts.models import SavedSearch
from papers.models import Paper
from papers.search import engine
from papers.search.params import InvalidSearch, SearchParams, read_params
from papers.search.query import Mode, Sort

__all__ = ["InvalidSearch", "canonical_query_string", "describe", "new_matches", "newest_matches", "run_url"]

# A digest looks for new matches among a search's newest this many: what arrives in a day or a week.
NEW_MATCHES_SCANNED = 100


def canonical_query_string(data: QueryDict) -> str:
    """The search `data` asks for, as read_params reads it, written back in one fixed form (defaults and
    the page left out), so the same search saved twice is the same string. Raises InvalidSearch."""
    params = read_params(data)
    query = QueryDict(mutable=True)
    words = params.q.strip()[: settings.SEARCH_MAX_QUERY_LENGTH]
    if words:
        query["q"] = words
    if params.mode is not Mode.HYBRID:
        query["mode"] = params.mode.value
    if params.filters.categories:
        query.setlist("cat", list(params.filters.categories))
    if params.filters.paper_types:
        query.setlist("type", list(params.filters.paper_types))
    if params.filters.year_from is not None:
        query["from"] = str(params.filters.year_from)
    if params.filters.year_to is not None:
        query["to"] = str(params.filters.year_to)
    if params.filters.cited_only:
        query["cited"] = "1"
    if params.sort is not Sort.RELEVANCE:
        query["sort"] = params.sort.value
    return query.urlencode()


def _params(saved_search: SavedSearch) -> SearchParams:
    return read_params(QueryDict(saved_search.query_string))


def describe(saved_search: SavedSearch) -> str:
    """How the search reads: "papers in cs.LG since 2024 matching 'diffusion'"."""
    try:
        return _params(saved_search).parsed().describe()
    except InvalidSearch as error:
        return f"a search that can no longer be run ({error})"


def run_url(saved_search: SavedSearch) -> str:
    return f"{reverse('search:search')}?{saved_search.query_string}"


def newest_matches(saved_search: SavedSearch, *, limit: int) -> list[Paper]:
    """The search's newest matches, first posted last first, whatever order it was saved with: a feed
    and a digest are about what is new. Nothing for a search that can no longer be read."""
    try:
        params = replace(_params(saved_search), sort=Sort.NEWEST, page=1)
    except InvalidSearch:
        return []
    return [hit.paper for hit in engine.run(params.parsed(), page=1, per_page=limit).hits]


def new_matches(saved_search: SavedSearch, *, since: datetime.datetime, limit: int) -> list[Paper]:
    """Matches that came into the corpus after `since`, newest first, up to `limit`."""
    fresh = [
        paper for paper in newest_matches(saved_search, limit=NEW_MATCHES_SCANNED) if paper.created_at > since
    ]
    return fresh[:limit]
