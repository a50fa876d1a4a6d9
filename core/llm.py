"""The one client of an OpenAI-compatible chat-completions server (vLLM, llama.cpp's server, Ollama, TGI, a
hosted one), for every feature that asks a language model: `stream()` yields the answer's text as it comes,
`complete()` returns it whole.

Configured by LLM_BASE_URL (up to `/v1`: requests go to `{LLM_BASE_URL}/chat/completions`), LLM_API_KEY,
LLM_MODEL and LLM_TIMEOUT_SECONDS. Without LLM_BASE_URL there is no model (`configured()` is false) and
nothing is ever sent anywhere.

What comes back is treated as hostile: bodies are read up to MAX_RESPONSE_BYTES, lines up to
MAX_LINE_BYTES, and whatever goes wrong (refused connection, timeout, an error status, a body or stream that
is not what the protocol says, one that stops half-way) raises LLMError, one type with a message that says
what happened, so a caller can fall back to something that needs no model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import httpx
from django.conf import settings

MAX_RESPONSE_BYTES = 1_000_000  # an answer of a few thousand tokens is 50 KB of streamed chunks
MAX_LINE_BYTES = 64_000  # one streamed chunk is a few hundred bytes
ERROR_TEXT_SHOWN = 200  # characters of a server's error message kept in ours
DEFAULT_MAX_TOKENS = 800
DEFAULT_TEMPERATURE = 0.2
WHOLE_ANSWER_TIMEOUTS = 4  # a whole answer may take this many LLM_TIMEOUT_SECONDS, each wait one
DONE = "[DONE]"

Message = Mapping[str, str]  # {"role": "system" | "user" | "assistant", "content": "…"}


class LLMError(Exception):
    """The model gave no usable answer: not configured, unreachable, too slow, an error status, or a body
    or stream that breaks the protocol. The message says which, without the API key."""


def configured() -> bool:
    return bool(settings.LLM_BASE_URL)


def stream(
    messages: Sequence[Message],
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    temperature: float = DEFAULT_TEMPERATURE,
) -> Iterator[str]:
    """The answer's text, piece by piece, as the server streams it (Server-Sent Events). A server that
    answers with one JSON body instead gives one piece. Closing the iterator early hangs up."""
    deadline = time.monotonic() + settings.LLM_TIMEOUT_SECONDS * WHOLE_ANSWER_TIMEOUTS
    body = _request_body(messages, max_tokens=max_tokens, temperature=temperature, streamed=True)
    try:
        with _client() as client, client.stream("POST", "/chat/completions", json=body) as response:
            _check_status(response)
            if response.headers.get("content-type", "").startswith("application/json"):
                yield _message_content(_json(_bounded(response.iter_bytes(), deadline)))
                return
            yield from stream_deltas(_bounded(response.iter_bytes(), deadline))
    except httpx.TimeoutException:
        raise LLMError(f"the model did not answer within {settings.LLM_TIMEOUT_SECONDS} s") from None
    except httpx.HTTPError as error:
        raise LLMError(f"the model's server could not be reached or hung up: {_describe(error)}") from None


def complete(
    messages: Sequence[Message],
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    temperature: float = DEFAULT_TEMPERATURE,
) -> str:
    """The whole answer's text, from one non-streamed request."""
    deadline = time.monotonic() + settings.LLM_TIMEOUT_SECONDS * WHOLE_ANSWER_TIMEOUTS
    body = _request_body(messages, max_tokens=max_tokens, temperature=temperature, streamed=False)
    try:
        with _client() as client, client.stream("POST", "/chat/completions", json=body) as response:
            _check_status(response)
            return _message_content(_json(_bounded(response.iter_bytes(), deadline)))
    except httpx.TimeoutException:
        raise LLMError(f"the model did not answer within {settings.LLM_TIMEOUT_SECONDS} s") from None
    except httpx.HTTPError as error:
        raise LLMError(f"the model's server could not be reached or hung up: {_describe(error)}") from None


def prompt_data(text: str) -> str:
    """Harvested text inside a prompt's tags (`<source>…</source>`), on one line: it cannot close the
    tag or open another, whatever it says."""
    return " ".join(text.replace("<", "‹").replace(">", "›").split())


def _client() -> httpx.Client:
    if not configured():
        raise LLMError("no model is configured (LLM_BASE_URL is not set)")
    headers = {"User-Agent": f"{settings.SITE_NAME}/1.0 (+{settings.SITE_URL})"}
    if settings.LLM_API_KEY:
        headers["Authorization"] = f"Bearer {settings.LLM_API_KEY}"
    return httpx.Client(
        base_url=settings.LLM_BASE_URL,
        headers=headers,
        timeout=httpx.Timeout(settings.LLM_TIMEOUT_SECONDS),
        follow_redirects=False,
        trust_env=False,  # a proxy from the environment would see the questions
    )


def _request_body(
    messages: Sequence[Message], *, max_tokens: int, temperature: float, streamed: bool
) -> dict[str, Any]:
    return {
        "model": settings.LLM_MODEL,
        "messages": [{"role": message["role"], "content": message["content"]} for message in messages],
        "max_tokens": max_tokens,
        "temperature": temperature,
        "stream": streamed,
    }


def _describe(error: httpx.HTTPError) -> str:
    return f"{type(error).__name__}: {str(error)[:ERROR_TEXT_SHOWN]}" if str(error) else type(error).__name__


def _check_status(response: httpx.Response) -> None:
    """An error status as LLMError, with the server's own message when its body gives one (OpenAI's
    `{"error": {"message": …}}`, `{"error": "…"}`, or plain text as TGI sends)."""
    if response.status_code == 200:
        return
    raw = b""
    for piece in response.iter_bytes():
        raw += piece
        if len(raw) > MAX_LINE_BYTES:
            break
    text = raw[:MAX_LINE_BYTES].decode("utf-8", errors="replace")
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    message = error if isinstance(error, str) else text
    message = " ".join(message.split())[:ERROR_TEXT_SHOWN] or response.reason_phrase
    raise LLMError(f"the model's server answered {response.status_code}: {message}")


def _bounded(pieces: Iterable[bytes], deadline: float) -> Iterator[bytes]:
    """The body's bytes, up to MAX_RESPONSE_BYTES and the whole answer's deadline."""
    total = 0
    for piece in pieces:
        total += len(piece)
        if total > MAX_RESPONSE_BYTES:
            raise LLMError(f"the model's answer is longer than {MAX_RESPONSE_BYTES:,} bytes")
        if time.monotonic() > deadline:
            seconds = settings.LLM_TIMEOUT_SECONDS * WHOLE_ANSWER_TIMEOUTS
            raise LLMError(f"the model's answer took longer than {seconds} s")
        yield piece


def _json(pieces: Iterable[bytes]) -> object:
    raw = b"".join(pieces)
    try:
        return json.loads(raw)
    except ValueError:
        raise LLMError("the model's answer is not JSON") from None


def _message_content(completion: object) -> str:
    """`choices[0].message.content` of a non-streamed completion."""
    _raise_embedded_error(completion)
    choice = _first_choice(completion)
    message = choice.get("message") if choice is not None else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise LLMError("the model's answer has no message content")
    return content


def _first_choice(payload: object) -> dict | None:
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if not isinstance(choices, list):
        raise LLMError("the model's answer has no list of choices")
    if not choices:
        return None
    if not isinstance(choices[0], dict):
        raise LLMError("the model's answer has a choice that is not an object")
    return choices[0]


def _raise_embedded_error(payload: object) -> None:
    """Servers report some failures inside a 200 body or stream: `{"error": …}` (vLLM, OpenAI)."""
    if isinstance(payload, dict) and payload.get("error"):
        error = payload["error"]
        message = error.get("message") if isinstance(error, dict) else error
        text = " ".join(str(message).split())[:ERROR_TEXT_SHOWN]
        raise LLMError(f"the model's server reported an error: {text}")


def sse_data(pieces: Iterable[bytes]) -> Iterator[str]:
    """The `data` of each Server-Sent Event in a byte stream: `data:` lines with or without the space
    after the colon, several joined by newlines, comments (`:`) and other fields (`event:`, `id:`)
    skipped, an event ended by a blank line or by the end of the stream. Lines end with LF or CRLF."""
    buffer = b""
    data: list[str] = []
    for piece in pieces:
        buffer += piece
        *lines, buffer = buffer.split(b"\n")
        if len(buffer) > MAX_LINE_BYTES:
            raise LLMError(f"the model's stream has a line longer than {MAX_LINE_BYTES:,} bytes")
        for line in lines:
            event = _sse_line(line, data)
            if event is not None:
                yield event
    if buffer:
        _sse_line(buffer, data)
    if data:
        yield "\n".join(data)


def _sse_line(raw: bytes, data: list[str]) -> str | None:
    """Reads one line into the event being built (`data`); returns the event's data at its blank line."""
    line = raw.removesuffix(b"\r").decode("utf-8", errors="replace")
    if not line:
        event = "\n".join(data) if data else None
        data.clear()
        return event
    name, _, value = line.partition(":")
    if name == "data":
        data.append(value.removeprefix(" "))
    return None


def stream_deltas(pieces: Iterable[bytes]) -> Iterator[str]:
    """The text of a streamed chat completion: each chunk's `choices[0].delta.content`, empty pieces left
    out. The stream ends at `data: [DONE]`, or at its end if a chunk gave a `finish_reason` (TGI sends no
    [DONE]); a stream that stops before either was cut short, and raises LLMError like any chunk that is not
    a completion chunk."""
    finished = False
    for data in sse_data(pieces):
        if data.strip() == DONE:
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            raise LLMError("the model's stream has a chunk that is not JSON") from None
        _raise_embedded_error(chunk)
        choice = _first_choice(chunk)
        if choice is None:  # the usage chunk at the end, asked for or not
            continue
        delta = choice.get("delta")
        content = delta.get("content") if isinstance(delta, dict) else None
        if delta is not None and not isinstance(delta, dict):
            raise LLMError("the model's stream has a delta that is not an object")
        if content is not None and not isinstance(content, str):
            raise LLMError("the model's stream has content that is not text")
        if content:
            yield content
        finished = finished or bool(choice.get("finish_reason"))
    if not finished:
        raise LLMError("the model's stream stopped before the answer was complete")
