"""What a question is about: the whole corpus, one paper and its neighbourhood, a researcher's or an
institution's papers, or the results of a search. A scope travels as one token (`paper:2501.01234`,
`researcher:42`, `search:q=graph+neural&cat=cs.LG`, `corpus`) in forms and links, and is stored on the
conversation with the label the reader saw."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models
from django.http import QueryDict

from core.latex import readable_text
from institutions.models import Institution
from papers.identifiers import parse_arxiv_id
from papers.models import Paper
from papers.search.params import InvalidSearch, read_params
from papers.search.query import Filters
from researchers.models import Researcher

MAX_TOKEN_LENGTH = 600
LABEL_LENGTH = 300


class ScopeKind(models.TextChoices):
    CORPUS = "corpus", "the whole corpus"
    PAPER = "paper", "this paper and its neighbours"
    RESEARCHER = "researcher", "this researcher's papers"
    INSTITUTION = "institution", "this institution's papers"
    SEARCH = "search", "the results of this search"


@dataclass(frozen=True)
class Scope:
    kind: ScopeKind = ScopeKind.CORPUS
    key: str = ""
    label: str = ""

    @property
    def token(self) -> str:
        return self.kind.value if self.kind is ScopeKind.CORPUS else f"{self.kind.value}:{self.key}"

    @property
    def is_corpus(self) -> bool:
        return self.kind is ScopeKind.CORPUS

    def describe(self) -> str:
        """What the reader sees after "Asking about:"."""
        if self.kind is ScopeKind.CORPUS:
            return "the whole corpus"
        if self.kind is ScopeKind.SEARCH:
            return f"the results of the search for {self.label}" if self.label else "the latest papers"
        if self.kind is ScopeKind.PAPER:
            return f"{self.label} (and the papers around it)"
        return f"the papers of {self.label}"


CORPUS = Scope()


def scope_token_parts(token: str) -> tuple[ScopeKind, str] | None:
    """A token's kind and key, checked for form only (no database); None when it is not a scope."""
    token = (token or "").strip()
    if not token or len(token) > MAX_TOKEN_LENGTH or not token.isprintable():
        return None
    kind_text, _, key = token.partition(":")
    if kind_text not in ScopeKind.values:
        return None
    kind = ScopeKind(kind_text)
    if kind is ScopeKind.CORPUS:
        return kind, ""
    if kind in (ScopeKind.RESEARCHER, ScopeKind.INSTITUTION) and not (key.isascii() and key.isdigit()):
        return None
    if kind is ScopeKind.PAPER:
        parsed = parse_arxiv_id(key)
        return (kind, parsed.id) if parsed is not None else None
    return kind, key


def resolve_scope(token: str) -> Scope | None:
    """The scope a token names, with its label, if what it names exists (1 query, none for the corpus or
    a search); None otherwise."""
    parts = scope_token_parts(token)
    if parts is None:
        return None
    kind, key = parts
    if kind is ScopeKind.CORPUS:
        return CORPUS
    if kind is ScopeKind.SEARCH:
        try:
            query = read_params(QueryDict(key)).parsed()
        except InvalidSearch:
            return None
        has_search = query.text or query.filters != Filters()
        return Scope(kind, key, query.describe()[:LABEL_LENGTH] if has_search else "")
    if kind is ScopeKind.PAPER:
        title = Paper.objects.filter(arxiv_id=key).values_list("title", flat=True).first()
        return Scope(kind, key, readable_text(title)[:LABEL_LENGTH]) if title is not None else None
    model = Researcher if kind is ScopeKind.RESEARCHER else Institution
    field = "display_name" if kind is ScopeKind.RESEARCHER else "name"
    name = model.objects.filter(pk=int(key)).values_list(field, flat=True).first()
    return Scope(kind, key, name[:LABEL_LENGTH]) if name is not None else None


def search_scope_key(query: QueryDict) -> str:
    """A search page's parameters as a scope key: what was searched, without the page number."""
    kept = query.copy()
    kept.pop("page", None)
    return kept.urlencode()[: MAX_TOKEN_LENGTH - len("search:")]
