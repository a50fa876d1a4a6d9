"""Template tags for papers: `{% load papers %}`."""

from collections.abc import Iterable

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from papers.models import Authorship
from researchers.models import Researcher

register = template.Library()


@register.simple_tag
def author_links(authorships: Iterable[Authorship], current: Researcher | str | None = None) -> SafeString:
    """The authors, comma-separated, each matched one linked to their profile (`current`, the profile
    being read, marked as the current page; a template without one passes ""). Written in Python because
    a list page renders hundreds of them, and a template loop costs several times as much."""
    current_id = current.pk if current else None
    return mark_safe(  # noqa: S308 - every name went through escape() or format_html()
        ", ".join(
            escape(authorship.name)
            if authorship.researcher is None
            else format_html(
                '<a href="{}"{}>{}</a>',
                authorship.researcher.get_absolute_url(),
                mark_safe(' aria-current="page"') if authorship.researcher_id == current_id else "",
                authorship.name,
            )
            for authorship in authorships
        )
    )
