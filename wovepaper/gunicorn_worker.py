"""gunicorn's threaded worker, made safe against slow clients (gunicorn.conf.py names it).

The stock gthread worker hands a connection to a thread as soon as its first byte arrives, and the thread
then waits, blocking, for the rest of the request: ten sockets sending one header line every few seconds
held every thread of `make run` (2 workers x 4 threads), and /healthz did not answer for 30 s. Here the
worker's event loop reads each request's head (and a small body) itself, without blocking, and gives a
thread only a complete request; a request still incomplete after GUNICORN_HEADER_TIMEOUT seconds is
dropped, as nginx does. In production nginx stands in front as well (docker-compose.yml): it also
buffers responses for clients that read slowly, which this worker does not.

Over TLS or HTTP/2 (neither of which we configure) the worker behaves exactly like gthread.
"""

from __future__ import annotations

import contextlib
import errno
import re
import selectors
import time
from collections import deque
from functools import partial
from typing import Any

from gunicorn.http2 import negotiation
from gunicorn.workers.gthread import TConn, ThreadWorker

from core.env import env_int

HEADER_TIMEOUT_SECONDS = env_int("GUNICORN_HEADER_TIMEOUT", 10, minimum=1)
READ_SIZE = 64 * 1024
HEAD_LIMIT = 64 * 1024  # past this the parser decides (gunicorn's own limits answer 400 well before it)
# Bodies up to Django's DATA_UPLOAD_MAX_MEMORY_SIZE default are read here too; a larger one is refused by
# Django from its Content-Length without being read.
BODY_LIMIT = 2_621_440
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*(\d{1,12})[ \t]*$", re.IGNORECASE | re.MULTILINE)
_CHUNKED = re.compile(rb"^transfer-encoding[ \t]*:.*chunked", re.IGNORECASE | re.MULTILINE)


def request_is_complete(data: bytes) -> bool:
    """Whether `data` holds a whole request head and the body it announces (or more than we buffer).

    Saying yes too early is harmless: the thread's parser reads whatever is missing from the socket. So
    a chunked body counts as complete once its last chunk marker appears, even if that was chance."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) >= HEAD_LIMIT
    head, body = data[:end], data[end + 4 :]
    if _CHUNKED.search(head):
        return b"0\r\n\r\n" in body or len(body) >= BODY_LIMIT
    length = _CONTENT_LENGTH.search(head)
    if length is None:
        return True
    return len(body) >= min(int(length.group(1)), BODY_LIMIT)


class BufferingThreadWorker(ThreadWorker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arriving: deque[TConn] = deque()  # connections whose request is still coming in, oldest first

    def _buffers(self, client: Any) -> bool:
        return not self.cfg.is_ssl and not negotiation.prior_knowledge_allowed(self.cfg, client)

    def accept(self, listener: Any) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client_sock, client_addr, listener.getsockname())  # non-blocking
        if self._buffers(client_addr):
            self._await_request(conn)
        else:
            client_sock.setblocking(True)
            self.enqueue_req(conn)

    def on_client_socket_readable(self, conn: TConn, client: Any) -> None:
        """A kept-alive connection starts its next request: read it here too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        if self._buffers(conn.client):
            self._await_request(conn)
        else:
            self.enqueue_req(conn)

    def _await_request(self, conn: TConn) -> None:
        conn.received = bytearray()
        conn.deadline = time.monotonic() + HEADER_TIMEOUT_SECONDS
        self.arriving.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._receive, conn))

    def _receive(self, conn: TConn, client: Any) -> None:
        try:
            data = conn.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._forget(conn)
            return
        conn.received += data
        if request_is_complete(conn.received):
            self.poller.unregister(conn.sock)
            self.arriving.remove(conn)
            self.enqueue_req(conn)

    def _forget(self, conn: TConn) -> None:
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        self.arriving.remove(conn)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Also drop the requests that did not arrive in time (the loop calls this every second)."""
        super().murder_pending()
        now = time.monotonic()
        while self.arriving and self.arriving[0].deadline <= now:
            self._forget(self.arriving[0])

    def handle(self, conn: TConn) -> Any:
        """In a thread: what the loop read is put back in front of the parser, which reads on from it."""
        received = bytes(getattr(conn, "received", b""))
        conn.received = bytearray()
        if received:
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(received)
        return super().handle(conn)
