"""The search box's query language, read into a ParsedQuery, and the sentence that says how it was read.

Plain words by default; also `"exact phrase"`, `-excluded`, `a OR b`, and the fields `author:"Dan Zhao"`
(`au:`), `title:` (`ti:`), `abs:` (`abstract:`), `cat:` (`category:`), `type:survey` (the analysis's paper
types), `topic:12` and `year:2020..2022` (also `2020`, `2020..`, `..2022`). A field whose value does not
parse is searched as plain words and a note says so (a `type:` that is no type finds nothing, and the note
lists the types);
anything else that is not syntax (parentheses, operators, SQL, emoji, other scripts) is simply text, so
every input gives a query. Control and invisible characters are dropped and the query is cut at
SEARCH_MAX_QUERY_LENGTH characters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from django.conf import settings

from papers.categories import is_arxiv_category
from papers.paper_types import PAPER_TYPE_LABELS, paper_type_named

# ASCII digits only (\d also matches ٣ and 𝟘), and the year 0 has no calendar date.
YEAR_PATTERN = re.compile(r"^(?P<start>[0-9]{4})?(?P<range>\.\.|-|–)?(?P<end>[0-9]{4})?$")
MAX_TERMS = 32  # a query of more terms is cut there: no one types more, and each is an index lookup
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "″": '"'})
_FIELD_ALIASES = {
    "author": "author", "au": "author",
    "title": "title", "ti": "title",
    "abs": "abs", "abstract": "abs",
    "cat": "cat", "category": "cat",
    "year": "year",
    "type": "type",
    "topic": "topic",
}  # fmt: skip
OR_OPERATOR = "OR"  # in capitals, between two terms; a lower-case "or" is a word
FILTER = object()  # what reading a cat:, type: or year: field gives: no term, a filter
_FIELD_TOKEN = re.compile(r"(?P<name>[A-Za-z]+):(?P<rest>.*)$", re.DOTALL)


class Mode(StrEnum):
    HYBRID = "hybrid"
    KEYWORD = "keyword"
    SEMANTIC = "semantic"


class Sort(StrEnum):
    RELEVANCE = "relevance"
    NEWEST = "newest"
    CITED = "cited"


class Field(StrEnum):
    ANY = "any"
    TITLE = "title"
    ABSTRACT = "abs"
    AUTHOR = "author"


@dataclass(frozen=True)
class Term:
    """Words that must occur together: one word, or a phrase when `phrase` is set (typed in quotes)."""

    text: str
    field: Field = Field.ANY
    phrase: bool = False

    @property
    def is_plain(self) -> bool:
        """A bare word: in semantic search it only shapes the meaning; everything else must match."""
        return self.field is Field.ANY and not self.phrase

    def describe(self) -> str:
        return f"“{self.text}”" if self.phrase else f"'{self.text}'"


@dataclass(frozen=True)
class Clause:
    """One requirement of the query: any of its alternatives (most clauses have one; `a OR b` has two)."""

    alternatives: tuple[Term, ...]

    @property
    def is_plain(self) -> bool:
        return all(term.is_plain for term in self.alternatives)


@dataclass(frozen=True)
class Filters:
    """Restrictions on which papers may appear at all, from form controls and from the query's fields."""

    categories: tuple[str, ...] = ()
    excluded_categories: tuple[str, ...] = ()
    year_from: int | None = None
    year_to: int | None = None
    cited_only: bool = False
    # Stored paper types (PAPER_TYPE_LABELS); a type: the query names but no paper has stays as typed,
    # so the search finds nothing rather than ignoring it.
    paper_types: tuple[str, ...] = ()
    excluded_paper_types: tuple[str, ...] = ()
    topics: tuple[
        str, ...
    ] = ()  # topic ids as text, as the keyword index stores them: topic:12 or topic:12-graph-learning


@dataclass(frozen=True)
class ParsedQuery:
    """A search as the engine runs it. `text` is the query as searched (cleaned and cut)."""

    text: str
    mode: Mode = Mode.HYBRID
    sort: Sort = Sort.RELEVANCE
    clauses: tuple[Clause, ...] = ()
    excluded: tuple[Term, ...] = ()
    filters: Filters = field(default_factory=Filters)
    notes: tuple[str, ...] = ()
    tokens: tuple[tuple[str, str], ...] = ()  # (kind, token as typed): words, excluded, filter, or, skipped

    def text_without(self, *kinds: str) -> str:
        """The query as typed, less the tokens of these kinds: for suggestions such as "drop the filters"."""
        return " ".join(token for kind, token in self.tokens if kind not in kinds)

    @cached_property
    def topic_terms(self) -> tuple[Term, ...]:
        """The terms that say what the papers are about (not who wrote them)."""
        return tuple(
            term for clause in self.clauses for term in clause.alternatives if term.field is not Field.AUTHOR
        )

    @property
    def has_topic(self) -> bool:
        """False for an empty query or one made only of filters: then the latest papers are listed."""
        return bool(self.topic_terms)

    @property
    def is_empty(self) -> bool:
        """Nothing asked: no words, no exclusions, no filters (the latest papers; nothing worth saving)."""
        return not self.clauses and not self.excluded and self.filters == Filters()

    @property
    def semantic_text(self) -> str:
        """What the query means, for the embedding model: its topic words in the order typed."""
        return " ".join(term.text for term in self.topic_terms)

    @property
    def authors(self) -> tuple[str, ...]:
        return tuple(
            term.text for clause in self.clauses for term in clause.alternatives if term.field is Field.AUTHOR
        )

    @property
    def name_like_text(self) -> str:
        """Text worth matching against researcher and institution names: an author field, or a short
        query of plain words (names are a few words)."""
        if self.authors:
            return self.authors[0]
        plain = [term.text for clause in self.clauses for term in clause.alternatives if term.is_plain]
        if plain and len(plain) == len(self.topic_terms) and len(plain) <= 4:
            return " ".join(plain)
        return ""

    def describe(self) -> str:
        """How the query was understood, in a sentence: papers in cs.DC since 2020 matching 'network'."""
        return describe(self)


def clean(text: str) -> tuple[str, bool]:
    """The query with compatibility forms folded (NFKC), curly quotes made straight, control and
    invisible characters dropped and spaces collapsed, cut at the length limit. Returns it and whether
    it was cut."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = "".join(" " if unicodedata.category(char)[0] in "CZ" else char for char in text)
    text = " ".join(text.split())
    limit = settings.SEARCH_MAX_QUERY_LENGTH
    if len(text) <= limit:
        return text, False
    return text[:limit].rstrip(), True


def _tokens(text: str) -> list[str]:
    """Split on spaces, keeping a quoted stretch (with any field name or minus glued before it) as one
    token; an unclosed quote runs to the end."""
    tokens: list[str] = []
    current = ""
    position = 0
    while position < len(text):
        char = text[position]
        if char == '"':
            end = text.find('"', position + 1)
            end = len(text) if end == -1 else end
            tokens.append(f'{current}"{text[position + 1 : end]}"')
            current = ""
            position = end + 1
        elif char == " ":
            if current:
                tokens.append(current)
            current = ""
            position += 1
        else:
            current += char
            position += 1
    if current:
        tokens.append(current)
    return tokens


def _searchable(text: str) -> bool:
    """Text with at least one letter or digit: emoji and punctuation alone find nothing."""
    return any(char.isalnum() for char in text)


def _year_range(value: str) -> tuple[int | None, int | None] | None:
    match = YEAR_PATTERN.match(value)
    if match is None or not (match.group("start") or match.group("end")):
        return None
    start = int(match.group("start")) if match.group("start") else None
    end = int(match.group("end")) if match.group("end") else None
    if start == 0 or end == 0:
        return None
    if not match.group("range"):
        if start is None or end is not None:
            return None
        end = start  # year:2021 is the one year
    if start is not None and end is not None and start > end:
        start, end = end, start
    return start, end


@dataclass
class _Reader:
    """Reads tokens left to right into clauses, exclusions, filters and notes."""

    clauses: list[list[Term]] = field(default_factory=list)
    excluded: list[Term] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    excluded_categories: list[str] = field(default_factory=list)
    paper_types: list[str] = field(default_factory=list)
    excluded_paper_types: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    years: list[tuple[int | None, int | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    join_next: bool = False  # an OR was just read: the next term joins the last clause

    def read(self, token: str) -> str:
        """Take in one token; returns what it was: words, excluded, filter, or or skipped."""
        if token == OR_OPERATOR:
            self.join_next = bool(self.clauses)
            return "or"
        negated = token.startswith("-") and len(token) > 1
        body = token.lstrip("-") if negated else token
        term = self._field_term(body, negated) if _FIELD_TOKEN.match(body) else self._text_term(body)
        joining, self.join_next = self.join_next, False
        if term is FILTER:
            return "filter"
        if term is None:
            return "skipped"
        if negated:
            self.excluded.append(term)
            return "excluded"
        if joining:
            self.clauses[-1].append(term)
        else:
            self.clauses.append([term])
        return "words"

    def _text_term(self, body: str, field: Field = Field.ANY) -> Term | None:
        phrase = body.startswith('"')
        text = " ".join(body.replace('"', " ").split())
        if not _searchable(text):
            return None
        return Term(text=text, field=field, phrase=phrase and " " in text)

    def _field_term(self, body: str, negated: bool) -> Term | object | None:
        """A field's term; FILTER when the field was a filter (cat:, year:), now recorded."""
        match = _FIELD_TOKEN.match(body)
        assert match is not None
        name, value = _FIELD_ALIASES.get(match.group("name").lower()), match.group("rest")
        bare = value.strip('"').strip()
        if name is None or not bare:
            return self._text_term(body)  # not one of ours (e.g. "Q:" or a URL): plain text
        if name == "cat":
            if is_arxiv_category(bare):
                (self.excluded_categories if negated else self.categories).append(bare)
                return FILTER
            self.notes.append(f"cat:{bare} is not an arXiv category (such as cs.LG); searched as words")
            return self._text_term(value)
        if name == "type":
            paper_type = paper_type_named(bare)
            if paper_type is None:
                known = ", ".join(PAPER_TYPE_LABELS)
                self.notes.append(f"type:{bare[:40]} is not a paper type; the types are {known}")
                paper_type = bare[:40]
            (self.excluded_paper_types if negated else self.paper_types).append(paper_type)
            return FILTER
        if name == "topic":
            topic_id = bare.split("-", 1)[0]
            if topic_id.isascii() and topic_id.isdigit() and len(topic_id) <= 9:
                self.topics.append(str(int(topic_id)))
                if negated:
                    self.notes.append("A minus does not apply to topic:; it finds the topic's papers")
                return FILTER
            self.notes.append(
                f"topic:{bare[:40]} is not a topic number (such as topic:12); searched as words"
            )
            return self._text_term(value)
        if name == "year":
            years = _year_range(bare)
            if years is not None:
                self.years.append(years)
                if negated:
                    self.notes.append("A minus does not apply to year:; to leave years out, use year:..2019")
                return FILTER
            self.notes.append(f"year:{bare} is not a year or range (such as 2020..2022); searched as words")
            return self._text_term(value)
        return self._text_term(value, Field(name))


def parse(
    text: str,
    *,
    mode: Mode = Mode.HYBRID,
    sort: Sort = Sort.RELEVANCE,
    filters: Filters | None = None,
) -> ParsedQuery:
    """Read what was typed in the search box, together with the filters chosen in the form."""
    filters = filters or Filters()
    cleaned, cut = clean(text)
    reader = _Reader()
    tokens = _tokens(cleaned)
    kinds = tuple((reader.read(token), token) for token in tokens[:MAX_TERMS])
    notes = list(reader.notes)
    if cut:
        notes.append(f"The query was cut to its first {settings.SEARCH_MAX_QUERY_LENGTH} characters.")
    if len(tokens) > MAX_TERMS:
        notes.append(f"Only the first {MAX_TERMS} terms were searched.")
    if cleaned and not reader.clauses and not reader.excluded and not _has_field_filters(reader):
        notes.append("The query has no letters or digits to search for; showing the latest papers.")
    year_from, year_to = filters.year_from, filters.year_to
    for start, end in reader.years:  # every range given must hold: they intersect
        if start is not None:
            year_from = start if year_from is None else max(year_from, start)
        if end is not None:
            year_to = end if year_to is None else min(year_to, end)
    if year_from is not None and year_to is not None and year_from > year_to:
        notes.append(f"The years asked for do not overlap ({year_from} is after {year_to}).")
    merged = Filters(
        categories=tuple(dict.fromkeys([*filters.categories, *reader.categories])),
        excluded_categories=tuple(dict.fromkeys([*filters.excluded_categories, *reader.excluded_categories])),
        year_from=year_from,
        year_to=year_to,
        cited_only=filters.cited_only,
        paper_types=tuple(dict.fromkeys([*filters.paper_types, *reader.paper_types])),
        excluded_paper_types=tuple(
            dict.fromkeys([*filters.excluded_paper_types, *reader.excluded_paper_types])
        ),
        topics=tuple(dict.fromkeys([*filters.topics, *reader.topics])),
    )
    return ParsedQuery(
        text=cleaned,
        mode=mode,
        sort=sort,
        clauses=tuple(Clause(tuple(alternatives)) for alternatives in reader.clauses),
        excluded=tuple(reader.excluded),
        filters=merged,
        notes=tuple(notes),
        tokens=kinds,
    )


def _has_field_filters(reader: _Reader) -> bool:
    return bool(
        reader.categories
        or reader.excluded_categories
        or reader.years
        or reader.paper_types
        or reader.excluded_paper_types
        or reader.topics
    )


def _join(items: list[str], word: str = "and") -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def _describe_years(filters: Filters) -> str:
    start, end = filters.year_from, filters.year_to
    if start is not None and end is not None:
        return f"in {start}" if start == end else f"from {start} to {end}"
    if start is not None:
        return f"since {start}"
    if end is not None:
        return f"until {end}"
    return ""


def describe(query: ParsedQuery) -> str:
    """The sentence shown above the results: papers by Dan Zhao in cs.DC since 2020 matching 'network'."""
    parts = ["papers"]
    if query.authors:
        parts.append("by " + _join(list(query.authors)))
    filters = query.filters
    if filters.categories:
        parts.append("in " + _join(list(filters.categories), "or"))
    if filters.excluded_categories:
        parts.append("outside " + _join(list(filters.excluded_categories)))
    if years := _describe_years(filters):
        parts.append(years)
    if filters.cited_only:
        parts.append("with citations")
    if filters.paper_types:
        parts.append("of type " + _join([_type_name(value) for value in filters.paper_types], "or"))
    if filters.topics:
        parts.append("in topic " + _join([f"#{topic}" for topic in filters.topics], "or"))
    if filters.excluded_paper_types:
        parts.append("not of type " + _join([_type_name(value) for value in filters.excluded_paper_types]))
    plain_words = [clause.alternatives[0].text for clause in query.clauses if _single_plain(clause)]
    if plain_words:
        parts.append(f"matching '{' '.join(plain_words)}'")
    for clause in query.clauses:
        if _single_plain(clause) or all(term.field is Field.AUTHOR for term in clause.alternatives):
            continue
        if clause.is_plain:
            parts.append("matching " + _join([term.describe() for term in clause.alternatives], "or"))
        else:
            parts.append(_join([_describe_term(term) for term in clause.alternatives], "or"))
    if query.excluded:
        parts.append("but not " + _join([_describe_term(term) for term in query.excluded], "or"))
    return " ".join(parts)


def _type_name(value: str) -> str:
    return PAPER_TYPE_LABELS.get(value, value)


def _single_plain(clause: Clause) -> bool:
    return len(clause.alternatives) == 1 and clause.alternatives[0].is_plain


def _describe_term(term: Term) -> str:
    if term.field is Field.TITLE:
        return f"with {term.describe()} in the title"
    if term.field is Field.ABSTRACT:
        return f"with {term.describe()} in the abstract"
    if term.field is Field.AUTHOR:
        return f"by {term.text}"
    if term.phrase:
        return f"with the phrase {term.describe()}"
    return f"matching {term.describe()}"
