"""What kind of paper a paper is (method, survey, benchmark…), from its title, abstract and comments:
clear phrases first, then a small classifier on the paper's embedding and the TF-IDF of its words (all of
them, and those of the sentences that say what the paper does) for the papers no phrase decides.

The phrases are also the classifier's teachers: it is trained on the labels they give the corpus
(`manage.py train_paper_types`), never on the hand-labelled evaluation sample
(`analysis/evaluation/paper_types.json`, `manage.py evaluate_paper_types`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Protocol

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer

DEFAULT_TYPE = "method"  # what most papers are, when neither a phrase nor the classifier decides


@dataclass(frozen=True)
class Rule:
    paper_type: str
    where: str  # "title" or "text" (title, abstract and comments)
    pattern: re.Pattern[str]
    # A phrase right less than about nine times in ten on the training labels only teaches: the
    # classifier learns its type from the papers it matches but decides them itself (cross-validated
    # macro-F1 0.754 with the broad method, empirical and theory phrases deciding, 0.771 without).
    decides: bool = True


def _rule(paper_type: str, where: str, pattern: str, *, decides: bool = True) -> Rule:
    # Lower-case patterns for lower-cased text: without IGNORECASE the regular expression engine can
    # scan for literal words, several times faster over an abstract.
    if pattern != pattern.lower():  # a capital letter would silently never match
        raise ValueError(f"paper-type patterns are lower case: {pattern!r}")
    return Rule(paper_type, where, re.compile(pattern), decides)


# In order: the first that matches decides, or leaves it to the classifier. Title rules come first: a
# title says what a paper is more plainly than any sentence of its abstract.
RULES: tuple[Rule, ...] = (
    _rule("other", "title", r"^(erratum|corrigendum|comment on|reply to|response to)\b"),
    _rule("other", "text", r"\bthis (paper|article|submission) has been withdrawn\b"),
    _rule(
        "survey",
        "title",
        r"\b(a |an )?(comprehensive |systematic |scoping |brief |short |critical )?"
        r"(survey|review|overview|tutorial|primer)\b(?! (of|on) (the )?(performance|effect))"
        r"|\blecture notes\b|\bstate of the art in\b|\brecent (developments|advances|progress)\b",
    ),
    _rule(
        "position",
        "title",
        r"\bposition( paper)?:|\b(a vision (for|of)|manifesto|call to action|roadmap (for|to|towards))\b"
        r"|^(?!(how|do|does|can|should|what|when|why|which)\b)[^?]*\b(should|must|needs? to)\b[^?]*$"
        r"|\bthe case (for|against)\b|\bin (defen[cs]e|praise) of\b|\b(a )?call for\b",
    ),
    _rule("benchmark", "title", r"\b(bench(mark)?|dataset|data set|corpus|leaderboard|test suite)\b(?!ing)"),
    _rule(
        "system",
        "title",
        r"\b(library|toolkit|toolbox|open[- ]source (tool|software|platform)|python package)\b",
    ),
    _rule(
        "position",
        "text",
        r"\b(this|our) (position|perspective|vision) paper\b|\bin this (position paper|perspective|essay)\b",
    ),
    _rule("position", "text", r"\bwe argue that\b.{0,200}\b(should|must|need)\b"),
    _rule(
        "survey",
        "text",
        r"\b(this|our|the present) (paper|article|work|chapter)? ?(presents|provides|offers|is) "
        r"(a |an )?(comprehensive |systematic |brief |extensive |thorough |critical )?"
        r"(survey|review|overview|tutorial)\b"
        r"|\bwe (survey|review)\b|\bin this (survey|review)\b|\bsystematic (literature )?review\b"
        r"|\bwe (present|give|provide|offer) (a|an) ([\w-]+ ){0,2}(review|overview|survey|tutorial)\b"
        r"|\b(critical|brief|short) review\b|\breview talk\b",
    ),
    _rule(
        "benchmark",
        "text",
        # Only releasing one: a paper that "introduces a dataset" is as often a method trained on it.
        r"\bwe (publicly )?release (a|an|the|our) [\w\- ]{0,30}(benchmark|dataset|data set|corpus)\b",
    ),
    _rule("system", "text", r"\b(system )?demo(nstration)?s? (paper|track|session)\b|\b\d{4} demo\b"),
    _rule(
        "system",
        "text",
        r"\bwe (present|introduce|describe|release|develop)\b.{0,60}\b(an? )?(open[- ]source )?"
        r"(library|toolkit|toolbox|software (package|tool|system)|python package|"
        r"web (service|application|platform))\b",
    ),
    _rule(
        "empirical",
        "title",
        r"^(an? )?(empirical|comparative|systematic|large[- ]scale|exploratory|case|user|pilot) "
        r"(study|analysis|evaluation|comparison|investigation)\b"
        r"|^(evaluating|assessing|investigating|exploring|examining|analy[sz]ing|measuring|probing|revisiting|"
        r"understanding|characteri[sz]ing|quantifying|comparing|benchmarking|auditing|uncovering|revealing) "
        r"|^(how|do|does|did|are|is|can|could|should|what|when|why|which|will|would)\b[^:]*\?"
        r"|: (an? )?(empirical|comparative|exploratory|case|user|systematic|longitudinal) "
        r"(study|analysis|evaluation|comparison|investigation)\b"
        r"|\b(an? )?(empirical|comparative) (study|analysis|evaluation|comparison)\b",
        decides=False,
    ),
    _rule(
        "other",
        "text",
        r"\bwe (report|present) (the )?(first )?(detection|discovery|observations?|measurements?)\b"
        r"|\bwe (have )?(measured|observed)\b|\bwe (have )?(successfully )?grown\b"
        r"|\b(telescope|spectrograph|photometry|light curves?|spectroscopic observations)\b",
    ),
    _rule(
        "method",
        "text",
        r"\bwe (propose|introduce|present|develop|design)\b.{0,60}\b(method|model|framework|approach|"
        r"algorithm|architecture|technique|strategy|network|pipeline|scheme|mechanism)\b"
        r"|\b(outperforms|state-of-the-art performance|surpass(es)? (existing|prior|previous))\b",
        decides=False,
    ),
    _rule(
        "system",
        "text",
        r"\b(open[- ]source|freely available|publicly available) (tool|software|platform|system|plugin|"
        r"web[- ]based (tool|platform|application))\b|\bwe (present|introduce|describe|release|develop)\b"
        r"[^.]{0,60}\b(an? )?(tool|platform|plugin|web[- ]based|software|application|assistant|app)\b",
    ),
    _rule(
        "theory",
        "text",
        r"\bwe (prove|derive|establish|show that (the|every|any|there))\b"
        r"|\b(theorem|lemma|conjecture|corollary)\b|\b(upper|lower|tight) bounds?\b|\bnp-(hard|complete)\b"
        r"|\b(hamiltonian|lagrangian|perturbative|quantum field theor\w*|gauge theor\w*|string theor\w*|"
        r"first[- ]principles calculations?|mean[- ]field theory|renormali[sz]\w+|spacetimes?|"
        r"hilbert spaces?|banach|manifolds?|cohomolog\w*|isomorphi\w+|eigenvalues?|"
        r"analytic(al)? (solutions?|results?|expressions?)|closed[- ]form)\b",
        decides=False,
    ),
    _rule(
        "empirical",
        "text",
        r"\bwe (conduct|perform|carry out|present|report) (a |an |the first )?"
        r"(large[- ]scale |systematic |comprehensive |empirical |extensive |comparative |user |case |"
        r"qualitative |quantitative |mixed[- ]methods? |in-depth )+"
        r"(study|analysis|evaluation|comparison|investigation|survey of)\b"
        r"|\b(an|this|our) empirical (study|analysis|investigation)\b|\binterview(s|ed)? with\b",
        decides=False,
    ),
)


def paper_text(title: str, abstract: str, comments: str) -> str:
    """What the phrases and the classifier's word features read: the title, abstract and comments,
    lower-cased, with their white space collapsed."""
    title = " ".join((title or "").split())
    return " ".join(f"{title}. {abstract or ''} {comments or ''}".lower().split())


def matching_rule(title: str, abstract: str, comments: str) -> Rule | None:
    """The first phrase that matches, whether it decides or only teaches the classifier."""
    title = " ".join((title or "").lower().split())
    text = paper_text(title, abstract, comments)
    for rule in RULES:
        if rule.pattern.search(title if rule.where == "title" else text):
            return rule
    return None


def rule_type(title: str, abstract: str, comments: str) -> str | None:
    """The type the first matching phrase gives when that phrase decides; None when no phrase is clear."""
    rule = matching_rule(title, abstract, comments)
    return rule.paper_type if rule is not None and rule.decides else None


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# Where an abstract says what the paper itself does: its contribution, which decides the type ("we
# argue", "this survey", "here we prove"), as against the motivation around it.
_CONTRIBUTION_CUE = re.compile(
    r"\b(we|our|us|here|in this|this (paper|work|article|study|essay|survey|review|chapter|note|thesis))\b"
)


def contribution_sentences(text: str) -> str:
    """The sentences of a `paper_text` in which the authors speak of their own work, joined: what the
    classifier's second block of word features reads."""
    return " ".join(sentence for sentence in _SENTENCE_END.split(text) if _CONTRIBUTION_CUE.search(sentence))


MODEL_FILE = Path(__file__).parent / "paper_type_model.json"


class TypedPaper(Protocol):
    pk: int
    title: str
    abstract: str
    comments: str
    embedding: np.ndarray | None


@dataclass(frozen=True)
class TextFeatures:
    """TF-IDF of a paper's words and word pairs (scikit-learn's tokens, sublinear counts, each paper's
    vector of unit length), over a vocabulary fixed at training; `weight` scales it beside the unit
    embedding."""

    vocabulary: tuple[str, ...]
    idf: np.ndarray
    weight: float
    ngram_range: tuple[int, int] = (1, 2)

    @classmethod
    def fit(
        cls, texts: Iterable[str], *, terms: int, weight: float, ngram_range: tuple[int, int]
    ) -> TextFeatures:
        """The `terms` most frequent words and word pairs of these texts that occur in two or more."""
        fitted = TfidfVectorizer(
            ngram_range=ngram_range, sublinear_tf=True, min_df=2, max_features=terms, dtype=np.float32
        ).fit(texts)
        return cls(
            vocabulary=tuple(str(term) for term in fitted.get_feature_names_out()),
            idf=fitted.idf_.astype(np.float32),
            weight=weight,
            ngram_range=ngram_range,
        )

    @cached_property
    def _vectorizer(self) -> TfidfVectorizer:
        vectorizer = TfidfVectorizer(
            vocabulary={term: index for index, term in enumerate(self.vocabulary)},
            ngram_range=self.ngram_range,
            sublinear_tf=True,
            dtype=np.float32,
        )
        vectorizer.idf_ = self.idf  # fitted already: the training's document frequencies
        return vectorizer

    def transform(self, texts: Sequence[str]) -> sparse.csr_matrix:
        return self._vectorizer.transform(texts) * np.float32(self.weight)


def type_features(
    vectors: np.ndarray, texts: Sequence[str], text: TextFeatures, contribution: TextFeatures
) -> sparse.csr_matrix:
    """The classifier's input, the same in training and prediction: each paper's unit embedding, the
    weighted TF-IDF of its `paper_text`, then that of its contribution sentences alone."""
    return sparse.hstack(
        [
            sparse.csr_matrix(vectors, dtype=np.float32),
            text.transform(texts),
            contribution.transform([contribution_sentences(paper) for paper in texts]),
        ],
        format="csr",
    )


@dataclass(frozen=True)
class TypeModel:
    """A multinomial logistic regression on the papers' unit embeddings, the TF-IDF of their words and
    that of their contribution sentences' words, as trained by `manage.py train_paper_types`
    (analysis/training.py) and stored in MODEL_FILE."""

    classes: tuple[str, ...]
    coefficients: np.ndarray  # classes × (embedding dimensions + vocabulary + contribution vocabulary)
    intercepts: np.ndarray
    text: TextFeatures
    contribution: TextFeatures

    def predict(self, vectors: np.ndarray, texts: Sequence[str]) -> list[str]:
        return self.predict_features(type_features(vectors, texts, self.text, self.contribution))

    def predict_features(self, features: sparse.csr_matrix) -> list[str]:
        scores = np.asarray(features @ self.coefficients.T) + self.intercepts
        return [self.classes[index] for index in scores.argmax(axis=1)]

    def to_json(self, **about: object) -> str:
        """One line a field (a class's coefficients one line each), so the file stays small and diffs
        stay readable; 5 significant digits keep every prediction of the training corpus."""

        def line(value: object) -> str:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

        def rounded(values: np.ndarray) -> list[float]:
            return [float(f"{value:.5g}") for value in values.tolist()]

        fields = [
            f'"about": {json.dumps(about, indent=1)}',
            f'"classes": {line(list(self.classes))}',
            '"coefficients": [\n' + ",\n".join(line(rounded(row)) for row in self.coefficients) + "\n]",
            f'"intercepts": {line(rounded(self.intercepts))}',
            f'"text_weight": {line(self.text.weight)}',
            f'"text_ngram_range": {line(list(self.text.ngram_range))}',
            f'"text_idf": {line(rounded(self.text.idf))}',
            f'"text_vocabulary": {line(list(self.text.vocabulary))}',
            f'"contribution_weight": {line(self.contribution.weight)}',
            f'"contribution_ngram_range": {line(list(self.contribution.ngram_range))}',
            f'"contribution_idf": {line(rounded(self.contribution.idf))}',
            f'"contribution_vocabulary": {line(list(self.contribution.vocabulary))}',
        ]
        return "{\n" + ",\n".join(fields) + "\n}"


@cache
def type_model() -> TypeModel | None:
    """The committed classifier; None before one is trained (then the default type stands in)."""
    if not MODEL_FILE.exists():
        return None
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    return TypeModel(
        classes=tuple(data["classes"]),
        coefficients=np.asarray(data["coefficients"], dtype=np.float32),
        intercepts=np.asarray(data["intercepts"], dtype=np.float32),
        text=TextFeatures(
            vocabulary=tuple(data["text_vocabulary"]),
            idf=np.asarray(data["text_idf"], dtype=np.float32),
            weight=float(data["text_weight"]),
            ngram_range=tuple(data["text_ngram_range"]),
        ),
        contribution=TextFeatures(
            vocabulary=tuple(data["contribution_vocabulary"]),
            idf=np.asarray(data["contribution_idf"], dtype=np.float32),
            weight=float(data["contribution_weight"]),
            ngram_range=tuple(data["contribution_ngram_range"]),
        ),
    )


def paper_types_of(papers: Iterable[TypedPaper], *, model: TypeModel | None = None) -> dict[int, str]:
    """Each paper's type by id: the first clear phrase's; else the classifier's on its embedding and
    words; else, for a paper without an embedding yet, the default."""
    model = model or type_model()
    types: dict[int, str] = {}
    undecided: list[TypedPaper] = []
    for paper in papers:
        decided = rule_type(paper.title, paper.abstract, paper.comments)
        if decided is None and model is not None and paper.embedding is not None:
            undecided.append(paper)
        types[paper.pk] = decided or DEFAULT_TYPE
    if undecided and model is not None:
        vectors = np.asarray([paper.embedding for paper in undecided], dtype=np.float32)
        texts = [paper_text(paper.title, paper.abstract, paper.comments) for paper in undecided]
        for paper, predicted in zip(undecided, model.predict(vectors, texts), strict=True):
            types[paper.pk] = predicted
    return types
