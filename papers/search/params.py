"""The parameters of /search, read strictly: a value that is not one of ours is an error with a message
(the page answers 400), never a guess. The query text itself is never an error (see query.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.http import QueryDict

from papers.search.query import CATEGORY_PATTERN, Filters, Mode, ParsedQuery, Sort, parse

MAX_CATEGORIES = 20
_YEAR = re.compile(r"^\d{4}$")
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("", "0", "false", "off", "no")


class InvalidSearch(ValueError):
    """A search parameter with a value we cannot use; the message says which and what would do."""


@dataclass(frozen=True)
class SearchParams:
    q: str
    mode: Mode
    sort: Sort
    filters: Filters
    page: int

    def parsed(self) -> ParsedQuery:
        return parse(self.q, mode=self.mode, sort=self.sort, filters=self.filters)


def _choice(data: QueryDict, name: str, choices: type[Mode] | type[Sort]) -> Mode | Sort:
    value = data.get(name, "").strip()
    if not value:
        return next(iter(choices))
    try:
        return choices(value)
    except ValueError:
        allowed = ", ".join(choice.value for choice in choices)
        raise InvalidSearch(f"{name} must be one of {allowed}; got {value[:40]!r}") from None


def _year(data: QueryDict, name: str) -> int | None:
    value = data.get(name, "").strip()
    if not value:
        return None
    if not _YEAR.match(value):
        raise InvalidSearch(f"{name} must be a year such as 2020; got {value[:40]!r}")
    return int(value)


def _categories(data: QueryDict) -> tuple[str, ...]:
    values = [value.strip() for value in data.getlist("cat") if value.strip()]
    if len(values) > MAX_CATEGORIES:
        raise InvalidSearch(f"at most {MAX_CATEGORIES} categories can be chosen at once")
    for value in values:
        if not CATEGORY_PATTERN.match(value):
            raise InvalidSearch(f"{value[:40]!r} is not an arXiv category (such as cs.LG or hep-th)")
    return tuple(dict.fromkeys(values))


def _page(data: QueryDict) -> int:
    """A page "number" that is not one gives the first page (as everywhere on the site)."""
    value = data.get("page", "").strip()
    return int(value) if value.isdigit() and 0 < len(value) < 6 else 1


def read_params(data: QueryDict) -> SearchParams:
    """The search a request asks for; raises InvalidSearch for a filter, mode or sort we cannot use."""
    cited = data.get("cited", "").strip().lower()
    if cited not in _TRUE + _FALSE:
        raise InvalidSearch(f"cited must be 1 (only papers with citations) or left out; got {cited[:40]!r}")
    year_from, year_to = _year(data, "from"), _year(data, "to")
    if year_from is not None and year_to is not None and year_from > year_to:
        raise InvalidSearch(f"from ({year_from}) must not be after to ({year_to})")
    return SearchParams(
        q=data.get("q", ""),
        mode=_choice(data, "mode", Mode),
        sort=_choice(data, "sort", Sort),
        filters=Filters(
            categories=_categories(data), year_from=year_from, year_to=year_to, cited_only=cited in _TRUE
        ),
        page=_page(data),
    )
