"""Ingest speed: a stream of synthetic arXiv OAI-PMH records (bench/oai_stream.py), served over HTTP on
127.0.0.1 by a process of its own, harvested by the real harvest, `arxiv_oai_harvest` (what
`manage.py harvest arxiv` and the daily harvest task run): fetch and parse each page, upsert its papers
and authorships, group their authors into researchers on the strong evidence, checkpoint, in one
transaction a page. Embedding is excluded as it is in production, where the harvest only queues the
changed papers for it (the queue is the benchmark's own Redis, which no worker reads); the grouping on
all the evidence that follows each embedded batch is timed apart, on a sample of pages.

The harvest runs into a database of its own (wovepaper_bench_ingest, emptied and migrated every time),
never into the search corpus: the stream's names are the demo listing's, as the corpus's are, and the
grouping would merge its researchers into the corpus's, changing the corpus that later runs reuse.

What each phase costs is clocked by wrapping the harvest's own calls (fetch, parse, next_page,
papers_upsert, researchers_group_by_names) for the run; nothing else in the harvest is changed. The
harvest fetches and parses the next page on a thread of its own while it stores this one: the phases of
the storing thread (waiting for the next page, upsert, grouping, the rest) add up to the run, and the
fetching thread's HTTP and parsing are reported beside them. arXiv's politeness
interval (one request every 3 s) is set to 0: it is arXiv's limit, not our cost.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
from django.core.management import call_command
from django.test.utils import override_settings

from bench import database, oai_stream
from core.progress import progress_bar
from harvest import clients
from harvest.clients import ArxivOaiClient
from harvest.services import papers as services_papers
from harvest.services.papers import researchers_regroup_of
from harvest.sweeps import arxiv as sweeps_arxiv
from harvest.sweeps import common
from harvest.sweeps.arxiv import arxiv_oai_harvest
from papers.models import Authorship, Paper
from researchers.models import Researcher

TARGET_PAPERS_PER_SECOND = 2000
SET_SPEC = "cs"
REGROUP_SAMPLE_PAGES = 5
AGAIN_DAYS = 5  # the second harvest reads the first days again: 10,000 records, all unchanged
BASE_DIR = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def served(stream: oai_stream.Stream) -> Iterator[str]:
    """The stream's OAI-PMH endpoint, in a process of its own for as long as the block runs."""
    command = [sys.executable, "-m", "bench.oai_stream", "--records", str(stream.records),
               "--seed", str(stream.seed), "--page-size", str(stream.page_size)]  # fmt: skip
    server = subprocess.Popen(command, cwd=BASE_DIR, stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip() if server.stdout else ""
        if not url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"the OAI-PMH stream server did not start (exit code {server.poll()})")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


Wrapper = Callable[[Callable], Callable]


@contextlib.contextmanager
def replaced(owner: object, attribute: str, wrapper: Wrapper) -> Iterator[None]:
    """owner.attribute wrapped by `wrapper` for the block only."""
    original = getattr(owner, attribute)
    setattr(owner, attribute, wrapper(original))
    try:
        yield
    finally:
        setattr(owner, attribute, original)


def clock(seconds: Counter[str], phase: str) -> Wrapper:
    """A wrapper adding the time spent in the call to seconds[phase]."""

    def wrapper(original: Callable) -> Callable:
        def call(*args: object, **kwargs: object) -> object:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                seconds[phase] += time.perf_counter() - started

        return call

    return wrapper


def byte_count(counts: Counter[str]) -> Wrapper:
    """A wrapper of a parser adding the size of what it parses to counts["bytes"]."""

    def wrapper(original: Callable) -> Callable:
        def call(content: bytes) -> object:
            counts["bytes"] += len(content)
            return original(content)

        return call

    return wrapper


def _harvest(url: str, until: datetime.date | None, label: str) -> tuple[dict, Counter[str]]:
    seconds: Counter[str] = Counter()
    read: Counter[str] = Counter()
    bar, progress = progress_bar(label, verbosity=1)
    with contextlib.ExitStack() as stack:
        stack.enter_context(override_settings(ARXIV_OAI_URL=url, ARXIV_MIN_INTERVAL_MS=0))
        stack.enter_context(replaced(ArxivOaiClient, "list_records", clock(seconds, "fetch")))
        stack.enter_context(replaced(ArxivOaiClient, "resume", clock(seconds, "fetch")))
        stack.enter_context(replaced(clients, "parse_oai_page", clock(seconds, "parse")))
        stack.enter_context(replaced(clients, "parse_oai_page", byte_count(read)))
        stack.enter_context(replaced(sweeps_arxiv, "next_page", clock(seconds, "waiting")))
        stack.enter_context(replaced(common, "papers_upsert", clock(seconds, "upsert")))
        # The upsert groups the page's authors before it copies their authorships in: clocked inside it.
        stack.enter_context(
            replaced(services_papers, "researchers_group_by_names", clock(seconds, "grouping"))
        )
        stack.enter_context(bar)
        started = time.perf_counter()
        summary = arxiv_oai_harvest(
            set_spec=SET_SPEC, from_date=oai_stream.FIRST_DAY, until=until, progress=progress
        )
        seconds["total"] = time.perf_counter() - started
    run = {
        "state": str(summary.state),
        "created": summary.created,
        "updated": summary.updated,
        "unchanged": summary.unchanged,
        "skipped": summary.skipped,
        "errors": summary.errors,
        "last_error": summary.last_error,
        "megabytes_read": round(read["bytes"] / 1e6, 1),
    }
    return run, seconds


def _phases(seconds: Counter[str], records: int) -> dict[str, dict[str, float]]:
    """Seconds, share of the run and records a second of each phase of the storing thread: waiting for
    the next page, the upsert (without the grouping it calls), the grouping, and the rest (checkpoint,
    run record, lease, commit, the embedding queue: what no clock covered)."""
    total = seconds["total"]
    grouping = seconds["grouping"]
    phases = {"waiting": seconds["waiting"], "upsert": seconds["upsert"] - grouping, "grouping": grouping}
    phases["rest"] = total - sum(phases.values())
    return _shares(phases, total, records)


def _beside(seconds: Counter[str], records: int) -> dict[str, dict[str, float]]:
    """The same of the fetching thread, which runs beside the storing: HTTP (the fetch without its parse)
    and the parse."""
    phases = {"HTTP": seconds["fetch"] - seconds["parse"], "parse": seconds["parse"]}
    return _shares(phases, seconds["total"], records)


def _shares(phases: dict[str, float], total: float, records: int) -> dict[str, dict[str, float]]:
    return {
        name: {
            "seconds": round(value, 2),
            "share": round(value / total, 3) if total else 0.0,
            "records_per_second": round(records / value, 1) if value > 0 else None,
        }
        for name, value in phases.items()
    }


def stored() -> dict[str, int]:
    people = Authorship.objects.people()
    return {
        "papers": Paper.objects.count(),
        "authorships": Authorship.objects.count(),
        "people_authorships": people.count(),
        "people_without_researcher": people.filter(researcher__isnull=True).count(),
        "researchers": Researcher.objects.count(),
        "distinct_people_names": people.values("normalised_name").distinct().count(),
    }


def regroup_sample(page_size: int) -> dict:
    """The grouping on all the evidence that follows each embedded batch (regroup_researchers_of, the
    embed worker's, a harvest page's papers at a time), timed on REGROUP_SAMPLE_PAGES pages spread over
    the stream, once the whole stream is stored. Without vectors (embedding is excluded), so the pairs
    that need the papers' meaning are not weighed: a lower bound of the embed pipeline's cost."""
    paper_ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    pages = [paper_ids[start : start + page_size] for start in range(0, len(paper_ids), page_size)]
    step = max(1, len(pages) // REGROUP_SAMPLE_PAGES)
    sample = pages[step - 1 :: step][:REGROUP_SAMPLE_PAGES]
    seconds = []
    for page in sample:
        started = time.perf_counter()
        researchers_regroup_of(paper_ids=page)
        seconds.append(time.perf_counter() - started)
    per_page = sum(seconds) / len(seconds) if seconds else 0.0
    return {
        "pages_sampled": len(sample),
        "seconds_per_page": round(per_page, 2),
        "records_per_second": round(page_size / per_page, 1) if per_page else None,
        "slowest_page_seconds": round(max(seconds, default=0.0), 2),
    }


def measure(records: int, seed: int, *, page_size: int = oai_stream.PAGE_SIZE) -> dict:
    """Harvest the stream of `records` records into the (empty) database, timed by phase; then harvest its
    first AGAIN_DAYS days again (every record unchanged: the harvest is idempotent)."""
    stream = oai_stream.Stream(records, seed, page_size)
    with served(stream) as url:
        run, seconds = _harvest(url, None, "ingest")
        counts = stored()
        regroup = regroup_sample(page_size) | {"stored_after": stored()}
        until = oai_stream.FIRST_DAY + datetime.timedelta(days=min(AGAIN_DAYS, stream.days) - 1)
        again, again_seconds = _harvest(url, until, "ingest again")
    again_records = again["created"] + again["updated"] + again["unchanged"]
    total = seconds["total"]
    return {
        "records": records,
        "page_size": page_size,
        "pages": stream.pages,
        "researchers_in_stream": stream.researchers,  # the people behind the names: the grouping's truth
        "seconds": round(total, 1),
        "papers_per_second": round(run["created"] / total, 1) if total else None,
        "phases": _phases(seconds, records),
        "fetching_beside": _beside(seconds, records),
        "run": run,
        "stored": counts,
        "regroup_after_embedding": regroup,
        "again": {
            "records": again_records,
            "seconds": round(again_seconds["total"], 1),
            "records_per_second": round(again_records / again_seconds["total"], 1),
            "phases": _phases(again_seconds, again_records),
            "fetching_beside": _beside(again_seconds, again_records),
            "run": again,
            "stored_after": stored(),
        },
    }


def run(args: argparse.Namespace, url: str) -> dict:
    """`python -m bench --only ingest`: the harvest of --papers records into an emptied database (no corpus:
    the harvest makes its own papers), its JSON and its table. Not run where the search part runs: that
    process loads the embedding model and freezes its start-up as a web worker does, and a harvest worker
    does neither."""
    with psycopg.connect(url) as connection:
        database.reset(connection)
    call_command("migrate", verbosity=0)
    report = {
        "generated_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "papers": args.papers,
        "seed": args.seed,
        "machine": database.machine(url),
        "ingest": measure(args.papers, args.seed, page_size=args.ingest_page_size),
    }
    report["machine"]["load_average_at_end"] = os.getloadavg()[0]
    args.output.mkdir(parents=True, exist_ok=True)
    path = args.output / f"ingest-{args.papers}.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    machine = report["machine"]
    print(
        f"{machine['cpus']} cores, {machine['memory_gib']} GiB · PostgreSQL {machine['postgres']} · load "
        f"average {machine['load_average_at_start']:.1f} at the start, "
        f"{machine['load_average_at_end']:.1f} at the end"
    )
    print(table(report["ingest"]))
    print(f"written to {path}")
    return report


def table(results: dict) -> str:
    rate = results["papers_per_second"]
    verdict = "met" if rate and rate >= TARGET_PAPERS_PER_SECOND else "missed"
    counts, again = results["stored"], results["again"]
    lines = [
        f"ingest ({results['records']:,} OAI-PMH records in {results['pages']} pages of "
        f"{results['page_size']}, {results['run']['megabytes_read']:.0f} MB, embedding excluded)",
        f"  {rate:.0f} papers a second (≥ {TARGET_PAPERS_PER_SECOND}: {verdict}), "
        f"{results['seconds']:.0f} s; "
        f"stored {counts['papers']:,} papers, {counts['authorships']:,} authorships, "
        f"{counts['researchers']:,} researchers for {counts['distinct_people_names']:,} names",
        f"  {'phase':<10}{'seconds':>9}{'share':>8}{'records/s':>11}",
    ]
    for name, phase in [*results["phases"].items(), *results["fetching_beside"].items()]:
        if name == "HTTP":
            lines.append("  and beside them, on the fetching thread:")
        per_second = f"{phase['records_per_second']:.0f}" if phase["records_per_second"] else "-"
        lines.append(f"  {name:<10}{phase['seconds']:>9.1f}{phase['share']:>8.0%}{per_second:>11}")
    regroup = results["regroup_after_embedding"]
    lines.append(
        f"  then, after embedding, the grouping on all the evidence: {regroup['seconds_per_page']:.1f} s a "
        f"page of {results['page_size']} ({regroup['records_per_second']:.0f} records/s, "
        f"{regroup['pages_sampled']} pages sampled, slowest {regroup['slowest_page_seconds']:.1f} s)"
    )
    lines.append(
        f"  again, the first {again['records']:,} records: {again['records_per_second']:.0f} a second, "
        f"{again['run']['created']} new, {again['run']['updated']} updated, "
        f"{again['run']['unchanged']:,} unchanged"
    )
    return "\n".join(lines)
