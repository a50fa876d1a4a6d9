"""The benchmark's database: its marker, emptying it, building indexes after a bulk load, and what the
machine and the server it runs on are."""

from __future__ import annotations

import os
import platform
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql
from tqdm import tqdm

from bench.corpus import TABLES, CorpusSpec

MARKER = "bench_corpus"  # a table only the benchmark makes: a database without it is never emptied
GENERATOR_VERSION = 2  # bump when corpus.py changes what it makes: the next run rebuilds


class NotABenchDatabase(RuntimeError):
    pass


@dataclass(frozen=True)
class Index:
    table: str
    name: str
    definition: str


def corpus_in(connection: psycopg.Connection) -> CorpusSpec | None:
    """The corpus this database holds, if the benchmark made it and it is complete."""
    exists = connection.execute("SELECT to_regclass(%s)", [MARKER]).fetchone()[0]
    if exists is None:
        return None
    row = connection.execute(
        sql.SQL("SELECT papers, seed FROM {} WHERE version = %s AND complete").format(sql.Identifier(MARKER)),
        [GENERATOR_VERSION],
    ).fetchone()
    return CorpusSpec(papers=row[0], seed=row[1]) if row else None


def _has_rows(connection: psycopg.Connection, table: str) -> bool:
    if connection.execute("SELECT to_regclass(%s)", [table]).fetchone()[0] is None:
        return False
    return connection.execute(
        sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(table))
    ).fetchone()[0]


def reset(connection: psycopg.Connection) -> None:
    """Start from an empty schema (migrations then make the tables and indexes afresh). Refuses a database
    the benchmark did not make that holds papers or users."""
    marked = connection.execute("SELECT to_regclass(%s)", [MARKER]).fetchone()[0] is not None
    if not marked and (_has_rows(connection, "papers_paper") or _has_rows(connection, "auth_user")):
        raise NotABenchDatabase("the database holds data the benchmark did not make; give it an empty one")
    connection.execute("DROP SCHEMA public CASCADE")
    connection.execute("CREATE SCHEMA public")
    # Marked from the start: a build that stops half-way is the benchmark's to reset next time.
    connection.execute(
        sql.SQL("CREATE TABLE {} (papers int, seed int, version int, complete bool)").format(
            sql.Identifier(MARKER)
        )
    )
    connection.commit()


def mark_complete(connection: psycopg.Connection, spec: CorpusSpec) -> None:
    connection.execute(
        sql.SQL("INSERT INTO {} VALUES (%s, %s, %s, true)").format(sql.Identifier(MARKER)),
        [spec.papers, spec.seed, GENERATOR_VERSION],
    )
    connection.commit()


def secondary_indexes(connection: psycopg.Connection) -> list[Index]:
    """Indexes of the corpus tables that back no constraint: safe to drop and build again after loading."""
    rows = connection.execute(
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) "
        "AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY tablename, indexname",
        [list(TABLES)],
    ).fetchall()
    return [Index(*row) for row in rows]


def drop(connection: psycopg.Connection, indexes: list[Index]) -> None:
    for index in indexes:
        connection.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(index.name)))
    connection.commit()


def build(url: str, indexes: list[Index]) -> dict[str, float]:
    """Build the indexes one by one with a progress bar each; returns the seconds each took."""
    seconds: dict[str, float] = {}
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("SET maintenance_work_mem = '4GB'")
        connection.execute("SET max_parallel_maintenance_workers = 2")
        pid = connection.info.backend_pid
        for index in indexes:
            started = time.monotonic()
            with _ProgressWatcher(url, pid, f"index {index.name}"):
                connection.execute(index.definition)
            seconds[index.name] = round(time.monotonic() - started, 1)
        for table in TABLES:
            connection.execute(sql.SQL("VACUUM (ANALYZE) {}").format(sql.Identifier(table)))
    return seconds


class _ProgressWatcher:
    """Polls pg_stat_progress_create_index from a second connection while an index builds."""

    def __init__(self, url: str, pid: int, description: str) -> None:
        self.url, self.pid, self.description = url, pid, description
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> _ProgressWatcher:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def _watch(self) -> None:
        with (
            psycopg.connect(self.url, autocommit=True) as connection,
            tqdm(
                total=100,
                desc=self.description,
                unit="%",
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}",
            ) as bar,
        ):
            while not self.stopped.wait(0.5):
                row = connection.execute(
                    "SELECT tuples_done, tuples_total, blocks_done, blocks_total "
                    "FROM pg_stat_progress_create_index WHERE pid = %s",
                    [self.pid],
                ).fetchone()
                if row:
                    tuples_done, tuples_total, blocks_done, blocks_total = row
                    fraction = max(
                        tuples_done / tuples_total if tuples_total else 0,
                        blocks_done / blocks_total if blocks_total else 0,
                    )
                    bar.n = min(100, round(100 * fraction))
                    bar.refresh()
            bar.n = 100
            bar.refresh()


# What a server answering searches keeps in memory, most used first.
WORKING_SET = (
    "paper_embedding_hnsw", "paper_search_vector_gin", "papers_paper_pkey", "papers_paper_published_29316afb",
    "paper_categories_gin", "papers_paper", "researcher_name_trgm", "institution_name_trgm",
)  # fmt: skip


def prewarm(url: str) -> bool:
    """Read the working set into shared buffers (pg_prewarm), so the benchmark measures a server that has
    been answering searches, not one just started. False when the extension cannot be had."""
    with psycopg.connect(url, autocommit=True) as connection:
        try:
            connection.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        except psycopg.Error:
            return False
        for relation in tqdm(WORKING_SET, desc="prewarm", unit=" relations"):
            if connection.execute("SELECT to_regclass(%s)", [relation]).fetchone()[0] is not None:
                connection.execute("SELECT pg_prewarm(%s)", [relation])
    return True


def machine(url: str) -> dict:
    with psycopg.connect(url) as connection:
        postgres = connection.execute("SHOW server_version").fetchone()[0]
        pgvector = connection.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()[0]
        shared_buffers = connection.execute("SHOW shared_buffers").fetchone()[0]
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), platform.processor(),
    )  # fmt: skip
    memory_kib = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal"))  # fmt: skip
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "memory_gib": round(memory_kib / 1024**2, 1),
        "load_average_at_start": os.getloadavg()[0],  # 1-minute average; 2.0 keeps both cores busy
        "postgres": postgres,
        "pgvector": pgvector,
        "shared_buffers": shared_buffers,
    }
