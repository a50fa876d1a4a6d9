"""Abstracts cut into sentences, and the sentences' vectors from the papers' own embedding model, cached
per paper in Redis: embedding an abstract's sentences costs tens of milliseconds on a busy core, and the
same papers come back for many questions."""

from __future__ import annotations

import hashlib
import re

import numpy as np
from django.conf import settings
from django.core.cache import cache

from core.latex import readable_text
from papers.embedding import embed_texts

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


def sentence_vectors_key(paper_id: int, abstract: str) -> str:
    """The cache key of a paper's sentence vectors: the model, the paper and its abstract's text (an
    updated abstract gets new vectors)."""
    model = hashlib.sha256(settings.EMBEDDING_MODEL.encode()).hexdigest()[:12]
    text = hashlib.sha256((abstract or "").encode()).hexdigest()[:16]
    return f"chat:sentence-vectors:{model}:{paper_id}:{text}"


def sentence_vectors(papers: dict[int, tuple[str, list[str]]]) -> dict[int, np.ndarray]:
    """Unit vectors of each paper's sentences (rows in sentence order), for papers given as
    {id: (abstract, sentences)}: from the cache (one round trip), the missing ones from the model in one
    batch, then cached (as float16: half the memory, and cosine rankings do not change)."""
    keys = {paper_id: sentence_vectors_key(paper_id, abstract) for paper_id, (abstract, _) in papers.items()}
    cached = cache.get_many(list(keys.values()))
    vectors: dict[int, np.ndarray] = {}
    missing: list[int] = []
    for paper_id, (_, sentences) in papers.items():
        raw = cached.get(keys[paper_id])
        matrix = _from_bytes(raw, len(sentences)) if raw is not None else None
        if matrix is None:
            missing.append(paper_id)
        else:
            vectors[paper_id] = matrix
    texts = [sentence for paper_id in missing for sentence in papers[paper_id][1]]
    if texts:
        embedded = np.asarray(embed_texts(texts), dtype=np.float32)
        fresh = {}
        offset = 0
        for paper_id in missing:
            count = len(papers[paper_id][1])
            vectors[paper_id] = embedded[offset : offset + count]
            fresh[keys[paper_id]] = vectors[paper_id].astype(np.float16).tobytes()
            offset += count
        cache.set_many(fresh, timeout=settings.CHAT_SENTENCE_VECTOR_TTL)
    for paper_id in papers.keys() - vectors.keys():  # papers without sentences
        vectors[paper_id] = np.zeros((0, settings.EMBEDDING_DIMENSIONS), dtype=np.float32)
    return vectors


def _from_bytes(raw: object, rows: int) -> np.ndarray | None:
    """A cached matrix, or None if it is not one of `rows` sentences (the splitting rule changed)."""
    if not isinstance(raw, bytes) or len(raw) != rows * settings.EMBEDDING_DIMENSIONS * 2:
        return None
    matrix = np.frombuffer(raw, dtype=np.float16)
    return matrix.reshape(rows, settings.EMBEDDING_DIMENSIONS).astype(np.float32)
