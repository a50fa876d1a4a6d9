"""What crawlers and language models read first: robots.txt and llms.txt."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from core.negotiation import MARKDOWN_CONTENT_TYPE, prefers_markdown


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/robots.txt", content_type="text/plain; charset=utf-8")


@require_GET
def llms_txt(request: HttpRequest) -> HttpResponse:
    """Markdown either way (llmstxt.org); labelled text/markdown when the client prefers that, otherwise
    text/plain, which every browser and crawler shows as it is."""
    content_type = MARKDOWN_CONTENT_TYPE if prefers_markdown(request) else "text/plain; charset=utf-8"
    response = render(request, "pages/llms.txt", content_type=content_type)
    patch_vary_headers(response, ["Accept"])
    return response
