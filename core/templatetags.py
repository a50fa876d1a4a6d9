"""Template tags shared by every app: `{% load wovepaper %}`."""

import json
from typing import Any

from django import template
from django.conf import settings
from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from core.latex import readable_html, readable_text
from core.links import absolute_url, web_url

register = template.Library()


@register.filter
def latex(text: str) -> SafeString:
    """A harvested title or abstract as escaped HTML with its TeX made readable (maths in a span)."""
    return readable_html(text)


@register.filter
def latex_text(text: str) -> str:
    """A harvested title or abstract as plain text with its TeX made readable (still autoescaped)."""
    return readable_text(text)


# `{{ path|absolute }}`: canonical links and social cards.
register.filter("absolute", absolute_url)
register.filter("web_url", web_url)


@register.simple_tag
def query_with(query: QueryDict | None, **changes: object) -> str:
    """`?…`: `query` with some parameters changed, None removing one. Always starts with `?`, so a link
    that clears every parameter still leaves the current address's query behind."""
    params = query.copy() if query is not None else QueryDict(mutable=True)
    for name, value in changes.items():
        params.pop(name, None)
        if value is not None:
            params[name] = str(value)
    return f"?{params.urlencode()}"


@register.simple_tag(takes_context=True)
def page_query(context: template.Context, page_param: str, number: int) -> str:
    """`?…` for page `number` of a list whose page parameter is `page_param`, for includes/pagination.html.
    Keeps the other parameters the including template passed as `kept_params` (a QueryDict or an encoded
    string); page 1 leaves the parameter out."""
    kept = context.get("kept_params") or ""
    params = QueryDict(kept, mutable=True) if isinstance(kept, str) else kept.copy()
    params.pop(page_param, None)
    if number != 1:
        params[page_param] = str(number)
    return f"?{params.urlencode()}"


# The characters that could close a <script> element or start an HTML comment inside it.
_JSON_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag
def jsonld(data: Any) -> SafeString:
    """A JSON-LD <script> element; harvested text inside it cannot break out of the element."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_JSON_SCRIPT_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(payload))  # noqa: S308


@register.simple_tag
def site_jsonld() -> SafeString:
    site_url = settings.SITE_URL
    return jsonld(
        {
            "@context": "https://schema.org",
            "@graph": [
                {
                    "@type": "Organization",
                    "@id": f"{site_url}/#organization",
                    "name": settings.SITE_NAME,
                    "url": f"{site_url}/",
                    "email": settings.CONTACT_EMAIL,
                },
                {
                    "@type": "WebSite",
                    "@id": f"{site_url}/#website",
                    "name": settings.SITE_NAME,
                    "url": f"{site_url}/",
                    "publisher": {"@id": f"{site_url}/#organization"},
                    "potentialAction": {
                        "@type": "SearchAction",
                        "target": {
                            "@type": "EntryPoint",
                            "urlTemplate": f"{site_url}/search?q={{search_term_string}}",
                        },
                        "query-input": "required name=search_term_string",
                    },
                },
            ],
        }
    )
