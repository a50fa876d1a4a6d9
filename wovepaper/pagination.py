from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest


def paginate(request: HttpRequest, queryset: QuerySet, per_page: int, *, page_param: str = "page") -> Page:
    """The requested page: a page "number" that is not one gives the first page, one past the end the last.
    `page_param` names the query parameter, for pages with two lists."""
    return Paginator(queryset, per_page).get_page(request.GET.get(page_param))
