"""OpenAlex API responses (works, authors, institutions) parsed into plain records.

Only arXiv works are of use here: a work is tied to a paper through its arXiv DOI (10.48550/arXiv.<id>) or,
failing that, its arXiv landing page.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from harvest.parsers.jsonbody import Skipped, UpstreamPage, load_json, optional_count, text_of
from harvest.parsers.text import HOMEPAGE_MAX_LENGTH, MAX_NAME_LENGTH, MAX_TITLE_LENGTH, link, squash
from harvest.records import (
    AffiliationRecord,
    AuthorRecord,
    CitedWork,
    InstitutionRecord,
    MalformedResponse,
    PaperRecord,
    RecordError,
    UpstreamAuthorship,
    UpstreamWork,
    posted_date,
)
from institutions.querysets import ror_id_from
from papers.identifiers import arxiv_id_from_doi, parse_arxiv_id

SOURCE = "openalex"
_KEY = re.compile(r"^(?:https?://openalex\.org/)?([A-Z]\d+)$", re.IGNORECASE)
_ORCID = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?$", re.IGNORECASE)


def openalex_key(value: Any, kind: str) -> str:
    """The short id (W2741809807) of an OpenAlex URL or id, checked to be of the expected kind."""
    match = _KEY.match(value.strip()) if isinstance(value, str) else None
    if match is None or match.group(1)[0].upper() != kind:
        return ""
    return match.group(1).upper()


def orcid_of(value: Any) -> str:
    match = _ORCID.search(value.strip()) if isinstance(value, str) else None
    return match.group(1).upper() if match else ""


def _results(data: Any) -> tuple[list[Any], dict[str, Any]]:
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise MalformedResponse("expected an OpenAlex list response with `results`")
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    return data["results"], meta


def _page(data: Any, parse_item: Any) -> UpstreamPage:
    results, meta = _results(data)
    page: UpstreamPage = UpstreamPage(next_cursor=meta.get("next_cursor") or None)
    for position, item in enumerate(results, start=1):
        try:
            if not isinstance(item, dict):
                raise RecordError("not a JSON object")
            page.items.append(parse_item(item))
        except RecordError as error:
            page.skipped.append(Skipped(position, str(error)))
    return page


def institution_record(item: dict[str, Any]) -> InstitutionRecord | None:
    """An institution as works, authors and the institutions endpoint describe it; None without a name."""
    name = text_of(item.get("display_name"), MAX_NAME_LENGTH)
    if not name:
        return None
    return InstitutionRecord(
        name=name,
        openalex_id=openalex_key(item.get("id"), "I"),
        ror_id=ror_id_from(item.get("ror") or "") or "",
        country_code=text_of(item.get("country_code")).upper()[:2],
        type=text_of(item.get("type"))[:50],
        homepage=link(item.get("homepage_url"), HOMEPAGE_MAX_LENGTH),
    )


def _institutions(items: Any) -> tuple[InstitutionRecord, ...]:
    records = (institution_record(item) for item in items or () if isinstance(item, dict))
    return tuple(record for record in records if record is not None)


def _authorship(position: int, item: Any, work_id: str) -> UpstreamAuthorship:
    if not isinstance(item, dict):
        raise RecordError(f"{work_id}: authorship {position} is not a JSON object")
    author = item.get("author") if isinstance(item.get("author"), dict) else {}
    raw_name = text_of(item.get("raw_author_name"), MAX_NAME_LENGTH)
    name = text_of(author.get("display_name"), MAX_NAME_LENGTH) or raw_name
    if not name:
        raise RecordError(f"{work_id}: authorship {position} has no name")
    return UpstreamAuthorship(
        position=position,
        upstream_id=openalex_key(author.get("id"), "A"),
        name=name,
        raw_name=raw_name,
        orcid=orcid_of(author.get("orcid")),
        institutions=_institutions(item.get("institutions")),
    )


def _arxiv_id(item: dict[str, Any]) -> str | None:
    ids = item.get("ids") if isinstance(item.get("ids"), dict) else {}
    for doi in (item.get("doi"), ids.get("doi")):
        if isinstance(doi, str) and (arxiv_id := arxiv_id_from_doi(doi)):
            return arxiv_id
    location = item.get("primary_location") if isinstance(item.get("primary_location"), dict) else {}
    landing = location.get("landing_page_url")
    if isinstance(landing, str) and "arxiv.org" in landing and (parsed := parse_arxiv_id(landing)):
        return parsed.id
    return None


def openalex_work(item: dict[str, Any]) -> UpstreamWork:
    work_id = openalex_key(item.get("id"), "W")
    if not work_id:
        raise RecordError(f"work without an OpenAlex id: {item.get('id')!r}")
    arxiv_id = _arxiv_id(item)
    if arxiv_id is None:
        raise RecordError(f"{work_id}: not an arXiv work (no arXiv DOI or landing page)")
    authorships = openalex_authorships(item, work_id)
    referenced = item.get("referenced_works")
    references = tuple(
        CitedWork(key) for value in referenced or () if (key := openalex_key(value, "W"))
    )  # fmt: skip
    reference_count = optional_count(item.get("referenced_works_count"), f"{work_id}: referenced_works_count")
    if reference_count is None and isinstance(referenced, list):
        reference_count = len(referenced)
    return UpstreamWork(
        source=SOURCE,
        upstream_id=work_id,
        arxiv_id=arxiv_id,
        cited_by_count=optional_count(item.get("cited_by_count"), f"{work_id}: cited_by_count"),
        reference_count=reference_count,
        references=references,
        authorships=authorships,
    )


def openalex_authorships(item: dict[str, Any], work_id: str) -> tuple[UpstreamAuthorship, ...]:
    """The authorships of any OpenAlex work, arXiv's or not (the identity report reads a journal sample)."""
    authorships = item.get("authorships")
    if not isinstance(authorships, list):
        raise RecordError(f"{work_id}: missing authorships")
    return tuple(
        _authorship(position, authorship, work_id) for position, authorship in enumerate(authorships, start=1)
    )


def parse_openalex_works(content: bytes) -> UpstreamPage[UpstreamWork]:
    return _page(load_json(content), openalex_work)


def openalex_author(item: dict[str, Any]) -> AuthorRecord:
    author_id = openalex_key(item.get("id"), "A")
    if not author_id:
        raise RecordError(f"author without an OpenAlex id: {item.get('id')!r}")
    stats = item.get("summary_stats") if isinstance(item.get("summary_stats"), dict) else {}
    affiliations = []
    for affiliation in item.get("affiliations") or ():
        if not isinstance(affiliation, dict) or not isinstance(affiliation.get("institution"), dict):
            continue
        institution = institution_record(affiliation["institution"])
        years = tuple(sorted({y for y in affiliation.get("years") or () if isinstance(y, int)}))
        if institution is not None:
            affiliations.append(AffiliationRecord(institution, years))
    return AuthorRecord(
        source=SOURCE,
        upstream_id=author_id,
        name=text_of(item.get("display_name"), MAX_NAME_LENGTH),
        orcid=orcid_of(item.get("orcid")),
        h_index=optional_count(stats.get("h_index"), f"{author_id}: h_index"),
        citation_count=optional_count(item.get("cited_by_count"), f"{author_id}: cited_by_count"),
        works_count=optional_count(item.get("works_count"), f"{author_id}: works_count"),
        affiliations=tuple(affiliations),
        last_known_institutions=_institutions(item.get("last_known_institutions")),
    )


def parse_openalex_authors(content: bytes) -> UpstreamPage[AuthorRecord]:
    return _page(load_json(content), openalex_author)


def _institution_item(item: dict[str, Any]) -> InstitutionRecord:
    record = institution_record(item)
    if record is None or not record.openalex_id:
        raise RecordError(f"institution without an id or a name: {item.get('id')!r}")
    return record


def parse_openalex_institutions(content: bytes) -> UpstreamPage[InstitutionRecord]:
    return _page(load_json(content), _institution_item)


def abstract_from_inverted_index(index: Any) -> str:
    """OpenAlex ships abstracts as {word: [positions]}; put the words back in order."""
    if not isinstance(index, dict):
        return ""
    placed = sorted(
        (position, word)
        for word, positions in index.items()
        for position in positions or ()
        if isinstance(position, int)
    )  # fmt: skip
    return " ".join(word for _position, word in placed)


def paper_from_openalex_work(item: dict[str, Any]) -> PaperRecord:
    """A paper known only from its OpenAlex work record (the demo corpus's upstream part)."""
    work = openalex_work(item)
    title = text_of(item.get("title") or item.get("display_name"), MAX_TITLE_LENGTH)
    if not title:
        raise RecordError(f"{work.upstream_id}: missing title")
    try:
        published = datetime.date.fromisoformat(str(item.get("publication_date")))
    except ValueError:
        raise RecordError(f"{work.upstream_id}: publication_date is not a date") from None
    return PaperRecord(
        arxiv_id=work.arxiv_id,
        title=title,
        published=posted_date(work.arxiv_id, published),
        abstract=squash(abstract_from_inverted_index(item.get("abstract_inverted_index"))),
        authors=tuple(a.raw_name or a.name for a in work.authorships),
    )
