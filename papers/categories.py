"""arXiv's categories: what one looks like (cs.LG, hep-th, astro-ph.GA, cond-mat.mes-hall), for every
place that reads one from outside (harvested records, filters, query fields, the API)."""

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ARXIV_CATEGORY = re.compile(r"^[a-z][a-z\-]{0,15}(?:\.[A-Za-z][A-Za-z\-]{0,15})?$")
CATEGORY_MAX_LENGTH = 32
TAXONOMY_FILE = Path(__file__).parent / "data" / "arxiv_taxonomy.json"


def is_arxiv_category(text: str) -> bool:
    """Whether `text` can be an arXiv category; MSC and ACM classes (68T05, I.2.7) cannot."""
    return bool(ARXIV_CATEGORY.match(text))


@dataclass(frozen=True)
class CategoryInfo:
    code: str
    name: str  # "Machine Learning"
    archive: str  # the archive's name, or the group's where they are the same ("Computer Science")


@cache
def _taxonomy() -> dict[str, CategoryInfo]:
    """Every category arXiv has had, by code (aliases and subsumed archives included), from the committed
    copy of arXiv's taxonomy (papers/data/PROVENANCE.md)."""
    data = json.loads(TAXONOMY_FILE.read_text(encoding="utf-8"))
    groups, archives = data["groups"], data["archives"]
    known: dict[str, CategoryInfo] = {}
    for code, category in data["categories"].items():
        archive = archives.get(category["in_archive"], {})
        archive_name = archive.get("full_name", "")
        # hep-th is an archive of one category: "High Energy Physics - Theory, Physics" says more than the
        # archive's name twice.
        if archive_name == category["full_name"]:
            archive_name = groups.get(archive.get("in_group", ""), {}).get("full_name", "")
        known[code] = CategoryInfo(code=code, name=category["full_name"], archive=archive_name)
    return known


def category_info(code: str) -> CategoryInfo | None:
    """What arXiv calls the category; None for a code it never had."""
    return _taxonomy().get(code)


def category_label(code: str) -> str:
    """The readable label, "Machine Learning (cs.LG)", or the code alone when arXiv never had it."""
    info = category_info(code)
    return f"{info.name} ({code})" if info else code


def research_field(code: str) -> str:
    """A paper's field from its primary category: "Machine Learning (cs.LG), Computer Science"; the code
    alone when arXiv never had it, empty without one."""
    info = category_info(code)
    if info is None:
        return code
    return f"{info.name} ({code}), {info.archive}" if info.archive else f"{info.name} ({code})"
