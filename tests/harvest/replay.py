"""A real HTTP server on 127.0.0.1 that answers with recorded upstream responses, so the harvesters' httpx
clients, timeouts and retries run for real. Tests script it: which recorded body answers which request,
and the faults (a 503 with Retry-After, a 429, a stall, a connection dropped mid-body). A reply can also be
streamed in pieces, with pauses between them, as a chat-completions server streams its events."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def fixture(relative: str) -> bytes:
    return (FIXTURES / relative).read_bytes()


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, str]
    body: bytes
    headers: dict[str, str]
    at: float  # time.monotonic() when it arrived

    def json(self) -> object:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering: longer than the client's timeout is a timeout
    hold: threading.Event | None = None  # answer only once this is set (a stalled server)
    drop_after: int | None = None  # send this many body bytes of a full-length response, then hang up
    # No Content-Length: the body ends when the connection closes, so a drop_after under it reaches the
    # client as a complete, shorter body (what a proxy that lost its upstream mid-body sends).
    unframed: bool = False
    # Streamed instead of `body`: chunked transfer encoding, one chunk per bytes item, a float is a pause
    # of that many seconds. With drop_after, the connection is dropped after that many bytes of chunks.
    chunks: list[bytes | float] | None = None


Answer = Reply | Callable[[Seen], Reply]


@dataclass
class Route:
    method: str
    path: str
    query: dict[str, str]
    answers: list[Answer]

    def matches(self, seen: Seen) -> bool:
        return (
            seen.method == self.method
            and seen.path == self.path
            and all(seen.query.get(name) == value for name, value in self.query.items())
        )

    def next_reply(self, seen: Seen) -> Reply:
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]  # the last one repeats
        return answer(seen) if callable(answer) else answer


class ReplayServer:
    def __init__(self) -> None:
        self._routes: list[Route] = []
        self._seen: list[Seen] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> ReplayServer:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def reset(self) -> None:
        with self._lock:
            self._routes.clear()
            self._seen.clear()

    def route(self, path: str, *answers: Answer, method: str = "GET", **query: str) -> None:
        """Answer requests to `path` whose query has these values with the answers in turn (the last
        repeats). A later route for the same request takes precedence."""
        with self._lock:
            self._routes.insert(0, Route(method, path, query, list(answers)))

    def seen(self, path: str | None = None) -> list[Seen]:
        with self._lock:
            return [s for s in self._seen if path is None or s.path == path]

    def wait_for(self, predicate: Callable[[Seen], bool], timeout: float = 30) -> Seen:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for seen in self.seen():
                if predicate(seen):
                    return seen
            time.sleep(0.02)
        raise TimeoutError("the replay server never saw the expected request")

    def _answer(self, seen: Seen) -> Reply:
        with self._lock:
            self._seen.append(seen)
            route = next((r for r in self._routes if r.matches(seen)), None)
            if route is None:
                body = json.dumps({"error": f"no recorded response for {seen.method} {seen.path}"}).encode()
                return Reply(status=404, body=body, headers={"Content-Type": "application/json"})
            return route.next_reply(seen)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                """Quiet: the tests assert on what was asked instead."""

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                seen = Seen(
                    method=self.command,
                    path=parts.path,
                    query={name: values[-1] for name, values in parse_qs(parts.query).items()},
                    body=self.rfile.read(length) if length else b"",
                    headers={name.lower(): value for name, value in self.headers.items()},
                    at=time.monotonic(),
                )
                reply = server._answer(seen)
                if reply.hold is not None:
                    reply.hold.wait(timeout=60)
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    if reply.chunks is not None:
                        self._send_chunks(reply)
                        return
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    if not reply.unframed:
                        self.send_header("Content-Length", str(len(reply.body)))
                    if reply.drop_after is not None or reply.unframed:
                        self.send_header("Connection", "close")
                    self.end_headers()
                    if reply.drop_after is not None or reply.unframed:
                        self.wfile.write(reply.body[: reply.drop_after])
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (timed out, or was killed)

            def _send_chunks(self, reply: Reply) -> None:
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                sent = 0
                for chunk in reply.chunks or []:
                    if isinstance(chunk, float):
                        time.sleep(chunk)
                        continue
                    if reply.drop_after is not None and sent + len(chunk) > reply.drop_after:
                        chunk = chunk[: reply.drop_after - sent]
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunk else b"")
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                    sent += len(chunk)
                self.wfile.write(b"0\r\n\r\n")

            do_GET = _serve
            do_POST = _serve

        return Handler


def xml(body: bytes) -> Reply:
    return Reply(body=body, headers={"Content-Type": "text/xml; charset=utf-8"})


def cut_short(reply: Reply, length: int) -> Reply:
    """The same reply sent without a length and its connection closed after `length` body bytes."""
    return dataclasses.replace(reply, unframed=True, drop_after=length)


def json_reply(body: bytes, status: int = 200, **headers: str) -> Reply:
    return Reply(status=status, body=body, headers={"Content-Type": "application/json", **headers})


def event_stream(body: bytes, *, pause: float = 0.0, status: int = 200) -> Reply:
    """A recorded Server-Sent Events body streamed one event at a time (events end with a blank line),
    `pause` seconds apart, as text/event-stream."""
    events = [event + b"\n\n" for event in body.split(b"\n\n") if event.strip()]
    chunks: list[bytes | float] = []
    for event in events:
        chunks += [pause, event] if pause and chunks else [event]
    return Reply(status=status, headers={"Content-Type": "text/event-stream; charset=utf-8"}, chunks=chunks)


def with_resumption_token(page: bytes, token: str, complete_list_size: int) -> bytes:
    """A recorded ListRecords page, chained to the next one: the arXiv-format pages on record each end a
    list, so the test server writes the <resumptionToken> element that links them, as arXiv does."""
    element = f'<resumptionToken cursor="0" completeListSize="{complete_list_size}">{token}</resumptionToken>'
    return page.replace(b"</ListRecords>", element.encode() + b"\n</ListRecords>")


def entity_list(*entities: bytes) -> Reply:
    """The authors and institutions endpoints answer a filter with a list response; the recorded bodies
    are single entities, so the server lists them the way OpenAlex does."""
    results = [json.loads(entity) for entity in entities]
    body = {"meta": {"count": len(results), "per_page": 200, "next_cursor": None}, "results": results}
    return json_reply(json.dumps(body).encode())
