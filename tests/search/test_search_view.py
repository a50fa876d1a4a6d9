"""/search as a reader meets it: results, filters, sorts, pages, highlighting, fragments and shortcuts."""

import datetime
import re

import pytest

from institutions.models import Affiliation, Institution
from tests.factories import make_paper, make_researcher
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

# Made-up words no real paper contains, so each test sees only the papers it made.
WORD = "zorblaxian"
SORTS = ("relevance", "newest", "cited")


def hits(response) -> list[str]:
    """The titles of the paper hits on a page, markup removed, in order."""
    html = response.content.decode()
    return [
        re.sub(r"<[^>]+>", "", title)
        for title in re.findall(r'<li class="paper-item search-hit">\s*<h3[^>]*><a [^>]+>(.*?)</a>', html)
    ]


def titles(client, **params) -> list[str]:
    return hits(client.get("/search", params))


def test_it_shows_hits_with_authors_dates_categories_citations_and_why(client):
    grace = make_researcher("Grace Hopperwood")
    make_paper(
        title=f"Compilers for {WORD} machines",
        abstract=f"We compile {WORD} programs quickly.",
        authors=[grace, "Ada Lovelace"],
        categories=["cs.PL", "cs.SE"],
        cited_by_count=7,
        published=datetime.date(2024, 3, 9),
    )
    response = client.get("/search", {"q": WORD, "mode": "keyword"})
    html = response.content.decode()
    assert response.status_code == 200
    assert hits(response) == [f"Compilers for {WORD} machines"]
    assert f'<a href="{grace.get_absolute_url()}">Grace Hopperwood</a>, Ada Lovelace' in html
    assert '<time datetime="2024-03-09">9 Mar 2024</time>' in html
    assert ">cs.PL</a> · <a" in html and "7 citations" in html
    assert "Matched words" in html
    assert f"Showing papers matching &#x27;{WORD}&#x27;, by exact words · 1 result" in html


def test_a_paper_with_many_authors_shows_the_first_eight_and_counts_the_rest(client):
    make_paper(title=f"A {WORD} collaboration", authors=[f"Member Number{index}" for index in range(1, 31)])
    html = client.get("/search", {"q": WORD, "mode": "keyword"}).content.decode()
    assert re.search(r'Member Number8 <a href="[^"]+">and 22 more</a></p>', html)
    assert "Member Number9" not in html


def test_it_marks_matched_words_and_escapes_everything_else(client):
    make_paper(
        title=f"<script>alert(1)</script> {WORD} & <b>bold</b> claims",
        abstract=f"An abstract with <img src=x onerror=alert(2)> and the word {WORD}.",
    )
    html = client.get("/search", {"q": WORD, "mode": "keyword"}).content.decode()
    assert (
        f"&lt;script&gt;alert(1)&lt;/script&gt; <mark>{WORD}</mark> &amp; &lt;b&gt;bold&lt;/b&gt; claims"
        in html
    )
    assert f"An abstract with &lt;img src=x onerror=alert(2)&gt; and the word <mark>{WORD}</mark>." in html
    assert "<script>alert(1)" not in html and "<img src=x" not in html


def test_an_htmx_request_gets_the_results_fragment_and_a_plain_one_the_page(client):
    make_paper(title=f"A {WORD} study")
    full = client.get("/search", {"q": WORD}).content.decode()
    fragment = client.get(
        "/search", {"q": WORD}, headers={"HX-Request": "true", "HX-Target": "search-results"}
    )
    part = fragment.content.decode()
    assert full.startswith("<!doctype html>") and 'id="search-results"' in full
    assert "<html" not in part and 'id="search-form"' not in part
    assert f"A <mark>{WORD}</mark> study" in part and '<aside class="search-filters"' in part
    assert "HX-Request" in fragment["Vary"]
    restore = client.get(
        "/search", {"q": WORD}, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )
    assert restore.content.decode().startswith("<!doctype html>")


def test_the_page_works_without_javascript_and_carries_htmx_for_live_updates(client):
    html = client.get("/search", {"q": WORD, "mode": "semantic", "sort": "newest"}).content.decode()
    assert '<form id="search-form" class="search-page" action="/search" method="get" role="search"' in html
    assert 'hx-trigger="input changed delay:300ms from:#search-q, change"' in html
    assert 'hx-sync="#search-form:replace"' in html and 'hx-push-url="true"' in html
    assert '<input type="hidden" name="mode" value="semantic">' in html
    assert '<input type="hidden" name="sort" value="newest">' in html
    # every htmx link keeps its href: the same address
    for href, hx_get in re.findall(r'<a href="([^"]*)" hx-get="([^"]*)"', html):
        assert href == hx_get


def test_filters_from_the_form_and_the_query_language_restrict_the_papers(client):
    old = make_paper(title=f"Old {WORD}", categories=["cs.DC"], published=datetime.date(2019, 5, 1))
    new = make_paper(
        title=f"New {WORD}", categories=["cs.LG"], published=datetime.date(2024, 5, 1), cited_by_count=3
    )
    uncited = make_paper(
        title=f"Uncited {WORD}", categories=["cs.LG", "cs.DC"], published=datetime.date(2023, 1, 1)
    )
    keyword = {"q": WORD, "mode": "keyword"}
    assert sorted(titles(client, **keyword, cat="cs.DC")) == sorted([old.title, uncited.title])
    assert sorted(titles(client, **keyword, cat=["cs.DC", "cs.LG"])) == sorted(
        [old.title, new.title, uncited.title]
    )
    assert sorted(titles(client, **keyword, **{"from": "2020"})) == sorted([new.title, uncited.title])
    assert titles(client, **keyword, **{"from": "2020", "to": "2023"}) == [uncited.title]
    assert titles(client, **keyword, cited="1") == [new.title]
    assert titles(client, q=f"{WORD} cat:cs.LG -cat:cs.DC", mode="keyword") == [new.title]
    assert titles(client, q=f"{WORD} year:..2020", mode="keyword") == [old.title]


def test_active_filters_are_links_that_remove_them(client):
    html = client.get(
        "/search", {"q": WORD, "cat": ["cs.DC", "cs.LG"], "from": "2020", "cited": "1"}
    ).content.decode()
    assert 'href="?q=zorblaxian&amp;cat=cs.LG&amp;from=2020&amp;cited=1"' in html  # in cs.DC removed
    assert 'aria-label="Remove filter: from 2020"' in html
    assert 'href="?q=zorblaxian&amp;cat=cs.DC&amp;cat=cs.LG&amp;from=2020"' in html  # citations removed


def test_it_sorts_by_relevance_newest_or_most_cited(client):
    in_title = make_paper(
        title=f"{WORD} {WORD} in the title", abstract="Nothing else.", published=datetime.date(2020, 1, 1)
    )
    newest = make_paper(
        title="Newest",
        abstract=f"Mentions {WORD} once.",
        published=datetime.date(2026, 1, 1),
        cited_by_count=1,
    )
    cited = make_paper(
        title="Most cited",
        abstract=f"Also mentions {WORD}.",
        published=datetime.date(2022, 1, 1),
        cited_by_count=90,
    )
    mine = {in_title.title, newest.title, cited.title}
    for mode in ("keyword", "hybrid"):  # hybrid also brings the nearest papers by meaning: look at ours
        by = {sort: [t for t in titles(client, q=WORD, mode=mode, sort=sort) if t in mine] for sort in SORTS}
        assert by["relevance"][0] == in_title.title
        assert by["newest"] == [newest.title, cited.title, in_title.title]
        assert by["cited"] == [cited.title, newest.title, in_title.title]


def test_it_pages_twenty_at_a_time(client):
    for number in range(25):
        make_paper(
            title=f"{WORD} paper {number:02d}",
            published=datetime.date(2020, 1, 1) + datetime.timedelta(days=number),
        )
    first = client.get("/search", {"q": WORD, "mode": "keyword", "sort": "newest"})
    second = client.get("/search", {"q": WORD, "mode": "keyword", "sort": "newest", "page": "2"})
    assert hits(first)[0] == f"{WORD} paper 24" and len(hits(first)) == 20
    assert hits(second) == [f"{WORD} paper {number:02d}" for number in range(4, -1, -1)]
    assert (
        'href="?q=zorblaxian&amp;mode=keyword&amp;sort=newest&amp;page=2" hx-get=' in first.content.decode()
    )
    assert '<ol class="paper-list search-hits" start="21">' in second.content.decode()
    assert 'rel="prev"' in second.content.decode() and 'rel="next"' not in second.content.decode()
    assert hits(
        client.get("/search", {"q": WORD, "mode": "keyword", "sort": "newest", "page": "99"})
    ) == hits(second)
    assert hits(
        client.get("/search", {"q": WORD, "mode": "keyword", "sort": "newest", "page": "two"})
    ) == hits(first)


def test_an_empty_query_browses_the_latest_papers(client):
    latest = make_paper(title="From the future", published=datetime.date(2031, 1, 1))
    response = client.get("/search")
    assert response.status_code == 200
    assert hits(response)[0] == latest.title
    assert "Latest papers" in response.content.decode()


def test_researchers_and_institutions_whose_names_match_come_above_the_papers(client):
    university = Institution.objects.create(
        name="Zorblaxian Institute of Weaving", ror_id="05zorb123", country_code="NZ"
    )
    grace = make_researcher("Grace Zorblaxian", h_index=12)
    Affiliation.objects.create(researcher=grace, institution=university, last_known=True)
    make_paper(title="Woven compilers", authors=[grace])
    make_paper(title="Woven debuggers", authors=[grace, "Ada Lovelace"])
    html = client.get("/search", {"q": "Grace Zorblaxian"}).content.decode()
    people = html.index('id="people-heading"')
    assert f'<a href="{grace.get_absolute_url()}">Grace Zorblaxian</a>' in html
    assert "2 papers here · 2025 · cs.DL · Zorblaxian Institute of Weaving · h-index 12" in html
    assert people < html.index('id="results-heading"')
    html = client.get("/search", {"q": "zorblaxian institute"}).content.decode()
    assert f'<a href="{university.get_absolute_url()}">Zorblaxian Institute of Weaving</a>' in html
    assert 'NZ · ROR <a href="https://ror.org/05zorb123">05zorb123</a>' in html


def test_the_people_box_matches_names_as_the_researchers_index_and_tells_them_apart(client):
    further = make_researcher("Anna Zorblaxian")  # first by name and by id: neither decides the order
    closest = make_researcher("Grace Zorblaxian")
    make_paper(title="Woven looms", authors=[further, closest])
    make_paper(title="Woven threads", authors=[further], primary_category="cs.CL")
    make_paper(title="Woven threads again", authors=[further], primary_category="cs.CL")

    def people(q: str) -> list[str]:
        html = tree(client.get("/search", {"q": q}))
        return [text_of(li) for li in html.xpath("//section[@aria-labelledby='people-heading']//li")]

    # Every word typed starts a word of the name, in any order: Anna is no "Grace Zorblaxian".
    assert (
        people("Grace Zorblaxian")
        == people("zorblaxian grace")
        == ["Grace Zorblaxian · 1 paper here · 2025 · cs.DL · most with Anna Zorblaxian (1)"]
    )
    assert people("Zorblaxian") == [
        "Anna Zorblaxian · 3 papers here · 2025 · cs.CL, cs.DL · most with Grace Zorblaxian (1)",
        "Grace Zorblaxian · 1 paper here · 2025 · cs.DL · most with Anna Zorblaxian (1)",
    ]
    assert people("Grace Zorblaxain") == people("Grace Zorblaxian")  # a typo: names alike by trigrams


@pytest.mark.parametrize(
    "form", ["{id}", "arXiv:{id}", "{id}v3", "https://arxiv.org/abs/{id}v2", "arxiv.org/pdf/{id}.pdf"]
)
def test_an_arxiv_id_or_link_goes_straight_to_the_paper(client, form):
    paper = make_paper(title="Straight there")
    response = client.get("/search", {"q": form.format(id=paper.arxiv_id)})
    assert response.status_code == 302
    assert response["Location"] == paper.get_absolute_url()


def test_while_typing_an_id_the_paper_is_offered_not_jumped_to(client):
    paper = make_paper(title="Offered while typing")
    response = client.get(
        "/search", {"q": paper.arxiv_id}, headers={"HX-Request": "true", "HX-Target": "search-results"}
    )
    assert response.status_code == 200
    assert (
        f'Go to <a href="{paper.get_absolute_url()}">arXiv:{paper.arxiv_id} · Offered while typing</a>'
        in response.content.decode()
    )


def test_an_id_not_in_the_corpus_says_so_and_links_to_fetching_it(client):
    response = client.get("/search", {"q": "9912.99999"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "arXiv:9912.99999 is not in wovepaper yet." in html
    assert 'href="/papers/9912.99999"' in html and 'href="https://arxiv.org/abs/9912.99999"' in html


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced quote', "((((graph", "graph)))", "a AND (b OR", "'; DROP TABLE papers_paper; --",
        "1' OR '1'='1", "😀🔥🚀", "神经网络 graph", "сети", "\x01\x1b[31m", "\u202e\u200b", "OR OR OR",
        "-", "--", "- - -", "title:", "author:", 'author:""', "cat:", "year:", "year:99999", "cat:!!",
        "&&&|||!!!:*<->", "\\'\\\\", "x" * 5000, "word " * 400, "%s %(name)s {0}",
        "<script>alert(1)</script>",
    ],
)  # fmt: skip
@pytest.mark.parametrize("mode", ["hybrid", "keyword", "semantic"])
def test_bad_input_answers_200_with_results_or_a_helpful_nothing_found(client, query, mode):
    response = client.get("/search", {"q": query, "mode": mode})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>alert(1)" not in html
    assert 'class="paper-item search-hit"' in html or "Nothing found" in html


def test_nothing_found_suggests_dropping_a_filter_switching_mode_and_checking_a_name(client):
    make_researcher("Grace Zorblaxian")
    html = client.get(
        "/search", {"q": 'author:"Grace Zorblaxiam" qwxyzzy cat:cs.DC', "mode": "keyword", "cited": "1"}
    ).content.decode()
    assert "Nothing found" in html
    assert "Search every category" in html and "Include papers without citations" in html
    assert re.search(r'href="\?[^"]*mode=semantic[^"]*"[^>]*>Search by meaning instead of exact words<', html)
    assert "Papers by Grace Zorblaxian" in html and "author%3A%22Grace+Zorblaxian%22" in html
    assert "Check the spelling of the name" in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"mode": "fuzzy"}, "mode must be one of hybrid, keyword, semantic"),
        ({"sort": "random"}, "sort must be one of relevance, newest, cited"),
        ({"from": "last year"}, "from must be a year from 1991 to 2100"),
        ({"to": "20"}, "to must be a year from 1991 to 2100"),
        ({"from": "0000"}, "from must be a year from 1991 to 2100"),
        ({"to": "①②③④"}, "to must be a year from 1991 to 2100"),
        ({"cat": "cs.LG; DROP"}, "is not an arXiv category"),
        ({"cat": ["cs.LG"] * 21}, "at most 20 categories"),
        ({"cited": "maybe"}, "cited must be 1"),
    ],
)
def test_invalid_filter_values_answer_400_with_a_message(client, params, message):
    response = client.get("/search", {"q": "graph", **params})
    assert response.status_code == 400
    assert message in response.content.decode()
    fragment = client.get("/search", {"q": "graph", **params}, headers={"HX-Request": "true"})
    assert fragment.status_code == 400 and message in fragment.content.decode()


def test_years_that_do_not_overlap_find_nothing_and_say_why(client):
    make_paper(title=f"Any {WORD}", published=datetime.date(2021, 5, 1))
    response = client.get("/search", {"q": WORD, "from": "2023", "to": "2020"})
    assert response.status_code == 200 and hits(response) == []
    assert "The years asked for do not overlap (2023 is after 2020)." in response.content.decode()


def test_it_runs_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    grace = make_researcher("Grace Zorblaxian")
    for number in range(30):
        make_paper(title=f"Grace Zorblaxian paper {number}", authors=[grace, "Ada Lovelace", "Alan Turing"])
    client.get("/search", {"q": "Grace Zorblaxian"})  # caches where the recent papers begin (2 queries)
    # 1 keyword candidates ranked, 2 HNSW scan settings, 3 nearest papers by embedding, 4 the page's papers
    # (their snippets are made in Python), 5 their authorships and researchers, 6 whether a researcher's
    # name starts with the words, 7 those researchers, 8 their identity summaries (papers, years, fields,
    # co-author, institution), 9 institutions by name
    with django_assert_max_num_queries(9):
        response = client.get("/search", {"q": "Grace Zorblaxian"})
    assert len(hits(response)) == 20
    # 1 the latest papers, 2 how many there are (up to 10,000), 3 the page's papers, 4 their authorships
    with django_assert_max_num_queries(4):
        client.get("/search", {"cat": "cs.DL"})


def test_it_limits_each_address_and_answers_429_with_retry_after(client, settings):
    settings.SEARCH_RATE_LIMIT = "3/m"
    responses = [client.get("/search", {"q": "graph", "mode": "keyword"}) for _ in range(7)]
    assert responses[0].status_code == 200
    blocked = [response for response in responses if response.status_code == 429]
    assert blocked and 1 <= int(blocked[0]["Retry-After"]) <= 60  # until the minute's count starts over
    assert "Too many requests" in blocked[0].content.decode()


def test_an_author_search_says_how_many_papers_it_found(client):
    weaver = make_researcher("Ada Zorblaxweaver")
    for number in range(3):
        make_paper(title=f"Loom {number}", authors=[weaver])
    understood = text_of(
        tree(client.get("/search", {"q": 'author:"Ada Zorblaxweaver"'})).xpath("//p[@class='understood']")[0]
    )
    assert understood == "Latest papers by Ada Zorblaxweaver · 3 results"


def test_an_empty_search_offers_nothing_to_save_and_may_be_indexed(client):
    make_paper(title=f"A {WORD} loom")
    empty = tree(client.get("/search"))
    assert not empty.xpath("//p[@class='save-search']")
    assert not empty.xpath("//meta[@name='robots']")
    assert empty.xpath("//link[@rel='canonical']/@href") == ["http://127.0.0.1:8000/search"]
    asked = tree(client.get("/search", {"q": WORD}))
    assert asked.xpath("//p[@class='save-search']//a[text()='Save this search']")
    assert asked.xpath("//meta[@name='robots']/@content") == ["noindex, follow"]
