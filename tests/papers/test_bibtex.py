import datetime

from papers.bibtex import bibtex_entry, citation_key
from papers.models import Paper


def unsaved(**fields: object) -> Paper:
    values = {"arxiv_id": "2201.12423", "title": "The Attention of Looms", "authors": ["José García-López"],
              "published": datetime.date(2022, 1, 28), "primary_category": "cs.CL"} | fields  # fmt: skip
    return Paper(**values)


def test_the_key_is_surname_year_and_first_word_that_says_something():
    assert citation_key(unsaved()) == "garcialopez2022attention"
    assert citation_key(unsaved(authors=[], title="On $\\alpha$")) == "anonymous2022alpha"


def test_the_entry_falls_back_to_the_arxiv_doi():
    entry = bibtex_entry(unsaved())
    assert "  doi           = {10.48550/arXiv.2201.12423}," in entry
    assert "  url           = {https://arxiv.org/abs/2201.12423}," in entry
