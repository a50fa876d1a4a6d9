"""The researcher profile: every element on data with known answers."""

import datetime
import re
from dataclasses import dataclass

import pytest
from django.core.cache import cache

from analysis.models import Topic
from papers.models import Paper
from researchers.figures import SAME_NAME_SHOWN, profile_figures
from researchers.models import Researcher, ResearcherRedirect
from tests.factories import give_topics, make_affiliation, make_institution, make_paper, make_researcher
from tests.html import jsonld_nodes, text_of, texts, tree

pytestmark = pytest.mark.django_db


@dataclass
class Profile:
    grace: Researcher
    ada: Researcher
    alan: Researcher
    first: Paper
    last: Paper
    middle: Paper
    sole: Paper
    unmatched: Paper


@pytest.fixture
def profile() -> Profile:
    """Grace Weftwright: first, last, middle and sole author once each where every author is matched, and
    once more on a paper with an unmatched co-author."""
    grace = make_researcher(
        "Grace Weftwright", h_index=12, citation_count=3400, works_count=210, s2_id="9999000001",
        openalex_id="A9999000001", orcid="0000-0002-1825-0097",
    )  # fmt: skip
    ada = make_researcher("Ada Warpley")
    alan = make_researcher("Alan Shuttleworth")
    return Profile(
        grace=grace,
        ada=ada,
        alan=alan,
        first=make_paper(
            title="Looms as computers", authors=[grace, ada], categories=["cs.LG", "cs.AI"],
            primary_category="cs.LG", published=datetime.date(2025, 5, 3), cited_by_count=10,
        ),
        last=make_paper(
            title="Punched cards revisited", authors=[ada, grace], categories=["cs.LG"],
            primary_category="cs.LG", published=datetime.date(2025, 4, 1), cited_by_count=50,
        ),
        middle=make_paper(
            title="Counting threads", authors=[ada, grace, alan], categories=["math.CO"],
            primary_category="math.CO", published=datetime.date(2024, 1, 1),
        ),
        sole=make_paper(
            title="A weaver's notebook", authors=[grace], categories=["cs.DL"], primary_category="cs.DL",
            published=datetime.date(2023, 6, 1), cited_by_count=2,
        ),
        unmatched=make_paper(
            title="With a stranger", authors=[grace, "Someone Unmatched"], categories=["cs.LG"],
            primary_category="cs.LG", published=datetime.date(2022, 2, 2),
        ),
    )  # fmt: skip


def test_it_shows_the_eyebrow_name_and_every_known_badge(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    assert response.status_code == 200
    page = tree(response)
    assert text_of(page.xpath("//aside//p[@class='eyebrow']")[0]) == "researcher"
    assert text_of(page.xpath("//h1")[0]) == "Grace Weftwright"
    assert texts(response, "//ul[@class='badges']/li") == [
        "5 papers here", "h-index 12", "3,400 citations", "210 works total",
    ]  # fmt: skip
    assert "Matching runs newest-first, so older work may not be attached to this profile yet." in texts(
        response, "//aside//p[@class='note']"
    )


def test_it_shows_only_the_badges_it_knows(client):
    researcher = make_researcher("Lone Bobbin")
    make_paper(authors=[researcher])
    response = client.get(researcher.get_absolute_url())
    assert texts(response, "//ul[@class='badges']/li") == ["1 paper here"]


def test_it_draws_the_author_positions_with_counts_and_the_sentence(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    section = tree(response).xpath("//section[@aria-labelledby='positions-heading']")[0]
    bars = [text_of(row) for row in section.xpath(".//li[contains(@class, 'bar-row')]")]
    assert bars == ["first 1", "middle 1", "last 1", "sole author 1"]
    widths = section.xpath(".//rect[@class='bar-fill']/@width")  # an attribute: no inline style for the CSP
    assert widths == ["25%"] * 4
    assert "Across the 4 of 5 papers where every author was matched, so the position is known." in text_of(
        section
    )


def test_it_draws_the_fields_as_filter_links_with_the_active_one_marked(client, profile):
    url = profile.grace.get_absolute_url()
    response = client.get(url, {"category": "cs.LG", "sort": "cited"})
    links = tree(response).xpath("//section[@id='field-bars']//a[contains(@class, 'bar-row')]")
    assert [text_of(link) for link in links] == ["cs.LG 3", "cs.AI 1", "cs.DL 1", "math.CO 1"]
    assert links[1].get("href") == "?sort=cited&category=cs.AI"  # the sort is kept
    assert links[1].get("hx-get") == links[1].get("href")
    assert [link.get("aria-current") for link in links] == ["true", None, None, None]
    assert texts(response, "//section[@id='paper-list']//h3") == [
        "Punched cards revisited", "Looms as computers", "With a stranger",
    ]  # fmt: skip


def test_it_lists_researchers_with_the_same_name_and_what_tells_them_apart(client, profile):
    namesake = make_researcher("Grace  Weftwright", h_index=3)
    partner = make_researcher("Hedy Shuttlecock")
    make_paper(authors=[namesake, partner], primary_category="q-bio.NC", published=datetime.date(2019, 2, 1))
    make_paper(authors=[namesake, partner, "Someone Else"], primary_category="q-bio.NC")
    make_paper(authors=[namesake], primary_category="cs.DL", published=datetime.date(2021, 3, 1))
    make_affiliation(namesake, make_institution("Institute of Looms"))
    other = make_researcher("Gráce Weftwright")
    make_paper(authors=[other])
    make_researcher("Grace Weftwright")  # no paper here: not listed
    response = client.get(profile.grace.get_absolute_url())
    section = tree(response).xpath("//section[@aria-labelledby='same-name-heading']")[0]
    assert [text_of(item) for item in section.xpath(".//li")] == [
        "Grace Weftwright · 3 papers here · 2019–2025 · q-bio.NC, cs.DL · most with Hedy Shuttlecock (2)"
        " · Institute of Looms · h-index 3",
        "Gráce Weftwright · 1 paper here · 2025 · cs.DL",
    ]
    assert section.xpath(".//a/@href") == [namesake.get_absolute_url(), other.get_absolute_url()]
    assert (
        "Either other researchers who publish under this name, or the same person where the external "
        "sources have not merged their records." in text_of(section)
    )


# What a same-name row must say: papers here, the years, then at least one field ("cs.CV", "hep-th").
TOLD_APART = re.compile(r"^· \d+ papers? here · \d{4}(–\d{4})? · [a-z-]+(\.[A-Za-z-]+)?\b")


def test_the_yang_lius_of_the_demo_corpus_are_told_apart_on_a_profile_and_in_the_name_filter(
    client, demo_corpus
):
    namesakes = Researcher.objects.people().filter(normalised_name="yang liu")
    urls = {researcher.get_absolute_url() for researcher in namesakes}
    assert len(urls) >= 5
    section = tree(client.get(min(namesakes, key=lambda r: r.pk).get_absolute_url())).xpath(
        "//section[@aria-labelledby='same-name-heading']"
    )[0]
    on_profile = [text_of(item.xpath("./span")[0]) for item in section.xpath(".//li")]
    assert len(on_profile) == min(len(urls) - 1, SAME_NAME_SHOWN)
    matches = Researcher.objects.people().named("yang liu").count()
    in_filter = [
        text_of(item.xpath("./span")[0])
        for page in range(1, matches // 50 + 2)
        for item in tree(client.get("/researchers", {"q": "yang liu", "page": page})).xpath(
            "//section[@id='results']/ul/li"
        )
        if item.xpath("./a/@href")[0] in urls
    ]
    assert len(in_filter) == len(urls)
    for rows in (on_profile, in_filter):
        assert len(set(rows)) == len(rows), rows  # no two of them read alike
        assert [row for row in rows if not TOLD_APART.match(row) or " · most with " not in row] == []


def test_it_leaves_out_the_same_name_section_when_nobody_shares_the_name(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    assert not tree(response).xpath("//section[@aria-labelledby='same-name-heading']")


def test_it_names_the_most_cited_paper_with_the_totals(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    section = tree(response).xpath("//section[@class='most-cited']")[0]
    assert section.xpath(".//a/@href") == [profile.last.get_absolute_url()]
    assert "50 citations · 62 across the 3 of their papers we have counts for" in text_of(section)


def test_it_draws_the_coauthor_network_with_linked_nodes_and_a_text_list(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    section = tree(response).xpath("//section[@class='coauthors']")[0]
    svg = section.xpath(".//svg")[0]
    assert svg.get("aria-hidden") == "true"
    assert svg.xpath(".//a/@href") == [profile.ada.get_absolute_url(), profile.alan.get_absolute_url()]
    assert len(svg.xpath(".//line[@class='chord']")) == 1  # Ada and Alan wrote one of these together
    assert [text_of(item) for item in section.xpath(".//ul[@class='coauthor-list']/li")] == [
        "Ada Warpley 3 shared papers",
        "Alan Shuttleworth 1 shared paper",
    ]


def test_it_links_the_last_known_institution_and_the_external_identities(client, profile):
    yale = make_institution("Yale University", ror_id="0wovepa01")
    make_affiliation(profile.grace, yale, last_known=True)
    make_affiliation(profile.grace, make_institution("Old Place"), last_known=False)
    response = client.get(profile.grace.get_absolute_url())
    page = tree(response)
    institutions = page.xpath("//section[@aria-labelledby='institutions-heading']//a")
    assert [(a.text, a.get("href")) for a in institutions] == [("Yale University", yale.get_absolute_url())]
    identity = page.xpath("//section[@aria-labelledby='identity-heading']")[0]
    assert text_of(identity.xpath(".//h2")[0]) == "identity via Semantic Scholar / OpenAlex"
    assert identity.xpath(".//a/@href") == [
        "https://www.semanticscholar.org/author/9999000001",
        "https://openalex.org/A9999000001",
        "https://orcid.org/0000-0002-1825-0097",
    ]
    assert "arXiv author names only" not in text_of(identity)


def test_it_says_when_identity_comes_from_arxiv_names_only(client):
    researcher = make_researcher("Lone Bobbin")
    make_paper(authors=[researcher])
    identity = tree(client.get(researcher.get_absolute_url())).xpath(
        "//section[@aria-labelledby='identity-heading']"
    )[0]
    assert "Identity comes from arXiv author names only" in text_of(identity)
    assert not identity.xpath(".//a")


def test_the_follow_control_is_a_form_that_posts_back_to_this_page(client, profile):
    url = profile.grace.get_absolute_url()
    form = tree(client.get(url)).xpath("//div[@class='follow']/form")[0]
    assert (form.get("method"), form.get("action")) == ("post", f"/following/{profile.grace.pk}/follow")
    assert form.xpath(".//input[@name='next']/@value") == [url]
    assert text_of(form.xpath(".//button")[0]) == "Follow Grace Weftwright"


def test_each_paper_item_links_its_title_matched_authors_and_arxiv(client, profile):
    response = client.get(profile.grace.get_absolute_url())
    item = tree(response).xpath("//section[@id='paper-list']//li[@class='paper-item']")[0]
    paper = profile.first
    assert item.xpath(".//h3/a/@href") == [paper.get_absolute_url()]
    assert item.xpath(".//p[@class='authors']/a/@href") == [
        profile.grace.get_absolute_url(), profile.ada.get_absolute_url(),
    ]  # fmt: skip
    # the profile's own name is marked as this page, not shown as one more link away
    assert item.xpath(".//p[@class='authors']/a[@aria-current='page']/text()") == ["Grace Weftwright"]
    meta = item.xpath(".//p[@class='paper-meta']")[0]
    assert (
        "3 May 2025" in text_of(meta) and "cs.LG · cs.AI" in text_of(meta) and "10 citations" in text_of(meta)
    )
    assert meta.xpath(".//a/@href") == [
        f"https://arxiv.org/abs/{paper.arxiv_id}",
        f"https://arxiv.org/pdf/{paper.arxiv_id}",
    ]


def test_a_long_abstract_opens_from_an_excerpt(client):
    researcher = make_researcher("Lone Bobbin")
    abstract = "We weave. " * 60 + "The very end."
    make_paper(authors=[researcher], abstract=abstract)
    details = tree(client.get(researcher.get_absolute_url())).xpath("//details[@class='excerpt']")[0]
    summary = text_of(details.xpath("./summary")[0])
    assert summary.startswith("We weave. We weave.") and "The very end." not in summary
    assert text_of(details.xpath("./p[@class='abstract']")[0]).endswith("The very end.")


NEWEST = [
    "Looms as computers",
    "Punched cards revisited",
    "Counting threads",
    "A weaver's notebook",
    "With a stranger",
]
MOST_CITED = [
    "Punched cards revisited",
    "Looms as computers",
    "A weaver's notebook",
    "Counting threads",
    "With a stranger",
]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [("", NEWEST), ("oldest", NEWEST[::-1]), ("cited", MOST_CITED), ("nonsense", NEWEST)],
)
def test_it_sorts_the_papers(client, profile, sort, expected):
    response = client.get(profile.grace.get_absolute_url(), {"sort": sort} if sort else {})
    assert response.status_code == 200
    assert texts(response, "//section[@id='paper-list']//h3") == expected
    current = tree(response).xpath("//nav[@class='sort-links']/a[@aria-current='true']")
    assert [text_of(link) for link in current] == [
        {"oldest": "Oldest", "cited": "Most cited"}.get(sort, "Newest")
    ]


def test_it_pages_through_24_papers_at_a_time_keeping_the_filter(client):
    researcher = make_researcher("Prolific Bobbin")
    for day in range(1, 31):
        make_paper(authors=[researcher], published=datetime.date(2025, 1, day), title=f"Thread {day:02d}")
    url = researcher.get_absolute_url()
    first = client.get(url, {"category": "cs.DL"})
    assert len(texts(first, "//section[@id='paper-list']//h3")) == 24
    next_link = tree(first).xpath("//a[@rel='next']")[0]
    assert next_link.get("href") == "?category=cs.DL&page=2"
    second = client.get(url, {"category": "cs.DL", "page": "2"})
    assert texts(second, "//section[@id='paper-list']//h3") == [
        f"Thread {day:02d}" for day in range(6, 0, -1)
    ]
    assert "Page 2 of 2" in texts(second, "//li[@aria-current='page']")


@pytest.mark.parametrize(
    ("params", "expected_page"),
    [({"page": "abc"}, "Page 1 of 2"), ({"page": "99999"}, "Page 2 of 2"), ({"page": "-3"}, "Page 2 of 2")],
)
def test_a_page_number_that_is_not_one_gives_a_sensible_page(client, params, expected_page):
    researcher = make_researcher("Prolific Bobbin")
    for _ in range(25):
        make_paper(authors=[researcher])
    response = client.get(researcher.get_absolute_url(), params)
    assert response.status_code == 200
    assert expected_page in texts(response, "//li[@aria-current='page']")


def test_a_category_that_cannot_be_one_is_a_400_with_a_message(client, profile):
    response = client.get(profile.grace.get_absolute_url(), {"category": "<script>alert(1)</script>"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "The category filter must be an arXiv category such as cs.LG or hep-th." in html
    assert "<script>alert" not in html


def test_the_head_has_title_description_canonical_and_social_cards(client, profile):
    url = profile.grace.get_absolute_url()
    page = tree(client.get(url))
    canonical = f"http://127.0.0.1:8000{url}"
    assert page.findtext(".//title") == "Grace Weftwright · wovepaper"
    assert page.xpath("//meta[@name='description']/@content") == [
        "Grace Weftwright: 5 papers in this archive · h-index 12."
    ]
    assert page.xpath("//link[@rel='canonical']/@href") == [canonical]
    assert page.xpath("//meta[@property='og:url']/@content") == [canonical]
    assert page.xpath("//meta[@property='og:title']/@content") == ["Grace Weftwright"]
    assert page.xpath("//meta[@name='twitter:card']/@content") == ["summary_large_image"]


def test_the_json_ld_has_the_person_the_breadcrumbs_and_the_site(client, profile):
    url = profile.grace.get_absolute_url()
    nodes = {node["@type"]: node for node in jsonld_nodes(client.get(url))}
    canonical = f"http://127.0.0.1:8000{url}"
    person = nodes["Person"]
    assert person["@id"] == f"{canonical}#person" and person["name"] == "Grace Weftwright"
    assert "https://orcid.org/0000-0002-1825-0097" in person["sameAs"]
    crumbs = nodes["BreadcrumbList"]["itemListElement"]
    assert [(crumb["name"], crumb["item"]) for crumb in crumbs] == [
        ("wovepaper", "http://127.0.0.1:8000/"),
        ("Researchers", "http://127.0.0.1:8000/researchers"),
        ("Grace Weftwright", canonical),
    ]
    assert {"Organization", "WebSite"} <= nodes.keys()


def test_an_htmx_request_gets_the_list_and_the_field_bars_a_plain_request_the_page(client, profile):
    url = profile.grace.get_absolute_url()
    fragment = client.get(url, {"category": "cs.AI"}, headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in html and "site-footer" not in html
    assert html.lstrip().startswith('<section id="paper-list"')
    assert texts(fragment, "//section[@id='paper-list']//h3") == ["Looms as computers"]
    oob = tree(fragment).xpath("//section[@id='field-bars']")[0]
    assert oob.get("hx-swap-oob") == "true"
    assert oob.xpath(".//a[@aria-current='true']/span[1]/text()") == ["cs.AI"]
    assert "HX-Request" in fragment["Vary"]

    whole = client.get(url, {"category": "cs.AI"})
    assert "<html" in whole.content.decode() and "hx-swap-oob" not in whole.content.decode()
    history = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in history.content.decode()


def test_the_id_alone_and_a_wrong_slug_redirect_to_the_canonical_address(client, profile):
    canonical = profile.grace.get_absolute_url()
    assert canonical == f"/researchers/{profile.grace.pk}-grace-weftwright"
    for variant in (f"/researchers/{profile.grace.pk}", f"/researchers/{profile.grace.pk}-ada-lovelace"):
        response = client.get(variant)
        assert (response.status_code, response["Location"]) == (301, canonical)
    kept = client.get(f"/researchers/{profile.grace.pk}", {"category": "cs.LG"})
    assert kept["Location"] == f"{canonical}?category=cs.LG"


def test_an_absorbed_id_redirects_to_the_survivor_and_an_unknown_one_is_a_404(client, profile):
    ResearcherRedirect.objects.create(old_id=987_654_321, researcher=profile.grace)
    response = client.get("/researchers/987654321")
    assert (response.status_code, response["Location"]) == (301, profile.grace.get_absolute_url())
    missing = client.get("/researchers/987654322-nobody")
    assert missing.status_code == 404 and "This page isn't here" in missing.content.decode()


def test_names_are_not_addresses(client, profile):
    assert client.get("/researchers/grace-weftwright").status_code == 404


def test_it_runs_the_same_few_queries_however_many_papers(client, django_assert_max_num_queries):
    coauthor = make_researcher("Ada Warpley")
    for papers in (3, 40):
        researcher = make_researcher(f"Bobbin With {papers}")
        for number in range(papers):
            make_paper(authors=[researcher, coauthor, "Unmatched Person"], cited_by_count=number)
        # 1 researcher with its paper count, citation sums and follower count, 2 the page of papers (the
        # paper count came with the researcher), 3 their authorships with researchers; then the figures
        # (researchers/figures.py): 4 fields histogram, 5 author positions, 6 co-authors, 7 co-author
        # pairs, 8 most cited paper, 9 last known institutions, 10 same-name researchers, 11 their papers'
        # topics counted, 12 those topics
        with django_assert_max_num_queries(12):
            response = client.get(researcher.get_absolute_url())
        assert response.status_code == 200
        # htmx paging, the figures cached by now: 1 researcher, 2 page of papers, 3 authorships
        with django_assert_max_num_queries(3):
            client.get(researcher.get_absolute_url(), {"page": "2"}, headers={"HX-Request": "true"})


def test_the_figures_are_cached_for_a_while(client, settings):
    settings.PAGE_FIGURES_TTL = 600
    researcher = make_researcher("Cached Weaver")
    make_paper(authors=[researcher], categories=["cs.DL", "cs.IR"])
    make_paper(authors=[researcher, "Someone Else"], categories=["cs.DL"])
    figures = profile_figures(researcher)
    fields = [(field["category"], field["paper_count"]) for field in figures.fields]
    assert fields == [("cs.DL", 2), ("cs.IR", 1)]
    assert figures.positions == {"first": 0, "middle": 0, "last": 0, "sole": 1}  # the matched papers
    make_paper(authors=[researcher], categories=["cs.IR"])
    page = client.get(researcher.get_absolute_url(), {"category": "cs.IR"})
    assert len(texts(page, "//ul[@class='paper-list']/li//h3")) == 2  # the list and its count are not cached
    assert profile_figures(researcher).fields[1] == {"category": "cs.IR", "paper_count": 1}  # the figures are
    cache.delete(f"researcher-profile-figures:{researcher.pk}")
    assert {"category": "cs.IR", "paper_count": 2} in profile_figures(researcher).fields


def test_it_links_the_topics_of_their_papers_most_papers_first(client, profile):
    centroid = [1.0] + [0.0] * 383
    looms = Topic.objects.create(label="looms, weft", keywords=["looms"], size=2, centroid=centroid)
    cards = Topic.objects.create(label="punched cards", keywords=["cards"], size=1, centroid=centroid)
    merged = Topic.objects.create(label="old", size=0, centroid=centroid, merged_into=looms)
    for paper, topics in ((profile.first, [looms, cards]), (profile.sole, [looms]), (profile.last, [merged])):
        give_topics(paper, topics)
    cache.delete(f"researcher-profile-figures:{profile.grace.pk}")
    response = client.get(profile.grace.get_absolute_url())
    links = tree(response).xpath("//section[@aria-labelledby='topics-heading']//li")
    assert [text_of(link) for link in links] == ["looms, weft · 2 papers", "punched cards · 1 paper"]
    assert links[0].xpath("a/@href") == [looms.get_absolute_url()]
    markdown = client.get(profile.grace.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert f"- [looms, weft](http://127.0.0.1:8000{looms.get_absolute_url()}): 2 papers" in markdown
