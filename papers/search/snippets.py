"""Highlighted text: ts_headline output (words between private-use markers) as plain parts and safe HTML."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from papers.search.querysets import MARK_END, MARK_START

_MARKERS = re.compile(f"({MARK_START}|{MARK_END})")


@dataclass(frozen=True)
class Snippet:
    """Text in parts, each marked (a matched word) or not."""

    parts: tuple[tuple[str, bool], ...]

    @classmethod
    def from_marked(cls, text: str) -> Snippet:
        """Read ts_headline output. Markers always pair up here, even if the text itself held a stray
        marker character: a start inside a mark and an end outside one are ignored."""
        parts: list[tuple[str, bool]] = []
        inside = False
        for piece in _MARKERS.split(text):
            if piece == MARK_START:
                inside = True
            elif piece == MARK_END:
                inside = False
            elif piece:
                parts.append((piece, inside))
        return cls(tuple(parts))

    @classmethod
    def plain(cls, text: str) -> Snippet:
        return cls(((text, False),) if text else ())

    def within(self, whole: str) -> Snippet:
        """With "… " before it when it starts inside `whole` rather than at its beginning."""
        if not self.parts or whole.lstrip().startswith(self.text[:40].lstrip()):
            return self
        return Snippet((("… ", False), *self.parts))

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
