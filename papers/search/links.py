"""Links of the search page: the current search with one thing changed, as a query string. Every link
works as a plain href and as an htmx request."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.http import QueryDict

from papers.paper_types import PAPER_TYPE_LABELS
from papers.search.engine import SearchResults
from papers.search.params import SearchParams
from papers.search.query import Mode, Sort

MODE_LABELS = {Mode.HYBRID: "Words and meaning", Mode.KEYWORD: "Exact words", Mode.SEMANTIC: "Meaning"}
SORT_LABELS = {Sort.RELEVANCE: "Relevance", Sort.NEWEST: "Newest", Sort.CITED: "Most cited"}
SEARCH_PARAMETERS = ("q", "mode", "sort", "cat", "type", "from", "to", "cited", "page")


@dataclass(frozen=True)
class Link:
    label: str
    href: str
    current: bool = False


def changed(data: QueryDict, changes: Mapping[str, str | list[str] | None]) -> str:
    """The search in `data` with `changes` (None removes a parameter), back on its first page, as
    "?q=…&mode=…". Empty and unknown parameters are left out, so links stay short."""
    values: dict[str, list[str]] = {
        name: [value for value in data.getlist(name) if value.strip()] for name in SEARCH_PARAMETERS
    }
    values["page"] = []
    for name, value in changes.items():
        values[name] = [] if value is None else [value] if isinstance(value, str) else list(value)
    query = QueryDict(mutable=True)
    for name, items in values.items():
        if items:
            query.setlist(name, items)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


@dataclass(frozen=True)
class SearchLinks:
    """Every link the results region shows, worked out once per request."""

    modes: list[Link]
    sorts: list[Link]
    active_filters: list[Link]
    previous_page: str
    next_page: str
    suggestions: list[Link]
    add_category: str  # append a category: the query string then "&cat=" and the category

    @classmethod
    def build(cls, data: QueryDict, params: SearchParams, results: SearchResults | None) -> SearchLinks:
        filters = params.filters
        active = [
            Link(f"in {category}", changed(data, {"cat": _without(data, "cat", category)}))
            for category in filters.categories
        ]
        if filters.year_from is not None:
            active.append(Link(f"from {filters.year_from}", changed(data, {"from": None})))
        if filters.year_to is not None:
            active.append(Link(f"until {filters.year_to}", changed(data, {"to": None})))
        if filters.cited_only:
            active.append(Link("with citations", changed(data, {"cited": None})))
        active += [
            Link(f"type {PAPER_TYPE_LABELS[value]}", changed(data, {"type": _without(data, "type", value)}))
            for value in filters.paper_types
            if value in data.getlist("type")  # a type: in the query is removed from the query
        ]
        active += [
            Link(f"topic #{value}", changed(data, {"topic": _without(data, "topic", value)}))
            for value in filters.topics
            if value in data.getlist("topic")  # a topic: in the query is removed from the query
        ]
        page = results.page if results else 1
        return cls(
            modes=[
                Link(label, changed(data, {"mode": mode.value}), mode is params.mode)
                for mode, label in MODE_LABELS.items()
            ],
            sorts=[
                Link(label, changed(data, {"sort": sort.value}), sort is params.sort)
                for sort, label in SORT_LABELS.items()
            ],
            active_filters=active,
            previous_page=changed(data, {"page": str(page - 1) if page > 2 else None}),
            next_page=changed(data, {"page": str(page + 1)}),
            suggestions=[
                Link(suggestion.text, changed(data, suggestion.change) if suggestion.change else "")
                for suggestion in (results.suggestions if results else [])
            ],
            add_category=changed(data, {}),
        )


def _without(data: QueryDict, name: str, value: str) -> list[str]:
    return [item for item in data.getlist(name) if item.strip() != value]
