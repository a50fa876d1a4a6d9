"""Highlighted text: a paper's title and the best passages of its abstract with the query's words marked,
as plain parts and safe HTML.

Words match as the keyword index matches them (keyword_index.paper_words: Snowball's English stems and
stop words, as PostgreSQL's `english` configuration has them), found in the rows the page has already
read, so no abstract is parsed again in the database to show twenty results. Only the words that may
match are stemmed: a Snowball English stem less its last letter begins the word it was made from
("studi" from "studies", "hope" from "hoping"), so one regular expression finds the candidates.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from papers.search.keyword_index import paper_words
from papers.search.query import Term

PASSAGE_CHARACTERS = 160  # of a passage around a match: about 24 words
PASSAGES = 2
PASSAGE_SEPARATOR = " … "
PASSAGE_GAP_CHARACTERS = 40  # passages closer than this are shown as one
OPENING_WORDS = 40  # of an abstract shown when none of the query's words is in it, or nothing was asked
STEMS_REMEMBERED = 65536  # words, of at most REMEMBERED_WORD_LENGTH characters: a few MB
REMEMBERED_WORD_LENGTH = 40
# A word as the keyword index's tokenizer reads one: letters and digits in a row.
_WORD = re.compile(r"[^\W_]+")
_PARTIAL_WORD_AT_END = re.compile(r"[^\W_]+$")
_NOT_AN_ENDING = " \t\n-–—([{/"  # what a passage cut short before " …" does not end with
# Snowball's English exceptions whose stem does not begin the word. Over the demo corpus's 48,334
# words no other word's stem failed to begin it (lying and tying did; dying is not in it).
_NOT_BEGINNING = {"die": "dying", "lie": "lying", "tie": "tying"}


@dataclass(frozen=True)
class Snippet:
    """Text in parts, each marked (a matched word) or not."""

    parts: tuple[tuple[str, bool], ...]

    @classmethod
    def plain(cls, text: str) -> Snippet:
        return cls(((text, False),) if text else ())

    @classmethod
    def opening(cls, text: str) -> Snippet:
        """The first OPENING_WORDS words of the text, with " …" when there is more."""
        return cls.plain(Truncator(text).words(OPENING_WORDS, truncate=" …"))

    @property
    def text(self) -> str:
        return "".join(part for part, _ in self.parts)

    @property
    def marked_words(self) -> tuple[str, ...]:
        return tuple(part for part, marked in self.parts if marked)

    def html(self) -> SafeString:
        """Everything escaped, matched words in <mark>."""
        return mark_safe(  # noqa: S308 - every part is escaped; only our own <mark> tags are added
            "".join(f"<mark>{escape(part)}</mark>" if marked else escape(part) for part, marked in self.parts)
        )

    def __str__(self) -> str:
        return self.html()


@dataclass(frozen=True)
class _Match:
    """Characters of the text that match one of the query's terms (its number)."""

    start: int
    end: int
    term: int


@dataclass(frozen=True)
class Highlighter:
    """The query's terms as stems at relative positions: one word, or a phrase's words in a row (stop
    words inside a phrase leave gaps, as PostgreSQL's phrase search counts them)."""

    terms: tuple[tuple[tuple[int, str], ...], ...]

    @classmethod
    def for_terms(cls, terms: Iterable[Term]) -> Highlighter | None:
        """None when no term has a word worth marking (stop words alone)."""
        stems = []
        for term in terms:
            words = paper_words(term.text)
            if words:
                first = words[0].position
                stems.append(tuple((word.position - first, word.text) for word in words))
        return cls(tuple(dict.fromkeys(stems))) if stems else None

    @cached_property
    def _beginnings(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """How the words that may stem to a term's first word begin: as a pattern for the lower-cased
        text (quick: a literal search) and one ignoring case, for a text whose lower-casing changes its
        length ("İ"), where the lower-cased text's places are not the text's."""
        beginnings = set()
        for term in self.terms:
            stem = term[0][1]
            beginnings.add(stem[:-1] or stem)
            if stem in _NOT_BEGINNING:
                beginnings.add(_NOT_BEGINNING[stem])
        alternatives = "|".join(map(re.escape, sorted(beginnings, key=len, reverse=True)))
        return re.compile(alternatives), re.compile(alternatives, re.IGNORECASE)

    def title(self, text: str) -> Snippet:
        """The whole text with every match marked."""
        return _marked(text, self._matches(text), 0, len(text))

    def passages(self, text: str) -> Snippet:
        """Up to PASSAGES passages of about PASSAGE_CHARACTERS around matches, those holding the most
        different terms (then the most matches) first, shown in the text's order; the opening when
        nothing matches."""
        matches = self._matches(text)
        if not matches:
            return Snippet.opening(text)
        # Passages are chosen by their matches, then made to begin and end with whole words.
        windows = {_window(len(text), match): match for match in matches}
        chosen: list[tuple[int, int]] = []  # (start, end) in characters
        for window in sorted(windows, key=lambda window: _score(window, matches), reverse=True):
            if not any(window[0] < end and start < window[1] for start, end in chosen):
                chosen.append(window)
                if len(chosen) == PASSAGES:
                    break
        chosen = sorted(_whole_words(text, window, windows[window]) for window in chosen)
        passages = [chosen[0]]
        for start, end in chosen[1:]:
            # Passages a few words apart read better as one than with " … " standing for those words.
            if start - passages[-1][1] <= PASSAGE_GAP_CHARACTERS:
                passages[-1] = (passages[-1][0], end)
            else:
                passages.append((start, end))
        parts: list[tuple[str, bool]] = []
        if text[: passages[0][0]].strip():
            parts.append(("… ", False))
        for number, (start, end) in enumerate(passages):
            if number:
                parts.append((PASSAGE_SEPARATOR, False))
            inside = [match for match in matches if start <= match.start and match.end <= end]
            parts += _marked(text, inside, start, end).parts
        if text[passages[-1][1] :].strip():
            parts.append((" …", False))
        return Snippet(tuple(parts))

    def _matches(self, text: str) -> list[_Match]:
        """Every place a term matches, in the text's order; overlapping matches keep the first."""
        lower_case, any_case = self._beginnings
        lowered = text.lower()
        candidates = lower_case.finditer(lowered) if len(lowered) == len(text) else any_case.finditer(text)
        matches: list[_Match] = []
        for candidate in candidates:
            start = candidate.start()
            if (start and text[start - 1].isalnum()) or (matches and start < matches[-1].end):
                continue  # inside a word, or inside the match before
            word = _WORD.match(text, start)
            if word is None:  # a mark the index counts as a letter and Python does not (Devanagari's ि)
                continue
            stem = _stem(word.group())
            for number, term in enumerate(self.terms):
                if term[0][1] == stem and (end := _phrase_end(text, word, term)) is not None:
                    matches.append(_Match(start, end, number))
                    break
        return matches


def _stem(word: str) -> str:
    """The word's stem as the index has it; "" for a stop word. Common words are remembered; a long
    run of letters (harvested text is anyone's) is stemmed each time, so the memory stays small."""
    return _remembered_stem(word) if len(word) <= REMEMBERED_WORD_LENGTH else _stem_of(word)


def _stem_of(word: str) -> str:
    tokens = paper_words(word)
    return tokens[0].text if tokens else ""


_remembered_stem = functools.lru_cache(maxsize=STEMS_REMEMBERED)(_stem_of)


def _phrase_end(text: str, first: re.Match[str], term: tuple[tuple[int, str], ...]) -> int | None:
    """Where the term's last word ends when its words follow the first word as the term places them,
    else None."""
    if len(term) == 1:
        return first.end()
    wanted = dict(term[1:])
    end = None
    for place, word in enumerate(_WORD.finditer(text, first.end()), start=1):
        if place in wanted:
            if _stem(word.group()) != wanted[place]:
                return None
            end = word.end()
        if place >= term[-1][0]:
            return end
    return None


def _window(length: int, match: _Match) -> tuple[int, int]:
    """About PASSAGE_CHARACTERS of a text of this length centred on a match (shifted back at its end)."""
    width = max(PASSAGE_CHARACTERS, match.end - match.start)
    start = max(0, min(match.start - (width - (match.end - match.start)) // 2, length - width))
    return start, min(length, start + width)


def _whole_words(text: str, window: tuple[int, int], match: _Match) -> tuple[int, int]:
    """The window, holding the match, from the start of a word to the end of one."""
    start, end = window
    if 0 < start < match.start and text[start - 1].isalnum() and text[start].isalnum():
        start = _WORD.match(text, start).end()  # inside a word: from the next one
    if start < match.start:
        start = _WORD.search(text, start, match.start + 1).start()
    if end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end = _PARTIAL_WORD_AT_END.search(text, match.end, end).start()  # inside a word: to the one before
    return start, max(match.end, start + len(text[start:end].rstrip(_NOT_AN_ENDING)))


def _score(window: tuple[int, int], matches: list[_Match]) -> tuple[int, int, int]:
    """Different terms inside, then matches inside, then earlier."""
    inside = [match for match in matches if window[0] <= match.start and match.end <= window[1]]
    return len({match.term for match in inside}), len(inside), -window[0]


def _marked(text: str, matches: list[_Match], start: int, end: int) -> Snippet:
    """text[start:end] in parts, the matches marked."""
    parts: list[tuple[str, bool]] = []
    at = start
    for match in matches:
        if match.start > at:
            parts.append((text[at : match.start], False))
        parts.append((text[match.start : match.end], True))
        at = match.end
    if end > at:
        parts.append((text[at:end], False))
    return Snippet(tuple(parts))
