"""What every endpoint of the JSON API shares: the error object, pages of results with their totals,
answers to conditional requests, and absolute links."""

import hashlib
import math
from datetime import datetime
from http import HTTPStatus
from typing import Any, Generic, TypeVar

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date, quote_etag
from ninja import Field, Schema

from core.links import absolute_url

ResultT = TypeVar("ResultT")

JSON_CONTENT_TYPE = "application/json; charset=utf-8"
# Deep pages cost the database an ever longer OFFSET scan; filters narrow a list better than paging.
MAX_PAGE = 1000
MAX_PER_PAGE = 100
# PostgreSQL text cannot hold NUL, so text parameters refuse it up front (400) instead of failing in SQL.
WITHOUT_NUL = r"^[^\x00]*$"
ERROR_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    429: "rate_limited",
    500: "server_error",
}


class ErrorDetail(Schema):
    location: str = Field(description="The parameter at fault, e.g. `query.year_from`.")
    message: str


class ErrorOut(Schema):
    """The one shape of every error the API answers, whatever its status."""

    status: int = Field(description="The HTTP status, repeated for clients that only see the body.")
    error: str = Field(
        description="A short code: bad_request, not_found, method_not_allowed, rate_limited, server_error."
    )
    message: str = Field(description="What went wrong, for a person to read.")
    details: list[ErrorDetail] = Field(default_factory=list, description="One entry per invalid parameter.")


# Every operation documents these, so a client (and schemathesis) knows each possible error's shape. 414
# comes from the HTTP server in front of Django (gunicorn reads request lines of up to 4 KB), so it has
# no body of ours.
ERROR_RESPONSES: dict[frozenset[int] | int, type[ErrorOut] | None] = {
    frozenset({400, 404, 429, 500}): ErrorOut,
    414: None,
}


class PageOut(Schema, Generic[ResultT]):
    count: int = Field(description="Results in all pages together.")
    page: int
    per_page: int
    pages: int = Field(description="How many pages there are; at least 1.")
    next: str | None = Field(description="The next page's address, or null on the last page.")
    previous: str | None = Field(description="The previous page's address, or null on the first page.")
    results: list[ResultT]


class Pagination(Schema):
    page: int = Field(1, ge=1, le=MAX_PAGE, description=f"1-based; at most {MAX_PAGE}.")
    per_page: int = Field(25, ge=1, le=MAX_PER_PAGE, description=f"Results per page, 1 to {MAX_PER_PAGE}.")


def page_link(request: HttpRequest, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return absolute_url(f"{request.path}?{query.urlencode()}")


def page_of(request: HttpRequest, queryset: QuerySet, pagination: Pagination) -> dict[str, Any]:
    """One page of `queryset` with the totals (a COUNT and the page's own query). A page past the end is
    empty, not an error: the totals say where the results end."""
    count = queryset.count()
    pages = max(1, math.ceil(count / pagination.per_page))
    start = (pagination.page - 1) * pagination.per_page
    results = list(queryset[start : start + pagination.per_page]) if start < count else []
    return {
        "count": count,
        "page": pagination.page,
        "per_page": pagination.per_page,
        "pages": pages,
        "next": page_link(request, pagination.page + 1) if pagination.page < pages else None,
        "previous": page_link(request, min(pagination.page - 1, pages)) if pagination.page > 1 else None,
        "results": results,
    }


def error_response(status: int, message: str, details: list[dict[str, str]] | None = None) -> HttpResponse:
    code = ERROR_CODES.get(status) or HTTPStatus(status).phrase.lower().replace(" ", "_")
    error = ErrorOut(status=status, error=code, message=message, details=details or [])
    return HttpResponse(error.model_dump_json(), status=status, content_type=JSON_CONTENT_TYPE)


def too_many_requests_error(message: str, wait: int) -> HttpResponse:
    """The 429 error object, with Retry-After: `wait` seconds (core.ratelimits.wait_seconds)."""
    response = error_response(429, message)
    response["Retry-After"] = str(wait)
    return response


def detail_response(request: HttpRequest, payload: Schema, *, last_modified: datetime) -> HttpResponse:
    """The payload with a strong ETag (a digest of the body, so it changes whenever anything in it does)
    and Last-Modified (the newest change time of the rows it shows); 304 when the client's copy matches.
    If-None-Match wins over If-Modified-Since, as RFC 9110 says."""
    body = payload.model_dump_json().encode()
    timestamp = int(last_modified.timestamp())
    response = HttpResponse(body, content_type=JSON_CONTENT_TYPE)
    response["ETag"] = quote_etag(hashlib.sha256(body).hexdigest()[:32])
    response["Last-Modified"] = http_date(timestamp)
    return get_conditional_response(
        request, etag=response["ETag"], last_modified=timestamp, response=response
    )
