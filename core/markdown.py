"""Template filters and tags for the Markdown twins of pages: `{% load markdown %}`.

Markdown templates render with autoescape off, since HTML escaping would litter the text with entities;
every harvested value goes through `md` (inline) or `md_block` (a paragraph) instead, which keep it one
line of literal text: it cannot open a link, a code span or raw HTML, nor start a heading, list or quote.
"""

import re
from urllib.parse import quote

from django import template

register = template.Library()

_ASCII_PUNCTUATION = r"!-/:-@\[-`{-~"
_BACKSLASH_BEFORE_PUNCTUATION = re.compile(rf"\\(?=[{_ASCII_PUNCTUATION}])")
_INLINE_SPECIALS = re.compile(r"([\[\]`<])")
_LEADING_MARKER = re.compile(r"^[#>+\-*=]")
_LEADING_ORDINAL = re.compile(r"^(\d+)([.)])")
AUTHORS_SHOWN = 3


@register.filter
def md(value: object) -> str:
    """Literal inline text on one line: whitespace collapsed, and what could open a link, a code span or
    raw HTML escaped."""
    text = " ".join(str(value).split())
    text = _BACKSLASH_BEFORE_PUNCTUATION.sub(r"\\\\", text)
    return _INLINE_SPECIALS.sub(r"\\\1", text)


@register.filter
def md_block(value: object) -> str:
    """A paragraph of literal text: as `md`, and a leading #, >, - or 1. escaped so that it cannot start a
    heading, a quote or a list."""
    text = _LEADING_MARKER.sub(r"\\\g<0>", md(value))
    return _LEADING_ORDINAL.sub(r"\1\\\2", text)


@register.filter
def md_url(value: object) -> str:
    """A link destination that cannot end the link early: spaces, brackets and parentheses percent-encoded."""
    return quote(str(value), safe=":/?#@!$&'*+,;=%~")


@register.filter
def md_authors(names: list[str]) -> str:
    """The first authors, then "et al.", escaped."""
    shown = ", ".join(names[:AUTHORS_SHOWN])
    return md(shown + (" et al." if len(names) > AUTHORS_SHOWN else ""))


@register.filter
def fenced(text: str, info: str = "") -> str:
    """A fenced code block whose fence is longer than any backtick run inside, so nothing can close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text.strip()}\n{fence}"
