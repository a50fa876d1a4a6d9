"""Plain records parsed from upstream responses, before they become rows."""

import datetime
from dataclasses import dataclass


class RecordError(ValueError):
    """A record that cannot be stored: a required field is missing or malformed."""


class MalformedResponse(ValueError):
    """The whole response is unusable (not XML or JSON, truncated, wrong shape): the run stops at that
    page and keeps its checkpoint, so the next run asks for the same page again."""


@dataclass(frozen=True)
class PaperRecord:
    arxiv_id: str
    title: str
    published: datetime.date
    abstract: str = ""
    authors: tuple[str, ...] = ()
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
    year: int | None = None
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
