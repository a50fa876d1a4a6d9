"""The start-up path of `make run`: embedded PostgreSQL and Redis, migrations, the demo corpus, a Celery
worker and beat, gunicorn; Ctrl-C stops everything; a killed run does not block the next."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from devserver.localservices import free_port, port_is_open

BASE_DIR = Path(__file__).resolve().parent.parent


class Run:
    started: list[Run] = []  # of this test, so that a failing one leaves no stack behind

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "devserver"],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        Run.started.append(self)

    def wait_for(self, text: str, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line and self.process.poll() is not None:
                break
            self.lines.append(line)
            if text in line:
                return
        pytest.fail(f"never saw {text!r}; output:\n{''.join(self.lines[-40:])}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        self.lines += self.process.stdout.readlines()
        return self.process.wait(timeout=90)


@pytest.fixture
def stack_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "STATIC_ROOT"}}
    env |= {
        "WOVEPAPER_VAR_DIR": str(tmp_path / "var"),
        "WOVEPAPER_PG_PORT": str(free_port()),
        "WOVEPAPER_REDIS_PORT": str(free_port()),
        "WOVEPAPER_PORT": str(free_port()),
        "WOVEPAPER_DEMO_LIMIT": "150",
        # One web worker: each loads Django and the embedding model, and one shows the start-up as well.
        "GUNICORN_WORKERS": "1",
        # The session's export of the model (made once, by whichever process first needs it), not one
        # more in this run's var directory: the export is not what this test is about.
        "EMBEDDING_ONNX_DIR": str(BASE_DIR / "var" / "onnx"),
        "SECRET_KEY": "",
    }
    yield env
    # A run the test did not stop (it failed part-way) is stopped, and what a killed run left behind
    # (its pid file names gunicorn, Celery and Redis) ends with it.
    for run in Run.started:
        if run.process.poll() is None:
            run.process.send_signal(signal.SIGINT)
            try:
                run.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                run.process.kill()
    Run.started.clear()
    try:
        leftovers = json.loads((tmp_path / "var" / "processes.json").read_text())
    except (OSError, ValueError):
        return
    for pid in leftovers.values():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


def test_make_run_serves_the_demo_corpus_and_stops_cleanly(stack_env):
    del stack_env["SECRET_KEY"]  # make run makes and keeps its own
    ports = [int(stack_env[name]) for name in ("WOVEPAPER_PG_PORT", "WOVEPAPER_REDIS_PORT", "WOVEPAPER_PORT")]
    site = f"http://127.0.0.1:{stack_env['WOVEPAPER_PORT']}"

    first = Run(stack_env)
    first.wait_for("ready: open")
    # Generous: the stack's worker embeds the demo corpus meanwhile, and a busy two-core machine shares
    # its cores with the session's own processes.
    home = httpx.get(f"{site}/", timeout=120)
    assert home.status_code == 200
    assert "Latest papers" in home.text and "/papers/25" in home.text
    assert first.stop() == 0
    assert not any(port_is_open(port) for port in ports)

    # A second start reuses the data; then it is killed outright, leaving its children and pid files behind.
    second = Run(stack_env)
    second.wait_for("ready: open")
    assert any("already has papers" in line for line in second.lines)
    second.process.kill()
    second.process.wait()

    third = Run(stack_env)
    third.wait_for("ready: open")
    assert httpx.get(f"{site}/", timeout=30).status_code == 200
    assert third.stop() == 0
    assert not any(port_is_open(port) for port in ports)
