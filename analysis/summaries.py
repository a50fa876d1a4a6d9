"""A paper's one-sentence TL;DR: its abstract's most central sentence."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chat.sentences import sentence_vectors, split_sentences


def central_sentences(abstracts: Iterable[tuple[int, str]]) -> dict[int, str]:
    """For each (paper id, abstract), the sentence closest to the whole abstract by cosine similarity of
    their embeddings; papers without a sentence are left out.

    The whole abstract is the mean of its sentences' unit vectors, not the paper's own embedding: that
    one reads only the first EMBEDDING_MAX_TOKENS word pieces of title and abstract, and would always
    favour the opening sentences. The sentence vectors are chat's, stored per paper: those not stored yet
    are encoded in one batch and stored, so chat finds them there."""
    split = {paper_id: (abstract, split_sentences(abstract)) for paper_id, abstract in abstracts}
    split = {paper_id: pair for paper_id, pair in split.items() if pair[1]}
    vectors = sentence_vectors(split)
    central: dict[int, str] = {}
    for paper_id, (_, sentences) in split.items():
        matrix = vectors[paper_id]
        central[paper_id] = sentences[int(np.argmax(matrix @ matrix.mean(axis=0)))]
    return central
