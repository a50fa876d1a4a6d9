"""arXiv's categories: what one looks like (cs.LG, hep-th, astro-ph.GA, cond-mat.mes-hall), for every
place that reads one from outside (harvested records, filters, query fields, the API)."""

import re

ARXIV_CATEGORY = re.compile(r"^[a-z][a-z\-]{0,15}(?:\.[A-Za-z][A-Za-z\-]{0,15})?$")
CATEGORY_MAX_LENGTH = 32


def is_arxiv_category(text: str) -> bool:
    """Whether `text` can be an arXiv category; MSC and ACM classes (68T05, I.2.7) cannot."""
    return bool(ARXIV_CATEGORY.match(text))
