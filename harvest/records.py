"""Plain records parsed from upstream responses, before they become rows."""

import datetime
from dataclasses import dataclass


class RecordError(ValueError):
    """A record that cannot be stored: a required field is missing or malformed."""


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
