"""The benchmark harness works end to end on a tiny corpus. Its numbers are not asserted: not a timed test."""

import json
import subprocess
import sys
from pathlib import Path

import psycopg

from bench import corpus, measure
from bench.sources import load_sources

BASE_DIR = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args], cwd=BASE_DIR, capture_output=True, text=True, timeout=900
    )


def test_it_builds_a_corpus_measures_search_and_pages_and_reuses_the_corpus(scratch_database, tmp_path):
    args = ["--papers", "2000", "--repeat", "1", "--database-url", scratch_database]
    args += ["--output", str(tmp_path), "--chat-questions", "3"]
    first = bench(*args)
    assert first.returncode == 0, first.stderr[-3000:]
    report = json.loads((tmp_path / "search-2000.json").read_text())
    counts = report["corpus"]["counts"]
    assert counts["papers_paper"] == 2000 and counts["researchers_researcher"] == 1000
    assert counts["papers_authorship"] > 4000 and counts["papers_citation"] > 4000
    assert counts["institutions_institution"] == 40 and counts["institutions_affiliation"] >= 1000
    assert {"learning", "model", "network"} <= set(report["queries"])
    # keyword (by the index and by PostgreSQL), semantic and hybrid, with and without filters
    assert len(report["search"]) == 9
    relevance = report["relevance"]
    for engine_ in ("keyword", "keyword (PostgreSQL)"):
        assert 0 <= relevance[engine_]["mrr_at_10"] <= 1 and relevance[engine_]["items"] > 0
        assert 0 <= relevance[engine_]["reference"]["overlap_at_10"] <= 1
    assert "known-item MRR@10" in first.stdout
    # built here, or kept from an earlier run of this corpus under var/bench
    assert report["build"].get("keyword_index_seconds", 0) > 0 or report["build"]["keyword_index_reused"]
    for result in report["search"].values():
        assert result["n"] == 2 * len(report["queries"])  # at least two rounds, alternating between cases
        assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    assert report["search"]["semantic"]["recall_at_10"] >= 0.9
    assert report["search"]["semantic + 1% filter"]["full_pages"] >= 0.9  # 20 papers carry the 1% category
    assert any(name.startswith("researcher page (10 papers)") for name in report["pages"])
    assert "semantic + 1% filter" in first.stdout and "recall@10" in first.stdout
    chat = report["chat"]
    assert chat["questions"] == 3
    for case in ("retrieval, whole corpus", "retrieval, a paper"):
        for question in ("new question", "repeated question", "first to reach its papers"):
            assert chat[case][question]["n"] == 3
    assert chat["first words, whole corpus"]["p50_ms"] > 0
    assert "first words, whole corpus" in first.stdout
    assert "index paper_embedding_hnsw" in first.stderr  # progress bars go to stderr

    second = bench(*args, "--only", "chat")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "reusing the corpus of 2,000 papers (seed 1)" in second.stdout
    only_chat = json.loads((tmp_path / "chat-2000.json").read_text())
    assert "search" not in only_chat and "pages" not in only_chat and only_chat["chat"]["questions"] == 3


def test_its_query_texts_are_distinct_so_each_is_searched_with_its_own_vector():
    # The 100,000-paper plan of seed 1 samples "reinforcement learning" from a title, a topical query too.
    spec = corpus.CorpusSpec(papers=100_000, seed=1)
    sources = load_sources()
    texts = [query.text for query in measure.queries(corpus.plan(spec, sources), sources, spec.seed)]
    assert "reinforcement learning" in texts
    assert len(texts) == len(set(texts)) == 30


def test_it_refuses_a_database_with_papers_it_did_not_make(scratch_database, tmp_path):
    with psycopg.connect(scratch_database, autocommit=True) as connection:
        connection.execute("CREATE TABLE papers_paper (id int)")
        connection.execute("INSERT INTO papers_paper VALUES (1)")
    result = bench("--papers", "1000", "--database-url", scratch_database, "--output", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "bench: NotABenchDatabase: the database holds data the benchmark did not make; give it an empty one"
    )
    with psycopg.connect(scratch_database) as connection:
        assert connection.execute("SELECT count(*) FROM papers_paper").fetchone()[0] == 1


def test_bad_arguments_get_a_one_line_error():
    result = bench("--papers", "10")
    assert result.returncode == 2
    assert "--papers must be at least 1000" in result.stderr
