"""arXiv metadata in its published shapes, parsed into PaperRecords.

- the Atom feed of the arXiv API (export.arxiv.org/api/query)
- OAI-PMH ListRecords/GetRecord pages with metadataPrefix `arXiv` or `arXivRaw`
- JSON lines as arXiv listings are mirrored (the demo corpus) and the Kaggle arXiv snapshot

Parsers never write; they return records and say which entries they had to skip and why.
"""

from __future__ import annotations

import datetime
import email.utils
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from harvest.parsers.authors import (
    AuthorList,
    authors_from_atom_entry,
    authors_from_author_line,
    authors_from_kaggle_parsed,
    authors_from_names,
    authors_from_oai_arxiv,
)
from harvest.parsers.text import MAX_TITLE_LENGTH, arxiv_categories, link, squash
from harvest.records import MalformedResponse, PaperRecord, RecordError, UnreadableBody
from papers.identifiers import parse_arxiv_id

LICENSE_MAX_LENGTH = 255  # Paper.license's column

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV_ATOM = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
OAI = "{http://www.openarchives.org/OAI/2.0/}"
OAI_ARXIV = "{http://arxiv.org/OAI/arXiv/}"
OAI_ARXIV_RAW = "{http://arxiv.org/OAI/arXivRaw/}"

# Refuse entity expansion and network access: the XML comes from outside.
_XML_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, remove_blank_text=True
)


@dataclass
class SkippedEntry:
    position: int
    reason: str
    is_error: bool = True  # False for what is skipped by design (a record deleted upstream)


@dataclass
class ParsedPage:
    records: list[PaperRecord] = field(default_factory=list)
    skipped: list[SkippedEntry] = field(default_factory=list)
    total_results: int | None = None
    resumption_token: str | None = None
    complete_list_size: int | None = None
    oai_error: tuple[str, str] | None = None  # (code, message)


def _parse_xml(content: bytes) -> etree._Element:
    try:
        return etree.fromstring(content, parser=_XML_PARSER)
    except etree.XMLSyntaxError as error:
        raise UnreadableBody(f"not well-formed XML: {error}") from None


def _text(element: etree._Element | None) -> str:
    return squash(element.text) if element is not None and element.text else ""


def _date(value: str, what: str) -> datetime.date:
    value = value.strip()
    if not value:
        raise RecordError(f"missing {what}")
    try:
        return datetime.date.fromisoformat(value[:10])
    except ValueError:
        raise RecordError(f"{what} is not a date: {value!r}") from None


def _arxiv_id(value: str) -> tuple[str, int | None]:
    parsed = parse_arxiv_id(value)
    if parsed is None:
        raise RecordError(f"not an arXiv id: {value!r}")
    return parsed.id, parsed.version


def _record(
    *,
    raw_id: str,
    title: str,
    published: str,
    categories: tuple[str, ...],
    authors: AuthorList,
    primary: str = "",
    **fields: Any,
) -> PaperRecord:
    arxiv_id, version = _arxiv_id(raw_id)
    title = squash(title, MAX_TITLE_LENGTH)
    if not title:
        raise RecordError(f"{arxiv_id}: missing title")
    if fields.get("version") is None:
        fields["version"] = version
    return PaperRecord(
        arxiv_id=arxiv_id,
        title=title,
        published=_date(published, f"{arxiv_id}: first-posted date"),
        categories=categories,
        primary_category=primary or (categories[0] if categories else ""),
        authors=tuple(author.display_name for author in authors.authors),
        author_details=authors.authors,
        names_repaired=authors.repaired + authors.split + authors.joined,
        names_dropped=authors.dropped,
        **fields,
    )


def parse_atom_feed(content: bytes) -> ParsedPage:
    """A page of the arXiv API's Atom feed."""
    root = _parse_xml(content)
    if root.tag != f"{ATOM}feed":
        raise MalformedResponse(f"expected an Atom feed, got <{etree.QName(root).localname}>")
    page = ParsedPage()
    total = root.findtext(f"{OPENSEARCH}totalResults")
    page.total_results = int(total) if total and total.strip().isdigit() else None
    for position, entry in enumerate(root.iterfind(f"{ATOM}entry"), start=1):
        raw_id = _text(entry.find(f"{ATOM}id"))
        # The API reports a bad query as a single entry titled "Error".
        if "/api/errors" in raw_id:
            page.skipped.append(SkippedEntry(position, f"API error: {_text(entry.find(f'{ATOM}summary'))}"))
            continue
        try:
            categories = arxiv_categories([c.get("term", "") for c in entry.iterfind(f"{ATOM}category")])
            primary = entry.find(f"{ARXIV_ATOM}primary_category")
            page.records.append(
                _record(
                    raw_id=raw_id,
                    title=_text(entry.find(f"{ATOM}title")),
                    published=_text(entry.find(f"{ATOM}published")),
                    categories=categories,
                    primary=primary.get("term", "") if primary is not None else "",
                    abstract=_text(entry.find(f"{ATOM}summary")),
                    authors=authors_from_atom_entry(entry),
                    updated=_optional_date(_text(entry.find(f"{ATOM}updated"))),
                    doi=_text(entry.find(f"{ARXIV_ATOM}doi")),
                    journal_ref=_text(entry.find(f"{ARXIV_ATOM}journal_ref")),
                    comments=_text(entry.find(f"{ARXIV_ATOM}comment")),
                )
            )
        except RecordError as error:
            page.skipped.append(SkippedEntry(position, str(error)))
    return page


def _optional_date(value: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def parse_oai_page(content: bytes) -> ParsedPage:
    """An OAI-PMH ListRecords or GetRecord page (metadataPrefix arXiv or arXivRaw)."""
    root = _parse_xml(content)
    if root.tag != f"{OAI}OAI-PMH":
        raise MalformedResponse(f"expected an OAI-PMH response, got <{etree.QName(root).localname}>")
    page = ParsedPage()
    error = root.find(f"{OAI}error")
    if error is not None:
        page.oai_error = (error.get("code", "unknown"), _text(error))
        return page
    for position, record in enumerate(root.iter(f"{OAI}record"), start=1):
        header = record.find(f"{OAI}header")
        if header is not None and header.get("status") == "deleted":
            page.skipped.append(SkippedEntry(position, "deleted upstream", is_error=False))
            continue
        metadata = record.find(f"{OAI}metadata")
        try:
            if metadata is None or len(metadata) == 0:
                raise RecordError("record without metadata")
            page.records.append(_oai_record(metadata[0]))
        except RecordError as error:
            page.skipped.append(SkippedEntry(position, str(error)))
    token = root.find(f".//{OAI}resumptionToken")
    if token is not None:
        page.resumption_token = (token.text or "").strip() or None
        size = token.get("completeListSize")
        page.complete_list_size = int(size) if size and size.isdigit() else None
    return page


def _oai_record(metadata: etree._Element) -> PaperRecord:
    if metadata.tag == f"{OAI_ARXIV}arXiv":
        ns = OAI_ARXIV
        authors = authors_from_oai_arxiv(metadata)
        published = _text(metadata.find(f"{ns}created"))
        updated = _optional_date(_text(metadata.find(f"{ns}updated")))
        version = None
    elif metadata.tag == f"{OAI_ARXIV_RAW}arXivRaw":
        ns = OAI_ARXIV_RAW
        authors = authors_from_author_line(_text(metadata.find(f"{ns}authors")))
        versions = metadata.findall(f"{ns}version")
        dates = [_rfc2822_date(_text(v.find(f"{ns}date"))) for v in versions]
        published = dates[0].isoformat() if dates and dates[0] else ""
        updated = dates[-1] if len(dates) > 1 else None
        version = len(versions) or None
    else:
        raise RecordError(f"unknown metadata format <{etree.QName(metadata).localname}>")
    categories = arxiv_categories(_text(metadata.find(f"{ns}categories")))
    return _record(
        raw_id=_text(metadata.find(f"{ns}id")),
        title=_text(metadata.find(f"{ns}title")),
        published=published,
        categories=categories,
        abstract=_text(metadata.find(f"{ns}abstract")),
        authors=authors,
        updated=updated,
        version=version,
        doi=_text(metadata.find(f"{ns}doi")),
        journal_ref=_text(metadata.find(f"{ns}journal-ref")),
        comments=_text(metadata.find(f"{ns}comments")),
        license=link(_text(metadata.find(f"{ns}license")), LICENSE_MAX_LENGTH),
    )


def _rfc2822_date(value: str) -> datetime.date | None:
    try:
        return email.utils.parsedate_to_datetime(value).date() if value else None
    except (TypeError, ValueError):
        return None


def paper_from_listing(item: dict[str, Any]) -> PaperRecord:
    """One JSON line of a mirrored arXiv listing: id, title, summary, authors, categories, comment,
    and the announcement date as listing_date (the demo corpus)."""
    try:
        categories = arxiv_categories(item.get("categories") or ())
        return _record(
            raw_id=str(item["id"]),
            title=item.get("title") or "",
            published=item.get("published") or item.get("listing_date") or "",
            categories=categories,
            abstract=squash(item.get("summary")),
            authors=authors_from_names(item.get("authors")),
            comments=squash(item.get("comment")),
        )
    except (KeyError, TypeError) as error:
        raise RecordError(f"listing entry without {error}") from None


def paper_from_kaggle(item: dict[str, Any]) -> PaperRecord:
    """One record of the Kaggle arXiv metadata snapshot (arxiv-metadata-oai-snapshot.json)."""
    try:
        versions = item.get("versions") or []
        dates = [_rfc2822_date(v.get("created", "")) for v in versions]
        # arXiv's own parse where the snapshot has it, its one-line list otherwise.
        authors = authors_from_kaggle_parsed(item.get("authors_parsed"))
        if not authors.authors:
            authors = authors_from_author_line(item.get("authors"))
        return _record(
            raw_id=str(item["id"]),
            title=item.get("title") or "",
            published=dates[0].isoformat() if dates and dates[0] else item.get("update_date") or "",
            categories=arxiv_categories(item.get("categories") or ""),
            abstract=squash(item.get("abstract")),
            authors=authors,
            updated=dates[-1] if len(dates) > 1 else None,
            version=len(versions) or None,
            doi=squash(item.get("doi")),
            journal_ref=squash(item.get("journal-ref")),
            comments=squash(item.get("comments")),
            license=link(item.get("license"), LICENSE_MAX_LENGTH),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"snapshot entry without {error}") from None
