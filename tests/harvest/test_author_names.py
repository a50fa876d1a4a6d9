"""Author names from every source arXiv metadata reaches us by, read into one shape and one spelling.

Pure functions on recorded data (the demo corpus and tests/fixtures): no database."""

from __future__ import annotations

import functools
import gzip
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from harvest.parsers.arxiv import paper_from_kaggle, paper_from_listing
from harvest.parsers.authors import (
    MAX_AFFILIATION_CHARS,
    MAX_AUTHORS,
    MAX_NAME_CHARS,
    AuthorList,
    authors_from_atom_entry,
    authors_from_author_line,
    authors_from_kaggle_parsed,
    authors_from_names,
    authors_from_oai_arxiv,
    names_a_group,
)
from tests.harvest.replay import fixture

DEMO_DATA = Path(__file__).resolve().parents[2] / "harvest" / "demo_data"
ATOM = "{http://www.w3.org/2005/Atom}"
OAI_ARXIV = "{http://arxiv.org/OAI/arXiv/}"


def _kaggle() -> list[dict[str, Any]]:
    with open(DEMO_DATA / "arxiv_kaggle_snapshot_head200.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _listings() -> list[dict[str, Any]]:
    with gzip.open(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


KAGGLE = _kaggle()
LISTINGS = {item["id"]: item for item in _listings()}
KAGGLE_BY_ID = {item["id"]: item for item in KAGGLE}


def _atom_entries(content: bytes) -> list[etree._Element]:
    return list(etree.fromstring(content).iterfind(f"{ATOM}entry"))


def _oai_records(content: bytes) -> list[etree._Element]:
    return list(etree.fromstring(content).iter(f"{OAI_ARXIV}arXiv"))


def _people(authors: AuthorList) -> list[tuple[str, str]]:
    return [(author.name, author.suffix) for author in authors.authors]


# Kaggle snapshot: arXiv's own parse (authors_parsed) against our reading of the one-line `authors`.


def test_it_reads_every_kaggle_author_line_as_arxivs_own_parse_does():
    assert len(KAGGLE) == 200
    differences = [
        f"{item['id']}: line {_people(authors_from_author_line(item['authors']))} "
        f"!= parsed {_people(authors_from_kaggle_parsed(item['authors_parsed']))}"
        for item in KAGGLE
        if _people(authors_from_author_line(item["authors"]))
        != _people(authors_from_kaggle_parsed(item["authors_parsed"]))
    ]
    assert differences == [], "\n".join(differences)


def test_it_reads_the_affiliations_arxivs_parse_gives_from_the_line_too():
    """Where arXiv's parse has an affiliation (not a footnote number), the line gives the same one,
    including arXiv's convention that "A, B and C (Oxford)" puts all three at Oxford."""
    differences = []
    for item in KAGGLE:
        line = authors_from_author_line(item["authors"]).authors
        parsed = authors_from_kaggle_parsed(item["authors_parsed"]).authors
        for ours, arxivs in zip(line, parsed, strict=True):
            if arxivs.affiliations and ours.affiliations != arxivs.affiliations:
                differences.append(f"{item['id']} {ours.name}: {ours.affiliations} != {arxivs.affiliations}")
    assert differences == [], "\n".join(differences)


def test_it_keeps_kaggle_suffixes_and_affiliations_apart_from_the_name():
    evans = authors_from_kaggle_parsed(KAGGLE_BY_ID["0704.0009"]["authors_parsed"]).authors[5]
    assert (evans.name, evans.suffix, evans.display_name) == ("Neal J. Evans", "II", "Neal J. Evans II")

    botella, nebot = authors_from_kaggle_parsed(KAGGLE_BY_ID["0704.0174"]["authors_parsed"]).authors
    assert (botella.name, botella.affiliations) == (
        "Francisco J. Botella",
        ("Valencia U. & Valencia U., IFIC",),
    )
    assert (nebot.name, nebot.affiliations) == ("Miguel Nebot", ("Lisbon, IST",))

    schekochihin = authors_from_kaggle_parsed(KAGGLE_BY_ID["0704.0044"]["authors_parsed"]).authors[0]
    assert (schekochihin.name, schekochihin.affiliations) == ("A. A. Schekochihin", ("Oxford",))

    gahler = authors_from_kaggle_parsed(KAGGLE_BY_ID["0704.0163"]["authors_parsed"]).authors[1]
    assert gahler.name == "Franz Gähler"
    assert gahler.affiliations == ("Institut für Theoretische und Angewandte Physik, Universität Stuttgart",)


def test_it_leaves_footnote_numbers_out_of_kaggle_affiliations():
    """Upstream error: arXiv's parse of 0704.0025 took the footnote numbers "(1 and 2)" for an
    affiliation. The line has the footnotes themselves."""
    item = KAGGLE_BY_ID["0704.0025"]
    assert item["authors_parsed"][0] == ["Mishchenko", "A. S.", "", "1 and 2"]

    assert authors_from_kaggle_parsed(item["authors_parsed"]).authors[0].affiliations == ()
    mishchenko, nagaosa = authors_from_author_line(item["authors"]).authors
    assert mishchenko.name == "A. S. Mishchenko"
    assert mishchenko.affiliations == (
        "CREST, Japan Science and Technology Agency",
        "Russian Research Centre “Kurchatov Institute”",
    )
    assert nagaosa.affiliations == ("CREST, Japan Science and Technology Agency", "The University of Tokyo")


def test_no_kaggle_name_carries_an_affiliation():
    glued = [
        f"{item['id']}: {author.name!r} holds {affiliation!r}"
        for item in KAGGLE
        for author in authors_from_kaggle_parsed(item["authors_parsed"]).authors
        for affiliation in author.affiliations
        if affiliation in author.name
    ]
    assert glued == [], "\n".join(glued)


@pytest.mark.parametrize(
    ("arxiv_id", "position", "affiliations"),
    [
        # numbered "(n)" footnotes, arXiv's parse leaves them out
        ("0704.0128", 1, ("University of Leicester",)),
        ("0704.0128", 15, ("INAF-Osservatorio Astronomico di Brera", "Universita' degli Studi di Milano")),
        ("0704.0177", 10, ("Universität Dortmund, Germany",)),
        # footnotes with no comma between them
        ("0704.0190", 7, ("Kyowa Interface Science Co., Ltd., Saitama",)),
        (
            "0704.0190",
            8,
            ("Advanced Research Institute for Science and Engineering, Waseda University, Tokyo",),
        ),
        # bare numbers: "(1 Dip. Astro., Bologna; 2 INAF--Oss. ..."; "Via Beirut 2 - 4" stays an address
        ("0704.0139", 1, ("Dip. Astro., Bologna", "INAF--Oss. Astro., Bologna")),
        ("0704.0139", 7, ("S.I.S.S.A., Via Beirut 2 - 4, Trieste",)),
        ("0704.0139", 8, ("Astronomy Department, University of Virginia",)),
        # a footnote resolved by arXiv's parse too
        ("0704.0052", 2, ("Harvard University",)),
    ],
)
def test_it_reads_footnoted_affiliations_from_the_author_line(arxiv_id, position, affiliations):
    author = authors_from_author_line(KAGGLE_BY_ID[arxiv_id]["authors"]).authors[position - 1]
    assert author.position == position
    assert author.affiliations == affiliations


def test_it_reads_tex_accents_and_letters_in_the_author_line():
    assert authors_from_author_line(KAGGLE_BY_ID["0704.0062"]["authors"]).names == (
        "Rastislav Šrámek",
        "Broňa Brejová",
        "Tomáš Vinař",
    )
    assert authors_from_author_line(KAGGLE_BY_ID["0704.0049"]["authors"]).names == ("Mikkel Øbro",)
    assert authors_from_author_line(KAGGLE_BY_ID["0704.0030"]["authors"]).names == (
        "J. P. Hague",
        "N. d'Ambrumenil",
    )


def test_it_drops_et_al_and_flags_the_collaboration_in_the_author_line():
    babar = authors_from_author_line(KAGGLE_BY_ID["0704.0020"]["authors"])  # "..., B. Aubert, et al"
    assert [(a.name, a.is_collaboration) for a in babar.authors] == [
        ("The BABAR Collaboration", True),
        ("B. Aubert", False),
    ]
    assert babar.dropped == 1


def test_it_reads_a_team_heading_nicknames_and_a_suffix_segment_in_an_author_line():
    authors = authors_from_author_line(
        "MiniMax: Aili Chen, Pu (Perry) Wang, Robert W. Heath, Jr. and X (MIT)"
    )
    assert [(a.display_name, a.is_collaboration) for a in authors.authors] == [
        ("MiniMax", True),
        ("Aili Chen", False),
        ("Pu Wang", False),
        ("Robert W. Heath Jr.", False),
    ]
    assert (authors.repaired, authors.dropped) == (1, 1)  # the nickname; "X", one letter


# OAI-PMH metadataPrefix=arXiv and the API's Atom feed


def test_it_reads_oai_arxiv_names_from_keyname_and_forenames():
    pages = ["ListRecords_arXiv_set_physics-hep-th_2017-12-14.xml", "ListRecords_arXiv_single.xml"]
    names = [
        authors_from_oai_arxiv(record).names
        for page in pages
        for record in _oai_records(fixture(f"arxiv/oai_pmh/{page}"))
    ]
    assert names == [
        ("Philipp A Hoehn",),
        ("Luis B. Castro", "Edilberto O. Silva"),
        ("R. A. C. Correa", "D. M. Dantas", "P. H. R. S. Moraes", "A. de Souza Dutra", "C. A. S. Almeida"),
        ("A. Sergyeyev",),
    ]


def test_it_keeps_oai_arxiv_affiliations_apart():
    (record,) = _oai_records(fixture("arxiv/oai_pmh/GetRecord_arXiv_physics_0112006_affiliations.xml"))
    authors = authors_from_oai_arxiv(record).authors
    assert [(a.name, a.affiliations) for a in authors] == [
        ("G. Fiorentini", ("INFN, Sezione di Ferrara, Ferrara, Italy",)),
        ("L. Okun", ("ITEP, Moscow, Russia",)),
        ("M. Vysotsky", ("ITEP, Moscow, Russia",)),
    ]


def test_it_reads_an_oai_arxiv_suffix():
    """No recorded OAI page has a <suffix>; this is arXiv's own parse of 0704.0009 (the Kaggle
    snapshot's authors_parsed comes from the same keyname/forenames/suffix) written in that format."""
    record = etree.fromstring(
        f'<arXiv xmlns="{OAI_ARXIV[1:-1]}"><authors>'
        + "".join(
            f"<author><keyname>{keyname}</keyname><forenames>{forenames}</forenames>"
            + (f"<suffix>{suffix}</suffix>" if suffix else "")
            + "</author>"
            for keyname, forenames, suffix in KAGGLE_BY_ID["0704.0009"]["authors_parsed"]
        )
        + "</authors></arXiv>"
    )
    authors = authors_from_oai_arxiv(record)
    assert _people(authors)[5:] == [("Neal J. Evans", "II"), ("Philip C. Myers", "")]
    assert authors.names == authors_from_author_line(KAGGLE_BY_ID["0704.0009"]["authors"]).names


def test_it_reads_atom_affiliations():
    (entry,) = _atom_entries(fixture("arxiv/api_atom/2026_id_astro-ph_0601001_s0_m100.xml"))
    assert [(a.name, a.affiliations) for a in authors_from_atom_entry(entry).authors] == [
        ("Andrew Gould", ("Ohio State",)),
        ("Susan Dorsher", ("Ohio State",)),
        ("B. Scott Gaudi", ("CfA",)),
        ("Andrzej Udalski", ("Warsaw University Observatory",)),
    ]


def test_it_reads_the_demo_atom_feed_with_its_mojibake_repaired():
    entries = _atom_entries((DEMO_DATA / "2026_q_testing_s0_m100.xml").read_bytes())
    lists = [authors_from_atom_entry(entry) for entry in entries]
    names = [name for authors in lists for name in authors.names]
    assert len(names) == 366
    assert {"Florian Kroiß", "Oliver Weißl", "Sólrún Einarsdóttir", "Mika V. Mäntylä"} <= set(names)
    assert not [name for name in names if "Ã" in name]
    with_affiliations = [
        (a.name, a.affiliations) for authors in lists for a in authors.authors if a.affiliations
    ]
    assert with_affiliations == [("Marie-Claude Gaudel", ("LRI",)), ("Pascale Le Gall", ("IBISC",))]
    assert sum(authors.dropped + authors.repaired + authors.split for authors in lists) == 0


# The daily listings: the broken entries, and a scan of all of them


@functools.cache
def _listing(arxiv_id: str) -> AuthorList:
    return authors_from_names(LISTINGS[arxiv_id]["authors"])


def test_it_splits_the_names_glued_by_a_lost_separator():
    raw = LISTINGS["2506.02197"]["authors"]
    assert raw[:3] == ["Marcos V. Conde", "Radu Timofte", "Zihao Lu"]
    assert raw[3].startswith("Xiangyu Kongand Xiaoxia Xingand Fan Wangand")

    authors = _listing("2506.02197")
    assert len(authors.names) == 3 + 36
    assert authors.names[3:8] == ("Xiangyu Kong", "Xiaoxia Xing", "Fan Wang", "Suejin Han", "MinKyu Park")
    assert authors.names[-1] == "Watchara Ruangsang"
    assert authors.split == 35
    # One glued "and" is a name, not a run
    assert authors_from_names(["Ashish Parmanand Pandey"]).names == ("Ashish Parmanand Pandey",)
    assert LISTINGS["2506.04830"]["authors"][2] == "Xiaohui Li. Yuanting Gao. Yu Zhou"
    assert _listing("2506.04830").names[2:] == ("Xiaohui Li", "Yuanting Gao", "Yu Zhou", "Chao Dong")


@pytest.mark.parametrize(
    ("arxiv_id", "team"),
    [
        ("2505.07608", "Xiaomi LLM-Core Team"),
        ("2506.03569", "Xiaomi LLM-Core Team"),
        ("2506.10910", "Mistral-AI"),
        ("2506.13585", "MiniMax"),
        ("2506.14111", "Essential AI"),
    ],
)
def test_a_team_heading_the_list_is_a_collaboration_and_its_colon_no_researcher(arxiv_id, team):
    raw = LISTINGS[arxiv_id]["authors"]
    assert raw[:2] == [team, ":"]

    authors = _listing(arxiv_id)
    assert (authors.authors[0].name, authors.authors[0].is_collaboration) == (team, True)
    assert (authors.authors[1].name, authors.authors[1].position) == (raw[2], 2)
    assert ":" not in authors.names
    assert len(authors.authors) == len(raw) - 1
    assert authors.dropped == 1


def test_it_repairs_leading_punctuation_and_a_tex_line_break():
    pazzaglia = _listing("2506.14645")
    assert pazzaglia.names[0] == "Pazzaglia"
    assert pazzaglia.repaired == 1
    assert "Ajinkya Umesh Mulik" in _listing("2506.05195").names
    assert "Guiling Wang" in _listing("2505.07871").names  # 'Guiling "Grace" Wang'


def test_it_joins_the_halves_of_a_name_the_listing_cut_at_a_nickname():
    assert _listing("2505.18413").names[3:6] == ("Ye Wang", "Pu Wang", "Matthew Brand")
    assert _listing("2506.14753").names[:3] == ("Qinchan Li", "Kenneth Chen", "Changyue Su")
    assert "Yi R. Fung" in _listing("2505.15386").names
    # a person known by one name stays alone
    assert _listing("2505.07608").names[2:5] == ("Bowen Shen", "Cici", "Dawei Zhu")


def test_it_keeps_suffixes_of_listing_names_apart():
    assert [(a.name, a.suffix) for a in _listing("2506.13468").authors if a.suffix] == [
        ("Hal Daumé", "III"),
        ("Alvin Grissom", "II"),
    ]


ENDS_WITH_AN_AFFILIATION = re.compile(
    r"\b(?:Univ\.?|U\.|University|Universit\w+|Inst\.?|Institute|Dept\.?|Department|College|School|"
    r"Cent(?:er|re)|Lab\.?|Labs)$"
)
# Everything the markers and team headings flag in the demo corpus; each was checked to be a team.
FLAGGED_IN_THE_DEMO_CORPUS = {
    "Black Forest Labs",
    "EAES Working Group",
    "Essential AI",
    "GigaChat team",
    "Inception Labs",
    "LASA Team",
    "MiniCPM Team",
    "MiniMax",
    "Mistral-AI",
    "NovelSeek Team",
    "RHSCIR Network Imaging Group",
    "Ring Team",
    "Team Hunyuan3D",
    "The BABAR Collaboration",
    "The NaijaVoices Community",
    "Xiaomi LLM-Core Team",
}


def test_every_listing_name_reads_as_a_name():
    assert len(LISTINGS) == 10511
    problems = []
    totals = {"names": 0, "repaired": 0, "dropped": 0, "split": 0, "joined": 0}
    for arxiv_id in LISTINGS:
        authors = _listing(arxiv_id)
        totals["names"] += len(authors.authors)
        for count in ("repaired", "dropped", "split", "joined"):
            totals[count] += getattr(authors, count)
        assert [a.position for a in authors.authors] == list(range(1, len(authors.authors) + 1))
        for author in authors.authors:
            name = author.name
            if sum(character.isalpha() for character in name) < 2:
                problems.append(f"{arxiv_id}: {name!r} has fewer than two letters")
            if not name[0].isalpha():
                problems.append(f"{arxiv_id}: {name!r} starts with punctuation")
            if ENDS_WITH_AN_AFFILIATION.search(name) and not author.is_collaboration:
                problems.append(f"{arxiv_id}: {name!r} ends with an affiliation")
            if len(name.split()) > 6:
                problems.append(f"{arxiv_id}: {name!r} has more words than a name")
    assert problems == [], "\n".join(problems)
    # 61,575 entries: 36 more names from split runs, 19 fewer from joined halves, 7 ":", "others" or
    # "Other Contributors" dropped
    assert totals == {"names": 61586, "repaired": 21, "dropped": 7, "split": 37, "joined": 19}


def test_what_is_flagged_as_a_collaboration_in_the_demo_corpus_is_a_team():
    flagged = {name for arxiv_id in LISTINGS for name in _listing(arxiv_id).collaborations}
    flagged |= {name for item in KAGGLE for name in authors_from_author_line(item["authors"]).collaborations}
    flagged |= {
        name
        for entry in _atom_entries((DEMO_DATA / "2026_q_testing_s0_m100.xml").read_bytes())
        for name in authors_from_atom_entry(entry).collaborations
    }
    assert flagged == FLAGGED_IN_THE_DEMO_CORPUS


@pytest.mark.parametrize(
    "name",
    [
        # given names and surnames that look like markers
        "Qingyao Ai",
        "Ai Ti Aw",
        "YIng Ai",
        "Core Francisco Park",
        "Dang The Hung",
        "Linh The Nguyen",
        # one-word and camel-case names of people
        "Cici",
        "MinKyu Park",
        "KediLI",
        "HongSheng Zhao",
        "Sudha",
        "Hal Daumé",
        "Mathew Magimai.-Doss",
    ],
)
def test_a_persons_name_is_not_a_group(name):
    assert not names_a_group(name)


def test_no_person_in_the_demo_corpus_is_flagged():
    people = {
        author.name
        for arxiv_id in LISTINGS
        for author in _listing(arxiv_id).authors
        if not author.is_collaboration
    }
    assert {"Qingyao Ai", "Core Francisco Park", "Dang The Hung", "Cici", "MinKyu Park"} <= people


# Hostile input: never an exception, always bounded plain text


def _is_plain_name(text: str, limit: int) -> bool:
    return (
        0 < len(text) <= limit
        and not any(unicodedata.category(c) in ("Cc", "Cs", "Co") or c in "<>\\{}" for c in text)
        and not any(unicodedata.category(c) == "Cf" and c not in "\u200c\u200d" for c in text)
    )


def _assert_bounded(authors: AuthorList) -> None:
    assert len(authors.authors) <= MAX_AUTHORS
    assert [a.position for a in authors.authors] == list(range(1, len(authors.authors) + 1))
    for author in authors.authors:
        assert _is_plain_name(author.name, MAX_NAME_CHARS), author
        assert author.name[0].isalpha(), author
        assert sum(c.isalpha() for c in author.name) >= 2, author
        for affiliation in author.affiliations:
            assert _is_plain_name(affiliation, MAX_AFFILIATION_CHARS), author


HOSTILE_PIECES = [
    "(", ")", "((1) ", "(1,2)", ":", ",", " and ", "and ", "&", ";", "et al.", "Jr.", "II", ". ", "\\'",
    '\\"', "{\\O}", "\\\\", "$", "$$", "<b>", "</script>", "&amp;", "&#0;", "\x00", "\x9f", "\u202e",
    "\u200b", "\ud800", "\ufeff", "Ã©", "\n", "  ", "Team", "-AI", "Smith", "J.P.", "Xingand ",
]  # fmt: skip
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE_PIECES), st.text(max_size=20)), max_size=30).map(
    "".join
)
hostile_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile_text,
    lambda children: st.lists(children, max_size=8) | st.dictionaries(hostile_text, children, max_size=4),
    max_leaves=40,
)
# Text lxml accepts in an element: no control characters, surrogates or U+FFFE/U+FFFF.
xml_text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters=[chr(c) for c in range(32) if c not in (9, 10, 13)] + ["\ufffe", "\uffff"],
    ),
    max_size=40,
)
XML_NAMES = ["authors", "author", "keyname", "forenames", "suffix", "affiliation", "name", "title"]
NAMESPACES = ["", OAI_ARXIV, ATOM, "{http://arxiv.org/schemas/atom}"]


@st.composite
def xml_trees(draw: st.DrawFn, depth: int = 0) -> etree._Element:
    tag = draw(st.sampled_from(NAMESPACES)) + draw(st.sampled_from(XML_NAMES))
    element = etree.Element(tag)
    element.text = draw(xml_text)
    if depth < 3:
        for child in draw(st.lists(xml_trees(depth=depth + 1), max_size=4)):
            element.append(child)
            child.tail = draw(xml_text)
    if draw(st.booleans()):
        element.append(etree.Comment("a comment"))
    return element


FUZZ = settings(max_examples=150, deadline=None, database=None)


@FUZZ
@given(hostile_json)
def test_any_json_into_the_json_readers_is_read_or_left_out(value):
    for read in (authors_from_author_line, authors_from_names, authors_from_kaggle_parsed):
        _assert_bounded(read(value))
    _assert_bounded(authors_from_names([value, value]))
    _assert_bounded(authors_from_kaggle_parsed([[value, value, value, value], [value]]))


@FUZZ
@given(hostile_text)
def test_any_text_as_an_author_line_or_a_name_is_read_or_left_out(text):
    _assert_bounded(authors_from_author_line(text))
    _assert_bounded(authors_from_names([text, text]))
    _assert_bounded(authors_from_kaggle_parsed([[text, text, text, text]]))


@FUZZ
@given(xml_trees())
def test_any_element_tree_into_the_xml_readers_is_read_or_left_out(tree):
    for read in (authors_from_oai_arxiv, authors_from_atom_entry):
        _assert_bounded(read(tree))
        wrapper = etree.Element(tree.tag)
        wrapper.append(tree)
        _assert_bounded(read(wrapper))
    assert authors_from_oai_arxiv("<arXiv/>") == AuthorList()
    assert authors_from_atom_entry(None) == AuthorList()


def test_it_bounds_an_author_list_past_its_limits():
    many = authors_from_author_line(", ".join(f"Author Number{n:05d}x" for n in range(3000)))
    assert len(many.authors) == MAX_AUTHORS
    assert many.truncated

    long_name = authors_from_names(["Ann " + "Verylongname" * 40, "Ann Short"])
    assert long_name.names == ("Ann Short",)
    assert long_name.dropped == 1

    (author,) = authors_from_author_line("Ann Short (" + "Department of Everything, " * 40 + ")").authors
    assert len(author.affiliations[0]) <= MAX_AFFILIATION_CHARS

    huge = authors_from_author_line("(" * 200_000 + "Ann Short" + ")" * 10 + ", " * 200_000 + "Bo Li")
    assert huge.names[-1] == "Bo Li"


@FUZZ
@given(hostile_json, hostile_text)
def test_any_author_data_in_a_harvested_record_is_read_or_left_out(authors, line):
    """Through the record parsers themselves: the record is made, with only names that could be read."""
    listing = paper_from_listing(
        {"id": "2101.00003", "title": "T", "published": "2021-01-04", "authors": authors}
    )
    kaggle = paper_from_kaggle(
        {
            "id": "2101.00004",
            "title": "T",
            "update_date": "2021-01-04",
            "authors": line,
            "authors_parsed": authors,
        }
    )
    for record in (listing, kaggle):
        _assert_bounded(AuthorList(authors=record.author_details))
        assert record.authors == tuple(author.display_name for author in record.author_details)
