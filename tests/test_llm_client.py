"""core.llm against a real HTTP server on 127.0.0.1 answering with recorded chat-completions bodies
(tests/fixtures/llm/, see its PROVENANCE.md): streamed and whole answers, and every way a server can fail,
each raising LLMError."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core import llm
from core.llm import LLMError
from tests.harvest.replay import Reply, event_stream, fixture, json_reply
from tests.test_settings import PRODUCTION, manage

PATH = "/v1/chat/completions"
QUESTION = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Say hello!"}]


def recorded(name: str) -> bytes:
    return fixture(f"llm/{name}")


def answer(llm_server, *replies: Reply) -> None:
    llm_server.route(PATH, *replies, method="POST")


@pytest.mark.parametrize(
    ("recording", "text"),
    [
        ("openai_stream_chat_completion.sse", "Hello! How can I assist you today?"),
        (
            "ollama_stream_chat_completion.sse",
            "Hello! How are you today? Is there something I can help you with or would you like to chat?",
        ),
        (
            "tgi_stream_chat_completion_no_done.sse",  # `data:` without a space, and no [DONE]
            "Deep learning is a subfield of machine learning that is based on artificial neural networks "
            "with multiple layers to",
        ),
    ],
)
def test_it_streams_the_text_of_each_recorded_server(llm_server, recording, text):
    answer(llm_server, event_stream(recorded(recording)))
    pieces = list(llm.stream(QUESTION))
    assert "".join(pieces) == text
    assert len(pieces) > 5 and "" not in pieces


def test_it_sends_the_model_the_messages_and_the_key(llm_server):
    answer(llm_server, event_stream(recorded("openai_stream_chat_completion.sse")))
    list(llm.stream(QUESTION, max_tokens=50))
    [seen] = llm_server.seen(PATH)
    assert seen.headers["authorization"] == "Bearer test-llm-key"
    assert seen.json() == {
        "model": "test-model",
        "messages": QUESTION,
        "max_tokens": 50,
        "temperature": llm.DEFAULT_TEMPERATURE,
        "stream": True,
    }


def test_it_yields_each_piece_as_it_arrives(llm_server):
    answer(llm_server, event_stream(recorded("openai_stream_chat_completion.sse"), pause=0.1))
    started = time.monotonic()
    pieces = llm.stream(QUESTION)
    assert next(pieces) == "Hello"
    first = time.monotonic() - started
    assert "".join(pieces) == "! How can I assist you today?"
    assert first < 0.5 < time.monotonic() - started  # twelve pauses of 0.1 s came after the first piece


def test_it_returns_a_whole_answer(llm_server):
    answer(llm_server, json_reply(recorded("openai_chat_completion.json")))
    text = llm.complete(QUESTION)
    assert text.startswith("Yes, counterfactuals are actionable.")
    assert "(pqac-2a9aa41f)" in text
    assert llm_server.seen(PATH)[0].json()["stream"] is False


def test_a_server_that_does_not_stream_gives_its_answer_in_one_piece(llm_server):
    answer(llm_server, json_reply(recorded("openai_chat_completion.json")))
    [piece] = list(llm.stream(QUESTION))
    assert piece.startswith("Yes, counterfactuals are actionable.")


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            json_reply(recorded("openai_error_400.json"), status=400),
            "the model's server answered 400: You uploaded an unsupported image.",
        ),
        (
            Reply(422, recorded("tgi_error_422.txt"), {"Content-Type": "text/plain; charset=utf-8"}),
            "the model's server answered 422: Failed to deserialize the JSON body",
        ),
        (Reply(503, b"", {}), "the model's server answered 503: Service Unavailable"),
        (
            json_reply(b'{"error": "model \\"x\\" not found"}', status=404),
            'the model\'s server answered 404: model "x" not found',
        ),
    ],
)
def test_an_error_status_raises_with_the_servers_message(llm_server, reply, message):
    answer(llm_server, reply)
    for call in (lambda: list(llm.stream(QUESTION)), lambda: llm.complete(QUESTION)):
        with pytest.raises(LLMError) as raised:
            call()
        assert str(raised.value).startswith(message)
        assert "test-llm-key" not in str(raised.value)


def test_a_server_too_slow_to_start_answering_times_out(llm_server):
    answer(llm_server, Reply(delay=1.5, body=recorded("openai_chat_completion.json")))
    with pytest.raises(LLMError, match="did not answer within 1 s"):
        llm.complete(QUESTION)


def test_a_stream_that_stalls_half_way_times_out_after_what_it_gave(llm_server):
    stalled = event_stream(recorded("openai_stream_chat_completion.sse"))
    stalled.chunks.insert(3, 1.5)
    answer(llm_server, stalled)
    pieces = llm.stream(QUESTION)
    assert next(pieces) == "Hello"
    with pytest.raises(LLMError, match="did not answer within 1 s"):
        list(pieces)


def test_a_stream_cut_off_by_a_dropped_connection_raises(llm_server):
    body = recorded("openai_stream_chat_completion.sse")
    cut = event_stream(body)
    cut.drop_after = len(body) // 2
    answer(llm_server, cut)
    with pytest.raises(LLMError, match="hung up"):
        list(llm.stream(QUESTION))


def test_a_stream_that_ends_before_the_answer_does_raises(llm_server):
    events = recorded("openai_stream_chat_completion.sse").split(b"\n\n")
    answer(llm_server, event_stream(b"\n\n".join(events[:5])))  # closed properly, but no finish, no [DONE]
    with pytest.raises(LLMError, match="stopped before the answer was complete"):
        list(llm.stream(QUESTION))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'data: {"choices": [{"delta": {"content": "Hel', "not JSON"),
        (b"data: <html>Bad gateway</html>\n\n", "not JSON"),
        (b'data: {"object": "chat.completion.chunk"}\n\n', "no list of choices"),
        (b'data: {"choices": [{"delta": "Hello"}]}\n\n', "delta that is not an object"),
        (b'data: {"choices": [{"delta": {"content": 7}}]}\n\n', "content that is not text"),
        (b'data: {"error": {"message": "CUDA out of memory"}}\n\n', "reported an error: CUDA out of memory"),
        (b"data: " + b"x" * (llm.MAX_LINE_BYTES + 10), "line longer than"),
    ],
)
def test_a_malformed_stream_raises(llm_server, body, message):
    answer(llm_server, Reply(body=body, headers={"Content-Type": "text/event-stream"}))
    with pytest.raises(LLMError, match=message):
        list(llm.stream(QUESTION))


def test_an_answer_past_the_size_bound_raises(llm_server):
    chunk = json.dumps({"choices": [{"delta": {"content": "word " * 1000}}]}).encode()
    event = b"data: " + chunk + b"\n\n"
    answer(llm_server, Reply(body=event * (llm.MAX_RESPONSE_BYTES // len(event) + 2)))
    with pytest.raises(LLMError, match="longer than 1,000,000 bytes"):
        list(llm.stream(QUESTION))


def test_a_non_streamed_answer_that_is_not_a_completion_raises(llm_server):
    answer(llm_server, json_reply(b'{"choices": [{"message": {"role": "assistant"}}]}'))
    with pytest.raises(LLMError, match="no message content"):
        llm.complete(QUESTION)
    answer(llm_server, Reply(body=b"<html>gateway</html>", headers={"Content-Type": "text/html"}))
    with pytest.raises(LLMError, match="not JSON"):
        llm.complete(QUESTION)


def test_nothing_is_sent_without_a_configured_server(llm_server, settings):
    settings.LLM_BASE_URL = ""
    assert not llm.configured()
    with pytest.raises(LLMError, match="no model is configured"):
        list(llm.stream(QUESTION))
    assert llm_server.seen() == []


def test_a_server_that_is_not_there_raises(settings):
    settings.LLM_BASE_URL = "http://127.0.0.1:9/v1"  # the discard port: nothing listens
    settings.LLM_MODEL = "test-model"
    with pytest.raises(LLMError, match="could not be reached"):
        llm.complete(QUESTION)


def test_events_may_span_pieces_lines_and_comments():
    pieces = [
        b": keep-alive\n\nda",
        b'ta: {"choices": [{"delta": {"content": "a"}}]}\r\n\r\n',
        b'event: message\nid: 1\ndata: {"choices": [{"delta": {"content": "b"}, "finish_reason": "stop"}]}',
    ]
    assert list(llm.stream_deltas(pieces)) == ["a", "b"]
    assert list(llm.sse_data([b"data: one\ndata:two\n\n"])) == ["one\ntwo"]


@given(st.binary(max_size=2000), st.lists(st.integers(min_value=0, max_value=2000), max_size=6))
@hypothesis_settings(max_examples=200, deadline=None)
def test_any_bytes_give_text_or_llm_error_however_they_are_split(body, cuts):
    """Whatever a server sends, the reader raises nothing but LLMError, and where the pieces are cut
    changes nothing."""
    bounds = sorted({0, len(body), *(cut for cut in cuts if cut <= len(body))})
    pieces = [body[start:stop] for start, stop in zip(bounds, bounds[1:], strict=False)]

    def read(parts: list[bytes]) -> list[str] | str:
        try:
            return list(llm.stream_deltas(parts))
        except LLMError as error:
            return f"error: {error}"

    assert read(pieces) == read([body])


@given(st.lists(st.text(max_size=20), max_size=8))
def test_any_deltas_come_back_as_sent(texts):
    events = [json.dumps({"choices": [{"delta": {"content": text}}]}) for text in texts]
    body = "".join(f"data: {event}\n\n" for event in events) + "data: [DONE]\n\n"
    assert list(llm.stream_deltas([body.encode()])) == [text for text in texts if text]


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        (
            {"LLM_BASE_URL": "localhost:11434/v1"},
            "LLM_BASE_URL must be a URL starting with http:// or https://",
        ),
        (
            {"LLM_BASE_URL": "http://127.0.0.1:11434/v1"},
            "LLM_MODEL must name the model when LLM_BASE_URL is set",
        ),
        (
            {"LLM_BASE_URL": "http://127.0.0.1:11434/v1", "LLM_MODEL": "m", "LLM_TIMEOUT_SECONDS": "0"},
            "LLM_TIMEOUT_SECONDS must be at least 1",
        ),
    ],
)
def test_start_up_refuses_a_half_configured_model(environment, message):
    result = manage("check", **(PRODUCTION | environment))
    assert result.returncode != 0
    assert result.stderr.strip().startswith(f"wovepaper: configuration error: {message}")


def test_a_whole_answer_that_trickles_past_its_deadline_raises(llm_server, monkeypatch):
    monkeypatch.setattr(llm, "WHOLE_ANSWER_TIMEOUTS", 0.5)  # 0.5 s for the whole answer, 1 s for each wait
    answer(llm_server, event_stream(recorded("openai_stream_chat_completion.sse"), pause=0.2))
    with pytest.raises(LLMError, match="took longer than 0.5 s"):
        list(llm.stream(QUESTION))
