"""Abstracts cut into sentences (whatever they hold), and sentence vectors cached per paper."""

from __future__ import annotations

import numpy as np
import pytest
from django.core.cache import cache
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from chat.sentences import (
    MAX_SENTENCE_CHARS,
    MAX_SENTENCES,
    sentence_vectors,
    sentence_vectors_key,
    split_sentences,
)
from core.latex import readable_text


def test_it_cuts_an_abstract_at_its_sentences_not_at_abbreviations():
    abstract = (
        "Large models (e.g. GPT-4) are costly, cf. Smith et al. 2020. We propose a cheaper method, "
        "i.e. distillation, reaching 93.5% accuracy! Does it scale? It does, as J. Doe showed in the U.S. "
        "last year.\n  Code is at github."
    )
    assert split_sentences(abstract) == [
        "Large models (e.g. GPT-4) are costly, cf. Smith et al. 2020.",
        "We propose a cheaper method, i.e. distillation, reaching 93.5% accuracy!",
        "Does it scale? It does, as J. Doe showed in the U.S. last year. Code is at github.",
    ]


def test_it_makes_tex_readable_and_joins_short_pieces():
    assert split_sentences(r"We bound $\alpha$-nets. Yes. The bound is tight for $n \geq 3$ points.") == [
        "We bound α-nets. Yes.",
        "The bound is tight for n ≥ 3 points.",
    ]
    assert split_sentences("") == [] and split_sentences("   ") == []
    assert split_sentences("Short.") == ["Short."]


def test_a_run_on_abstract_is_bounded():
    sentences = split_sentences(("word " * 400 + ". Next sentence here. ") * 40)
    assert len(sentences) == MAX_SENTENCES
    assert all(len(sentence) <= MAX_SENTENCE_CHARS for sentence in sentences)
    assert sentences[0].endswith("…")


@given(st.text(max_size=3000))
@hypothesis_settings(max_examples=300, deadline=None)
def test_any_text_gives_bounded_sentences_that_keep_its_words(text):
    sentences = split_sentences(text)
    assert len(sentences) <= MAX_SENTENCES
    assert all(0 < len(sentence) <= MAX_SENTENCE_CHARS for sentence in sentences)
    if len(sentences) < MAX_SENTENCES and not any(sentence.endswith("…") for sentence in sentences):
        assert " ".join(sentences).split() == readable_text(text).split()  # nothing lost, nothing added


def test_sentence_vectors_come_from_the_model_once_then_from_the_cache(monkeypatch):
    abstract = "We weave papers into a cloth. We measure the strength of twill."
    papers = {7: (abstract, split_sentences(abstract)), 8: ("", [])}
    first = sentence_vectors(papers)
    assert first[7].shape == (2, 384) and first[8].shape == (0, 384)
    assert np.allclose(np.linalg.norm(first[7], axis=1), 1, atol=1e-3)
    assert cache.get(sentence_vectors_key(7, abstract)) is not None

    def no_model(texts: list[str]) -> None:
        raise AssertionError("the model ran again")

    monkeypatch.setattr("chat.sentences.embed_texts", no_model)
    again = sentence_vectors(papers)
    assert np.allclose(again[7], first[7], atol=1e-2)  # stored as float16
    assert sentence_vectors_key(7, abstract + " More.") != sentence_vectors_key(7, abstract)


@pytest.mark.parametrize("stored", [b"not vectors", "text", 42])
def test_a_cached_value_that_is_not_the_papers_vectors_is_recomputed(stored):
    abstract = "We weave papers into a cloth. We measure the strength of twill."
    cache.set(sentence_vectors_key(9, abstract), stored)
    vectors = sentence_vectors({9: (abstract, split_sentences(abstract))})
    assert vectors[9].shape == (2, 384)
