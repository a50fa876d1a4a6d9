import os
import subprocess
import sys
from pathlib import Path

import psycopg

BASE_DIR = Path(__file__).resolve().parent.parent


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=os.environ | {"DATABASE_URL": database_url},
        capture_output=True,
        text=True,
    )


def test_the_models_and_the_migrations_agree(scratch_database):
    result = manage(scratch_database, "makemigrations", "--check", "--dry-run")
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_migrates_an_empty_database_from_zero_and_back(scratch_database):
    forward = manage(scratch_database, "migrate", "--noinput")
    assert forward.returncode == 0, forward.stderr

    with psycopg.connect(scratch_database) as connection:
        extensions = {row[0] for row in connection.execute("SELECT extname FROM pg_extension")}
        indexes = dict(
            connection.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
        )
        generated = connection.execute(
            "SELECT is_generated FROM information_schema.columns "
            "WHERE table_name = 'papers_paper' AND column_name = 'search_vector'"
        ).fetchone()
    assert {"vector", "pg_trgm"} <= extensions
    assert "USING hnsw (embedding vector_cosine_ops)" in indexes["paper_embedding_hnsw"]
    assert "USING gin (search_vector)" in indexes["paper_search_vector_gin"]
    assert "USING gin (normalised_name gin_trgm_ops)" in indexes["researcher_name_trgm"]
    assert generated == ("ALWAYS",)
    # No authorship index repeats another (each is written for every author of every page harvested).
    authorship_indexes = {
        name for name, definition in indexes.items() if " ON public.papers_authorship " in definition
    }
    assert authorship_indexes == {
        "papers_authorship_pkey",
        "authorship_unique_position",  # (paper, position): also the paper key's
        "authorship_researcher_paper",  # (researcher, paper): also the researcher key's
        "authorship_normalised_name",
    }

    for app in ("harvest", "institutions", "papers", "researchers"):
        backward = manage(scratch_database, "migrate", app, "zero", "--noinput")
        assert backward.returncode == 0, backward.stderr
