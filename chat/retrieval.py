"""Finding what answers a question: candidate papers from the question's scope (for the whole corpus,
the site's own search: the nearest papers by meaning fused with a keyword search for the question's names
and numbers; a search's results nearest the question; a paper, its citation neighbours and most similar
papers; a researcher's or an institution's papers nearest in meaning), then every sentence of their
abstracts ranked against the question with the same embedding model, the candidates' order counting too.

Bounded for speed: at most CHAT_CANDIDATE_PAPERS papers have their sentences ranked (their vectors are
cached per paper, see sentences.py), and the question is embedded once (and cached) for both the search
and the sentences."""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from django.conf import settings
from django.db.models import Q
from django.http import QueryDict

from chat.scopes import Scope, ScopeKind
from chat.sentences import sentence_vectors, split_sentences
from core.latex import readable_text
from institutions.models import Institution
from papers.models import Paper, paper_slug
from papers.querysets import PaperQuerySet
from papers.search import engine
from papers.search.params import InvalidSearch, read_params
from papers.search.query import Mode, ParsedQuery, parse
from papers.search.querysets import iterative_index_scan
from papers.search.vectors import query_vector
from researchers.models import Researcher

NEIGHBOURS_READ = 50  # references and citations of a paper considered (the most cited first)
SIMILAR_READ = 10
SEARCH_RESULTS_READ = 40  # of a search scope's ranking, the ones nearest the question are read
CORPUS_DEPTH = 20  # of each list fused for a whole-corpus question
MAX_NAMES = 8  # distinctive words searched by keyword
# How much a candidate's place in its list adds to its sentences' similarity (the first gets all of it,
# the last nothing). On the evaluation set (chat_eval, 8 candidates): hit@5 0.921 and MRR 0.886 at 0.3,
# against 0.905 and 0.826 for the sentences' similarity alone.
PRIOR_WEIGHT = 0.3
FOCUS_BONUS = 0.1  # the paper a question is asked on comes first unless another answers clearly better
EARLIER_BONUS = 0.03  # papers cited earlier in the conversation: follow-ups are often about them
_WORD = re.compile(r"[\w][\w.+#&'-]*")


@dataclass(frozen=True)
class Passage:
    paper_id: int
    position: int  # the sentence's place in its abstract, from 0
    text: str
    similarity: float  # cosine similarity to the question
    score: float  # similarity and the paper's prior: what passages are ranked by


@dataclass(frozen=True)
class RetrievedPaper:
    paper_id: int
    arxiv_id: str
    title: str  # readable (TeX made text)
    authors: tuple[str, ...]
    published: datetime.date
    url: str
    abstract: str  # readable
    sentences: tuple[str, ...]

    @property
    def year(self) -> int:
        return self.published.year


@dataclass
class Retrieval:
    question: str
    scope: Scope
    passages: list[Passage] = field(default_factory=list)  # every candidate sentence, best first
    papers: dict[int, RetrievedPaper] = field(default_factory=dict)
    focus_id: int | None = None  # the paper of a paper scope

    def ranked_paper_ids(self) -> list[int]:
        """The candidate papers, each at the place of its best passage."""
        return list(dict.fromkeys(passage.paper_id for passage in self.passages))


def _words(question: str) -> list[str]:
    words = [word.strip(".'-") for word in _WORD.findall(question)]
    return [word for word in words if word and word != "OR"]


def search_text(question: str) -> str:
    """The question as plain words for the search engine: no field, exclusion, phrase or OR syntax (a
    question is not a query; "-5 dB" excludes nothing)."""
    return " ".join(_words(question))


def distinctive_words(question: str) -> list[str]:
    """The question's words that name something, a dataset, model, method or number ("X-CLIP", "LRS2",
    "GPT-4o", "223"): with a digit, or a capital after the first letter. Meaning alone misses them: a
    paper's vector knows its topic better than its names."""
    names = [word for word in _words(question) if any(c.isdigit() for c in word) or not word[1:].islower()]
    return list(dict.fromkeys(word for word in names if len(word) > 1 or word.isdigit()))[:MAX_NAMES]


def retrieve(
    question: str, scope: Scope, *, context: str = "", earlier_paper_ids: Sequence[int] = ()
) -> Retrieval:
    """Passages that answer `question` within `scope`. `context` (an earlier question of the conversation)
    joins the question in finding candidates; `earlier_paper_ids`, the papers cited before, are
    candidates too."""
    parsed = parse(search_text(f"{context} {question}" if context else question), mode=Mode.HYBRID)
    retrieval = Retrieval(question=question, scope=scope)
    if not parsed.semantic_text:
        return retrieval
    vector = query_vector(parsed.semantic_text)
    focus_id, candidates = _candidates(scope, parsed, vector)
    retrieval.focus_id = focus_id
    earlier = [paper_id for paper_id in earlier_paper_ids if paper_id not in candidates]
    candidates = list(dict.fromkeys(([focus_id] if focus_id else []) + candidates))
    candidates = candidates[: settings.CHAT_CANDIDATE_PAPERS] + earlier[: settings.CHAT_CANDIDATE_PAPERS // 2]
    retrieval.papers = _papers(candidates)
    retrieval.passages = _ranked_passages(
        retrieval.papers, candidates, vector, focus_id, set(earlier_paper_ids)
    )
    return retrieval


def _candidates(scope: Scope, parsed: ParsedQuery, vector: np.ndarray) -> tuple[int | None, list[int]]:
    """The scope's papers most likely to answer, best first (1 to 3 queries), and the focus paper's id
    for a paper scope."""
    limit = settings.CHAT_CANDIDATE_PAPERS
    if scope.kind is ScopeKind.CORPUS:
        return None, _corpus_candidates(parsed, limit)
    if scope.kind is ScopeKind.SEARCH:
        try:
            searched = read_params(QueryDict(scope.key)).parsed()
        except InvalidSearch:
            return None, []
        results = [entry.paper_id for entry in engine.rank(searched, needed=SEARCH_RESULTS_READ).entries]
        return None, _nearest(Paper.objects.filter(pk__in=results[:SEARCH_RESULTS_READ]), vector, limit)
    if scope.kind is ScopeKind.PAPER:
        focus = Paper.objects.only("pk", "embedding").filter(arxiv_id=scope.key).first()
        if focus is None:
            return None, []
        neighbours = Paper.objects.filter(
            Q(pk__in=Paper.objects.references_of(focus).most_cited().values("pk")[:NEIGHBOURS_READ])
            | Q(pk__in=Paper.objects.citations_of(focus).most_cited().values("pk")[:NEIGHBOURS_READ])
            | Q(pk__in=Paper.objects.similar_to(focus).values("pk")[:SIMILAR_READ])
        ).values_list("pk", flat=True)
        # Their ids first: for a short list of ids PostgreSQL sorts the few rows by distance, where the
        # subqueries' estimates could send it walking the HNSW index for rows that pass them.
        return focus.pk, _nearest(Paper.objects.filter(pk__in=list(neighbours)), vector, limit - 1)
    if scope.kind is ScopeKind.RESEARCHER:
        papers = Paper.objects.by_researcher(Researcher(pk=int(scope.key)))
    else:
        papers = Paper.objects.by_institution(Institution(pk=int(scope.key)))
    return None, _nearest(papers, vector, limit)


def _corpus_candidates(parsed: ParsedQuery, limit: int) -> list[int]:
    """Reciprocal rank fusion (the engine's) of the nearest papers by meaning and a keyword search for
    any of the question's names and numbers (2 to 4 queries)."""
    semantic = engine.rank(replace(parsed, mode=Mode.SEMANTIC), needed=CORPUS_DEPTH).entries[:CORPUS_DEPTH]
    names = distinctive_words(parsed.text)
    keyword = []
    if names:
        named = parse(" OR ".join(names), mode=Mode.KEYWORD)
        keyword = engine.rank(named, needed=CORPUS_DEPTH).entries[:CORPUS_DEPTH]
    return [entry.paper_id for entry in engine.fused(keyword, semantic)][:limit]


def _nearest(papers: PaperQuerySet, vector: np.ndarray, limit: int) -> list[int]:
    """Of these papers, the `limit` nearest to the question by meaning (HNSW with iterative scans, so a
    narrow set still gives `limit`)."""
    if limit <= 0:
        return []
    with iterative_index_scan(ef_search=max(settings.SEARCH_HNSW_EF_SEARCH, limit)):
        rows = list(papers.nearest_to(vector).values_list("pk", "distance")[:limit])
    return [pk for pk, _ in sorted(rows, key=lambda row: row[1])]


def _papers(paper_ids: list[int]) -> dict[int, RetrievedPaper]:
    """The candidates' text and what a citation shows (1 query)."""
    if not paper_ids:
        return {}
    rows = Paper.objects.filter(pk__in=paper_ids).values_list(
        "pk", "arxiv_id", "title", "abstract", "authors", "published", "slug"
    )
    papers = {}
    for pk, arxiv_id, title, abstract, authors, published, slug in rows:
        url = Paper(arxiv_id=arxiv_id, slug=slug or paper_slug(title)).get_absolute_url()
        papers[pk] = RetrievedPaper(
            paper_id=pk,
            arxiv_id=arxiv_id,
            title=readable_text(title),
            authors=tuple(authors),
            published=published,
            url=url,
            abstract=readable_text(abstract),
            sentences=tuple(split_sentences(abstract)),
        )
    return papers


def _ranked_passages(
    papers: dict[int, RetrievedPaper],
    order: list[int],
    vector: np.ndarray,
    focus_id: int | None,
    earlier: set[int],
) -> list[Passage]:
    vectors = sentence_vectors(
        {paper_id: (paper.abstract, list(paper.sentences)) for paper_id, paper in papers.items()}
    )
    places = {paper_id: place for place, paper_id in enumerate(order)}
    passages = []
    for paper_id, paper in papers.items():
        if not paper.sentences:
            continue
        similarities = vectors[paper_id] @ vector
        prior = PRIOR_WEIGHT * (1 - places.get(paper_id, len(order)) / max(len(order), 1))
        prior += FOCUS_BONUS if paper_id == focus_id else 0.0
        prior += EARLIER_BONUS if paper_id in earlier else 0.0
        passages += [
            Passage(paper_id, position, text, float(similarity), float(similarity) + prior)
            for position, (text, similarity) in enumerate(zip(paper.sentences, similarities, strict=True))
        ]
    passages.sort(key=lambda passage: (-passage.score, passage.paper_id, passage.position))
    return passages
