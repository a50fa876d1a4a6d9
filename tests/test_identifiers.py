import pytest

from papers.identifiers import ArxivId, arxiv_id_from_doi, parse_arxiv_id


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2201.12423", ArxivId("2201.12423")),
        ("2201.12423v2", ArxivId("2201.12423", 2)),
        ("0704.0001", ArxivId("0704.0001")),
        ("arXiv:2006.10103", ArxivId("2006.10103")),
        ("astro-ph/9901001", ArxivId("astro-ph/9901001")),
        ("math.GT/0309136v1", ArxivId("math.GT/0309136", 1)),
        ("https://arxiv.org/abs/2201.12423v3", ArxivId("2201.12423", 3)),
        ("https://arxiv.org/pdf/hep-th/9901001.pdf", ArxivId("hep-th/9901001")),
    ],
)
def test_it_reads_every_written_form_of_an_arxiv_id(text, expected):
    assert parse_arxiv_id(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "2201.123", "12345.67890", "astro-ph/99", "<script>"])
def test_it_refuses_what_is_not_an_arxiv_id(text):
    assert parse_arxiv_id(text) is None


def test_it_reads_the_arxiv_id_inside_an_arxiv_doi():
    assert arxiv_id_from_doi("https://doi.org/10.48550/arxiv.2007.14454") == "2007.14454"
    assert arxiv_id_from_doi("10.48550/arXiv.2201.12423") == "2201.12423"
    assert arxiv_id_from_doi("10.1145/3383583.3398584") is None
