"""The options of a paper list (sort order and category filter), read from a query string and applied.

A sort the list does not know falls back to the default; a category that cannot be an arXiv category is
a bad request (400), so a mistyped link says so instead of quietly showing everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import BadRequest
from django.http import QueryDict

from papers.categories import is_arxiv_category
from papers.querysets import PaperQuerySet

SORTS = {
    "newest": PaperQuerySet.newest_first,
    "oldest": PaperQuerySet.oldest_first,
    "cited": PaperQuerySet.most_cited,
}
SORT_LABELS = {"newest": "Newest", "oldest": "Oldest", "cited": "Most cited"}
DEFAULT_SORT = "newest"


@dataclass(frozen=True)
class FieldBar:
    """One category of a fields histogram: a link that filters the paper list to it."""

    category: str
    paper_count: int
    percent: int  # of the papers the histogram is about
    href: str
    current: bool


@dataclass(frozen=True)
class PaperListing:
    sort: str = DEFAULT_SORT
    category: str = ""

    @classmethod
    def from_query(cls, query: QueryDict) -> PaperListing:
        sort = query.get("sort", DEFAULT_SORT)
        category = query.get("category", "").strip()
        if category and not is_arxiv_category(category):
            raise BadRequest("The category filter must be an arXiv category such as cs.LG or hep-th.")
        return cls(sort=sort if sort in SORTS else DEFAULT_SORT, category=category)

    def apply(self, papers: PaperQuerySet) -> PaperQuerySet:
        if self.category:
            papers = papers.in_category(self.category)
        return SORTS[self.sort](papers)

    def query(self) -> QueryDict:
        """The listing as query parameters, defaults left out, for links that change one of them."""
        query = QueryDict(mutable=True)
        if self.sort != DEFAULT_SORT:
            query["sort"] = self.sort
        if self.category:
            query["category"] = self.category
        return query

    @property
    def sort_links(self) -> list[tuple[str | None, str, bool]]:
        """(parameter value, label, is current) of every sort order; the default's value is None, so
        its link leaves the parameter out."""
        return [
            (None if key == DEFAULT_SORT else key, label, key == self.sort)
            for key, label in SORT_LABELS.items()
        ]

    def field_bars(self, fields: Iterable[dict], total: int) -> list[FieldBar]:
        """The bars of a fields histogram (`category_counts()` rows) out of `total` papers, each linking
        to this listing filtered to its category. Built here, not per bar in the template: a large
        institution has a hundred of them."""
        query = self.query()
        bars = []
        for field in fields:
            query["category"] = field["category"]
            bars.append(
                FieldBar(
                    category=field["category"],
                    paper_count=field["paper_count"],
                    percent=min(100, round(100 * field["paper_count"] / total)) if total else 0,
                    href=f"?{query.urlencode()}",
                    current=field["category"] == self.category,
                )
            )
        return bars
