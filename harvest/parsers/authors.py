"""Author lists in the shapes arXiv's sources write them, read into one shape: a readable name, its place
in the list, a suffix, affiliations, and whether the "author" is a team rather than a person.

One function per source, each returning an AuthorList:

- `authors_from_oai_arxiv`: the `<arXiv>` element of OAI-PMH metadataPrefix=arXiv
  (`<authors><author><keyname/><forenames/><suffix/><affiliation/>*</author></authors>`)
- `authors_from_atom_entry`: an `<entry>` of the API's Atom feed (`<author><name/><arxiv:affiliation/>*`)
- `authors_from_kaggle_parsed`: the Kaggle snapshot's `authors_parsed` ([keyname, forenames, suffix,
  affiliation, ...] per author)
- `authors_from_author_line`: the one-line list of arXivRaw, the Kaggle `authors` field and arXiv's
  listings: "A (1), B (1,2) and C ((1) Oxford, (2) MIT)"
- `authors_from_names`: a list of full names, as the mirrored daily listings give them

Every name goes through the same cleaning rule (`_Reader.add`), whatever its source:

- mojibake repaired, TeX made Unicode (Bal\\'azs is Balázs), HTML and control characters removed;
  initials spaced as arXiv's own parse spaces them ("J.P. Hague" is "J. P. Hague", "C. -P." is "C.-P.");
- a run of names glued into one entry is split only when the pattern cannot be a person's name: three or
  more names each ending in a glued "and" ("Xiangyu Kongand Xiaoxia Xingand Fan Wangand"), or three or
  more full names joined by ". " ("Xiaohui Li. Yuanting Gao. Yu Zhou");
- what precedes a colon heads the list as a team ("Xiaomi LLM-Core Team: Bingquan Xia, ...", or in a
  listing the entries "MiniMax", ":");
- a parenthesised part at the end is an affiliation, in the middle a nickname, dropped ("Pu (Perry) Wang"),
  as is a quoted nickname ('Guiling "Grace" Wang'); footnote numbers are not affiliations;
- "et al." and "others" are not authors; leading punctuation is cut (". Pazzaglia" is "Pazzaglia");
  what keeps fewer than two letters (":", "A.") is dropped;
- a trailing Jr./Sr./II/III/IV is the suffix, kept apart from the name.

`name` never includes the suffix: "Neal J. Evans" with suffix "II", so that the name compares equal
whether or not a source gives the suffix; `display_name` is the name as printed ("Neal J. Evans II").

Nothing here raises on odd input: what cannot be read is left out and counted in the AuthorList.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from itertools import islice

from lxml import etree

from core.latex import readable_text
from harvest.parsers.text import squash
from harvest.records import ParsedAuthor

MAX_AUTHORS = 2000  # the largest arXiv author lists (ATLAS, CMS) have about 3,000; the rest is cut
MAX_NAME_CHARS = 300  # longer is no person's name (a glued run, an abstract pasted in): dropped
MAX_AFFILIATION_CHARS = 500  # longer affiliations are cut at a word
MAX_AFFILIATIONS = 50  # per author
MAX_LINE_CHARS = 1_000_000  # a one-line author list with its footnotes
_MAX_ENTRIES = 4 * MAX_AUTHORS  # entries read from a list before it counts as truncated
_MAX_RAW_CHARS = 4000  # of one entry before cleaning: a glued run of 35 names is about 760
_MAX_FOOTNOTES = 2000

# Words that name a group of people and never a person, checked against every name of the demo corpus
# (tests/harvest/test_author_names.py lists what they flag). Not "Core", "The", "Ai": they are given
# names and surnames there ("Core Francisco Park", "Dang The Hung", "Qingyao Ai"). Matched as whole
# words in any case, except "AI", which must be capitals.
_COLLECTIVE_WORDS = frozenset(
    {
        "collaboration", "collaborations", "consortium", "team", "group", "lab", "labs", "laboratory",
        "project", "community", "contributors", "initiative", "committee", "council", "institute",
        "university",
    }
)  # fmt: skip
_SUFFIXES = frozenset({"Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV"})
_ROMAN_SUFFIXES = frozenset({"II", "III", "IV"})  # need two words before them: "Kang II" may be a name

_TAG = re.compile(r"<[^<>]{0,200}>")
_NEVER_IN_TEXT = frozenset("<>\\{}")
# What _allowed says of ASCII, as one table: its control characters and _NEVER_IN_TEXT become spaces. Most
# names are ASCII, and a page's 5,000 read character by character cost a fifth of its parse.
_ASCII_NOT_ALLOWED = str.maketrans(dict.fromkeys([*range(32), 127, *map(ord, _NEVER_IN_TEXT)], " "))
# Format characters that reorder or hide text; ZWJ and ZWNJ stay: Indic and Persian names need them.
_KEPT_FORMAT = frozenset("\u200c\u200d")
_GLUED_INITIAL = re.compile(r"(?<=[^\W\d_])\.(?=[^\W\d_])")
_SPACED_HYPHEN_INITIAL = re.compile(r"\.\s+-(?=[^\W\d_])")
_QUOTED = re.compile(r"[\"“”„«»][^\"“”„«»]{1,60}[\"“”„«»]")
_NOT_AN_AUTHOR = re.compile(r"^(?:and\s+)?(?:et\.?\s*al\.?|others|other\s+contributors)$", re.IGNORECASE)
_TRAILING_ET_AL = re.compile(r"[\s,]+et\.?\s*al\.?$", re.IGNORECASE)
_ET_AL_INSIDE = re.compile(r"\bet\.?\s*al\b", re.IGNORECASE)
_INITIAL = re.compile(r"[^\W\d_]\.")
_GLUED_AND = re.compile(r"(?<=[a-z])and (?=[A-Z])")
_LAST_GLUED_AND = re.compile(r"(?<=[a-z])and$")
_WORD_SEPARATORS = re.compile(r"[\s\-/]+")
# Footnote references after a name: (1), (1,2), (1 and 2), (a), (a,b).
_REFERENCES = re.compile(r"^\s*(?:\d{1,3}|[a-z])(?:\s*(?:,|;|&|-|–|and)\s*(?:\d{1,3}|[a-z]))*\s*$")
_REFERENCE = re.compile(r"\d{1,3}|[a-z]")
# The footnotes themselves, one parenthesised block: "(1) Oxford, (2) MIT" or "1 Oxford; 2 MIT".
_MARKED_FOOTNOTE = re.compile(r"\((\d{1,3}|[a-z])\)\s*")
_BARE_FOOTNOTES_START = re.compile(r"^1\s+[^\W\d_]")
_BARE_FOOTNOTE = re.compile(r"(?:^|[;,]\s*)(\d{1,3})\s+(?=[^\W\d_])")


@dataclass(frozen=True)
class AuthorList:
    """The authors read from one source entry, and what the cleaning rule had to do to read them."""

    authors: tuple[ParsedAuthor, ...] = ()
    repaired: int = 0  # names kept after cutting junk: punctuation, markup, a nickname, "et al."
    dropped: int = 0  # entries that held no name: ":", "A.", "et al", a 300-character "name"
    split: int = 0  # names found glued to others in one entry (each beyond the first)
    joined: int = 0  # listing entries put back together: "Pu", "Wang" is Pu Wang
    truncated: bool = False  # more than MAX_AUTHORS authors, or an input past the size limits

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(author.name for author in self.authors)

    @property
    def collaborations(self) -> tuple[str, ...]:
        return tuple(author.name for author in self.authors if author.is_collaboration)


@dataclass
class _Draft:
    name: str
    entry: int  # which source entry it came from
    suffix: str = ""
    affiliations: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # footnote numbers, resolved by the line reader
    heading: bool = False  # followed by a colon: a team's name heading the list
    repaired: bool = False


class _Reader:
    """The cleaning rule, applied to each entry of one author list in turn; counts what it did."""

    def __init__(self) -> None:
        self.drafts: list[_Draft] = []
        self.entries = 0
        self.dropped = 0
        self.split = 0
        self.joined = 0
        self.truncated = False

    def add(
        self, raw: str, *, suffix: str = "", affiliations: list[str] | None = None, repaired: bool = False
    ) -> list[_Draft]:
        """Reads one entry: usually one name, sometimes none, a team heading, or a glued run."""
        self.entries += 1
        text, junk = _plain(raw)
        text, groups = _parenthesised(text)
        found = list(affiliations or ())
        for group, trailing in groups:
            if _REFERENCES.match(group) or _is_footnote_block(group):
                continue
            if trailing:
                found.append(group)
            else:
                junk = True  # a nickname: "Pu (Perry) Wang"
        found = [cleaned for cleaned in map(_affiliation, found[:MAX_AFFILIATIONS]) if cleaned]
        *headings, text = text.split(":")
        if headings and not _has_letters(headings[0]) and self.drafts:
            self.drafts[-1].heading = True  # the colon came in an entry of its own
        added: list[_Draft] = []
        unread = 0
        for heading in headings:
            draft = self._draft(heading, repaired or junk)
            if draft is not None:
                draft.heading = True
                added.append(draft)
            unread += draft is None and _has_letters(heading, 1)
        pieces = _split_run(text)
        self.split += len(pieces) - 1
        for piece in pieces:
            earlier = added or self.drafts
            if piece.strip() in _SUFFIXES and earlier and not earlier[-1].suffix:
                earlier[-1].suffix = piece.strip()
                continue
            draft = self._draft(piece, repaired or junk)
            if draft is not None:
                draft.affiliations = list(found)
                added.append(draft)
            unread += draft is None and bool(piece.strip())
        if added and suffix:
            added[-1].suffix = _plain(suffix)[0].strip(" ,")[:20]
        self.dropped += unread or (not added and bool(raw.strip()) and raw.strip() not in _SUFFIXES)
        self.drafts += added
        return added

    def _draft(self, text: str, repaired: bool) -> _Draft | None:
        unquoted = _QUOTED.sub(" ", text)
        repaired |= unquoted != text
        name = _tidy_initials(" ".join(unquoted.split()))
        if _NOT_AN_AUTHOR.match(name):
            return None
        trimmed = _trim(_TRAILING_ET_AL.sub("", name))
        repaired |= trimmed != name
        words = trimmed.split()
        suffix = ""
        if words and words[-1] in _SUFFIXES and len(words) >= (3 if words[-1] in _ROMAN_SUFFIXES else 2):
            suffix, trimmed = words[-1], _trim(" ".join(words[:-1]))
        if not _has_letters(trimmed) or len(trimmed) > MAX_NAME_CHARS:
            return None
        return _Draft(name=trimmed, entry=self.entries, suffix=suffix, repaired=repaired)

    def result(self, *, join_halves: bool = False) -> AuthorList:
        drafts = self._joined() if join_halves else self.drafts
        authors = tuple(
            ParsedAuthor(
                name=draft.name,
                position=position,
                suffix=draft.suffix,
                affiliations=tuple(dict.fromkeys(draft.affiliations))[:MAX_AFFILIATIONS],
                is_collaboration=draft.heading or names_a_group(draft.name),
            )
            for position, draft in enumerate(drafts[:MAX_AUTHORS], start=1)
        )
        return AuthorList(
            authors=authors,
            repaired=sum(draft.repaired for draft in drafts[:MAX_AUTHORS]),
            dropped=self.dropped,
            split=self.split,
            joined=self.joined,
            truncated=self.truncated or len(drafts) > MAX_AUTHORS,
        )

    def _joined(self) -> list[_Draft]:
        """The mirrored listings cut a name at a parenthesised nickname and drop it: "Pu (Perry) Wang"
        arrives as "Pu", "Wang", and "Yi R. (May) Fung" as "Yi R.", "Fung". Two such neighbours, from
        entries of their own, are one name again. Two people known by one name each, listed side by
        side, would be joined too; the demo corpus has none."""
        joined: list[_Draft] = []
        for draft in self.drafts:
            if joined and _halves(joined[-1], draft):
                joined[-1].name = f"{joined[-1].name} {draft.name}"
                joined[-1].repaired = True
                self.joined += 1
            else:
                joined.append(draft)
        return joined


def _halves(first: _Draft, second: _Draft) -> bool:
    if first.entry == second.entry or first.heading or second.heading or first.suffix:
        return False
    if first.repaired or second.repaired:  # ". Pazzaglia" lost its forename, not a half
        return False
    if first.affiliations or second.affiliations or not _is_single_word(second.name):
        return False
    first_words = first.name.split()
    ends_with_initial = 2 <= len(first_words) <= 3 and bool(_INITIAL.fullmatch(first_words[-1]))
    return _is_single_word(first.name) or ends_with_initial


def _is_single_word(name: str) -> bool:
    return " " not in name and name[:1].isupper() and all(c.isalpha() or c in "-'" for c in name)


def names_a_group(name: str) -> bool:
    """Whether an author name is a team's, a collaboration's or a company's rather than a person's."""
    return any(
        word.lower() in _COLLECTIVE_WORDS or word == "AI" for word in _WORD_SEPARATORS.split(name)
    ) or bool(_ET_AL_INSIDE.search(name))


def _is_letter(character: str) -> bool:
    """A letter, or a mark that belongs to one: Devanagari vowel signs are marks, not letters."""
    return unicodedata.category(character)[0] in "LM"


def _trim(name: str) -> str:
    """The name from its first letter to its last letter or a period after one (an initial): leading
    punctuation cut (". Pazzaglia", "\\\\Ajinkya Umesh Mulik"), trailing footnote marks too."""
    start, end = 0, len(name)
    while start < end and unicodedata.category(name[start])[0] != "L":
        start += 1
    while end > start and not (
        _is_letter(name[end - 1]) or (name[end - 1] == "." and end - 2 >= start and _is_letter(name[end - 2]))
    ):
        end -= 1
    return name[start:end]


def _has_letters(text: str, at_least: int = 2) -> bool:
    return sum(character.isalpha() for character in text) >= at_least


def _allowed(character: str) -> bool:
    category = unicodedata.category(character)
    if category in ("Cc", "Cs", "Co"):
        return False
    if category == "Cf":
        return character in _KEPT_FORMAT
    return character not in _NEVER_IN_TEXT


def _plain(raw: str) -> tuple[str, bool]:
    """One line of plain text: mojibake repaired, TeX read, markup and control characters removed.
    Says whether markup or control characters had to go (TeX and spacing are ordinary reading)."""
    text = readable_text(squash(raw[:_MAX_RAW_CHARS]))
    unescaped = " ".join(html.unescape(text).split())
    untagged = _TAG.sub(" ", unescaped)
    if untagged.isascii():
        cleaned = untagged.translate(_ASCII_NOT_ALLOWED)
    else:
        cleaned = "".join(c if _allowed(c) else " " for c in untagged)
    cleaned = unicodedata.normalize("NFC", " ".join(cleaned.split()))
    return cleaned, cleaned != unicodedata.normalize("NFC", unescaped)


def _affiliation(raw: str) -> str:
    text, _ = _plain(raw)
    text = text.strip(" ,;:")
    if len(text) > MAX_AFFILIATION_CHARS:
        text = text[:MAX_AFFILIATION_CHARS].rsplit(" ", 1)[0]
    return text


def _tidy_initials(name: str) -> str:
    """Initials spaced as arXiv's own parse spaces them ("J.P.Hague" is "J. P. Hague", "N.d'Ambrumenil"
    is "N. d'Ambrumenil"), and hyphenated initials kept whole: "C. -P. Yuan" (arXiv's parse of
    "C.-P. Yuan") is "C.-P. Yuan"."""

    def spaced(match: re.Match[str]) -> str:
        at = match.start()
        after_initial = at < 2 or not name[at - 2].isalpha()
        return ". " if name[at + 1].isupper() or after_initial else "."

    return _SPACED_HYPHEN_INITIAL.sub(".-", _GLUED_INITIAL.sub(spaced, name))


def _split_run(text: str) -> list[str]:
    """A run of names glued into one entry, split only when no person's name reads that way."""
    glued = _GLUED_AND.split(text)
    if len(glued) >= 3:
        glued[-1] = _LAST_GLUED_AND.sub("", glued[-1])
        if all(2 <= len(piece.split()) <= 5 for piece in glued):
            return glued
    dotted = text.split(". ")
    if len(dotted) >= 3 and all(_is_full_name(piece) for piece in dotted):
        return dotted
    return [text]


def _is_full_name(text: str) -> bool:
    """Two to five capitalised words of two letters or more, none an initial."""
    words = text.split()
    return 2 <= len(words) <= 5 and all(
        word[:1].isupper() and _has_letters(word) and not word.endswith(".") for word in words
    )


def _balanced(text: str) -> str:
    """The text with every parenthesis that has no partner made a space."""
    opened: list[int] = []
    unmatched: set[int] = set()
    for index, character in enumerate(text):
        if character == "(":
            opened.append(index)
        elif character == ")":
            if opened:
                opened.pop()
            else:
                unmatched.add(index)
    unmatched.update(opened)
    if not unmatched:
        return text
    return "".join(" " if index in unmatched else character for index, character in enumerate(text))


def _parenthesised(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """The text outside parentheses, and each outermost parenthesised part with whether it ends the
    text (an affiliation) or sits inside it (a nickname)."""
    text = _balanced(text)
    if "(" not in text:
        return text, []
    outside: list[str] = []
    groups: list[tuple[str, int]] = []  # (content, length of the outside text when it closed)
    depth, start = 0, 0
    for index, character in enumerate(text):
        if character == "(":
            if depth == 0:
                start = index + 1
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                groups.append((text[start:index], len(outside)))
                outside.append(" ")
        elif depth == 0:
            outside.append(character)
    return "".join(outside), [
        (content, not _has_letters("".join(outside[closed:]), 1)) for content, closed in groups
    ]


def _is_footnote_block(text: str) -> bool:
    stripped = text.strip()
    return bool(_MARKED_FOOTNOTE.match(stripped) or _BARE_FOOTNOTES_START.match(stripped))


def _footnotes(text: str) -> dict[str, str]:
    """The affiliations of a footnote block, by their number: "(1) Oxford, (2) MIT" or, numbered
    without parentheses, "1 Dip. Astro., Bologna; 2 INAF, Bologna" (numbers taken only in order, so that
    "Via Beirut 2 - 4" stays an address)."""
    stripped = text.strip()
    if _MARKED_FOOTNOTE.match(stripped):
        parts = _MARKED_FOOTNOTE.split(stripped)[1:]
        return dict(islice(zip(parts[0::2], parts[1::2], strict=False), _MAX_FOOTNOTES))
    notes: dict[str, str] = {}
    markers = []
    for match in _BARE_FOOTNOTE.finditer(stripped):
        if int(match.group(1)) == len(markers) + 1:
            markers.append(match)
    for number, marker in enumerate(markers[:_MAX_FOOTNOTES]):
        end = markers[number + 1].start() if number + 1 < len(markers) else len(stripped)
        notes[marker.group(1)] = stripped[marker.end() : end]
    return notes


def _segments(line: str) -> list[str]:
    """One-line author list cut at its separators outside parentheses: ",", ";", "&", " and "."""
    line = _balanced(line)
    segments: list[str] = []
    depth, start, index = 0, 0, 0
    while index < len(line):
        character = line[index]
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        elif depth == 0 and (character in ",;&" or line.startswith(" and ", index)):
            segments.append(line[start:index])
            index += 1 if character in ",;&" else 5
            start = index
            continue
        index += 1
    segments.append(line[start:])
    return [segment for segment in segments if segment.strip()]


def _read_line(reader: _Reader, line: str) -> None:
    footnotes: dict[str, str] = {}
    waiting: list[_Draft] = []  # authors since the last with an affiliation or a footnote number
    for segment in _segments(" ".join(line[:MAX_LINE_CHARS].split())):
        if len(reader.drafts) > MAX_AUTHORS or reader.entries >= _MAX_ENTRIES:
            reader.truncated = True
            break
        name, groups = _parenthesised(segment)
        references: list[str] = []
        affiliations: list[str] = []
        nickname = False
        for group, trailing in groups:
            if _REFERENCES.match(group):
                references += _REFERENCE.findall(group)
            elif _is_footnote_block(group):
                footnotes.update(islice(_footnotes(group).items(), _MAX_FOOTNOTES - len(footnotes)))
            elif trailing:
                affiliations.append(group)
            else:
                nickname = True
        people = [d for d in reader.add(name, affiliations=affiliations, repaired=nickname) if not d.heading]
        for draft in people:
            draft.references = references[:MAX_AFFILIATIONS]
        if people and people[-1].affiliations:
            # arXiv's convention, which its own parse follows: "A, B and C (Oxford)" are all at Oxford.
            for earlier in waiting:
                earlier.affiliations = list(people[-1].affiliations)
            waiting = []
        elif references:
            waiting = []
        else:
            waiting += people
    for draft in reader.drafts:
        draft.affiliations += [a for a in (_affiliation(footnotes.get(r, "")) for r in draft.references) if a]


def authors_from_author_line(line: object) -> AuthorList:
    """The one-line author list of arXivRaw, the Kaggle `authors` field and the listings."""
    reader = _Reader()
    if isinstance(line, str):
        reader.truncated = len(line) > MAX_LINE_CHARS
        _read_line(reader, line)
    return reader.result()


def authors_from_names(names: object) -> AuthorList:
    """A list of full names, as the mirrored daily listings give them (one name an entry, mostly)."""
    reader = _Reader()
    if isinstance(names, str):
        return authors_from_author_line(names)
    if not isinstance(names, list | tuple):
        return reader.result()
    for name in islice(names, _MAX_ENTRIES):
        if isinstance(name, str):
            reader.add(name)
        else:
            reader.dropped += 1
    reader.truncated = len(names) > _MAX_ENTRIES
    return reader.result(join_halves=True)


def authors_from_kaggle_parsed(authors_parsed: object) -> AuthorList:
    """The Kaggle snapshot's `authors_parsed`, arXiv's own parse: [keyname, forenames, suffix,
    affiliation, ...] per author (affiliations are sometimes footnote numbers, "1 and 2": left out)."""
    reader = _Reader()
    if not isinstance(authors_parsed, list | tuple):
        return reader.result()
    for item in islice(authors_parsed, _MAX_ENTRIES):
        if isinstance(item, str):
            reader.add(item)
            continue
        if not isinstance(item, list | tuple):
            reader.dropped += 1
            continue
        parts = [part if isinstance(part, str) else "" for part in islice(item, 3 + MAX_AFFILIATIONS)]
        keyname, forenames, suffix, *affiliations = parts + [""] * (3 - len(parts))
        affiliations = [a for a in affiliations if not _REFERENCES.match(a)]
        name = f"{forenames[:_MAX_RAW_CHARS]} {keyname[:_MAX_RAW_CHARS]}"
        reader.add(name, suffix=suffix, affiliations=affiliations)
    reader.truncated = len(authors_parsed) > _MAX_ENTRIES
    return reader.result()


def _children(element: etree._Element, localname: str) -> list[etree._Element]:
    # The tag's local name read off "{namespace}name" by hand: an etree.QName for every child cost a
    # tenth of parsing a page.
    return [
        child
        for child in islice(element, _MAX_ENTRIES)
        if isinstance(child.tag, str) and child.tag.rpartition("}")[2] == localname
    ]


def _element_text(element: etree._Element) -> str:
    pieces: list[str] = []
    size = 0
    for piece in element.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > _MAX_RAW_CHARS:
            break
    return "".join(pieces)[:_MAX_RAW_CHARS]


def _first_text(element: etree._Element, localname: str) -> str:
    found = _children(element, localname)
    return _element_text(found[0]) if found else ""


def authors_from_oai_arxiv(metadata: object) -> AuthorList:
    """The `<arXiv>` element of an OAI-PMH record in metadataPrefix=arXiv."""
    reader = _Reader()
    if not isinstance(metadata, etree._Element):
        return reader.result()
    authors = [author for group in _children(metadata, "authors") for author in _children(group, "author")]
    for author in authors[:_MAX_ENTRIES]:
        name = f"{_first_text(author, 'forenames')} {_first_text(author, 'keyname')}"
        affiliations = [_element_text(a) for a in _children(author, "affiliation")[:MAX_AFFILIATIONS]]
        reader.add(name, suffix=_first_text(author, "suffix"), affiliations=affiliations)
    return reader.result()


def authors_from_atom_entry(entry: object) -> AuthorList:
    """An `<entry>` of the arXiv API's Atom feed: `<author><name/><arxiv:affiliation/>*</author>`."""
    reader = _Reader()
    if not isinstance(entry, etree._Element):
        return reader.result()
    authors = _children(entry, "author")
    for author in authors:
        affiliations = [_element_text(a) for a in _children(author, "affiliation")[:MAX_AFFILIATIONS]]
        reader.add(_first_text(author, "name"), affiliations=affiliations)
    return reader.result()
