"""`{% load chat %}`: the dock every page carries, and an answer's HTML."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.http import HttpRequest
from django.utils.safestring import SafeString

from chat.rendering import answer_html
from chat.scopes import CORPUS, Scope, ScopeKind, search_scope_key
from core.links import sign_in_url

register = template.Library()


def page_scope(context: template.Context) -> Scope:
    """What a question asked from this page is about, from what the page shows (no query): its paper,
    researcher or institution, its search, or else the whole corpus."""
    request: HttpRequest | None = context.get("request")
    match = getattr(request, "resolver_match", None)
    view = match.view_name if match else ""
    paper, researcher, institution = (
        context.get("paper"),
        context.get("researcher"),
        context.get("institution"),
    )
    if view == "papers:detail" and paper is not None:
        return Scope(ScopeKind.PAPER, paper.arxiv_id, paper.title)
    if view == "researchers:detail" and researcher is not None:
        return Scope(ScopeKind.RESEARCHER, str(researcher.pk), researcher.display_name)
    if view == "institutions:detail" and institution is not None:
        return Scope(ScopeKind.INSTITUTION, str(institution.pk), institution.name)
    if view == "search:search" and request is not None and request.GET.get("q", "").strip():
        return Scope(ScopeKind.SEARCH, search_scope_key(request.GET), request.GET["q"])
    return CORPUS


@register.inclusion_tag("chat/_dock.html", takes_context=True)
def chat_dock(context: template.Context) -> dict:
    request = context.get("request")
    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated)
    here = request.get_full_path() if request is not None else "/"
    return {
        "signed_in": signed_in,
        "sign_in_url": sign_in_url(here),
        "scope": page_scope(context),
        "on_chat_page": bool(
            request and request.resolver_match and request.resolver_match.app_name == "chat"
        ),
        "max_question_chars": settings.CHAT_MAX_QUESTION_CHARS,
    }


@register.filter
def answer(message: object) -> SafeString:
    """A stored answer (a Message) as sanitised HTML with its citations linked."""
    return answer_html(message.content, message.sources)
