"""Keyword relevance over the whole corpus: a BM25 index (tantivy) of every paper's title, abstract and
author names, with the filters' fields, in a directory under var/ (SEARCH_KEYWORD_INDEX_DIR).

PostgreSQL stays the source of truth. The index is rebuilt by `manage.py build_keyword_index` and kept in
step by the embedding (papers.services.papers_embed indexes each batch it stores). `search()` answers None
when the index is missing, unreadable or stale (more than SEARCH_KEYWORD_INDEX_MAX_MISSING of the papers
not in it): the engine then ranks with PostgreSQL's full-text search, as before the index, and /readyz
says so. The engine re-applies every filter and the full-text match in SQL to the ids found here, so a
paper changed since it was indexed is never shown for a query it no longer matches.

Words are split and stems taken as PostgreSQL's `english` configuration does (Snowball's English
stemmer), and a query's stop words are dropped as there, so both engines match the same papers; author
names are lower-cased only, as the `simple` configuration does. Stop words are indexed all the same, as
one word no query asks for (STOP_WORD_MARK): the length BM25 divides a field's score by is then every word
of it, as in a plain BM25 engine (dropping them from the length lowered known-item MRR@10 at a million
papers from 0.931 to 0.819; README "Keyword relevance"), and a word whose stem is a stop word's
("underlying" and "under", "others" and "other") still finds only the papers that have it, as in
PostgreSQL, which drops a stop word before stemming.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tantivy
from django.conf import settings
from django.core.cache import cache

from core.progress import Progress, no_progress
from papers.models import Paper
from papers.search.query import Field, Filters, ParsedQuery, Term

logger = logging.getLogger(__name__)

SCHEMA_VERSION = "3"  # change when the schema or the analysers change: an older index is then rebuilt
WORDS = "paper_words"  # the analyser of titles and abstracts
NAMES = "author_names"  # the analyser of author names
TITLE_BOOST = 1.5  # a word in the title counts more than one in the abstract (ts_rank's A over B)
AUTHOR_BOOST = 0.5
WRITER_HEAP_BYTES = 64 * 1024 * 1024
WRITER_WAIT_SECONDS = 10.0  # another process (a second embed worker, a rebuild) may hold the writer
RELOAD_EVERY_SECONDS = 1.0  # how often a process looks for the embedding's newer commits
PAPER_COUNT_TTL = 60  # seconds: how long the papers' count that staleness is judged by is reused
BUILD_BATCH = 2000
# PostgreSQL's english.stop (Snowball's English list), which its `english` configuration drops.
STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these
    those am is are was were be been being have has had having do does did doing a an the and but if or
    because as until while of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where
    why how all any both each few more most other some such no nor not only own same so than too very s
    t can will just don should now
    """.split()  # noqa: SIM905 - PostgreSQL's list as words, not 127 quoted strings
)
STOP_WORD_MARK = "stopword0"  # what a title's or abstract's stop word is indexed as; a query drops it too
_TEXT_FIELDS = {
    Field.ANY: (("title", TITLE_BOOST), ("abstract", 1.0), ("authors", AUTHOR_BOOST)),
    Field.TITLE: (("title", 1.0),),
    Field.ABSTRACT: (("abstract", 1.0),),
    Field.AUTHOR: (("authors", 1.0),),
}
_COLUMNS = (
    "pk",
    "title",
    "abstract",
    "authors",
    "categories",
    "topic_ids",
    "analysis__paper_type",
    "published",
)


@dataclass(frozen=True)
class KeywordMatches:
    """Paper ids best first (at most the limit asked for), their BM25 scores, and how many match."""

    ids: list[int]
    scores: list[float]
    total: int


def _analyser(*, stemmed: bool, without_stop_words: bool = False) -> tantivy.TextAnalyzer:
    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.lowercase())
    if without_stop_words:
        builder = builder.filter(tantivy.Filter.custom_stopword([*sorted(STOP_WORDS), STOP_WORD_MARK]))
    if stemmed:
        builder = builder.filter(tantivy.Filter.stemmer("english"))
    return builder.build()


# How the index reads each field's text (its stop words marked, `_marked_stop_words`), and how a query's
# text is read for it: the same words and stems (a stop word keeps its place, so a phrase's words are as
# far apart in both), less the stop words.
_LOWER_CASED = _analyser(stemmed=False)  # author names, and the words that stop words are marked among
_INDEXED = {WORDS: _analyser(stemmed=True), NAMES: _LOWER_CASED}
_ASKED = {WORDS: _analyser(stemmed=True, without_stop_words=True), NAMES: _LOWER_CASED}
_FIELD_ANALYSER = {"title": WORDS, "abstract": WORDS, "authors": NAMES}


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("id", indexed=True, fast=True)
    builder.add_text_field("title", tokenizer_name=WORDS)
    builder.add_text_field("abstract", tokenizer_name=WORDS)
    builder.add_text_field("authors", tokenizer_name=NAMES)
    for name in ("categories", "topics", "paper_type"):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("published", indexed=True, fast=True)  # the date's proleptic ordinal
    return builder.build()


SCHEMA = _schema()


class _Opened:
    """This process's open index (tantivy readers are safe to share between threads)."""

    lock = threading.Lock()
    index: tantivy.Index | None = None
    path: Path | None = None
    reloaded_at = 0.0


def _directory() -> Path:
    return Path(settings.SEARCH_KEYWORD_INDEX_DIR)


def _version_file(directory: Path) -> Path:
    return directory / "wovepaper-schema-version"


def _open(*, create: bool = False) -> tantivy.Index | None:
    """The index at SEARCH_KEYWORD_INDEX_DIR (opened once per process, reloaded at most once a second),
    or None when there is none of this schema version there."""
    directory = _directory()
    with _Opened.lock:
        if _Opened.index is not None and _Opened.path == directory and not create:
            if time.monotonic() - _Opened.reloaded_at > RELOAD_EVERY_SECONDS:
                _Opened.index.reload()
                _Opened.reloaded_at = time.monotonic()
            return _Opened.index
        version = _version_file(directory)
        if create:
            directory.mkdir(parents=True, exist_ok=True)
            fresh = not version.exists() or version.read_text() != SCHEMA_VERSION
            index = tantivy.Index(SCHEMA, path=str(directory), reuse=not fresh)
            version.write_text(SCHEMA_VERSION)
        elif (
            not version.exists()
            or version.read_text() != SCHEMA_VERSION
            or not tantivy.Index.exists(str(directory))
        ):
            return None
        else:
            index = tantivy.Index(SCHEMA, path=str(directory), reuse=True)
        for name, analyser in _INDEXED.items():
            index.register_tokenizer(name, analyser)
        _Opened.index, _Opened.path, _Opened.reloaded_at = index, directory, time.monotonic()
        return index


def forget_opened_index() -> None:
    """Close this process's handle (tests move SEARCH_KEYWORD_INDEX_DIR; a rebuild may start afresh)."""
    with _Opened.lock:
        _Opened.index, _Opened.path = None, None


def state() -> str:
    """'ok', 'missing' (no index of this version: never built, or deleted) or 'stale' (too many papers
    not in it): what /readyz reports; search uses the index only when 'ok'."""
    try:
        index = _open()
    except (OSError, ValueError):
        logger.warning("the keyword index at %s cannot be opened", _directory(), exc_info=True)
        return "missing"
    if index is None:
        return "missing"
    papers = cache.get_or_set("search:keyword-index:papers", Paper.objects.count, timeout=PAPER_COUNT_TTL)
    missing = papers - index.searcher().num_docs
    return "stale" if missing > papers * settings.SEARCH_KEYWORD_INDEX_MAX_MISSING else "ok"


def search(query: ParsedQuery, *, limit: int) -> KeywordMatches | None:
    """The best `limit` papers for the query's words by BM25 among those passing its filters (but
    `cited:`, which changes daily and is left to SQL), or None when the index cannot answer."""
    if state() != "ok":
        return None
    index = _open()
    words = _words_query(query)
    if words is None or index is None:
        return None
    filters = _filters_query(query.filters)
    combined = words if filters is None else tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, words), (tantivy.Occur.Must, tantivy.Query.const_score_query(filters, 0.0))]
    )  # fmt: skip
    searcher = index.searcher()
    found = searcher.search(combined, limit=limit, count=True)
    addresses = [address for _score, address in found.hits]
    ids = searcher.fast_field_values("id", addresses) if addresses else []
    return KeywordMatches(ids, [score for score, _address in found.hits], found.count or 0)


def every_word_common(text: str, *, share: float) -> bool:
    """Whether each word of `text` is in the title or abstract of at least `share` of the papers; False
    when the index cannot say (missing or stale) or `text` has no word it indexes."""
    if state() != "ok" or (index := _open()) is None:
        return False
    words = {word for _position, word in _tokens("abstract", text)}
    searcher = index.searcher()
    least = share * searcher.num_docs
    return bool(words) and all(
        max(searcher.doc_freq("title", word), searcher.doc_freq("abstract", word)) >= least for word in words
    )


def paper_words(text: str) -> list[tantivy.Token]:
    """A title's or abstract's words as a search asks for them: stems with their positions (stop words
    leave gaps) and the characters each was read from."""
    return _ASKED[WORDS].pre_tokenize(text).tokens


def _tokens(field: str, text: str) -> list[tuple[int, str]]:
    """The text's terms as a search asks the field for them, with their positions (stop words leave
    gaps)."""
    return [
        (token.position, token.text) for token in _ASKED[_FIELD_ANALYSER[field]].pre_tokenize(text).tokens
    ]


def _term_query(term: Term) -> tantivy.Query | None:
    """A term in any of its fields: one word, or its words in a row (PostgreSQL reads a quoted text of
    several words, `GPT-3.5` as much as "neural network", as a phrase)."""
    if term.field is Field.ANY and not _tokens("title", term.text):
        return None  # stop words alone, which PostgreSQL's `english` configuration drops
    parts = []
    for field, boost in _TEXT_FIELDS[term.field]:
        tokens = _tokens(field, term.text)
        if not tokens:
            continue
        if len(tokens) == 1:
            query = tantivy.Query.term_query(SCHEMA, field, tokens[0][1])
        else:
            first = tokens[0][0]
            words = [(place - first, word) for place, word in tokens]
            query = tantivy.Query.phrase_query(SCHEMA, field, words)
        parts.append(query if boost == 1.0 else tantivy.Query.boost_query(query, boost))
    return _any(parts)


def _any(queries: list[tantivy.Query]) -> tantivy.Query | None:
    if not queries:
        return None
    if len(queries) == 1:
        return queries[0]
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, query) for query in queries])


def _words_query(query: ParsedQuery) -> tantivy.Query | None:
    """Every clause (any of its alternatives) and none of the excluded terms, as words_query asks of
    PostgreSQL; a clause of stop words alone asks nothing, as there."""
    required = [
        clause_query
        for clause in query.clauses
        if (clause_query := _any([q for term in clause.alternatives if (q := _term_query(term))]))
    ]
    if not required:
        return None
    excluded = [q for term in query.excluded if (q := _term_query(term)) is not None]
    return tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, q) for q in required] + [(tantivy.Occur.MustNot, q) for q in excluded]
    )


def _one_of(field: str, values: Iterable[str]) -> tantivy.Query | None:
    return _any([tantivy.Query.term_query(SCHEMA, field, value) for value in values])


def _filters_query(filters: Filters) -> tantivy.Query | None:
    required = [
        q
        for q in (
            _one_of("categories", filters.categories),
            _one_of("paper_type", filters.paper_types),
            _one_of("topics", filters.topics),
        )
        if q is not None
    ]
    if filters.year_from is not None or filters.year_to is not None:
        start = datetime.date(filters.year_from, 1, 1).toordinal() if filters.year_from else None
        end = datetime.date(filters.year_to, 12, 31).toordinal() if filters.year_to else None
        required.append(tantivy.Query.range_query(SCHEMA, "published", tantivy.FieldType.Integer, start, end))
    excluded = [
        q
        for q in (
            _one_of("categories", filters.excluded_categories),
            _one_of("paper_type", filters.excluded_paper_types),
        )
        if q is not None
    ]
    if not required and not excluded:
        return None
    if not required:
        required = [tantivy.Query.all_query()]
    return tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, q) for q in required] + [(tantivy.Occur.MustNot, q) for q in excluded]
    )


def _marked_stop_words(text: str) -> str:
    """The text's words, lower-cased, its stop words as STOP_WORD_MARK (split as the index splits them)."""
    return " ".join([STOP_WORD_MARK if word in STOP_WORDS else word for word in _LOWER_CASED.analyze(text)])


def _document(row: tuple) -> tantivy.Document:
    pk, title, abstract, authors, categories, topics, paper_type, published = row
    document = tantivy.Document()
    document.add_unsigned("id", pk)
    document.add_text("title", _marked_stop_words(title))
    document.add_text("abstract", _marked_stop_words(abstract))
    document.add_text("authors", " ".join(authors))
    for category in categories:
        document.add_text("categories", category)
    for topic in topics:
        document.add_text("topics", str(topic))
    if paper_type:
        document.add_text("paper_type", paper_type)
    document.add_integer("published", published.toordinal())
    return document


def _writer(index: tantivy.Index) -> tantivy.IndexWriter:
    """The index's one writer, waiting a while for another process to finish with it."""
    deadline = time.monotonic() + WRITER_WAIT_SECONDS
    while True:
        try:
            return index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
        except ValueError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def index_papers(paper_ids: Iterable[int]) -> int:
    """Index these papers again as PostgreSQL has them now (gone ones are removed); returns how many were
    indexed. Nothing happens when there is no index yet: the first build makes it from every paper. A
    failure is logged, never raised: the embedding that calls this must not fail for it, and search
    falls back to PostgreSQL once too many papers are missing."""
    ids = sorted(set(paper_ids))
    try:
        index = _open()
        if index is None or not ids:
            return 0
        writer = _writer(index)
        for pk in ids:
            writer.delete_documents_by_term("id", pk)
        rows = Paper.objects.filter(pk__in=ids).with_topic_ids().values_list(*_COLUMNS)
        indexed = 0
        for row in rows:
            writer.add_document(_document(row))
            indexed += 1
        writer.commit()
        writer.wait_merging_threads()
    except (OSError, ValueError):
        logger.warning("the keyword index could not take %d papers", len(ids), exc_info=True)
        return 0
    return indexed


def rebuild(progress: Progress = no_progress) -> int:
    """Every paper, indexed afresh in one commit (searches read the old index until it lands); returns
    how many."""
    forget_opened_index()
    index = _open(create=True)
    writer = _writer(index)
    writer.delete_all_documents()
    total = Paper.objects.count()
    indexed = 0
    progress("papers", 0, total)
    batch = 0
    rows = Paper.objects.order_by("pk").with_topic_ids().values_list(*_COLUMNS)
    for row in rows.iterator(chunk_size=BUILD_BATCH):
        writer.add_document(_document(row))
        indexed += 1
        batch += 1
        if batch == BUILD_BATCH:
            progress("papers", batch, total)
            batch = 0
    progress("papers", batch, total)
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    cache.delete("search:keyword-index:papers")
    return indexed
