"""Abstracts cut into sentences, and the sentences' vectors from the papers' own embedding model, stored per
paper (PaperSentenceVectors): encoding an abstract's sentences costs tens of milliseconds of a busy core,
two seconds for a question's candidates, so it is done once, in the background after the paper is embedded
(chat.tasks), and a question only encodes itself."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

import numpy as np
from django.conf import settings

from chat.models import PaperSentenceVectors
from core.latex import readable_text
from papers.embedding import embed_texts
from papers.models import Paper
from papers.querysets import PaperQuerySet

MAX_SENTENCES = 24  # per abstract: the rest of a very long one is not quoted
MAX_SENTENCE_CHARS = 600  # a "sentence" longer than this is cut (abstracts without full stops exist)
MIN_SENTENCE_CHARS = 20  # shorter pieces ("Code is available.") say nothing on their own
_ABBREVIATIONS = {
    "e.g", "i.e", "et al", "etc", "vs", "cf", "resp", "approx", "fig", "figs", "eq", "eqs", "sec", "ref",
    "refs", "no", "dr", "mr", "ms", "prof", "al", "st", "jr", "inc", "ltd", "viz", "ca", "var", "min", "max",
    "avg", "std", "tab", "app", "thm", "lem", "def", "prop", "cor", "ch", "vol", "pp", "ed", "eds",
}  # fmt: skip
# A sentence ends at ., ! or ? (maybe after a closing quote or bracket) followed by space and something
# that can start a sentence.
_BOUNDARY = re.compile(r"([.!?][\"')\]]*)\s+(?=[\"'(\[]*[A-Z0-9\\$])")
_LAST_WORD = re.compile(r"(\S+)$")
_DOTTED = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
DIMENSIONS = settings.EMBEDDING_DIMENSIONS


def split_sentences(abstract: str) -> list[str]:
    """The abstract's sentences in order, TeX made readable, each at most MAX_SENTENCE_CHARS; pieces
    shorter than MIN_SENTENCE_CHARS are joined to the next. Never raises, whatever the text."""
    text = " ".join(readable_text(abstract or "").split())
    if not text:
        return []
    sentences: list[str] = []
    start = 0
    for boundary in _BOUNDARY.finditer(text):
        piece = text[start : boundary.end(1)].strip()
        if _ends_with_abbreviation(piece):
            continue
        if piece:
            sentences.append(piece)
        start = boundary.end()
    sentences.append(text[start:].strip())
    merged: list[str] = []
    carry = ""
    for sentence in sentences:
        sentence = f"{carry} {sentence}".strip() if carry else sentence
        if len(sentence) < MIN_SENTENCE_CHARS:
            carry = sentence
            continue
        carry = ""
        merged.append(_cut(sentence))
    if carry:
        if merged:
            merged[-1] = _cut(f"{merged[-1]} {carry}")
        else:
            merged.append(_cut(carry))
    return merged[:MAX_SENTENCES]


def _ends_with_abbreviation(piece: str) -> bool:
    match = _LAST_WORD.search(piece)
    if match is None:
        return False
    word = match.group(1).rstrip(".")
    # "e.g.", "et al.", "U.S." and initials ("J. Smith") do not end sentences.
    return (
        word.lower() in _ABBREVIATIONS
        or piece.lower().endswith("et al.")
        or (len(word) == 1 and word.isupper())
        or _DOTTED.fullmatch(word) is not None
    )


def _cut(sentence: str) -> str:
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    return sentence[: MAX_SENTENCE_CHARS - 1].rsplit(" ", 1)[0] + "…"


def sentences_digest(abstract: str) -> str:
    """What a paper's stored sentence vectors were encoded from: the model and the abstract's text (an
    updated abstract, or another EMBEDDING_MODEL, gets new vectors)."""
    return hashlib.sha256(f"{settings.EMBEDDING_MODEL}\n{abstract or ''}".encode()).hexdigest()[:32]


def sentence_vectors(papers: dict[int, tuple[str, list[str]]]) -> dict[int, np.ndarray]:
    """Unit vectors of each paper's sentences (rows in sentence order), for papers given as
    {id: (abstract, sentences)}: as stored when the paper was embedded (1 query); a paper not stored yet,
    or stored from another text, is encoded now with the others in one batch and stored."""
    digests = {paper_id: sentences_digest(abstract) for paper_id, (abstract, _) in papers.items()}
    stored = PaperSentenceVectors.objects.current_for(digests)
    vectors: dict[int, np.ndarray] = {}
    for paper_id, (_, sentences) in papers.items():
        matrix = _from_bytes(stored[paper_id], len(sentences)) if paper_id in stored else None
        if matrix is not None:
            vectors[paper_id] = matrix
    missing = {paper_id: papers[paper_id] for paper_id in papers.keys() - vectors.keys()}
    return vectors | _encode_and_store(missing, digests)


def papers_without_sentences() -> PaperQuerySet:
    """Embedded papers whose sentences are not stored yet, newest first."""
    stored = PaperSentenceVectors.objects.values("paper_id")
    return Paper.objects.filter(embedding__isnull=False).exclude(pk__in=stored).order_by("-published", "-id")


def paper_sentences_encode(*, paper_ids: Iterable[int]) -> int:
    """Encode and store the sentence vectors of these papers that have none (gone papers are skipped):
    safe to repeat. Returns how many papers were encoded."""
    ids = list(paper_ids)
    stored = PaperSentenceVectors.objects.filter(paper_id__in=ids).values("paper_id")
    rows = Paper.objects.filter(pk__in=ids).exclude(pk__in=stored).values_list("pk", "abstract")
    papers = {pk: (abstract, split_sentences(abstract)) for pk, abstract in rows}
    _encode_and_store(papers, {pk: sentences_digest(abstract) for pk, (abstract, _) in papers.items()})
    return len(papers)


def _encode_and_store(
    papers: dict[int, tuple[str, list[str]]], digests: dict[int, str]
) -> dict[int, np.ndarray]:
    """Every paper's sentences through the model in one batch, stored as float16 (half the room, and
    cosine rankings do not change) with one upsert."""
    texts = [sentence for _, sentences in papers.values() for sentence in sentences]
    embedded = np.asarray(embed_texts(texts), dtype=np.float32) if texts else np.zeros((0, DIMENSIONS))
    vectors, rows, offset = {}, [], 0
    for paper_id, (_, sentences) in papers.items():
        vectors[paper_id] = embedded[offset : offset + len(sentences)]
        offset += len(sentences)
        raw = vectors[paper_id].astype(np.float16).tobytes()
        rows.append(PaperSentenceVectors(paper_id=paper_id, digest=digests[paper_id], vectors=raw))
    PaperSentenceVectors.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["paper"],
        update_fields=["digest", "vectors", "encoded_at"],
    )
    return vectors


def _from_bytes(raw: bytes, rows: int) -> np.ndarray | None:
    """The stored matrix, or None if it is not one of `rows` sentences (the splitting rule changed)."""
    if len(raw) != rows * DIMENSIONS * 2:
        return None
    return np.frombuffer(raw, dtype=np.float16).reshape(rows, DIMENSIONS).astype(np.float32)
