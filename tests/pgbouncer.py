"""A real PgBouncer (Debian's package, `make chromium` installs it when root) in transaction mode in front
of the session's test PostgreSQL: each transaction of a client may run on another server connection, and
a server connection serves client after client. Tests that need it skip, saying so, when it is missing."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from devserver.localservices import POSTGRES_SYSTEM_USER, free_port, port_is_open

MISSING = "pgbouncer is not installed (apt-get install pgbouncer, or `make chromium` as root)"


@contextmanager
def pgbouncer(*, host: str, port: int, pool_size: int = 2) -> Iterator[int]:
    """PgBouncer on a free port of 127.0.0.1 for every database of host:port, `pool_size` server
    connections per database and user; yields its port. Its files are in a directory of its own under
    /tmp: pytest's are private to root, whom PgBouncer refuses to run as."""
    executable = shutil.which("pgbouncer", path=f"{os.environ.get('PATH', '')}:/usr/sbin")
    if executable is None:
        pytest.skip(MISSING)
    directory = Path(tempfile.mkdtemp(prefix="wovepaper-pgbouncer-"))
    listen = free_port()
    (directory / "users.txt").write_text('"postgres" ""\n')
    (directory / "pgbouncer.ini").write_text(
        f"[databases]\n* = host={host} port={port}\n\n[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {listen}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {directory / 'users.txt'}\n"
        f"pool_mode = transaction\ndefault_pool_size = {pool_size}\nmax_client_conn = 200\n"
        f"logfile = {directory / 'pgbouncer.log'}\n"
        # psycopg's and Django's start-up parameters PgBouncer does not pass on
        "ignore_startup_parameters = extra_float_digits,options\n"
    )
    run_as = {}
    if os.geteuid() == 0:  # PgBouncer refuses to run as root, like PostgreSQL
        entry = pwd.getpwnam(POSTGRES_SYSTEM_USER)
        for path in [directory, *directory.iterdir()]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
        run_as = {"user": POSTGRES_SYSTEM_USER, "group": POSTGRES_SYSTEM_USER}
    process = subprocess.Popen(
        [executable, str(directory / "pgbouncer.ini")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **run_as,
    )
    try:
        deadline = time.monotonic() + 30
        while not port_is_open(listen):
            if process.poll() is not None:
                pytest.fail(f"pgbouncer did not start: {process.stderr.read().strip()}")
            assert time.monotonic() < deadline, "pgbouncer did not open its port"
            time.sleep(0.05)
        yield listen
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)
