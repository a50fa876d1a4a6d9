"""wovepaper's JSON API: django-ninja under /api/, its OpenAPI document at /openapi.json and its
interactive docs at /api/docs. Every error, wherever it arises under /api/, is one ErrorOut object."""

import logging
from collections.abc import Callable
from functools import cache, wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.openapi.docs import Swagger

from core.api import JSON_CONTENT_TYPE, error_response, too_many_requests_error
from core.ratelimits import wait_seconds
from core.rates import Rate
from institutions.api import router as institutions_router
from papers.api import router as papers_router
from papers.search.api import router as search_router
from researchers.api import router as researchers_router

logger = logging.getLogger(__name__)

DESCRIPTION = """Read wovepaper's corpus as JSON: arXiv papers, the researchers who wrote them and their
institutions, woven together by citations and similarity.

- Lists are paginated (`page`, `per_page`) and carry their totals (`count`, `pages`) and links (`next`,
  `previous`).
- Details carry `ETag` and `Last-Modified`; send `If-None-Match` or `If-Modified-Since` for a 304.
- Every error is one object with `status`, `error`, `message` and `details`.
- No key is needed. Each client address may send up to RATE; past that the answer is 429 with
  `Retry-After`.
- Anyone may call it from a browser on any origin (CORS, GET only).
"""


class OwnSwagger(Swagger):
    """Swagger UI from our own static files, reading the document at /openapi.json."""

    def get_openapi_url(self, api: NinjaAPI, path_params: dict[str, Any]) -> str:
        return reverse("openapi")


api = NinjaAPI(
    title="wovepaper API",
    version="1",
    description=DESCRIPTION.replace("RATE", Rate.parse(settings.API_RATE_LIMIT).in_words()),
    urls_namespace="api",
    openapi_url=None,  # served from the site's root, where llms.txt and crawlers look for it
    docs_url=None,
    docs=OwnSwagger(settings={"defaultModelsExpandDepth": 0}),
    servers=[{"url": settings.SITE_URL}],
)
api.add_router("/papers", papers_router)
api.add_router("/researchers", researchers_router)
api.add_router("/institutions", institutions_router)
api.add_router("/search", search_router)


def rate_limited(run: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Counts every API request against the client's address (django-ratelimit, in Redis), before its
    parameters are even read: invalid requests count too."""

    @wraps(run)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = wait_seconds(request, group="api", rate=settings.API_RATE_LIMIT, fail_open=True)
        if wait:
            limit = Rate.parse(settings.API_RATE_LIMIT).in_words()
            return too_many_requests_error(f"Too many requests: at most {limit} per client address.", wait)
        return run(request, *args, **kwargs)

    return wrapped


api.add_decorator(rate_limited, mode="view")


@api.exception_handler(ValidationError)
def invalid_parameters(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    details = [
        {"location": ".".join(str(part) for part in error["loc"]), "message": error["msg"]}
        for error in exc.errors
    ]
    return error_response(400, "Some parameters are not valid; see details.", details)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(404, str(exc) or "Not found")


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error_response(exc.status_code, exc.message)


@api.exception_handler(Exception)
def server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.error("API error on %s", request.path, exc_info=exc)
    return error_response(500, "Something went wrong on our side; it has been logged.")


def json_error_bodies(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: the errors under /api/ that Django or django-ninja answer themselves (an unknown path,
    a method other than GET, a failed precondition, a crash outside an operation) get the API's error
    object instead of an HTML page or an empty body. Their status and headers stay."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if (
            request.path_info.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            replacement = error_response(response.status_code, _message_for(request, response.status_code))
            for header in ("Allow", "Retry-After", "Vary"):
                if header in response:
                    replacement[header] = response[header]
            return replacement
        return response

    return middleware


def _message_for(request: HttpRequest, status: int) -> str:
    if status == 404:
        return f"No API endpoint at {request.path_info[:200]}; see {settings.SITE_URL}/openapi.json"
    if status == 405:
        return "The API only answers GET."
    if status == 429:
        return "Too many requests. Try again later."
    if status >= 500:
        return "Something went wrong on our side; it has been logged."
    return "The request cannot be answered."


@cache
def openapi_document() -> dict[str, Any]:
    return api.get_openapi_schema()


@require_GET
def openapi_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        openapi_document(), content_type=JSON_CONTENT_TYPE, json_dumps_params={"ensure_ascii": False}
    )


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    return api.docs.render_page(request, api)
