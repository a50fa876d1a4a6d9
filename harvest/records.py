"""Plain records parsed from upstream responses, before they become rows."""

import datetime
import re
from dataclasses import dataclass

# YYMM of a new-style id (2007.14454) or of the number of an old-style one (hep-th/9901001).
_ID_MONTH = re.compile(r"^(?:[a-z][a-z\-]*(?:\.[A-Z]{2})?/)?(\d{2})(\d{2})")


class RecordError(ValueError):
    """A record that cannot be stored: a required field is missing or malformed."""


class MalformedResponse(ValueError):
    """The whole response is unusable (not XML or JSON, truncated, wrong shape): the run stops at that
    page and keeps its checkpoint, so the next run asks for the same page again."""


class UnreadableBody(MalformedResponse):
    """A body that is not even well-formed (XML cut off mid-element, JSON that does not decode): most
    often a connection dropped mid-body by something that sent no length, so it is asked for again like a
    5xx, up to HARVEST_MAX_ATTEMPTS, before the run stops at that page as for any malformed response."""


@dataclass(frozen=True)
class ParsedAuthor:
    """One author of an arXiv paper as harvest/parsers/authors.py reads every source's author data."""

    name: str  # "Forenames Keyname", readable Unicode, without the suffix
    position: int  # 1-based, after what was dropped
    suffix: str = ""  # "Jr.", "II", as the source writes it
    affiliations: tuple[str, ...] = ()
    is_collaboration: bool = False  # a team, collaboration or company, not a person

    @property
    def display_name(self) -> str:
        return f"{self.name} {self.suffix}" if self.suffix else self.name


@dataclass(frozen=True)
class PaperRecord:
    arxiv_id: str
    title: str
    published: datetime.date
    abstract: str = ""
    authors: tuple[str, ...] = ()  # names as printed
    # The same authors with suffixes, affiliations and teams told apart, from sources that give more than
    # names; otherwise the writer reads `authors` with the same cleaning rule.
    author_details: tuple[ParsedAuthor, ...] = ()
    names_repaired: int = 0  # author names read after cutting junk, splitting a glued run, joining halves
    names_dropped: int = 0  # author entries that held no name (":", "et al.", 10,000 characters)
    categories: tuple[str, ...] = ()
    primary_category: str = ""
    version: int | None = None
    updated: datetime.date | None = None
    doi: str = ""
    journal_ref: str = ""
    comments: str = ""
    license: str = ""


@dataclass(frozen=True)
class InstitutionRecord:
    name: str
    openalex_id: str = ""
    ror_id: str = ""
    country_code: str = ""
    type: str = ""
    homepage: str = ""


@dataclass(frozen=True)
class UpstreamAuthorship:
    """One author of a work as an upstream source lists it."""

    position: int  # 1-based, in the source's author order
    upstream_id: str  # empty when the source has no id for this author
    name: str
    raw_name: str = ""  # the name as printed on the work, when the source keeps it apart
    orcid: str = ""
    institutions: tuple[InstitutionRecord, ...] = ()


@dataclass(frozen=True)
class CitedWork:
    upstream_id: str
    arxiv_id: str = ""


@dataclass(frozen=True)
class UpstreamWork:
    """What OpenAlex or Semantic Scholar knows about one arXiv paper."""

    source: str  # HarvestRun.Source value: "openalex" or "s2"
    upstream_id: str
    arxiv_id: str
    cited_by_count: int | None = None
    reference_count: int | None = None
    references: tuple[CitedWork, ...] = ()
    authorships: tuple[UpstreamAuthorship, ...] = ()


@dataclass(frozen=True)
class AffiliationRecord:
    institution: InstitutionRecord
    years: tuple[int, ...] = ()


@dataclass(frozen=True)
class AuthorRecord:
    """An upstream author profile: the metrics shown on a researcher page."""

    source: str
    upstream_id: str
    name: str
    orcid: str = ""
    h_index: int | None = None
    citation_count: int | None = None
    works_count: int | None = None
    affiliations: tuple[AffiliationRecord, ...] = ()
    last_known_institutions: tuple[InstitutionRecord, ...] = ()


def posted_date(arxiv_id: str, claimed: datetime.date) -> datetime.date:
    """The first-posted date of a paper known only from an upstream record. An arXiv id names the month
    of first posting (2007.14454: July 2020); OpenAlex and Semantic Scholar sometimes date a preprint by a
    later venue (word2vec, 1310.4546, is "2025-01-01" in OpenAlex), so a date outside that month gives way
    to the month's first day."""
    match = _ID_MONTH.match(arxiv_id)
    if match is None:
        return claimed
    year, month = int(match.group(1)), int(match.group(2))
    year += 1900 if year >= 91 else 2000  # arXiv began in 1991
    if (claimed.year, claimed.month) == (year, month) or not 1 <= month <= 12:
        return claimed
    return datetime.date(year, month, 1)
