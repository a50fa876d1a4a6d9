"""Cleaning shared by every parser: arXiv text is hard-wrapped, some records carry mojibake, and
categories mix in MSC/ACM codes."""

import ftfy

from core.links import web_url
from papers.categories import is_arxiv_category

# Harvested text is hostile: every text a parser keeps is cut to a bound, so that one record can neither
# fill a row nor slow every page that shows it. arXiv's abstracts stop at 1,920 characters.
MAX_TEXT_LENGTH = 10_000  # abstracts, comments, journal references
MAX_TITLE_LENGTH = 1_000
MAX_NAME_LENGTH = 255  # people and institutions (Institution.name's column)
HOMEPAGE_MAX_LENGTH = 500  # Institution.homepage's column


# Control characters that are not whitespace (squash turns those into spaces first): a JSON source may
# send "\u0000", which no PostgreSQL text column stores, and the others only garble what is shown.
_CONTROL_CHARACTERS = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)])


def squash(text: str | None, limit: int = MAX_TEXT_LENGTH) -> str:
    """One line, single spaces (arXiv wraps titles and abstracts at ~80 columns), without control
    characters, with UTF-8 that was decoded as Latin-1 somewhere upstream repaired: 'KaragÃ¶z' is
    'Karagöz'. At most `limit` characters."""
    text = (text or "")[: limit * 4]  # ftfy reads every character it is given
    if not text.isascii():  # ASCII is never mojibake (ftfy returns it as it is, after building a config)
        text = ftfy.fix_encoding(text)
    return " ".join(text.split()).translate(_CONTROL_CHARACTERS)[:limit]


def link(text: object, max_length: int) -> str:
    """An http(s) URL (a homepage, a licence) up to `max_length` characters; anything else (javascript:,
    data:, a URL cut short) is dropped."""
    url = text.strip() if isinstance(text, str) else ""
    return web_url(url) if len(url) <= max_length else ""


def arxiv_categories(values: list[str] | tuple[str, ...] | str) -> tuple[str, ...]:
    """Only arXiv taxonomy terms (cs.CL, hep-th, math.AP), in order, without MSC or ACM classes."""
    items = values.split() if isinstance(values, str) else values
    seen: dict[str, None] = {}
    for item in items:
        item = item.strip()
        if is_arxiv_category(item):
            seen.setdefault(item, None)
    return tuple(seen)
