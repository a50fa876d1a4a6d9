"""Slow clients cannot take the site down: gunicorn as `make run` and the image start it (gunicorn.conf.py)
reads each request's head in its event loop, so twenty sockets dribbling one header line a second hold no
thread, and a reader meanwhile gets every page at once."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from devserver.localservices import free_port, port_is_open
from tests.conftest import BASE_DIR, LIVE_SITE_ENV, _process_env, _stop
from wovepaper.gunicorn_worker import request_is_complete

SLOW_SOCKETS = 20
READING_SECONDS = 4  # the reader reads while the slow sockets dribble (less than the header timeout)
HEADER_TIMEOUT = 6


@pytest.fixture(scope="module")
def web(django_db_setup: None) -> Iterator[str]:
    """gunicorn exactly as configured for `make run` and the image (2 workers of 4 threads), on the test
    database."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
        cwd=BASE_DIR,
        env=_process_env() | LIVE_SITE_ENV | {"GUNICORN_HEADER_TIMEOUT": str(HEADER_TIMEOUT)},
    )  # fmt: skip
    deadline = time.monotonic() + 180  # Django loads in seconds, or a minute on a loaded machine
    while not _answers(port):  # both workers booted: the port opens before they have loaded Django
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("gunicorn did not start")
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    _stop(process)


def _answers(port: int) -> bool:
    if not port_is_open(port):
        return False
    try:
        return all(
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200 for _ in range(4)
        )
    except httpx.HTTPError:
        return False


def _dribble(port: int, stop: threading.Event, closed_after: list[float]) -> None:
    """A request head sent one line a second, never finished (the slowloris pattern), until the server
    hangs up (recorded) or the test is over."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line = 0
        while not stop.is_set():
            try:
                if sock.recv(1024) == b"":
                    closed_after.append(time.monotonic() - started)
                    return
            except TimeoutError:
                line += 1
                sock.sendall(f"X-Slow-{line}: {'x' * 10}\r\n".encode())
            except OSError:
                closed_after.append(time.monotonic() - started)
                return


def test_twenty_slow_sockets_do_not_keep_a_reader_waiting(web):
    port = int(web.rsplit(":", 1)[1])
    stop = threading.Event()
    closed_after: list[float] = []
    attackers = [
        threading.Thread(target=_dribble, args=(port, stop, closed_after), daemon=True)
        for _ in range(SLOW_SOCKETS)
    ]
    for attacker in attackers:
        attacker.start()
    time.sleep(1.5)  # every slow socket has sent its first lines
    answers = []
    try:
        deadline = time.monotonic() + READING_SECONDS
        with httpx.Client(timeout=4) as reader:
            while time.monotonic() < deadline:
                started = time.monotonic()
                response = reader.get(f"{web}/healthz", headers={"Connection": "close"})
                answers.append((response.status_code, time.monotonic() - started))
                time.sleep(0.25)
        for attacker in attackers:  # the server hangs up on them at its header timeout
            attacker.join(timeout=HEADER_TIMEOUT + 6)
    finally:
        stop.set()
    # Held up behind the slow sockets, a request would wait for them all (the stock gthread worker).
    assert len(answers) >= 5
    assert {status for status, _ in answers} == {200}
    # The server closed the dribbling sockets at its header timeout, not at our leisure.
    assert len(closed_after) == SLOW_SOCKETS
    assert all(HEADER_TIMEOUT - 0.5 < seconds < HEADER_TIMEOUT + 4 for seconds in closed_after), closed_after


def _send_in_pieces(sock: socket.socket, pieces: list[bytes]) -> http.client.HTTPResponse:
    for piece in pieces:
        sock.sendall(piece)
        time.sleep(0.3)
    response = http.client.HTTPResponse(sock)
    response.begin()
    return response


def test_requests_sent_in_pieces_on_one_connection_are_answered_in_turn(web):
    """What the event loop buffered reaches the parser whole: a form POST whose head and body arrive in
    pieces, then, on the same kept-alive connection, a GET whose head does."""
    port = int(web.rsplit(":", 1)[1])
    body = b"email=reader%40example.org&password=correct-horse"
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        post = _send_in_pieces(
            sock,
            [
                b"POST /accounts/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                b"Content-Type: application/x-www-form-urlencoded\r\n",
                f"Content-Length: {len(body)}\r\n\r\n".encode(),
                body[:9],
                body[9:],
            ],
        )
        assert post.status == 403  # read whole and judged: no CSRF cookie
        assert b"CSRF" in post.read()
        get = _send_in_pieces(
            sock, [b"GET /healthz HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"Connection: close\r\n\r\n"]
        )
        assert (get.status, get.read()) == (200, b"ok")


def test_it_knows_when_a_request_has_arrived_whole():
    head = b"POST /x HTTP/1.1\r\nHost: h\r\n"
    assert not request_is_complete(head)
    assert request_is_complete(b"GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    assert not request_is_complete(head + b"Content-Length: 10\r\n\r\n12345")
    assert request_is_complete(head + b"content-length:  10\r\n\r\n1234567890")
    assert not request_is_complete(head + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
    assert request_is_complete(head + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
    # Past what is buffered, the thread's parser takes over (and gunicorn's limits answer 400).
    assert request_is_complete(b"GET /" + b"a" * 70_000)
    assert request_is_complete(head + b"Content-Length: 999999999\r\n\r\n" + b"x" * 2_621_440)
