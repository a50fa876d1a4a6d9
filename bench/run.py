"""One benchmark run: the corpus (built or reused), the measurements, the JSON and the table."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.test.utils import override_settings
from tqdm import tqdm

from bench import analysis, chat, corpus, database, measure
from bench.database import machine
from bench.sources import load_sources
from core.progress import progress_bar
from papers.search import keyword_index as search_keyword_index
from wovepaper.wsgi import freeze_start_up


def _progress(description: str, total: int):  # noqa: ANN202 - returns the bar's update method
    bar = tqdm(total=total, desc=description, unit=" rows", unit_scale=True, leave=True)
    return bar.update


def build(url: str, spec: corpus.CorpusSpec, rebuild: bool) -> tuple[corpus.Plan, dict]:
    """The corpus in the database, built unless it is there already; returns its plan and build times."""
    sources = load_sources()
    with psycopg.connect(url) as connection:
        reuse = not rebuild and database.corpus_in(connection) == spec
        if not reuse:
            database.reset(connection)
    call_command("migrate", verbosity=0)
    plan = corpus.plan(spec, sources)
    if reuse:
        print(f"reusing the corpus of {spec.papers:,} papers (seed {spec.seed}) already in the database")
        return plan, {"reused": True}
    started = time.monotonic()
    with psycopg.connect(url) as connection:
        indexes = database.secondary_indexes(connection)
        database.drop(connection, indexes)
        corpus.load(connection, spec, sources, plan, _progress)
        connection.commit()
    loaded = time.monotonic() - started
    index_seconds = database.build(url, indexes)
    with psycopg.connect(url) as connection:
        database.mark_complete(connection, spec)
    return plan, {"reused": False, "load_seconds": round(loaded, 1), "index_seconds": index_seconds}


def keyword_index(spec: corpus.CorpusSpec, rebuild: bool) -> dict:
    """The site's keyword index of this corpus, under var/bench beside its database; built unless it is
    there and complete."""
    override_settings(
        SEARCH_KEYWORD_INDEX_DIR=settings.VAR_DIR / "bench" / f"keyword-index-{spec.papers}-{spec.seed}"
    ).enable()
    if not rebuild and search_keyword_index.state() == "ok":
        return {"keyword_index_reused": True}
    started = time.monotonic()
    bar, progress = progress_bar("keyword index", verbosity=1)
    with bar:
        search_keyword_index.rebuild(progress)
    return {"keyword_index_seconds": round(time.monotonic() - started, 1)}


def sizes(url: str) -> dict:
    with psycopg.connect(url) as connection:
        return {
            table: connection.execute(
                "SELECT pg_size_pretty(pg_total_relation_size(%s))", [table]
            ).fetchone()[0]
            for table in corpus.TABLES
        } | {
            "counts": {
                table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608
                for table in corpus.TABLES
            }
        }


def run(args: argparse.Namespace, url: str) -> dict:
    spec = corpus.CorpusSpec(papers=args.papers, seed=args.seed)
    plan, build_times = build(url, spec, args.rebuild)
    build_times |= keyword_index(spec, args.rebuild)
    call_command("collectstatic", "--noinput", verbosity=0)
    prewarmed = database.prewarm(url)
    bench_queries = measure.queries(plan, load_sources(), args.seed)
    measure.plant_query_vectors(bench_queries)
    # Measure in a process set up as a gunicorn worker is: what start-up loaded is frozen out of the
    # garbage collector's sight.
    freeze_start_up()

    report = {
        "generated_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "papers": spec.papers,
        "seed": spec.seed,
        "machine": machine(url),
        "corpus": sizes(url),
        "build": build_times,
        "prewarmed": prewarmed,
        "search_settings": {
            name: getattr(settings, name)
            for name in (
                "SEARCH_KEYWORD_CANDIDATES",
                "SEARCH_KEYWORD_RECENT_PAPERS",
                "SEARCH_HNSW_EF_SEARCH",
                "SEARCH_HNSW_FILTERED_EF_SEARCH",
                "SEARCH_HYBRID_DEPTH",
                "SEARCH_PAGE_SIZE",
            )
        },
        "queries": [query.text for query in bench_queries],
    }
    parts = args.only or ["search", "pages", "chat", "analysis"]
    if "search" in parts:
        report["search"] = measure.search_cases(bench_queries, args.repeat)
        report["relevance"] = measure.relevance(bench_queries, spec.papers, spec.seed)
    if "pages" in parts:
        report["pages"] = measure.pages(bench_queries, args.repeat, args.seed)
    if "chat" in parts:
        report["chat"] = chat.measure(args.repeat, args.seed, questions=args.chat_questions)
    if "analysis" in parts:  # last: it analyses papers and computes topics, which other parts never read
        report["analysis"] = analysis.measure(spec.papers, args.seed)
    # Other work on the machine slows every number: say how busy it was.
    report["machine"]["load_average_at_end"] = os.getloadavg()[0]
    args.output.mkdir(parents=True, exist_ok=True)
    name = "+".join(args.only) if args.only else "search"
    path = args.output / f"{name}-{spec.papers}.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(table(report))
    if "chat" in report:
        print(chat.table(report["chat"]))
    if "analysis" in report:
        print(analysis.table(report["analysis"]))
    print(f"written to {path}")
    return report


def table(report: dict) -> str:
    machine_ = report["machine"]
    lines = [
        f"{report['papers']:,} papers · {machine_['cpus']} cores, {machine_['memory_gib']} GiB · "
        f"PostgreSQL {machine_['postgres']}, pgvector {machine_['pgvector']} · load average "
        f"{machine_['load_average_at_start']:.1f} at the start, "
        f"{machine_['load_average_at_end']:.1f} at the end",
        "search: full results (engine.run) | retrieval alone (engine.rank)",
        f"{'case':<26}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8} |{'p50 ms':>8}{'p95 ms':>8}"
        f"{'recall@10 mean/min':>20}{'full pages':>12}  target p95",
    ]
    for name, result in report.get("search", {}).items():
        mode, retrieval = name.split()[0], result["retrieval"]
        recall = (
            f"{result['recall_at_10']:.3f} / {result['worst_recall_at_10']:.2f}"
            if "recall_at_10" in result
            else ""
        )
        target = measure.TARGETS_P95_MS[mode]
        verdict = (
            "met"
            if result["p95_ms"] <= target
            else "retrieval met"
            if retrieval["p95_ms"] <= target
            else "missed"
        )
        lines.append(
            f"{name:<26}{result['p50_ms']:>8.1f}{result['p95_ms']:>8.1f}{result['p99_ms']:>8.1f} |"
            f"{retrieval['p50_ms']:>8.1f}{retrieval['p95_ms']:>8.1f}"
            f"{recall:>20}{result['full_pages']:>12.0%}  ≤ {target} ms: {verdict}"
        )
    relevance = report.get("relevance", {})
    for name in ("keyword", "keyword" + measure.POSTGRES, "hybrid", "BM25 reference"):
        if name in relevance:
            result = relevance[name]
            overlaps = " · ".join(
                f"{label} overlap@10 {value['overlap_at_10']:.2f} (worst {value['worst_overlap_at_10']:.1f})"
                for label, value in result.items()
                if label.startswith("reference")
            )
            lines.append(
                f"{name:<26}known-item MRR@10 {result['mrr_at_10']:.3f} (older than the newest candidates: "
                f"{result['mrr_at_10_older_than_newest_candidates']}) {overlaps}"
            )
    lines.append(f"{'page (server time)':<44}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'queries':>9}")
    for name, result in report.get("pages", {}).items():
        lines.append(
            f"{name:<44}{result['p50_ms']:>8.1f}{result['p95_ms']:>8.1f}{result['p99_ms']:>8.1f}{result['queries']:>9}"
        )
    return "\n".join(lines)
