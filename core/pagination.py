import math

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest


def paginate(
    request: HttpRequest,
    queryset: QuerySet,
    per_page: int,
    *,
    page_param: str = "page",
    count: int | None = None,
    estimated_count: int | None = None,
) -> Page:
    """The requested page: a page "number" that is not one gives the first page, one past the end the last.
    `page_param` names the query parameter, for pages with two lists. `count`, when the caller knows it,
    saves the COUNT query. `estimated_count`, a recent count (cached) of a list that grows, saves it on
    every page before the last one the estimate implies: those pages are full either way, and only the
    total shown and the range of page links can be a little behind. The last page, and any page number
    that get_page() turns into the last, are counted exactly: the end of the list is never cut short,
    and what was added since is reachable."""
    paginator = Paginator(queryset, per_page)
    if count is not None:
        paginator.count = count  # a cached_property: set, it is never computed
    elif estimated_count is not None and _before_the_last(request, page_param, estimated_count, per_page):
        paginator.count = estimated_count
    return paginator.get_page(request.GET.get(page_param))


def _before_the_last(request: HttpRequest, page_param: str, count: int, per_page: int) -> bool:
    """Whether the page asked for comes before the last of `count` items, as get_page() reads it: not a
    number is page 1, a number out of range the last page."""
    try:
        number = int(request.GET.get(page_param) or 1)
    except ValueError:
        number = 1
    return 1 <= number < math.ceil(count / per_page)
