"""`python -m bench.loadtest` (or `make loadtest`): concurrent readers against a running site.

Locust, headless, drives the site at --host as 20 and then 50 readers (--users) for --duration each, with
bench/locustfile.py's mix (home, search in every mode with filters, paper, researcher and institution
pages, Markdown, RSS, the API). Meanwhile, unless --quiet-background, an arXiv OAI harvest runs against a
local OAI-PMH server that serves synthetic records (names and text from the demo listing), so the site's
Celery worker embeds what it stores: readers share the machine with ingest, as in production. Writes
throughput, p50/p95/p99 per kind of request and the errors to bench/results/loadtest-<papers>.json.

Point it at the site and its database: `make run` in one terminal, then `make loadtest` (defaults match
`make run`'s ports; set LOADTEST_HOST and DATABASE_URL/REDIS_URL otherwise).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psutil
import psycopg

from bench.sources import load_sources

BASE_DIR = Path(__file__).resolve().parent.parent
RECORDS_PER_PAGE = 100
QUERIES = [
    "learning", "graph neural networks", "diffusion models", "reinforcement learning", "language models",
    "object detection", "robot manipulation", "speech recognition", "federated learning", "quantum",
    "transformer attention", "contrastive", "benchmark dataset", "privacy", "optimization convergence",
]  # fmt: skip


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("LOADTEST_HOST", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:54320/wovepaper"),
        help="the site's database: where the pages to ask for are picked, and where the harvest writes",
    )
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:63790/0"))
    parser.add_argument("--users", default=os.environ.get("LOADTEST_USERS", "20,50"), help="comma-separated")
    parser.add_argument("--duration", type=int, default=int(os.environ.get("LOADTEST_SECONDS", "300")))
    parser.add_argument("--corpus", default="", help='a label for the corpus ("demo", "bench")')
    parser.add_argument("--quiet-background", action="store_true", help="no harvest while reading")
    parser.add_argument(
        "--harvest-niceness",
        type=int,
        default=int(os.environ.get("WORKER_NICENESS", "10")),
        help="the harvest's CPU priority: that of the site's Celery children, which run it in production",
    )
    parser.add_argument("--output", type=Path, default=BASE_DIR / "bench" / "results")
    return parser.parse_args(argv)


def targets(database_url: str) -> dict:
    """Addresses that exist: a random sample of papers, researchers and institutions."""
    with psycopg.connect(database_url) as connection:

        def sample(sql: str) -> list[str]:
            return [str(row[0]) for row in connection.execute(sql)]

        papers = sample("SELECT arxiv_id FROM papers_paper ORDER BY random() LIMIT 2000")
        researchers = sample(
            "SELECT researcher_id FROM papers_authorship WHERE researcher_id IS NOT NULL"
            " GROUP BY researcher_id ORDER BY random() LIMIT 2000"
        )
        institutions = sample("SELECT id FROM institutions_institution ORDER BY random() LIMIT 500")
        count = connection.execute("SELECT count(*) FROM papers_paper").fetchone()[0]
    return {"papers": papers, "researchers": researchers, "institutions": institutions, "queries": QUERIES,
            "paper_count": count}  # fmt: skip


class SyntheticOai:
    """An OAI-PMH ListRecords stream of new papers on 127.0.0.1, page after page through resumption
    tokens, in arXiv's metadata format: what the daily harvest reads, at whatever pace it asks."""

    def __init__(self, seed: int) -> None:
        self.sources = load_sources()
        self.random = random.Random(seed)
        self.numbers = itertools.count(self.random.randrange(0, 50_000))
        self.month = self.random.choice(["2601", "2602", "2603", "2604", "2605", "2606"])
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/oai"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _record(self) -> str:
        paper = self.random.choice(self.sources.papers)
        arxiv_id = f"{self.month}.{next(self.numbers) % 100_000:05d}"
        authors = "".join(
            f"<author><keyname>{escape(self.random.choice(self.sources.last_names))}</keyname>"
            f"<forenames>{escape(self.random.choice(self.sources.first_names))}</forenames></author>"
            for _ in range(self.random.randint(1, 6))
        )
        abstract = " ".join(self.random.sample(paper.sentences, min(len(paper.sentences), 6)))
        return (
            f"<record><header><identifier>oai:arXiv.org:{arxiv_id}</identifier>"
            f"<datestamp>2026-11-30</datestamp><setSpec>cs</setSpec></header><metadata>"
            f'<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>{arxiv_id}</id><created>20{self.month[:2]}-'
            f"{self.month[2:]}-15</created><authors>{authors}</authors><title>{escape(paper.title)}</title>"
            f"<categories>{' '.join(paper.categories)}</categories>"
            f"<license>http://arxiv.org/licenses/nonexclusive-distrib/1.0/</license>"
            f"<abstract>{escape(abstract)}</abstract></arXiv></metadata></record>"
        )

    def page(self, number: int) -> bytes:
        records = "".join(self._record() for _ in range(RECORDS_PER_PAGE))
        token = f'<resumptionToken cursor="{number * RECORDS_PER_PAGE}">page-{number + 1}</resumptionToken>'
        return (
            '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
            f"<responseDate>2026-12-01T00:00:00Z</responseDate><request>{self.url}</request>"
            f"<ListRecords>{records}{token}</ListRecords></OAI-PMH>"
        ).encode()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        oai = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                """Quiet."""

            def do_GET(self) -> None:
                token = parse_qs(urlsplit(self.path).query).get("resumptionToken", ["page-0"])[0]
                body = oai.page(int(token.removeprefix("page-")))
                self.send_response(200)
                self.send_header("Content-Type", "text/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


def harvest(args: argparse.Namespace, oai: SyntheticOai) -> subprocess.Popen:
    env = os.environ | {
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "ARXIV_OAI_URL": oai.url,
        "ARXIV_MIN_INTERVAL_MS": "500",  # two pages (200 papers) a second at most, as a real backfill
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "loadtest-" + "x" * 50,
        "LOG_LEVEL": "WARNING",
    }
    since = (datetime.date.today() - datetime.timedelta(days=random.randint(30, 3000))).isoformat()
    return subprocess.Popen(
        ["nice", "-n", str(args.harvest_niceness), sys.executable, "manage.py", "harvest", "arxiv",
         "--set", "cs", "--from", since],
        cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def locust(args: argparse.Namespace, users: int, targets_file: Path, csv_prefix: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(BASE_DIR / "bench" / "locustfile.py"), "--headless",
         "--users", str(users), "--spawn-rate", str(users), "--run-time", f"{args.duration}s",
         "--host", args.host, "--csv", str(csv_prefix), "--only-summary", "--loglevel", "WARNING",
         "--stop-timeout", "10"],
        cwd=BASE_DIR, env=os.environ | {"LOADTEST_TARGETS": str(targets_file)}, check=False,
    )  # fmt: skip


def web_cpu_seconds(host: str) -> float | None:
    """CPU time used so far by the gunicorn serving `host` on this machine (master and workers, those
    already replaced too), so the cost of a request can be read apart from how busy the machine is; None
    when it runs elsewhere."""
    port = f":{urlsplit(host).port}"
    total, found = 0.0, False
    for process in psutil.process_iter(["cmdline"]):
        command = " ".join(process.info["cmdline"] or [])
        if "gunicorn" in command and command.endswith(port):
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            # children_*: workers gunicorn replaced (max_requests) and reaped count in their master's
            total, found = (
                total + times.user + times.system + times.children_user + times.children_system,
                True,
            )
    return total if found else None


def read_stats(csv_prefix: Path, seconds: float) -> dict:
    kinds = {}
    with open(f"{csv_prefix}_stats.csv", newline="") as stats:
        for row in csv.DictReader(stats):
            name = "all" if row["Name"] == "Aggregated" else row["Name"]
            requests = int(row["Request Count"])
            kinds[name] = {
                "requests": requests,
                "errors": int(row["Failure Count"]),
                "requests_per_second": round(requests / seconds, 1),
                "p50_ms": float(row["50%"]),
                "p95_ms": float(row["95%"]),
                "p99_ms": float(row["99%"]),
                "max_ms": round(float(row["Max Response Time"]), 1),
            }
    errors = []
    with open(f"{csv_prefix}_failures.csv", newline="") as failures:
        errors = [
            {"name": r["Name"], "error": r["Error"], "count": int(r["Occurrences"])}
            for r in csv.DictReader(failures)
        ]
    return {"kinds": kinds, "errors": errors}


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    chosen = targets(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="wovepaper-loadtest-"))
    targets_file = work / "targets.json"
    targets_file.write_text(json.dumps(chosen))
    oai = None if args.quiet_background else SyntheticOai(seed=int(time.time()))
    report = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "corpus": args.corpus,
        "papers_at_start": chosen["paper_count"],
        "host": args.host,
        "duration_seconds_each": args.duration,
        "machine": {"cpus": os.cpu_count(), "load_average_at_start": os.getloadavg()},
        "gunicorn": {
            name: os.environ.get(f"GUNICORN_{name.upper()}", default)
            for name, default in (("workers", "2"), ("threads", "4"))
        },  # fmt: skip
        "background": "none" if oai is None else "arXiv OAI harvest of synthetic pages; Celery embeds them",
        "harvest_niceness": None if oai is None else args.harvest_niceness,
        "runs": [],
    }
    for users in [int(value) for value in args.users.split(",")]:
        harvester = None if oai is None else harvest(args, oai)
        started, cpu_before = time.monotonic(), web_cpu_seconds(args.host)
        print(f"loadtest: {users} readers for {args.duration} s against {args.host}", flush=True)
        locust(args, users, targets_file, work / f"users{users}")
        seconds = time.monotonic() - started
        if harvester is not None:
            harvester.terminate()
            harvester.wait(timeout=60)
        cpu_after = web_cpu_seconds(args.host)
        run = {
            "users": users,
            "load_average_at_end": os.getloadavg(),
            **read_stats(work / f"users{users}", args.duration),
        }
        total = run["kinds"]["all"]
        if cpu_before is not None and cpu_after is not None and total["requests"]:
            # gunicorn's own CPU (PostgreSQL's share not counted)
            per_request = (cpu_after - cpu_before) * 1000 / total["requests"]
            run["web_cpu_ms_per_request"] = round(per_request, 1)
            run["requests_per_web_core_second"] = round(1000 / per_request, 1)
        report["runs"].append(run)
        print(
            f"loadtest: {users} readers: {total['requests_per_second']} requests/s, p50/p95/p99 "
            f"{total['p50_ms']:.0f}/{total['p95_ms']:.0f}/{total['p99_ms']:.0f} ms, {total['errors']} errors "
            f"({seconds:.0f} s)",
            flush=True,
        )
        refused = sum(error["count"] for error in run["errors"] if "HTTP 429" in error["error"])
        if refused:
            # Every reader here is one client address, which the site's own limits are meant to stop.
            print(
                f"loadtest: {refused} requests refused with 429 (rate limits count per client address, and "
                "every reader here is 127.0.0.1): start the site with SEARCH_RATE_LIMIT=100000/m and "
                "API_RATE_LIMIT=100000/m to measure it, not its limits",
                flush=True,
            )
    with psycopg.connect(args.database_url) as connection:
        report["papers_at_end"] = connection.execute("SELECT count(*) FROM papers_paper").fetchone()[0]
    args.output.mkdir(parents=True, exist_ok=True)
    label = f"{args.corpus}-{chosen['paper_count']}" if args.corpus else str(chosen["paper_count"])
    path = args.output / f"loadtest-{label}.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(f"loadtest: results in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
