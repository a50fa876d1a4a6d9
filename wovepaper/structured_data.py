"""Pieces of schema.org JSON-LD every page type shares. The site's own graph is `{% site_jsonld %}`."""

from django.conf import settings


def absolute_url(path: str) -> str:
    """This site's absolute URL of one of its paths."""
    return f"{settings.SITE_URL}{path}"


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
