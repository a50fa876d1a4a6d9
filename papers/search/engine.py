"""Running a parsed query: `run(parsed_query, page=…)` gives SearchResults, plain objects any page or API
can present.

- keyword: BM25 over every paper through the keyword index (papers.search.keyword_index), its ids checked
  against the filters and the full-text match in SQL; while the index is missing or stale, ts_rank over
  the newest SEARCH_KEYWORD_CANDIDATES matches in PostgreSQL. Every match by date or citations when
  sorted so.
- semantic: nearest neighbours of the query's vector through the HNSW index, with iterative scans so
  that filters still fill a page. Plain words shape the meaning; phrases, fields and exclusions filter.
- hybrid (the default): reciprocal rank fusion of the keyword and semantic lists.
- a query without topic words (empty, or only filters) lists the latest papers that pass the filters.

On the first page, researchers and institutions whose names match a name-like query come with it.
"""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.contrib.postgres.search import SearchQuery
from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Q

from institutions.models import Institution
from papers.models import Authorship, Paper
from papers.querysets import PaperQuerySet
from papers.search import keyword_index
from papers.search.query import Filters, Mode, ParsedQuery, Sort
from papers.search.querysets import iterative_index_scan, words_query
from papers.search.snippets import Highlighter, Snippet
from papers.search.vectors import query_vector
from researchers.models import Researcher

RRF_K = 60  # reciprocal rank fusion's constant: 1 / (60 + rank), as in Cormack et al. (2009)
PEOPLE_SHOWN = 5
# A query whose every word is in at least this share of the papers' titles or abstracts is a topic, not a
# misspelt name: names alike by trigrams are not looked for (see _names).
COMMON_WORD_SHARE = 0.005
INSTITUTIONS_SHOWN = 3
AUTHORS_SHOWN = 8  # the rest are counted: "and 2,990 more"
RECENT_PAPERS_TTL = 600  # seconds
BROWSE_COUNT_CAP = 10_000  # a list of filters alone (author:, cat:) counts its papers up to this many


@dataclass(frozen=True)
class HitAuthor:
    """An author as written on the paper, and the researcher they were matched to (if any)."""

    name: str
    researcher_id: int | None = None
    researcher_name: str = ""
    is_collaboration: bool = False
    affiliations: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        """The researcher's page, as the model gives it (an unsaved instance: no query)."""
        if self.researcher_id is None:
            return ""
        return Researcher(pk=self.researcher_id, display_name=self.researcher_name).get_absolute_url()


@dataclass(frozen=True)
class PaperHit:
    """One paper in the results. `title` and `snippet` carry the matched words; `matched_words` says the
    paper contains the query's words, `matched_meaning` that it is among the nearest by meaning."""

    paper: Paper  # without its embedding and search vector
    authors: tuple[HitAuthor, ...]  # the first AUTHORS_SHOWN
    title: Snippet
    snippet: Snippet
    matched_words: bool
    matched_meaning: bool
    keyword_rank: int | None = None  # 1-based place in the keyword list
    semantic_rank: int | None = None  # 1-based place in the semantic list
    distance: float | None = None  # cosine distance to the query's vector

    @property
    def more_authors(self) -> int:
        """Authors beyond the first AUTHORS_SHOWN (whose authorships are prefetched)."""
        return max(0, len(self.paper.authors) - AUTHORS_SHOWN)

    @property
    def why(self) -> str:
        """'words', 'meaning', 'words and meaning', or '' (a browse listing)."""
        reasons = [
            name for name, yes in (("words", self.matched_words), ("meaning", self.matched_meaning)) if yes
        ]
        return " and ".join(reasons)


@dataclass(frozen=True)
class Suggestion:
    """Something to try when nothing was found: `change` maps search parameters (q, mode, cat, from, to,
    cited) to new values, None meaning "remove"."""

    text: str
    change: dict[str, str | None]


@dataclass(frozen=True)
class SearchResults:
    query: ParsedQuery
    hits: list[PaperHit]
    page: int
    per_page: int
    has_next: bool
    total: int | None = None  # papers one can page through, when known (None for nearest neighbours)
    total_is_lower_bound: bool = False  # more papers match than were ranked
    strategy: str = "browse"  # browse, keyword, semantic or hybrid: what actually ran
    researchers: list[Researcher] = field(default_factory=list)
    institutions: list[Institution] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)

    @property
    def num_pages(self) -> int | None:
        if self.total is None:
            return None
        offered = max(1, settings.SEARCH_MAX_RESULTS // self.per_page)
        return min(math.ceil(self.total / self.per_page), offered)

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def first_number(self) -> int:
        """The place of the page's first hit in the whole list (for <ol start>)."""
        return (self.page - 1) * self.per_page + 1


@dataclass
class RankedPaper:
    """A paper's place in a ranked list, before its row is fetched (ranks count from 1)."""

    paper_id: int
    published: datetime.date
    cited: int | None
    keyword_rank: int | None = None
    semantic_rank: int | None = None
    distance: float | None = None
    score: float = 0.0


@dataclass
class Ranking:
    """The ranked list a page of results is cut from: `rank()`'s answer, ids and scores only."""

    entries: list[RankedPaper]
    strategy: str
    total: int | None = None  # known for keyword relevance and hybrid lists
    total_is_lower_bound: bool = False


_ROW = ("pk", "published", "cited_by_count")


def run(query: ParsedQuery, *, page: int = 1, per_page: int | None = None) -> SearchResults:
    """Search. `page` counts from 1; a page past the end gives the last page."""
    per_page = per_page or settings.SEARCH_PAGE_SIZE
    max_pages = max(1, settings.SEARCH_MAX_RESULTS // per_page)
    page = max(1, min(page, max_pages))
    ranking = rank(query, needed=page * per_page)
    entries = ranking.entries
    if entries and (page - 1) * per_page >= len(entries):
        page = math.ceil(len(entries) / per_page)
    start = (page - 1) * per_page
    hits = _hits(entries[start : start + per_page], query)
    researchers, institutions = _names(query) if page == 1 else ([], [])
    results = SearchResults(
        query=query,
        hits=hits,
        page=page,
        per_page=per_page,
        has_next=len(entries) > start + per_page and page < max_pages,
        total=ranking.total,
        total_is_lower_bound=ranking.total_is_lower_bound,
        strategy=ranking.strategy,
        researchers=researchers,
        institutions=institutions,
    )
    return results if hits else replace(results, suggestions=suggestions_for(results))


def rank(query: ParsedQuery, *, needed: int) -> Ranking:
    """The ranked list pages are cut from, before any paper row is read: at least `needed` entries and
    one more when there are (run() uses it; it is also what to time to measure retrieval alone)."""
    papers = Paper.objects.filtered_by(query.filters)
    full = words_query(query.clauses, query.excluded)
    if not query.has_topic:
        matching = papers.matching_words(full)
        entries = _in_order(matching, query.sort, needed + 1)
        if query.is_empty:  # the whole corpus, newest first: its size is on the home page
            return Ranking(entries, "browse")
        total = matching.order_by()[: BROWSE_COUNT_CAP + 1].count()  # author:, cat:, year: alone
        return Ranking(entries, "browse", min(total, BROWSE_COUNT_CAP), total > BROWSE_COUNT_CAP)
    if query.mode is Mode.KEYWORD:
        if full is not None and query.sort is not Sort.RELEVANCE:  # every match in SQL order: no ranking
            return Ranking(_in_order(papers.matching_words(full), query.sort, needed + 1), "keyword")
        keyword = _keyword(query, papers, full, needed=needed + 1)
        return Ranking(keyword.entries, "keyword", keyword.total, keyword.total_is_lower_bound)
    if query.mode is Mode.SEMANTIC:
        cap = settings.SEARCH_SEMANTIC_MAX_RESULTS
        # Put in date or citation order, the nearest `cap` are the set: every page must cut the same list.
        limit = min(needed + 1, cap) if query.sort is Sort.RELEVANCE else cap
        return Ranking(_sorted(_semantic(papers, query, limit=limit), query.sort), "semantic")
    depth = min(max(settings.SEARCH_HYBRID_DEPTH, needed), settings.SEARCH_SEMANTIC_MAX_RESULTS)
    # Nearest neighbours always exist; in the blend only those near enough to mean something count, so a
    # name or a nonsense word does not fill the page with papers that are merely the least far away.
    semantic = [
        entry
        for entry in _semantic(papers, query, limit=depth)
        if entry.distance is not None and entry.distance <= settings.SEARCH_HYBRID_MAX_DISTANCE
    ]
    keyword = _keyword(query, papers, full, needed=depth).entries
    entries = _sorted(fused(keyword[:depth], semantic), query.sort)
    return Ranking(entries, "hybrid", len(entries))


def _in_order(papers: PaperQuerySet, sort: Sort, limit: int) -> list[RankedPaper]:
    ordered = papers.most_cited() if sort is Sort.CITED else papers.newest_first()
    return [RankedPaper(*row) for row in ordered.values_list(*_ROW)[:limit]]


@dataclass
class _KeywordList:
    entries: list[RankedPaper]  # best first
    total: int
    total_is_lower_bound: bool


def _keyword(
    query: ParsedQuery, papers: PaperQuerySet, full: SearchQuery | None, *, needed: int
) -> _KeywordList:
    """Papers matching the words, best first: BM25 over the whole corpus from the keyword index, or,
    while it cannot answer, ts_rank over the newest matches in PostgreSQL."""
    if full is None:
        return _KeywordList([], 0, False)
    wanted = min(needed, settings.SEARCH_MAX_RESULTS + 1)
    fetched = wanted
    while True:
        matches = keyword_index.search(query, limit=fetched)
        if matches is None:
            entries = _newest_ranked(query, papers, full)
            return _KeywordList(entries, len(entries), len(entries) >= settings.SEARCH_KEYWORD_CANDIDATES)
        entries = _checked(matches, papers, full)
        # Papers the SQL check drops (cited:, or changed since they were indexed) leave the list short:
        # then ask the index for more, four times as many each time.
        if len(entries) >= wanted or len(matches.ids) < fetched or fetched > settings.SEARCH_MAX_RESULTS:
            break
        fetched *= 4
    dropped = len(matches.ids) - len(entries)
    return _KeywordList(entries, max(len(entries), matches.total - dropped), dropped > 0)


def _checked(
    matches: keyword_index.KeywordMatches, papers: PaperQuerySet, full: SearchQuery
) -> list[RankedPaper]:
    """The index's answer, checked by PostgreSQL, in the index's order: every filter (cited: only here)
    and the exact match (phrases, fields, exclusions), so a paper changed or removed since it was indexed
    is not shown. A page's worth of ids is read by primary key; the full-text index is not needed."""
    rows = {
        row[0]: row
        for row in papers.matching_words(full).filter(pk__in=matches.ids).order_by().values_list(*_ROW)
    }
    kept = [(pk, score) for pk, score in zip(matches.ids, matches.scores, strict=True) if pk in rows]
    return [
        RankedPaper(*rows[pk], keyword_rank=place, score=score)
        for place, (pk, score) in enumerate(kept, start=1)
    ]


def _newest_ranked(query: ParsedQuery, papers: PaperQuerySet, full: SearchQuery) -> list[RankedPaper]:
    """PostgreSQL's ranking, the fallback: the newest SEARCH_KEYWORD_CANDIDATES matches by ts_rank.

    Without filters, the newest SEARCH_KEYWORD_RECENT_PAPERS papers are searched first (see
    `ranking_candidates`): a third to a half off the slowest searches at 100,000 papers. Not with filters:
    fewer recent papers pass them, so the older ones must be searched too more often, and PostgreSQL then
    combines three indexes, reading the whole of a common word's list of papers."""
    recent_since = _recent_papers_since() if query.filters == Filters() else None
    candidates = papers.ranking_candidates(
        full, limit=settings.SEARCH_KEYWORD_CANDIDATES, recent_since=recent_since
    )
    rows = sorted(
        candidates.values_list(*_ROW, "rank"), key=lambda row: (row[3], row[1], row[0]), reverse=True
    )
    return [
        RankedPaper(pk, published, cited, keyword_rank=place, score=score)
        for place, (pk, published, cited, score) in enumerate(rows, start=1)
    ]


def _recent_papers_since() -> datetime.date | None:
    """Where the recent papers that keyword search looks at first begin: the newest
    SEARCH_KEYWORD_RECENT_PAPERS, or the newest twentieth of the corpus when that is more (10,000 was best
    at 100,000 papers, 50,000 at a million). Cached: any date gives the same candidates, so a stale one
    only costs time."""

    def start() -> datetime.date | None:
        count = max(settings.SEARCH_KEYWORD_RECENT_PAPERS, Paper.objects.estimated_total() // 20)
        return Paper.objects.start_of_newest(count)

    key = f"search:recent-papers-since:{settings.SEARCH_KEYWORD_RECENT_PAPERS}"
    return cache.get_or_set(key, start, timeout=RECENT_PAPERS_TTL)


def _semantic(papers: PaperQuerySet, query: ParsedQuery, *, limit: int) -> list[RankedPaper]:
    """The nearest papers by meaning among those passing the filters and the query's non-plain terms
    (phrases, fields, exclusions)."""
    constraints = words_query([clause for clause in query.clauses if not clause.is_plain], query.excluded)
    vector = query_vector(query.semantic_text)
    nearest = papers.matching_words(constraints).nearest_to(vector).values_list(*_ROW, "distance")
    filtered = constraints is not None or query.filters != Filters()
    ef_search = settings.SEARCH_HNSW_FILTERED_EF_SEARCH if filtered else settings.SEARCH_HNSW_EF_SEARCH
    with iterative_index_scan(ef_search=max(ef_search, limit)):
        rows = list(nearest[:limit])
    rows.sort(key=lambda row: row[-1])  # relaxed order: the index hands rows back almost sorted
    return [
        RankedPaper(pk, published, cited, semantic_rank=place, distance=distance, score=-distance)
        for place, (pk, published, cited, distance) in enumerate(rows, start=1)
    ]


def fused(keyword: list[RankedPaper], semantic: list[RankedPaper]) -> list[RankedPaper]:
    """Reciprocal rank fusion: each list gives 1 / (RRF_K + place); a paper in both lists adds both."""
    fused = {entry.paper_id: entry for entry in keyword}
    for entry in semantic:
        if entry.paper_id in fused:
            fused[entry.paper_id].semantic_rank = entry.semantic_rank
            fused[entry.paper_id].distance = entry.distance
        else:
            fused[entry.paper_id] = entry
    for entry in fused.values():
        entry.score = sum(1 / (RRF_K + place) for place in (entry.keyword_rank, entry.semantic_rank) if place)
    return sorted(fused.values(), key=lambda entry: (-entry.score, entry.keyword_rank or math.inf))


def _sorted(entries: list[RankedPaper], sort: Sort) -> list[RankedPaper]:
    """A relevance list in the order asked for: as it is, newest first, or most cited first."""
    if sort is Sort.NEWEST:
        return sorted(entries, key=lambda entry: (entry.published, entry.paper_id), reverse=True)
    if sort is Sort.CITED:
        return sorted(
            entries,
            key=lambda entry: (entry.cited is not None, entry.cited or 0, entry.published),
            reverse=True,
        )
    return entries


def _hits(page: list[RankedPaper], query: ParsedQuery) -> list[PaperHit]:
    """The page's papers with their first authors, marked title and snippet, and why each matched
    (2 queries)."""
    if not page:
        return []
    full = words_query(query.clauses, query.excluded)
    # The vector and the embedding are large and not shown: leave them in the database.
    papers = Paper.objects.filter(pk__in=[entry.paper_id for entry in page]).defer(
        "embedding", "search_vector"
    )
    if full is not None:
        papers = papers.annotate(
            matches_words=ExpressionWrapper(Q(search_vector=full), output_field=BooleanField())
        )
    by_id = {paper.pk: paper for paper in papers}
    highlighter = Highlighter.for_terms(query.topic_terms)
    authors: dict[int, list[HitAuthor]] = defaultdict(list)
    # Plain rows, not model instances: a page has a hundred or more authorships.
    for paper_id, *author in Authorship.objects.first_of(list(by_id), AUTHORS_SHOWN).values_list(
        "paper_id", "name", "researcher_id", "researcher__display_name", "is_collaboration", "affiliations"
    ):
        name, researcher_id, researcher_name, is_collaboration, affiliations = author
        authors[paper_id].append(
            HitAuthor(name, researcher_id, researcher_name or "", is_collaboration, tuple(affiliations))
        )
    hits = []
    for entry in page:
        paper = by_id.get(entry.paper_id)
        if paper is None:  # deleted between the two queries
            continue
        if highlighter is not None:
            title, snippet = highlighter.title(paper.title), highlighter.passages(paper.abstract)
        else:
            title, snippet = Snippet.plain(paper.title), Snippet.opening(paper.abstract)
        hits.append(
            PaperHit(
                paper=paper,
                authors=tuple(authors[paper.pk]),
                title=title,
                snippet=snippet,
                matched_words=query.has_topic and bool(getattr(paper, "matches_words", False)),
                matched_meaning=entry.semantic_rank is not None,
                keyword_rank=entry.keyword_rank,
                semantic_rank=entry.semantic_rank,
                distance=entry.distance,
            )
        )
    return hits


def _names(query: ParsedQuery) -> tuple[list[Researcher], list[Institution]]:
    """Researchers and institutions whose names are like a name-like query: the researchers as
    /researchers and the API match them (Researcher.objects.named: 2 queries, whether any name starts
    so, then the ids; 1 for a query of common words, which no misspelt name is), summarised as they are
    there (1 query, when any matched), and institutions (1)."""
    text = query.name_like_text
    if len(text) < 3:
        return [], []
    # A misspelt name is a word the papers hardly use. For words they use a lot ("learning", "large
    # language") names alike by trigrams are only names that look similar, and finding them rechecked
    # thousands of names: 19-39 ms for "learning" at a million papers.
    alike = bool(query.authors) or not keyword_index.every_word_common(text, share=COMMON_WORD_SHARE)
    named = Researcher.objects.people().named(text, alike=alike).alike_first(text)
    # Most queries name no one: the summaries (correlated subqueries, longer for Django to write than
    # for PostgreSQL to run) are asked for only when someone matched.
    matched = list(named.values_list("pk", flat=True)[:PEOPLE_SHOWN])
    summaries = Researcher.objects.filter(pk__in=matched).with_identity_summary() if matched else []
    researchers = sorted(summaries, key=lambda researcher: matched.index(researcher.pk))
    institutions = list(Institution.objects.matching_name(text)[:INSTITUTIONS_SHOWN])
    return researchers, institutions


def suggestions_for(results: SearchResults) -> list[Suggestion]:
    """What to try when nothing was found: drop a filter, switch mode, check a name's spelling."""
    query, filters = results.query, results.query.filters
    words_alone = query.text_without("filter")
    suggestions: list[Suggestion] = []
    if filters.categories or filters.excluded_categories:
        suggestions.append(Suggestion("Search every category", {"cat": None, "q": words_alone}))
    if filters.year_from is not None or filters.year_to is not None:
        suggestions.append(Suggestion("Search every year", {"from": None, "to": None, "q": words_alone}))
    if filters.cited_only:
        suggestions.append(Suggestion("Include papers without citations", {"cited": None}))
    if filters.topics:
        suggestions.append(Suggestion("Search every topic", {"q": words_alone}))
    if filters.paper_types or filters.excluded_paper_types:
        suggestions.append(Suggestion("Search every type of paper", {"type": None, "q": words_alone}))
    if query.excluded:
        suggestions.append(
            Suggestion("Search without the excluded words", {"q": query.text_without("excluded")})
        )
    if query.has_topic and query.mode is not Mode.SEMANTIC:
        suggestions.append(
            Suggestion("Search by meaning instead of exact words", {"mode": Mode.SEMANTIC.value})
        )
    for author in query.authors:
        for name in Researcher.objects.matching_name(author).values_list("display_name", flat=True)[:3]:
            if name.lower() != author.lower():
                suggestions.append(Suggestion(f"Papers by {name}", {"q": f'author:"{name}"'}))
    if query.authors:
        suggestions.append(Suggestion("Check the spelling of the name, or try the surname alone", {}))
    return suggestions
