"""Pieces of schema.org JSON-LD every page type shares. The site's own graph is `{% site_jsonld %}`."""

from django.conf import settings

from core.links import absolute_url


def breadcrumbs(*trail: tuple[str, str]) -> dict:
    """A BreadcrumbList from (name, path) pairs; the site itself comes first."""
    items = [(settings.SITE_NAME, "/"), *trail]
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": position, "name": name, "item": absolute_url(path)}
            for position, (name, path) in enumerate(items, start=1)
        ],
    }
