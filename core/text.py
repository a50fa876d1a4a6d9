"""Plain-text helpers every app shares."""

from django.utils.text import slugify
from unidecode import unidecode

SLUG_MAX_LENGTH = 80


def slug_of(text: str, *, fallback: str) -> str:
    """The readable part of a canonical URL: ASCII words joined by hyphens, at most 80 characters, never
    empty ('Über Graphen' is 'uber-graphen'; a title of only symbols gets `fallback`)."""
    return slugify(unidecode(text))[:SLUG_MAX_LENGTH].strip("-") or fallback
