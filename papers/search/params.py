"""The parameters of a search, read strictly and in one place for /search, /api/search and saved searches:
`q`, `mode`, `sort`, `cat` (repeatable), `type` (repeatable), `topic` (repeatable), `from`, `to`, `cited`
and `page`. A value
that is not one of ours is an error with a message (a 400), never a guess. The query text itself is never
an error (see query.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import QueryDict

from papers.categories import is_arxiv_category
from papers.identifiers import FIRST_ARXIV_YEAR, LAST_YEAR, ArxivId, parse_arxiv_id
from papers.paper_types import PAPER_TYPE_LABELS, paper_type_named
from papers.search.query import Filters, Mode, ParsedQuery, Sort, parse

MAX_CATEGORIES = 20
MAX_TOPICS = 20
MAX_TOPIC_DIGITS = 9  # as topic: in the query reads them
SEARCH_RATE_GROUP = "search"  # one budget of SEARCH_RATE_LIMIT per address, on /search and /api/search
MAX_PAGE_DIGITS = 5  # pages past the results' end give the last page anyway
TRUE_VALUES = ("1", "true", "on", "yes")
FALSE_VALUES = ("", "0", "false", "off", "no")


class InvalidSearch(ValueError):
    """A search parameter with a value we cannot use; the message says which and what would do."""


@dataclass(frozen=True)
class SearchParams:
    q: str = ""
    mode: Mode = Mode.HYBRID
    sort: Sort = Sort.RELEVANCE
    filters: Filters = field(default_factory=Filters)
    page: int = 1

    def parsed(self) -> ParsedQuery:
        return parse(self.q, mode=self.mode, sort=self.sort, filters=self.filters)

    @property
    def arxiv_id(self) -> ArxivId | None:
        """The arXiv id the query is, when it is one (an id or an arXiv URL): it goes to that paper."""
        return parse_arxiv_id(self.q) if self.q.strip() else None


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
    if not (value.isascii() and value.isdigit() and FIRST_ARXIV_YEAR <= int(value) <= LAST_YEAR):
        raise InvalidSearch(
            f"{name} must be a year from {FIRST_ARXIV_YEAR} to {LAST_YEAR}, such as 2020; got {value[:40]!r}"
        )
    return int(value)


def _categories(data: QueryDict) -> tuple[str, ...]:
    values = [value.strip() for value in data.getlist("cat") if value.strip()]
    if len(values) > MAX_CATEGORIES:
        raise InvalidSearch(f"at most {MAX_CATEGORIES} categories can be chosen at once")
    for value in values:
        if not is_arxiv_category(value):
            raise InvalidSearch(f"{value[:40]!r} is not an arXiv category (such as cs.LG or hep-th)")
    return tuple(dict.fromkeys(values))


def _paper_types(data: QueryDict) -> tuple[str, ...]:
    types = []
    for value in (value.strip() for value in data.getlist("type") if value.strip()):
        paper_type = paper_type_named(value)
        if paper_type is None:
            raise InvalidSearch(f"type must be one of {', '.join(PAPER_TYPE_LABELS)}; got {value[:40]!r}")
        types.append(paper_type)
    return tuple(dict.fromkeys(types))


def _topics(data: QueryDict) -> tuple[str, ...]:
    """Topic ids as text, as the keyword index stores them (the Topic control sends one, topic:12 reads
    so)."""
    values = [value.strip() for value in data.getlist("topic") if value.strip()]
    if len(values) > MAX_TOPICS:
        raise InvalidSearch(f"at most {MAX_TOPICS} topics can be chosen at once")
    for value in values:
        if not (value.isascii() and value.isdigit() and len(value) <= MAX_TOPIC_DIGITS):
            raise InvalidSearch(f"topic must be a topic number (such as 12); got {value[:40]!r}")
    return tuple(dict.fromkeys(str(int(value)) for value in values))


def _page(data: QueryDict) -> int:
    """A page "number" that is not one gives the first page (as everywhere on the site)."""
    value = data.get("page", "").strip()
    if value.isascii() and value.isdigit() and len(value) <= MAX_PAGE_DIGITS:
        return max(int(value), 1)
    return 1


def read_params(data: QueryDict) -> SearchParams:
    """The search a request asks for; raises InvalidSearch for a filter, mode or sort we cannot use."""
    cited = data.get("cited", "").strip().lower()
    if cited not in TRUE_VALUES + FALSE_VALUES:
        raise InvalidSearch(f"cited must be 1 (only papers with citations) or left out; got {cited[:40]!r}")
    # from after to is no error: the parsed query finds nothing and notes that the years do not overlap
    year_from, year_to = _year(data, "from"), _year(data, "to")
    return SearchParams(
        q=data.get("q", ""),
        mode=_choice(data, "mode", Mode),
        sort=_choice(data, "sort", Sort),
        filters=Filters(
            categories=_categories(data),
            year_from=year_from,
            year_to=year_to,
            cited_only=cited in TRUE_VALUES,
            paper_types=_paper_types(data),
            topics=_topics(data),
        ),
        page=_page(data),
    )
