"""A paper as a BibTeX entry, in the form arXiv itself suggests (@misc with eprint fields)."""

import re

from django.utils.text import slugify
from unidecode import unidecode

from core.latex import tex_source
from papers import identifiers
from papers.models import Paper

_KEY_WORD = re.compile(r"[A-Za-z]{3,}")
_KEY_SKIP = {"the", "and", "for", "with", "from", "towards", "toward", "via", "are", "how", "what", "when"}


def _braces_balanced(text: str) -> bool:
    depth = 0
    for character in text:
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


def _field(text: str) -> str:
    """A field value BibTeX and LaTeX can read: unbalanced braces (harvested text) would end the entry
    early, and a bare & % # _ or $ (R&B, 50%) stops LaTeX."""
    text = " ".join(text.split())
    return tex_source(text if _braces_balanced(text) else text.replace("{", "").replace("}", ""))


def citation_key(paper: Paper) -> str:
    """surnameYEARfirstword, as Google Scholar and many reference managers make them."""
    first_author = paper.authors[0] if paper.authors else "anonymous"
    surname = slugify(unidecode(first_author.split()[-1] if first_author.split() else "anonymous"))
    words = [w.lower() for w in _KEY_WORD.findall(unidecode(paper.title)) if w.lower() not in _KEY_SKIP]
    return f"{surname.replace('-', '')}{paper.published.year}{words[0] if words else ''}"


def bibtex_entry(paper: Paper) -> str:
    fields = [
        ("title", "{" + _field(paper.title) + "}"),
        ("author", _field(" and ".join(paper.authors))),
        ("year", str(paper.published.year)),
        ("eprint", paper.arxiv_id),
        ("archivePrefix", "arXiv"),
        ("primaryClass", paper.primary_category),
        ("doi", paper.doi or identifiers.arxiv_doi(paper.arxiv_id)),
        ("url", paper.abs_url),
    ]
    lines = [f"  {name:<13} = {{{value}}}," for name, value in fields if value]
    return "\n".join([f"@misc{{{citation_key(paper)},", *lines, "}"])
