"""The real text the synthetic corpus is made from: the demo listing's titles, abstract sentences, author
names and categories (harvest/demo_data), so word frequencies, lengths and names are those of arXiv."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path

from core.latex import detex
from harvest.parsers.text import arxiv_categories

DEMO_LISTING = (
    Path(__file__).resolve().parent.parent / "harvest/demo_data/arxiv_cs_daily_2025-05_2025-06.jsonl.gz"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@dataclass(frozen=True)
class Source:
    title: str
    sentences: tuple[str, ...]
    categories: tuple[str, ...]


@dataclass(frozen=True)
class Sources:
    papers: list[Source]
    first_names: list[str]
    last_names: list[str]
    title_words: list[str]  # every word of every title, with repeats: sampling it follows real frequencies


def load_sources(path: Path = DEMO_LISTING) -> Sources:
    papers: list[Source] = []
    first_names: set[str] = set()
    last_names: set[str] = set()
    title_words: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            title = " ".join(record["title"].split())
            abstract = " ".join(record["summary"].split())
            sentences = tuple(sentence for sentence in _SENTENCE_END.split(abstract) if len(sentence) > 20)
            if not sentences:
                continue
            papers.append(Source(title, sentences, arxiv_categories(record["categories"]) or ("cs.LG",)))
            title_words.extend(title.split())
            for name in record["authors"]:
                parts = detex(name).split()
                if len(parts) >= 2 and all(
                    part.replace("-", "").replace(".", "").isalpha() for part in parts
                ):
                    first_names.add(parts[0])
                    last_names.add(parts[-1])
    return Sources(papers, sorted(first_names), sorted(last_names), title_words)
