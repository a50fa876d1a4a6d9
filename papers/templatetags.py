"""Template tags for papers: `{% load papers %}`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from django import template
from django.contrib.humanize.templatetags.humanize import intcomma, ordinal
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from papers import categories
from papers.models import Paper
from papers.paper_types import PAPER_TYPE_LABELS
from researchers.models import Researcher

if TYPE_CHECKING:
    from papers.search.engine import PaperHit

register = template.Library()

# A list item names every author of a paper with up to this many, else the first LIST_AUTHORS_SHOWN.
LIST_AUTHORS_ALL_UP_TO = 12
LIST_AUTHORS_SHOWN = 10


@register.filter
def category_label(code: str) -> str:
    """The readable label, "Machine Learning (cs.LG)": a category badge's title, a filter's label."""
    return categories.category_label(code)


@register.filter
def category_name(code: str) -> str:
    """The readable name, "Machine Learning", or empty for a code arXiv never had."""
    info = categories.category_info(code)
    return info.name if info else ""


@register.filter
def paper_type_label(paper_type: str | None) -> str:
    """The type as pages name it: "survey/review" for "survey"; empty for none."""
    return PAPER_TYPE_LABELS.get(paper_type or "", paper_type or "")


@register.filter
def percentile(value: float | None) -> str:
    """A percentile as words: "82nd percentile"; empty for none."""
    return "" if value is None else f"{ordinal(round(value))} percentile"


class Author(Protocol):
    """An author as lists show one: an Authorship, or a search hit's HitAuthor."""

    name: str
    researcher_id: int | None

    @property
    def url(self) -> str: ...


@register.simple_tag
def author_links(authors: Iterable[Author], current: Researcher | str | None = None) -> SafeString:
    """The authors, comma-separated, each matched one linked to their profile (`current`, the profile
    being read, marked as the current page; a template without one passes ""). Written in Python because
    a list page renders hundreds of them, and a template loop costs several times as much."""
    current_id = current.pk if current else None
    return mark_safe(  # noqa: S308 - every name went through escape() or format_html()
        ", ".join(
            escape(author.name)
            if author.researcher_id is None
            else format_html(
                '<a href="{}"{}>{}</a>',
                author.url,
                mark_safe(' aria-current="page"') if author.researcher_id == current_id else "",
                author.name,
            )
            for author in authors
        )
    )


@register.simple_tag
def item_authors(
    paper: Paper, hit: PaperHit | None = None, current: Researcher | str | None = None
) -> SafeString:
    """The authors of a paper in a list (`paper.authorships` prefetched), or of a search hit (its first
    few): a long list ends in "and 2,990 more", linking to the paper."""
    shown: Sequence[Author]
    if hit:
        shown, total = hit.authors, len(paper.authors)
    else:
        shown = list(paper.authorships.all())
        total = len(shown)
        if total > LIST_AUTHORS_ALL_UP_TO:
            shown = shown[:LIST_AUTHORS_SHOWN]
    links = author_links(shown, current)
    if total <= len(shown):
        return links
    return format_html(
        '{} <a href="{}">and {} more</a>', links, paper.get_absolute_url(), intcomma(total - len(shown))
    )
