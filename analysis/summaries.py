"""A paper's one-sentence TL;DR: its abstract's most central sentence."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chat.sentences import split_sentences
from papers.embedding import embed_texts


def central_sentences(abstracts: Iterable[tuple[int, str]]) -> dict[int, str]:
    """For each (paper id, abstract), the sentence closest to the whole abstract by cosine similarity of
    their embeddings; papers without a sentence are left out.

    The whole abstract is the mean of its sentences' unit vectors, not the paper's own embedding: that
    one reads only the first EMBEDDING_MAX_TOKENS word pieces of title and abstract, and would always
    favour the opening sentences. All the batch's sentences go to the model at once."""
    split = {paper_id: split_sentences(abstract) for paper_id, abstract in abstracts}
    split = {paper_id: sentences for paper_id, sentences in split.items() if sentences}
    texts = [sentence for sentences in split.values() for sentence in sentences]
    if not texts:
        return {}
    vectors = np.asarray(embed_texts(texts), dtype=np.float32)
    central: dict[int, str] = {}
    offset = 0
    for paper_id, sentences in split.items():
        matrix = vectors[offset : offset + len(sentences)]
        offset += len(sentences)
        central[paper_id] = sentences[int(np.argmax(matrix @ matrix.mean(axis=0)))]
    return central
