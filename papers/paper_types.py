"""The kinds of paper the analysis tells apart (analysis/paper_types.py decides them): their stored
values, their names on pages, and the words the search's `type:` field takes for each."""

from __future__ import annotations

PAPER_TYPE_LABELS = {
    "method": "method",
    "survey": "survey/review",
    "benchmark": "benchmark/dataset",
    "empirical": "empirical study",
    "theory": "theory",
    "position": "position/perspective",
    "system": "system/tool",
    "other": "other",
}
_ALIASES = {
    "review": "survey",
    "dataset": "benchmark",
    "data": "benchmark",
    "empirical-study": "empirical",
    "study": "empirical",
    "theoretical": "theory",
    "perspective": "position",
    "tool": "system",
    "software": "system",
}


def paper_type_named(text: str) -> str | None:
    """The stored type a word names ("survey", "review", "survey/review", "Dataset"), or None."""
    word = text.strip().lower()
    if word in PAPER_TYPE_LABELS:
        return word
    for value, label in PAPER_TYPE_LABELS.items():
        if word == label or word in label.split("/"):
            return value
    return _ALIASES.get(word)
