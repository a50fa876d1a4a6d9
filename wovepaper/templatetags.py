"""Template tags shared by every app: `{% load wovepaper %}`."""

import json
from typing import Any

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

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
