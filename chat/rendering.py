"""An answer's Markdown as safe HTML: rendered by markdown-it (CommonMark, raw HTML off, so tags in the
text show as text), its `[n]` citations turned into links to the cited papers (numbers that name no
source disappear), then sanitised by nh3: a short list of tags, and links only to http(s) addresses or to
this site's own paths."""

from __future__ import annotations

import re
from collections.abc import Sequence

import nh3
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from core.links import own_path

QUOTE_IN_TITLE = 300  # characters of the quoted sentence a citation's tooltip shows
ALLOWED_TAGS = {
    "p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a", "h3", "h4", "h5", "h6",
    "hr", "del", "sup", "sub",
}  # fmt: skip
_CITATION = re.compile(r"\[(\d{1,3})\]")


def _citation_rule(state: StateInline, silent: bool) -> bool:
    match = _CITATION.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("citation", "", 0)
        token.meta = {"number": int(match.group(1))}
    state.pos = match.end()
    return True


def _render_citation(
    renderer: RendererHTML, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    number = tokens[index].meta["number"]
    source = env.get("sources", {}).get(number)
    if source is None:
        return ""
    quote = source.get("quotes", [""])[0] if source.get("quotes") else ""
    title = f' title="{escape(quote[:QUOTE_IN_TITLE])}"' if quote else ""
    return (
        f'<a class="cite" href="{escape(source["url"])}#abstract-heading"{title} '
        f'aria-label="source {number}: {escape(source["title"])}">[{number}]</a>'
    )


def _markdown() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    renderer.inline.ruler.before("link", "citation", _citation_rule)
    renderer.add_render_rule("citation", _render_citation)
    renderer.disable("image")  # no requests to addresses a model or an abstract chose
    return renderer


_MARKDOWN = _markdown()


def _safe_href(tag: str, attribute: str, value: str) -> str | None:
    if tag == "a" and attribute == "href":
        return value if value.startswith(("https://", "http://")) or own_path(value) else None
    return value


def answer_html(text: str, sources: Sequence[dict]) -> SafeString:
    """The answer's Markdown as sanitised HTML, citations linked to `sources` (stored Source dicts)."""
    html = _MARKDOWN.render(text, {"sources": {source["number"]: source for source in sources}})
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title", "aria-label"}},
        attribute_filter=_safe_href,
        allowed_classes={"a": {"cite"}},
        url_schemes={"http", "https"},
        link_rel="nofollow noopener noreferrer",
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above
