"""Semantic Scholar Graph API responses (paper and author batches) parsed into plain records."""

from __future__ import annotations

import datetime
from typing import Any

from harvest.parsers.jsonbody import Skipped, UpstreamPage, load_json, optional_count, text_of
from harvest.parsers.text import MAX_NAME_LENGTH, MAX_TITLE_LENGTH
from harvest.records import (
    AuthorRecord,
    CitedWork,
    MalformedResponse,
    PaperRecord,
    RecordError,
    UpstreamAuthorship,
    UpstreamWork,
    posted_date,
)
from papers.identifiers import parse_arxiv_id

SOURCE = "s2"


def _arxiv_id_of(item: dict[str, Any]) -> str | None:
    external = item.get("externalIds") if isinstance(item.get("externalIds"), dict) else {}
    value = external.get("ArXiv")
    parsed = parse_arxiv_id(value) if isinstance(value, str) else None
    return parsed.id if parsed else None


def _author_id(value: Any) -> str:
    # Semantic Scholar author ids are decimal strings; a null id means it could not place the author.
    return str(value) if isinstance(value, (str, int)) and str(value).isdigit() else ""


def s2_work(item: dict[str, Any], requested_arxiv_id: str | None = None) -> UpstreamWork:
    paper_id = text_of(item.get("paperId"))
    if not paper_id:
        raise RecordError("paper without a paperId")
    arxiv_id = _arxiv_id_of(item)
    if requested_arxiv_id and arxiv_id and arxiv_id != requested_arxiv_id:
        raise RecordError(f"{paper_id}: asked for arXiv {requested_arxiv_id}, got arXiv {arxiv_id}")
    arxiv_id = arxiv_id or requested_arxiv_id
    if not arxiv_id:
        raise RecordError(f"{paper_id}: not an arXiv paper")
    authors = item.get("authors")
    if not isinstance(authors, list):
        raise RecordError(f"{paper_id}: missing authors")
    authorships = []
    for position, author in enumerate(authors, start=1):
        name = text_of(author.get("name"), MAX_NAME_LENGTH) if isinstance(author, dict) else ""
        if not name:
            raise RecordError(f"{paper_id}: author {position} has no name")
        authorships.append(UpstreamAuthorship(position, _author_id(author.get("authorId")), name))
    references = tuple(
        CitedWork(text_of(reference.get("paperId")), _arxiv_id_of(reference) or "")
        for reference in item.get("references") or ()
        if isinstance(reference, dict) and (reference.get("paperId") or _arxiv_id_of(reference))
    )
    return UpstreamWork(
        source=SOURCE,
        upstream_id=paper_id,
        arxiv_id=arxiv_id,
        cited_by_count=optional_count(item.get("citationCount"), f"{paper_id}: citationCount"),
        reference_count=optional_count(item.get("referenceCount"), f"{paper_id}: referenceCount"),
        references=references,
        authorships=tuple(authorships),
    )


def parse_s2_paper_batch(content: bytes, requested: list[str]) -> UpstreamPage[UpstreamWork]:
    """The answer to POST /paper/batch: one entry per requested id, in order, null for an unknown id."""
    data = load_json(content)
    if not isinstance(data, list):
        raise MalformedResponse("expected a JSON array from the paper batch endpoint")
    if len(data) != len(requested):
        raise MalformedResponse(f"asked for {len(requested)} papers, got {len(data)} answers")
    page: UpstreamPage[UpstreamWork] = UpstreamPage()
    for position, (arxiv_id, item) in enumerate(zip(requested, data, strict=True), start=1):
        if item is None:
            page.not_found.append(arxiv_id)
            continue
        try:
            if not isinstance(item, dict):
                raise RecordError("not a JSON object")
            page.items.append(s2_work(item, arxiv_id))
        except RecordError as error:
            page.skipped.append(Skipped(position, str(error)))
    return page


def s2_author(item: dict[str, Any]) -> AuthorRecord:
    author_id = _author_id(item.get("authorId"))
    if not author_id:
        raise RecordError(f"author without an authorId: {item.get('authorId')!r}")
    external = item.get("externalIds") if isinstance(item.get("externalIds"), dict) else {}
    orcid = external.get("ORCID")
    return AuthorRecord(
        source=SOURCE,
        upstream_id=author_id,
        name=text_of(item.get("name"), MAX_NAME_LENGTH),
        orcid=orcid.strip().upper() if isinstance(orcid, str) else "",
        h_index=optional_count(item.get("hIndex"), f"{author_id}: hIndex"),
        citation_count=optional_count(item.get("citationCount"), f"{author_id}: citationCount"),
        works_count=optional_count(item.get("paperCount"), f"{author_id}: paperCount"),
    )


def parse_s2_author_batch(content: bytes, requested: list[str]) -> UpstreamPage[AuthorRecord]:
    data = load_json(content)
    if not isinstance(data, list):
        raise MalformedResponse("expected a JSON array from the author batch endpoint")
    if len(data) != len(requested):
        raise MalformedResponse(f"asked for {len(requested)} authors, got {len(data)} answers")
    page: UpstreamPage[AuthorRecord] = UpstreamPage()
    for position, (author_id, item) in enumerate(zip(requested, data, strict=True), start=1):
        if item is None:
            page.not_found.append(author_id)
            continue
        try:
            if not isinstance(item, dict):
                raise RecordError("not a JSON object")
            page.items.append(s2_author(item))
        except RecordError as error:
            page.skipped.append(Skipped(position, str(error)))
    return page


def paper_from_s2(item: dict[str, Any]) -> PaperRecord:
    """A paper known only from its Semantic Scholar record (the demo corpus's upstream part)."""
    work = s2_work(item)
    title = text_of(item.get("title"), MAX_TITLE_LENGTH)
    if not title:
        raise RecordError(f"{work.upstream_id}: missing title")
    try:
        published = datetime.date.fromisoformat(str(item.get("publicationDate")))
    except ValueError:
        raise RecordError(f"{work.upstream_id}: publicationDate is not a date") from None
    return PaperRecord(
        arxiv_id=work.arxiv_id,
        title=title,
        published=posted_date(work.arxiv_id, published),
        abstract=text_of(item.get("abstract")),
        authors=tuple(author.name for author in work.authorships),
    )
