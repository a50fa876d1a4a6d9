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


def test_characters_special_to_latex_are_escaped_and_maths_is_kept():
    """Issue 15: 46 demo titles such as "R&B: …" broke LaTeX; the maths in titles must still typeset."""
    entry = bibtex_entry(
        unsaved(title="R&B: 50% of #1 snake_case on $\\alpha_1$-nets for \\$5 and $3", authors=["A & B"])
    )
    assert (
        "  title         = {{R\\&B: 50\\% of \\#1 snake\\_case on $\\alpha_1$-nets for \\$5 and \\$3}},"
        in entry
    )
    assert "  author        = {A \\& B}," in entry
