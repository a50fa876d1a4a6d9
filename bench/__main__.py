"""`python -m bench` (or `make bench`): search latency and recall on a synthetic corpus.

Builds N papers (default 100,000) with researchers, authorships, institutions, affiliations and citations
into a database of its own, then measures keyword, semantic and hybrid search, with and without filters,
the recall of semantic search against exact search, and the server time of the pages that list many
papers. Writes JSON to bench/results/ and prints a table. See README.md, "Performance".

The database is an embedded PostgreSQL under var/bench (started and stopped here) unless --database-url
names another; the development database is never touched. A corpus already there with the same size
and seed is reused.

`--only ingest` measures the harvest instead (bench/ingest.py): N synthetic OAI-PMH records harvested
over loopback HTTP into a database of its own, wovepaper_bench_ingest, emptied first, with a Redis of
its own for the harvest's rate limits and queue. It runs alone: `make bench` runs it after the rest.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from pathlib import Path

import django
import psycopg
from django.test.utils import override_settings
from psycopg import sql

from bench.oai_stream import PAGE_SIZE
from devserver.localservices import EmbeddedPostgres, EmbeddedRedis, free_port

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = BASE_DIR / "var" / "bench"
# The embedded server is set up like a production database on this kind of machine (24 GiB of memory:
# a quarter for shared buffers, the operating system's cache for most of the rest).
SERVER_SETTINGS = {
    "shared_buffers": "6GB",
    "effective_cache_size": "16GB",
    "work_mem": "32MB",
    "random_page_cost": "1.1",
    "maintenance_work_mem": "2GB",
}


PARTS = ("search", "pages", "chat", "analysis", "ingest")


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000, help="papers in the corpus (at least 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything random (default 1)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds over the query set per case (default 3)"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="an empty PostgreSQL database with pgvector to use instead of the embedded one under var/bench "
        "(also BENCH_DATABASE_URL); never a database with papers the benchmark did not make",
    )
    parser.add_argument(
        "--output", type=Path, default=BASE_DIR / "bench" / "results", help="where the JSON goes"
    )
    parser.add_argument("--rebuild", action="store_true", help="build the corpus again even if it is there")
    parser.add_argument(
        "--chat-questions",
        type=int,
        default=None,
        help="chat questions asked (default: all of chat's evaluation set)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS,
        help="measure only this part (repeatable); the JSON is named for the parts (chat-100000.json); "
        "ingest runs alone, harvesting --papers records",
    )
    parser.add_argument(
        "--ingest-page-size",
        type=int,
        default=PAGE_SIZE,
        help=f"records in one OAI-PMH page of the ingest stream (default {PAGE_SIZE}, as arXiv's)",
    )
    args = parser.parse_args(argv)
    if args.papers < 1000:
        parser.error("--papers must be at least 1000")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.only and "ingest" in args.only and set(args.only) != {"ingest"}:
        parser.error("--only ingest runs alone: it harvests into a database of its own")
    if args.ingest_page_size < 1:
        parser.error("--ingest-page-size must be at least 1")
    return args


def embedded_server(database: str) -> tuple[EmbeddedPostgres, str]:
    """PostgreSQL under var/bench with SERVER_SETTINGS (restarted once when one needs it), and this
    database on it (one per corpus size, so a 100,000 and a 1,000,000 paper corpus are both kept)."""
    port = int(os.environ.get("BENCH_PG_PORT", "54390"))
    # shared_buffers is a start-up option of ours (a command-line setting wins over ALTER SYSTEM).
    server = EmbeddedPostgres(BENCH_DIR / "postgres", port, shared_buffers=SERVER_SETTINGS["shared_buffers"])
    server.start()
    with psycopg.connect(server.url("postgres"), autocommit=True) as connection:
        for name, value in SERVER_SETTINGS.items():
            connection.execute(
                sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value))
            )
        connection.execute("SELECT pg_reload_conf()")
    time.sleep(0.5)  # the reload is asynchronous
    with psycopg.connect(server.url("postgres"), autocommit=True) as connection:
        needs_restart = connection.execute("SELECT bool_or(pending_restart) FROM pg_settings").fetchone()[0]
    if needs_restart:
        server.stop()
        server.start()
    server.create_database(database)
    return server, server.url(database)


def configure_django(url: str, static_root: Path) -> None:
    """Django on the benchmark's database only; the query-vector cache in memory (no Redis needed)."""
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="wovepaper.settings",
        DEBUG="false",
        HTTPS="false",
        ALLOWED_HOSTS="testserver,localhost",
        LOG_LEVEL="WARNING",
        RATELIMIT_ENABLE="false",
    )
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("STATIC_ROOT", str(static_root))
    django.setup()
    override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "TIMEOUT": None}}
    ).enable()


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    ingest = args.only == ["ingest"]
    server, url, redis_server = None, args.database_url, None
    try:
        if url is None:
            server, url = embedded_server(
                "wovepaper_bench_ingest" if ingest else f"wovepaper_bench_{args.papers}"
            )
        if ingest:
            # The harvest counts arXiv's politeness and queues embedding in Redis: a throwaway one of
            # its own, so no developer's or test's Redis gets the benchmark's tasks.
            redis_server = EmbeddedRedis(BENCH_DIR / "redis", free_port(), persist=False)
            redis_server.start()
            os.environ["REDIS_URL"] = redis_server.url()
        configure_django(url, BENCH_DIR / "static")
        if ingest:
            from bench.ingest import run as run_ingest  # needs Django configured (above): not at the top

            run_ingest(args, url)
        else:
            from bench.run import run  # needs Django configured (above), so not at the top

            run(args, url)
    except Exception as error:  # one line, not a traceback (BENCH_TRACEBACK=1 shows it)
        if os.environ.get("BENCH_TRACEBACK"):
            raise
        print(f"bench: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        if redis_server is not None:
            redis_server.stop()
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
