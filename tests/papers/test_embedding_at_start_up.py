"""The embedding model is loaded when a process that embeds starts, not in a reader's first search (which
waited about 7 s for it) nor in the embed worker's first task. The evidence is the order of the log
lines a fresh process writes, not a timing."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
import uuid

import httpx
import pytest

from devserver.localservices import free_port, port_is_open
from tests.conftest import BASE_DIR, LIVE_SITE_ENV, _process_env, _stop

MODEL_LOADED = "embedding model loaded ("


def _lines_until(process: subprocess.Popen, wanted: str, deadline_seconds: float) -> list[str]:
    """The process's output up to the line containing `wanted`, or all of it at the deadline (a loaded
    machine takes long; the deadline is not what is asserted)."""
    arrived: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [arrived.put(line) for line in process.stdout], daemon=True).start()
    lines: list[str] = []
    deadline = time.monotonic() + deadline_seconds
    while not lines or wanted not in lines[-1]:
        try:
            lines.append(arrived.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            break
    return lines


@pytest.mark.django_db(transaction=True)
def test_a_fresh_gunicorn_worker_loads_the_model_before_it_takes_its_first_search():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi", "--workers", "1",
         "--bind", f"127.0.0.1:{port}", "--log-level", "info", "--access-logfile", "/dev/null"],
        cwd=BASE_DIR,
        env=_process_env() | LIVE_SITE_ENV | {"LOG_LEVEL": "INFO"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not port_is_open(port):  # the master binds before its worker has booted
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)
        # Sent at once: it waits in the listen queue until the worker accepts, and needs the model (a
        # query no earlier test cached).
        query = f"woven graphs {uuid.uuid4().hex[:8]}"
        response = httpx.get(
            f"http://127.0.0.1:{port}/search", params={"q": query, "mode": "semantic"}, timeout=180
        )
        assert response.status_code == 200
    finally:
        _stop(process)
    log = process.stdout.read().splitlines()
    loaded = [number for number, line in enumerate(log) if MODEL_LOADED in line]
    ready = [number for number, line in enumerate(log) if "ready: taking requests" in line]
    assert len(loaded) == 1 and len(ready) == 1, log  # loaded once, and the search did not load it again
    assert loaded[0] < ready[0], log  # before the worker took any request


def test_an_embed_worker_loads_the_model_before_its_first_task(django_db_setup):
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "wovepaper", "worker", "--queues", "embed",
         "--concurrency", "1", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
         "--hostname", f"preload-{uuid.uuid4().hex[:8]}@%h"],
        cwd=BASE_DIR,
        env=_process_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        lines = _lines_until(process, MODEL_LOADED, 180)
    finally:
        _stop(process)
    assert any(MODEL_LOADED in line for line in lines), lines  # no task was sent
