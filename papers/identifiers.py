"""arXiv identifiers: the two styles, versions, and the URLs and DOIs derived from them.

New style: YYMM.NNNN (2007-2014) or YYMM.NNNNN (2015 on), e.g. 2201.12423, 2201.12423v2.
Old style: archive[.SUBJ]/YYMMNNN, e.g. astro-ph/9901001, math.GT/0309136v1.
"""

import re
from dataclasses import dataclass

_NEW_STYLE = r"(?P<new>\d{4}\.\d{4,5})"
_OLD_STYLE = r"(?P<old>[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})"
ARXIV_ID_PATTERN = re.compile(
    rf"^(?:arxiv:)?(?:{_NEW_STYLE}|{_OLD_STYLE})(?:v(?P<version>\d+))?$", re.IGNORECASE
)
# Inside a URL or free text: abs/ or pdf/ links, with an optional .pdf suffix.
ARXIV_URL_PATTERN = re.compile(
    r"arxiv\.org/(?:abs|pdf|html)/(?P<id>(?:\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)",
    re.IGNORECASE,
)
ARXIV_DOI_PREFIX = "10.48550/arxiv."
FIRST_ARXIV_YEAR = 1991  # arXiv opened in August 1991
LAST_YEAR = 2100  # a year filter past this is a typo


@dataclass(frozen=True)
class ArxivId:
    """An arXiv identifier split into the stable id and the optional version."""

    id: str
    version: int | None = None

    def __str__(self) -> str:
        return f"{self.id}v{self.version}" if self.version else self.id


def parse_arxiv_id(text: str) -> ArxivId | None:
    """Read an arXiv id in any of its written forms; None when it is not one."""
    text = text.strip()
    match = ARXIV_ID_PATTERN.match(text)
    if match is None:
        url_match = ARXIV_URL_PATTERN.search(text)
        if url_match is None:
            return None
        match = ARXIV_ID_PATTERN.match(url_match.group("id"))
        if match is None:
            return None
    if match.group("new"):
        stable = match.group("new")
    else:
        archive, number = match.group("old").split("/")
        # The archive is lower case, an optional subject class upper case: math.GT/0309136.
        head, _, subject = archive.partition(".")
        stable = f"{head.lower()}.{subject.upper()}/{number}" if subject else f"{head.lower()}/{number}"
    version = int(match.group("version")) if match.group("version") else None
    return ArxivId(stable, version)


def arxiv_id_from_doi(doi: str) -> str | None:
    """The arXiv id inside an arXiv DOI (10.48550/arXiv.2201.12423), in any case and URL form."""
    text = doi.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix) :]
    if not text.lower().startswith(ARXIV_DOI_PREFIX):
        return None
    parsed = parse_arxiv_id(text[len(ARXIV_DOI_PREFIX) :])
    return parsed.id if parsed else None


def arxiv_doi(arxiv_id: str) -> str:
    return f"10.48550/arXiv.{arxiv_id}"


def abs_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def pdf_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/pdf/{arxiv_id}"
