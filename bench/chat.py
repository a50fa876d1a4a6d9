"""Chat's latency on the benchmark corpus: retrieval for a question (candidates, then their sentences
ranked), for the whole corpus and for a paper, three ways: a new question (its vector computed by the
model; the candidates' sentence vectors stored, as they are once the worker has encoded a paper's
sentences after embedding it), a repeated question (its vector cached too), and a question that is the
first to reach its papers (their sentences encoded while it waits: the worker has not got to them yet).
Also the time from posting a new question to the first words of its quoted answer on the stream, through
Django's test client.

The questions are the evaluation set's (real questions of readers); the corpus's vectors are synthetic,
so what they find means nothing here, but the work done for them is the work done in production."""

from __future__ import annotations

import random
import re
import time

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from tqdm import tqdm

from bench.measure import Timing
from chat.evaluation import load_questions
from chat.models import PaperSentenceVectors
from chat.retrieval import Retrieval, retrieve, search_text
from chat.scopes import CORPUS, Scope, ScopeKind
from papers.models import Paper
from papers.search.query import Mode, parse
from papers.search.vectors import query_vector_key

TARGETS_P95_MS = {"retrieval": 150, "first words": 300}
BENCH_READER = "chat-bench@example.org"
_STREAM = re.compile(rb'data-chat-stream="([^"]+)"')


def _forget_question(question: str) -> None:
    cache.delete(query_vector_key(parse(search_text(question), mode=Mode.HYBRID).semantic_text))


def _forget_sentences(found: Retrieval) -> None:
    PaperSentenceVectors.objects.filter(paper_id__in=list(found.papers)).delete()


def _retrieval(questions: list[str], scopes: list[Scope], repeat: int, description: str) -> dict:
    first, new, repeated = Timing(), Timing(), Timing()
    for _round in tqdm(range(repeat), desc=description, unit=" rounds"):
        for question, scope in zip(questions, scopes, strict=True):
            _forget_sentences(retrieve(question, scope))  # untimed: learns the candidates
            _forget_question(question)
            started = time.perf_counter()
            found = retrieve(question, scope)
            first.milliseconds.append((time.perf_counter() - started) * 1000)
            _forget_question(question)  # the sentences it encoded stay stored
            started = time.perf_counter()
            retrieve(question, scope)
            new.milliseconds.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            retrieve(question, scope)
            repeated.milliseconds.append((time.perf_counter() - started) * 1000)
            _forget_sentences(found)
    return {
        "new question": new.summary(),
        "repeated question": repeated.summary(),
        "first to reach its papers": first.summary(),
    }


def _first_words(client: Client, questions: list[str], repeat: int) -> dict:
    """From the POST of a new whole-corpus question (as htmx sends it) to the first `delta` event of its
    answer's stream: the question's vector not cached, its candidates' sentences stored."""
    timing = Timing()
    for _round in tqdm(range(repeat), desc="chat first words", unit=" rounds"):
        for question in questions:
            retrieve(question, CORPUS)  # untimed: the candidates' sentences stored
            _forget_question(question)
            started = time.perf_counter()
            asked = client.post(
                "/chat/ask", {"scope": "corpus", "question": question}, HTTP_HX_REQUEST="true"
            )
            match = _STREAM.search(asked.content)
            assert asked.status_code == 200 and match, asked.status_code
            chunks = iter(client.get(match.group(1).decode()).streaming_content)
            while b"event: delta" not in next(chunks):
                pass
            timing.milliseconds.append((time.perf_counter() - started) * 1000)
            for _ in chunks:  # the rest of the answer, untimed
                pass
    return timing.summary()


def measure(repeat: int, seed: int, *, questions: int | None = None) -> dict:
    """Each case over the evaluation set's questions (the first `questions`), `repeat` rounds (each question
    cold, then warm)."""
    asked = [item.question for item in load_questions()][:questions]
    picker = random.Random(seed)
    sample = picker.sample(range(1, Paper.objects.count() + 1), len(asked))
    arxiv_ids = Paper.objects.filter(pk__in=sample).values_list("arxiv_id", flat=True)
    paper_scopes = [Scope(ScopeKind.PAPER, arxiv_id) for arxiv_id in arxiv_ids]
    questions = asked[: len(paper_scopes)]
    reader, _ = User.objects.get_or_create(username=BENCH_READER, defaults={"email": BENCH_READER})
    client = Client()
    client.force_login(reader)
    try:
        return {
            "questions": len(questions),
            "repeat": repeat,
            "settings": {"CHAT_CANDIDATE_PAPERS": settings.CHAT_CANDIDATE_PAPERS},
            "retrieval, whole corpus": _retrieval(
                questions, [CORPUS] * len(questions), repeat, "chat corpus"
            ),
            "retrieval, a paper": _retrieval(questions, paper_scopes, repeat, "chat paper"),
            "first words, whole corpus": _first_words(client, questions, repeat),
        }
    finally:
        reader.delete()  # and the conversations the benchmark asked


def table(results: dict) -> str:
    lines = [
        f"chat ({results['questions']} questions × {results['repeat']})",
        f"{'case':<44}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}  target p95",
    ]
    for name, result in results.items():
        if not isinstance(result, dict) or name == "settings":
            continue
        target = TARGETS_P95_MS[name.split(",")[0]]
        parts = result.items() if "p95_ms" not in result else [("", result)]
        for part, summary in parts:
            verdict = "met" if summary["p95_ms"] <= target else "missed"
            label = f"{name}{', ' + part if part else ''}"
            figures = f"{summary['p50_ms']:>8.1f}{summary['p95_ms']:>8.1f}{summary['p99_ms']:>8.1f}"
            lines.append(f"{label:<44}{figures}  ≤ {target} ms: {verdict}")
    return "\n".join(lines)
