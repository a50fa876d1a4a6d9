"""Cleaning shared by every parser: arXiv text is hard-wrapped, some records carry mojibake, and
categories mix in MSC/ACM codes."""


import ftfy

from papers.categories import is_arxiv_category


def squash(text: str | None) -> str:
    """One line, single spaces (arXiv wraps titles and abstracts at ~80 columns), with UTF-8 that was
    decoded as Latin-1 somewhere upstream repaired: 'KaragÃ¶z' is 'Karagöz'."""
    return " ".join(ftfy.fix_encoding(text or "").split())


def arxiv_categories(values: list[str] | tuple[str, ...] | str) -> tuple[str, ...]:
    """Only arXiv taxonomy terms (cs.CL, hep-th, math.AP), in order, without MSC or ACM classes."""
    items = values.split() if isinstance(values, str) else values
    seen: dict[str, None] = {}
    for item in items:
        item = item.strip()
        if is_arxiv_category(item):
            seen.setdefault(item, None)
    return tuple(seen)
