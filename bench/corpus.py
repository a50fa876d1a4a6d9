"""A synthetic corpus of N papers with researchers, authorships, institutions, affiliations and
citations, bulk-loaded with COPY into the schema the migrations made; indexes are built after loading.

Reproducible from the seed. Text is real arXiv text recombined (see sources.py): each paper takes the
title of a demo paper with some words swapped and sentences of its abstract mixed with sentences of its
topic. Embeddings have the structure of real ones, so nearest neighbours mean something and the HNSW
graph meets the shapes it meets in production: TOPICS topics grouped in FIELDS fields, a fifth of the
demo papers between two topics (cross-listed work), and a direction every vector shares (sentence
embeddings are anisotropic). Cosine similarity is about 0.79 within the family of papers made from one
demo paper, 0.53 within a topic, 0.39 within a field and 0.1 across fields.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from bench.sources import Sources
from papers.models import paper_slug
from researchers.names import normalise_name

TOPICS, FIELDS = 128, 16
DIMENSIONS = 384
COMMON_WEIGHT, TOPIC_WEIGHT, FAMILY_WEIGHT, NOISE_WEIGHT = 0.5, 1.0, 0.8, 0.7
CROSS_TOPIC_SHARE = 0.2
ONE_PERCENT_CATEGORY = "bench.one"  # on a random 1% of papers: the narrow filter of the benchmark
CHUNK = 10_000
COUNTRIES = ["US", "CN", "GB", "DE", "FR", "JP", "CA", "IN", "KR", "IT", "AU", "NL", "CH", "ES", "SG", "IL"]
FIRST_YEAR, LAST_YEAR = 2007, 2025
TABLES = (
    "papers_paper", "papers_authorship", "papers_citation", "researchers_researcher",
    "institutions_institution", "institutions_affiliation",
)  # fmt: skip
NOW = datetime.datetime(2025, 7, 1, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class CorpusSpec:
    papers: int
    seed: int = 1

    @property
    def researchers(self) -> int:
        return max(200, self.papers // 2)

    @property
    def institutions(self) -> int:
        return max(20, self.papers // 50)

    @property
    def prolific_papers(self) -> int:
        """Papers of researcher 1, the one whose page is measured: hundreds, whatever N."""
        return min(500, max(10, self.papers // 200))


@dataclass
class Plan:
    """Everything about the corpus decided up front, as arrays (text and vectors are made per chunk)."""

    spec: CorpusSpec
    source: np.ndarray  # demo paper each paper is made from
    topic_of_source: np.ndarray
    published: np.ndarray  # days since 1970-01-01
    arxiv_ids: list[str]
    one_percent: np.ndarray  # bool
    references: list[np.ndarray]  # cited paper ids (1-based) of each paper
    cited_by: np.ndarray
    authors: list[np.ndarray]  # researcher ids (1-based) of each paper, in order
    researcher_names: list[str]
    directions: np.ndarray  # per demo paper: the shared direction plus its topic (or two), not unit
    families: np.ndarray  # unit offsets, one per demo paper


def _rng(spec: CorpusSpec, purpose: int) -> np.random.Generator:
    return np.random.default_rng([spec.seed, purpose])


def plan(spec: CorpusSpec, sources: Sources) -> Plan:
    n = spec.papers
    rng = _rng(spec, 0)
    source = rng.integers(0, len(sources.papers), n)
    topic_of_source = _rng(spec, 1).integers(0, TOPICS, len(sources.papers))
    years = np.arange(FIRST_YEAR, LAST_YEAR + 1)
    weights = np.exp(0.15 * (years - FIRST_YEAR))  # arXiv grows: more recent years hold more papers
    year = rng.choice(years, n, p=weights / weights.sum())
    start = np.array([(datetime.date(y, 1, 1) - datetime.date(1970, 1, 1)).days for y in year])
    published = start + rng.integers(0, 365, n)
    one_percent = np.zeros(n, dtype=bool)
    one_percent[rng.choice(n, max(1, n // 100), replace=False)] = True
    references = [
        np.unique(rng.integers(1, n + 1, count)) for count in rng.poisson(4, n)
    ]  # may cite itself: removed below
    references = [refs[refs != paper] for paper, refs in enumerate(references, start=1)]
    cited_by = np.bincount(np.concatenate(references), minlength=n + 1)[1:] if n else np.zeros(0)
    authors, names = _authors(spec, sources)
    families = _unit(_rng(spec, 4).normal(size=(len(sources.papers), DIMENSIONS)))
    return Plan(spec, source, topic_of_source, published, _arxiv_ids(published), one_percent, references,
                cited_by, authors, names, _directions(spec, topic_of_source), families)  # fmt: skip


def _directions(spec: CorpusSpec, topic_of_source: np.ndarray) -> np.ndarray:
    rng = _rng(spec, 3)
    common = _unit(rng.normal(size=(1, DIMENSIONS)))
    fields = _unit(rng.normal(size=(FIELDS, DIMENSIONS)))
    topics = _unit(
        fields[np.arange(TOPICS) // (TOPICS // FIELDS)] + 0.7 * _unit(rng.normal(size=(TOPICS, DIMENSIONS)))
    )
    second = topics[rng.integers(0, TOPICS, len(topic_of_source))]
    crossing = (rng.random(len(topic_of_source)) < CROSS_TOPIC_SHARE)[:, None]
    topic = _unit(topics[topic_of_source] + np.where(crossing, 0.7 * second, 0.0))
    return COMMON_WEIGHT * common + TOPIC_WEIGHT * topic


def _arxiv_ids(published: np.ndarray) -> list[str]:
    """New-style ids, numbered within each month in publication order."""
    dates = [datetime.date(1970, 1, 1) + datetime.timedelta(days=int(day)) for day in published]
    months = [f"{date.year % 100:02d}{date.month:02d}" for date in dates]
    order = np.argsort(published, kind="stable")
    counters: dict[str, int] = {}
    ids = [""] * len(dates)
    for index in order:
        counters[months[index]] = counters.get(months[index], 0) + 1
        ids[index] = f"{months[index]}.{counters[months[index]]:05d}"
    return ids


def _authors(spec: CorpusSpec, sources: Sources) -> tuple[list[np.ndarray], list[str]]:
    """Authors per paper: researcher 1 on `prolific_papers` papers, the rest drawn with a long tail."""
    rng = _rng(spec, 2)
    count = spec.researchers
    names = [
        f"{sources.first_names[first]} {sources.last_names[last]}"
        for first, last in zip(
            rng.integers(0, len(sources.first_names), count),
            rng.integers(0, len(sources.last_names), count),
            strict=True,
        )
    ]
    sizes = np.clip(rng.poisson(3.5, spec.papers) + 1, 1, 40)
    ranks = np.arange(2, count + 1)
    weights = 1.0 / (ranks + 50.0) ** 0.9
    drawn = rng.choice(ranks, int(sizes.sum()), p=weights / weights.sum())
    prolific = set(rng.choice(spec.papers, spec.prolific_papers, replace=False).tolist())
    authors, position = [], 0
    for paper, size in enumerate(sizes):
        team = drawn[position : position + size]
        position += size
        if paper in prolific:
            team = np.concatenate([[1], team])
        authors.append(np.array(list(dict.fromkeys(team.tolist()))))
    return authors, names


def embeddings(spec: CorpusSpec, plan_: Plan, start: int, stop: int) -> np.ndarray:
    """Unit vectors for papers [start, stop): topic centre + family offset + noise, all seeded."""
    source = plan_.source[start:stop]
    noise = _unit(_rng(spec, 10_000 + start).normal(size=(stop - start, DIMENSIONS)))
    vectors = plan_.directions[source] + FAMILY_WEIGHT * plan_.families[source] + NOISE_WEIGHT * noise
    return _unit(vectors).astype(np.float32)


def query_vector_near(plan_: Plan, source: int, rng: np.random.Generator) -> np.ndarray:
    """A query's vector: about the topic and family of one demo paper, with noise of its own."""
    noise = _unit(rng.normal(size=(1, DIMENSIONS)))[0]
    vector = plan_.directions[source] + FAMILY_WEIGHT * plan_.families[source] + 0.9 * noise
    return _unit(vector[None, :])[0].astype(np.float32)


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


class _Texts:
    """Titles and abstracts recombined from the demo papers of the same topic."""

    def __init__(self, sources: Sources, topic_of_source: np.ndarray, rng: np.random.Generator) -> None:
        self.sources, self.rng = sources, rng
        self.by_topic = [np.flatnonzero(topic_of_source == topic) for topic in range(TOPICS)]

    def make(self, source: int, topic: int) -> tuple[str, str]:
        paper, neighbours = self.sources.papers[source], self.by_topic[topic]
        words = paper.title.split()
        for index in np.flatnonzero(self.rng.random(len(words)) < 0.25):
            words[index] = self.sources.papers[int(self.rng.choice(neighbours))].title.split()[0]
        own = list(paper.sentences[: int(self.rng.integers(2, 6))])
        borrowed = [
            self.sources.papers[int(neighbour)].sentences[0]
            for neighbour in self.rng.choice(neighbours, int(self.rng.integers(2, 5)))
        ]
        return " ".join(words), " ".join(own + borrowed)


def _columns(connection: psycopg.Connection, table: str, wanted: list[str]) -> list[str]:
    """The types of `wanted` columns, checking the table needs nothing else (a NOT NULL column without a
    default that the benchmark does not fill would fail the COPY with a less clear message)."""
    rows = connection.execute(
        "SELECT attname, format_type(atttypid, NULL), "
        "attnotnull AND NOT atthasdef AND attgenerated = '' AND attidentity = '' "
        "FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped",
        [table],
    ).fetchall()
    types = {name: type_name for name, type_name, _ in rows}
    missing = [name for name, _, required in rows if required and name not in wanted]
    if missing:
        raise RuntimeError(f"{table} has required columns the benchmark does not fill: {', '.join(missing)}")
    return [types[name] for name in wanted]


def _copy(
    connection: psycopg.Connection,
    table: str,
    columns: list[str],
    rows: Iterator[tuple],
    binary: bool = False,
) -> None:
    statement = sql.SQL("COPY {} ({}) FROM STDIN{}").format(
        sql.Identifier(table),
        sql.SQL(", ").join(map(sql.Identifier, columns)),
        sql.SQL(" (FORMAT BINARY)" if binary else ""),
    )
    types = _columns(connection, table, columns)
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        if binary:
            copy.set_types(types)
        for row in rows:
            copy.write_row(row)


PAPER_COLUMNS = [
    "id", "arxiv_id", "title", "abstract", "authors", "categories", "primary_category", "published", "doi",
    "journal_ref", "comments", "license", "cited_by_count", "reference_count", "embedding", "slug",
    "created_at", "updated_at",
]  # fmt: skip


def load(
    connection: psycopg.Connection, spec: CorpusSpec, sources: Sources, plan_: Plan,
    progress: Callable[[str, int], Callable[[int], None]],
) -> None:  # fmt: skip
    """COPY every table (foreign keys are not checked row by row: the plan is consistent by construction)."""
    register_vector(connection)
    try:
        connection.execute("SET session_replication_role = replica")
    except psycopg.errors.InsufficientPrivilege:
        connection.rollback()
    _copy(connection, "institutions_institution", ["id", "name", "ror_id", "country_code", "type", "homepage",
          "created_at", "updated_at"], _institutions(spec))  # fmt: skip
    _copy(connection, "researchers_researcher", ["id", "display_name", "normalised_name", "orcid", "h_index",
          "created_at", "updated_at"], _researchers(spec, plan_, progress))  # fmt: skip
    _copy(connection, "institutions_affiliation", ["researcher_id", "institution_id", "years", "last_known"],
          _affiliations(spec))  # fmt: skip
    _copy(connection, "papers_paper", PAPER_COLUMNS, _papers(spec, sources, plan_, progress), binary=True)
    authorship_columns = [
        "paper_id", "position", "name", "normalised_name", "researcher_id", "affiliations", "is_collaboration"
    ]  # fmt: skip
    _copy(connection, "papers_authorship", authorship_columns, _authorships(plan_, progress))
    _copy(connection, "papers_citation", ["citing_id", "cited_id", "created_at"], _citations(plan_, progress))
    connection.execute("SET session_replication_role = DEFAULT")
    for table in TABLES:
        connection.execute(
            sql.SQL(
                "SELECT setval(pg_get_serial_sequence({t}, 'id'), (SELECT coalesce(max(id), 1) FROM {i}))"
            ).format(t=sql.Literal(table), i=sql.Identifier(table))
        )


def _papers(spec: CorpusSpec, sources: Sources, plan_: Plan, progress) -> Iterator[tuple]:  # noqa: ANN001
    texts = _Texts(sources, plan_.topic_of_source, _rng(spec, 5))
    cited_rng = _rng(spec, 6)
    advance = progress("papers", spec.papers)
    epoch = datetime.date(1970, 1, 1)
    for start in range(0, spec.papers, CHUNK):
        stop = min(start + CHUNK, spec.papers)
        vectors = embeddings(spec, plan_, start, stop)
        for offset, vector in enumerate(vectors):
            index = start + offset
            source = int(plan_.source[index])
            title, abstract = texts.make(source, int(plan_.topic_of_source[source]))
            categories = list(sources.papers[source].categories)
            if plan_.one_percent[index]:
                categories.append(ONE_PERCENT_CATEGORY)
            known = cited_rng.random() < 0.85  # citation counts are unknown for some papers, as upstream
            authors = [plan_.researcher_names[researcher - 1] for researcher in plan_.authors[index]]
            published = epoch + datetime.timedelta(days=int(plan_.published[index]))
            cited_by = int(plan_.cited_by[index]) if known else None
            yield (
                index + 1, plan_.arxiv_ids[index], title, abstract, authors, categories, categories[0],
                published, "", "", "", "", cited_by, len(plan_.references[index]), vector, paper_slug(title),
                NOW, NOW,
            )  # fmt: skip
        advance(stop - start)


def _researchers(spec: CorpusSpec, plan_: Plan, progress) -> Iterator[tuple]:  # noqa: ANN001
    rng = _rng(spec, 7)
    advance = progress("researchers", spec.researchers)
    for number, name in enumerate(plan_.researcher_names, start=1):
        h_index = int(rng.integers(0, 60)) if rng.random() < 0.7 else None
        yield number, name, normalise_name(name), "", h_index, NOW, NOW
    advance(spec.researchers)


def _institutions(spec: CorpusSpec) -> Iterator[tuple]:
    rng = _rng(spec, 8)
    syllables = [
        "var",
        "mor",
        "len",
        "ta",
        "bri",
        "sto",
        "kel",
        "dun",
        "ash",
        "ford",
        "wick",
        "hal",
        "ren",
        "ost",
    ]
    forms = ["University of {}", "{} University", "{} Institute of Technology", "{} Research Centre"]
    for number in range(1, spec.institutions + 1):
        place = "".join(rng.choice(syllables, int(rng.integers(2, 4)))).capitalize()
        ror = f"0{np.base_repr(number, 36).lower():0>6}{number % 100:02d}"  # unique, shaped like a ROR id
        yield (number, forms[number % len(forms)].format(place) + f" {number}", ror,
               COUNTRIES[number % len(COUNTRIES)], "education", "", NOW, NOW)  # fmt: skip


def _affiliations(spec: CorpusSpec) -> Iterator[tuple]:
    """One or two institutions per researcher, the first the last known; institution 1 is the largest."""
    rng = _rng(spec, 9)
    ranks = np.arange(1, spec.institutions + 1)
    weights = 1.0 / (ranks + 5.0)
    chosen = rng.choice(ranks, (spec.researchers, 2), p=weights / weights.sum())
    for researcher, (first, second) in enumerate(chosen, start=1):
        yield researcher, int(first), [2023, 2024, 2025], True
        if second != first and rng.random() < 0.2:
            yield researcher, int(second), [2019, 2020], False


def _authorships(plan_: Plan, progress) -> Iterator[tuple]:  # noqa: ANN001
    advance = progress("authorships", len(plan_.authors))
    normalised = {}
    for paper, team in enumerate(plan_.authors, start=1):
        for position, researcher in enumerate(team.tolist(), start=1):
            name = plan_.researcher_names[researcher - 1]
            if researcher not in normalised:
                normalised[researcher] = normalise_name(name)
            # People (no collaborations) with no affiliation printed.
            yield paper, position, name, normalised[researcher], researcher, "{}", False
        if paper % CHUNK == 0:
            advance(CHUNK)
    advance(len(plan_.authors) % CHUNK)


def _citations(plan_: Plan, progress) -> Iterator[tuple]:  # noqa: ANN001
    advance = progress("citations", len(plan_.references))
    for paper, cited in enumerate(plan_.references, start=1):
        for target in cited.tolist():
            yield paper, target, NOW
        if paper % CHUNK == 0:
            advance(CHUNK)
    advance(len(plan_.references) % CHUNK)
