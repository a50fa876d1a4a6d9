"""JSON bodies from upstream APIs, decoded strictly: a truncated response is an error, never half a page."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from harvest.parsers.text import MAX_TEXT_LENGTH, squash
from harvest.records import RecordError, UnreadableBody

Item = TypeVar("Item")


@dataclass
class Skipped:
    position: int
    reason: str


@dataclass
class UpstreamPage(Generic[Item]):
    """One response of a JSON API, parsed: the records, what was skipped and how to get the next page."""

    items: list[Item] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    next_cursor: str | None = None
    not_found: list[str] = field(default_factory=list)  # requested ids the source does not know


def load_json(content: bytes) -> Any:
    """The decoded body; one that does not decode was most often cut short in transit, so it is asked for
    again like a 5xx (a body that decodes to the wrong shape is the parsers' MalformedResponse)."""
    try:
        return json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UnreadableBody(f"truncated or malformed JSON ({len(content)} bytes): {error}") from None


def optional_count(value: Any, what: str) -> int | None:
    """A non-negative whole number, or None when the source leaves it out."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"{what} is not a count: {value!r}")
    return value


def text_of(value: Any, limit: int = MAX_TEXT_LENGTH) -> str:
    return squash(value, limit) if isinstance(value, str) else ""
