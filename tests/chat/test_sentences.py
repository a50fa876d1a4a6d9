"""Abstracts cut into sentences (whatever they hold), and sentence vectors stored per paper."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from chat.models import PaperSentenceVectors
from chat.sentences import (
    MAX_SENTENCE_CHARS,
    MAX_SENTENCES,
    paper_sentences_encode,
    papers_without_sentences,
    sentence_vectors,
    sentences_digest,
    split_sentences,
)
from chat.tasks import encode_missing_sentences
from core.latex import readable_text
from core.queues import queue_length
from papers.services import papers_embed
from tests.factories import make_paper


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


def test_sentence_vectors_are_encoded_once_then_read_as_stored(db, monkeypatch):
    abstract = "We weave papers into a cloth. We measure the strength of twill."
    woven, empty = make_paper(abstract=abstract), make_paper(abstract="")
    papers = {woven.pk: (abstract, split_sentences(abstract)), empty.pk: ("", [])}
    first = sentence_vectors(papers)
    assert first[woven.pk].shape == (2, 384) and first[empty.pk].shape == (0, 384)
    assert np.allclose(np.linalg.norm(first[woven.pk], axis=1), 1, atol=1e-3)
    stored = PaperSentenceVectors.objects.get(paper=woven)
    assert stored.digest == sentences_digest(abstract) and len(stored.vectors) == 2 * 384 * 2

    def no_model(texts: list[str]) -> None:
        raise AssertionError("the model ran again")

    monkeypatch.setattr("chat.sentences.embed_texts", no_model)
    again = sentence_vectors(papers)
    assert np.allclose(again[woven.pk], first[woven.pk], atol=1e-2)  # stored as float16
    assert sentences_digest(abstract + " More.") != sentences_digest(abstract)


@pytest.mark.parametrize("digest, raw", [("another text", None), (None, b"not vectors")])
def test_vectors_stored_from_another_text_or_of_another_shape_are_encoded_again(db, digest, raw):
    abstract = "We weave papers into a cloth. We measure the strength of twill."
    paper = make_paper(abstract=abstract)
    PaperSentenceVectors.objects.create(
        paper=paper,
        digest=sentences_digest(digest or abstract),
        vectors=raw or np.ones((2, 384), dtype=np.float16).tobytes(),
    )
    vectors = sentence_vectors({paper.pk: (abstract, split_sentences(abstract))})
    assert vectors[paper.pk].shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors[paper.pk], axis=1), 1, atol=1e-3)  # the model's, not the ones
    assert PaperSentenceVectors.objects.get(paper=paper).digest == sentences_digest(abstract)


def test_embedded_papers_get_their_sentences_encoded_once(db):
    woven = make_paper(abstract="We weave papers into a cloth. We measure the strength of twill.")
    unembedded = make_paper(abstract="Looms were powered by water. Then by steam, in the mills.")
    papers_embed(paper_ids=[woven.pk])
    assert list(papers_without_sentences()) == [woven]

    assert paper_sentences_encode(paper_ids=[woven.pk, unembedded.pk, 0]) == 2  # asked for, so encoded
    assert set(PaperSentenceVectors.objects.values_list("paper_id", flat=True)) == {woven.pk, unembedded.pk}
    assert not papers_without_sentences().exists()
    assert paper_sentences_encode(paper_ids=[woven.pk, unembedded.pk]) == 0  # safe to repeat
    woven.delete()
    assert list(PaperSentenceVectors.objects.values_list("paper_id", flat=True)) == [unembedded.pk]


def test_the_sweep_queues_embedded_papers_without_sentences_on_the_embed_queue(db):
    for number in range(3):
        papers_embed(paper_ids=[make_paper(abstract=f"Paper {number} weaves. It weaves well.").pk])
    assert encode_missing_sentences() == 3
    assert queue_length("embed") == 1  # one batch of EMBEDDING_BATCH_SIZE papers


def test_the_command_encodes_the_backlog_and_says_how_much(db):
    embedded = [make_paper(abstract=f"Paper {number} weaves. It weaves well.") for number in range(2)]
    papers_embed(paper_ids=[paper.pk for paper in embedded])
    make_paper(abstract="Not embedded yet. So not encoded either.")
    output = io.StringIO()
    call_command("encode_sentences", "--batch-size", "1", stdout=output, verbosity=0)
    assert output.getvalue().startswith("sentences: 2 of 2 papers encoded in ")
    assert set(PaperSentenceVectors.objects.values_list("paper_id", flat=True)) == {p.pk for p in embedded}
