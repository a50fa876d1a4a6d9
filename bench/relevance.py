"""How good keyword search's ranking is, beside how fast: known-item MRR@10 and the top ten's overlap with a
BM25 reference.

- The reference is a plain BM25 engine (tantivy with its stock English stemmer, title and abstract alike,
  no boosts, no stop words) built here from the same corpus, answering each bench query with every word
  required, as the site does. It shares the library with the site's keyword index, not its analysers,
  boosts, author field or filters.
- Known items: half drawn from the whole corpus, each searched by three or four of its abstract's words
  as someone remembering a paper would choose them (the rarest first, then whichever narrows the matches
  most); half by three or four words of the abstract that the title has too and that more than
  SEARCH_KEYWORD_CANDIDATES newer papers also contain, chosen so that the reference puts the paper
  first (its MRR there is 1 by construction): papers the PostgreSQL ranking, which looks at the newest
  matches only, cannot reach (see `known_items`). MRR@10 is the mean of 1 / (the paper's place in the
  top ten), 0 when it is not there, over all items and over each half; the reference's own MRR over the
  same items is reported beside.
"""

from __future__ import annotations

import itertools
import re
import statistics
import time
from dataclasses import dataclass

import numpy as np
import tantivy
from django.conf import settings
from tqdm import tqdm

from papers.models import Paper
from papers.search import engine
from papers.search.keyword_index import STOP_WORDS
from papers.search.query import Filters, Mode, parse

KNOWN_ITEMS = 60
NO_FILTERS = Filters()
WORDS_PER_ITEM = (3, 4)
RAREST_CONSIDERED = 20
_WORD = re.compile(r"\b[A-Za-z][a-z]{3,}\b")
_STEMMED = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    .filter(tantivy.Filter.lowercase())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)


@dataclass(frozen=True)
class KnownItem:
    paper_id: int
    text: str
    older_than_newest_candidates: bool  # more than SEARCH_KEYWORD_CANDIDATES newer papers match its query


class Reference:
    """The BM25 reference over the corpus in the database (title and abstract, categories, date)."""

    def __init__(self) -> None:
        builder = tantivy.SchemaBuilder()
        builder.add_unsigned_field("id", indexed=True, fast=True)
        builder.add_text_field("title", tokenizer_name="en_stem")
        builder.add_text_field("abstract", tokenizer_name="en_stem")
        builder.add_text_field("categories", tokenizer_name="raw", index_option="basic")
        builder.add_integer_field("published", indexed=True, fast=True)
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema)
        started = time.monotonic()
        writer = self.index.writer(heap_size=256 * 1024 * 1024, num_threads=1)
        rows = Paper.objects.order_by("pk").values_list("pk", "title", "abstract", "categories", "published")
        for pk, title, abstract, categories, published in tqdm(
            rows.iterator(chunk_size=5000), total=Paper.objects.count(), desc="BM25 reference", unit=" papers"
        ):
            document = tantivy.Document()
            document.add_unsigned("id", pk)
            document.add_text("title", title)
            document.add_text("abstract", abstract)
            for category in categories:
                document.add_text("categories", category)
            document.add_integer("published", published.toordinal())
            writer.add_document(document)
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        self.build_seconds = round(time.monotonic() - started, 1)

    def query(self, text: str, filters: Filters = NO_FILTERS, newer_than: int | None = None) -> tantivy.Query:
        required = []
        for word in text.split():
            terms = _STEMMED.analyze(word)
            if terms:
                required.append(
                    tantivy.Query.boolean_query(
                        [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, field, term))
                         for term in terms for field in ("title", "abstract")]
                    )
                )  # fmt: skip
        if filters.categories:
            required.append(
                tantivy.Query.const_score_query(
                    tantivy.Query.boolean_query(
                        [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "categories", c))
                         for c in filters.categories]
                    ),
                    0.0,
                )
            )  # fmt: skip
        if newer_than is not None:
            required.append(
                tantivy.Query.range_query(
                    self.schema, "published", tantivy.FieldType.Integer, newer_than + 1, None
                )
            )
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, q) for q in required])

    def top(self, text: str, filters: Filters = NO_FILTERS, k: int = 10) -> list[int]:
        found = self.searcher.search(self.query(text, filters), limit=k)
        return self.searcher.fast_field_values("id", [address for _score, address in found.hits])

    def abstract_frequency(self, word: str) -> int:
        terms = _STEMMED.analyze(word)
        return self.searcher.doc_freq("abstract", terms[0]) if terms else 0

    def count(self, query: tantivy.Query) -> int:
        return self.searcher.search(query, limit=1, count=True).count or 0


def known_items(reference: Reference, papers: int, seed: int) -> list[KnownItem]:
    """Half the items by their rarest abstract words (papers whose four best words still match more than
    ten papers are left out: no query of their words names them); half by three or four words of their
    abstract that their title has too, which more than SEARCH_KEYWORD_CANDIDATES newer papers also
    contain, and for which the reference puts them first: papers a BM25 ranking names, which only a
    ranking over every match can reach."""
    rng = np.random.default_rng([seed, 200])
    distinctive = [int(pk) for pk in rng.integers(1, papers + 1, KNOWN_ITEMS)]
    shared = [int(pk) for pk in rng.integers(1, papers + 1, KNOWN_ITEMS * 12)]
    rows = {
        pk: (title, abstract, published.toordinal())
        for pk, title, abstract, published in Paper.objects.filter(pk__in=distinctive + shared).values_list(
            "pk", "title", "abstract", "published"
        )
    }
    items: list[KnownItem] = []
    for pk in distinctive:
        if len(items) == KNOWN_ITEMS // 2:
            break
        text = _distinctive_words(reference, rows[pk][1])
        if text is not None:
            newer = reference.count(reference.query(text, newer_than=rows[pk][2]))
            items.append(KnownItem(pk, text, newer >= settings.SEARCH_KEYWORD_CANDIDATES))
    wanted = len(items) + KNOWN_ITEMS // 2
    for pk in shared:
        if len(items) == wanted:
            break
        text = _words_many_newer_papers_share(reference, pk, *rows[pk])
        if text is not None:
            items.append(KnownItem(pk, text, older_than_newest_candidates=True))
    return items


def _words(abstract: str, reference: Reference) -> list[str]:
    """The abstract's words, rarest first; not stop words, which no one recalls a paper by (and which
    the site, as PostgreSQL, does not search)."""
    return sorted(
        {word.lower() for word in _WORD.findall(abstract)} - STOP_WORDS,
        key=lambda word: (reference.abstract_frequency(word), word),
    )


def _distinctive_words(reference: Reference, abstract: str) -> str | None:
    words = _words(abstract, reference)[:RAREST_CONSIDERED]
    picked: list[str] = []
    count = 0
    while len(picked) < WORDS_PER_ITEM[1] and len(picked) < len(words):
        counts = {
            word: reference.count(reference.query(" ".join([*picked, word])))
            for word in words
            if word not in picked
        }
        counts = {word: count for word, count in counts.items() if count}  # the paper itself matches
        if not counts:
            break
        best = min(counts, key=lambda word: (counts[word], words.index(word)))
        picked.append(best)
        count = counts[best]
        if len(picked) >= WORDS_PER_ITEM[0] and count <= 1:
            break
    return " ".join(picked) if len(picked) >= WORDS_PER_ITEM[0] and count <= 10 else None


def _words_many_newer_papers_share(
    reference: Reference, pk: int, title: str, abstract: str, date: int
) -> str | None:
    words = [
        word for word in _words(abstract, reference) if word in {w.lower() for w in _WORD.findall(title)}
    ]
    for size in WORDS_PER_ITEM:
        for combination in itertools.combinations(words, size):
            text = " ".join(combination)
            newer = reference.count(reference.query(text, newer_than=date))
            if newer >= settings.SEARCH_KEYWORD_CANDIDATES and reference.top(text, k=1) == [pk]:
                return text
    return None


def _reciprocal_rank(item: KnownItem, mode: Mode) -> float:
    hits = engine.run(parse(item.text, mode=mode)).hits[:10]
    places = [place for place, hit in enumerate(hits, start=1) if hit.paper.pk == item.paper_id]
    return 1 / places[0] if places else 0.0


def reference_mrr(items: list[KnownItem], reference: Reference) -> dict:
    """The reference's own MRR@10 over the items: what a plain BM25 ranking reaches on them."""
    ranks = []
    for item in items:
        top = reference.top(item.text)
        ranks.append(1 / (top.index(item.paper_id) + 1) if item.paper_id in top else 0.0)
    return _summary(ranks, items)


def mrr(items: list[KnownItem], mode: Mode) -> dict:
    return _summary([_reciprocal_rank(item, mode) for item in items], items)


def _summary(ranks: list[float], items: list[KnownItem]) -> dict:
    old = [rank for rank, item in zip(ranks, items, strict=True) if item.older_than_newest_candidates]
    recent = [rank for rank, item in zip(ranks, items, strict=True) if not item.older_than_newest_candidates]
    return {
        "mrr_at_10_within_newest_candidates": round(statistics.fmean(recent), 3) if recent else None,
        "mrr_at_10": round(statistics.fmean(ranks), 3),
        "found_in_top_10": round(sum(rank > 0 for rank in ranks) / len(ranks), 3),
        "items": len(items),
        "items_older_than_newest_candidates": len(old),
        "mrr_at_10_older_than_newest_candidates": round(statistics.fmean(old), 3) if old else None,
    }


def overlap(texts: list[str], reference: Reference, filters: Filters) -> dict:
    """Mean and worst share of the reference's top ten in keyword search's top ten."""
    shares = []
    for text in texts:
        expected = reference.top(text, filters)
        if not expected:
            continue
        hits = engine.run(parse(text, mode=Mode.KEYWORD, filters=filters)).hits[:10]
        found = [hit.paper.pk for hit in hits]
        shares.append(len(set(found) & set(expected)) / len(expected))
    return {
        "overlap_at_10": round(statistics.fmean(shares), 3),
        "worst_overlap_at_10": round(min(shares), 2),
        "queries": len(shares),
    }
