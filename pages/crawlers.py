"""What crawlers, language models and security researchers read first: robots.txt, llms.txt and
/.well-known/security.txt."""

import datetime

from django.conf import settings
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


@require_GET
def security_txt(request: HttpRequest) -> HttpResponse:
    """RFC 9116: where to report a vulnerability. Its expiry is always a year ahead: the file is made from
    the settings on each request, so it never goes stale while the contact address is right."""
    expires = datetime.datetime.now(datetime.UTC).replace(microsecond=0) + datetime.timedelta(days=365)
    lines = [
        f"Contact: mailto:{settings.CONTACT_EMAIL}",
        f"Expires: {expires.isoformat().replace('+00:00', 'Z')}",
        "Preferred-Languages: en",
        f"Canonical: {settings.SITE_URL}/.well-known/security.txt",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
