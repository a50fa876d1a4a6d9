"""`manage.py backup` and `restore`: a round trip of the demo corpus into a new database gives back every
row; the embeddings stay behind unless asked for (`manage.py embed` computes them again)."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from tests.conftest import BASE_DIR, _process_env

TABLES = [
    "papers_authorship",
    "papers_citation",
    "researchers_researcher",
    "institutions_institution",
    "institutions_affiliation",
    "harvest_harvestrun",
    "auth_user",
    "django_migrations",
]
PAPER_COLUMNS = (
    "id, arxiv_id, title, abstract, authors, categories, published, updated_at, slug, search_vector"
)


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=_process_env() | {"DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=600,
    )


def fingerprint(database_url: str) -> dict[str, tuple]:
    with psycopg.connect(database_url) as connection:
        prints = {
            table: connection.execute(
                f"SELECT count(*), md5(string_agg(t::text, ',' ORDER BY t::text)) FROM {table} t"  # noqa: S608
            ).fetchone()
            for table in TABLES
        }
        prints["papers"] = connection.execute(
            f"SELECT count(*), md5(string_agg(({PAPER_COLUMNS})::text, ',' ORDER BY id)) FROM papers_paper"  # noqa: S608
        ).fetchone()
        prints["embedded"] = connection.execute(
            "SELECT count(*) FROM papers_paper WHERE embedding IS NOT NULL"
        ).fetchone()
    return prints


@pytest.mark.parametrize("with_embeddings", [False, True], ids=["without-embeddings", "with-embeddings"])
def test_a_backup_of_the_demo_corpus_restores_into_a_new_database(
    demo_corpus, scratch_database, tmp_path, with_embeddings
):
    source = _process_env()["DATABASE_URL"]
    backup = tmp_path / "corpus.backup"
    made = manage(
        source, "backup", "--output", str(backup), *(["--with-embeddings"] if with_embeddings else [])
    )
    assert made.returncode == 0, made.stderr
    what = "with" if with_embeddings else "without"
    assert made.stdout.startswith(f"backup: {demo_corpus.paper_count} papers {what} embeddings in {backup}")

    restored = manage(scratch_database, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith(f"restore: {demo_corpus.paper_count} papers from {backup}")

    before, after = fingerprint(source), fingerprint(scratch_database)
    assert before["papers"][0] == demo_corpus.paper_count
    assert {k: v for k, v in after.items() if k != "embedded"} == {
        k: v for k, v in before.items() if k != "embedded"
    }
    assert after["embedded"] == (before["embedded"] if with_embeddings else (0,))
    # The restored database is a working one: Django sees every migration applied.
    assert manage(scratch_database, "migrate", "--check").returncode == 0

    again = manage(scratch_database, "restore", str(backup))
    assert again.returncode != 0
    assert "the database is not empty" in again.stderr
