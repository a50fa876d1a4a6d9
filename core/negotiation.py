"""A page's HTML or its Markdown, chosen by the request's Accept header.

HTML is the default. Markdown is answered only when the client gives text/markdown a higher quality than
text/html, each judged by the most specific media range that matches it (RFC 9110, section 12.5.1), so
`Accept: text/markdown` and `Accept: text/markdown, text/html;q=0.5` get Markdown, while `*/*`, a browser's
header, or a tie get HTML.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import MediaType
from django.template.response import SimpleTemplateResponse
from django.utils.cache import patch_vary_headers

MARKDOWN_CONTENT_TYPE = "text/markdown; charset=utf-8"


def _quality(ranges: list[MediaType], main_type: str, sub_type: str) -> float:
    best_specificity, best_quality = -1, 0.0
    for media_range in ranges:
        main, sub = media_range.main_type.lower(), media_range.sub_type.lower()
        if (main, sub) == (main_type, sub_type):
            specificity = 2
        elif (main, sub) == (main_type, "*"):
            specificity = 1
        elif (main, sub) == ("*", "*"):
            specificity = 0
        else:
            continue
        if specificity > best_specificity:
            best_specificity, best_quality = specificity, media_range.quality
    return best_quality


def prefers_markdown(request: HttpRequest) -> bool:
    ranges = [MediaType(token) for token in request.headers.get("Accept", "").split(",") if token.strip()]
    return _quality(ranges, "text", "markdown") > _quality(ranges, "text", "html")


def markdown_template_name(template_name: str | list[str] | tuple[str, ...]) -> str | list[str]:
    """papers/detail.html → papers/detail.md; a partial's #fragment goes: Markdown is the whole page."""
    if isinstance(template_name, list | tuple):
        return [markdown_template_name(name) for name in template_name]
    page = template_name.partition("#")[0]
    return page.removesuffix(".html") + ".md"


def markdown_alternative(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a view that answers a TemplateResponse: render the .md twin of its template instead when the
    client prefers Markdown. The HTML gets `markdown_alternate_url` in its context, which base.html turns
    into <link rel="alternate" type="text/markdown">. Both answers vary on Accept. Anything else the view
    answers (a redirect, a plain response, an error page) passes through untouched."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if not isinstance(response, SimpleTemplateResponse):
            return response
        patch_vary_headers(response, ["Accept"])
        if response.status_code != 200:
            return response  # error pages (a 404 for a paper not here yet) stay HTML
        if prefers_markdown(request):
            response.template_name = markdown_template_name(response.template_name)
            response["Content-Type"] = MARKDOWN_CONTENT_TYPE
        else:
            response.context_data = {
                **(response.context_data or {}),
                "markdown_alternate_url": f"{settings.SITE_URL}{request.get_full_path()}",
            }
        return response

    return wrapped
