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
) -> Page:
    """The requested page: a page "number" that is not one gives the first page, one past the end the last.
    `page_param` names the query parameter, for pages with two lists; `count`, when the caller knows it,
    saves the COUNT query."""
    paginator = Paginator(queryset, per_page)
    if count is not None:
        paginator.count = count  # a cached_property: set, it is never computed
    return paginator.get_page(request.GET.get(page_param))
