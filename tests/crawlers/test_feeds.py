"""RSS 2.0 feeds of the latest papers, a category's, a researcher's and an institution's."""

import datetime

import feedparser
import pytest

from institutions.models import Affiliation, Institution
from researchers.models import ResearcherRedirect
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"
# Later than anything in the demo corpus, so these papers lead the latest-papers feed.
FUTURE = datetime.date(2099, 1, 1)


def parse(client, url: str) -> feedparser.FeedParserDict:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/rss+xml; charset=utf-8"
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "rss20"
    return feed


def test_the_latest_feed_has_the_newest_50_papers_with_canonical_links_and_dates(client):
    hopper = make_researcher("Grace Hopper")
    newest = make_paper(
        title="Compilers & <b>everyone</b>", authors=[hopper, "Ada Lovelace"], published=FUTURE,
        abstract="We <i>weave</i> papers.", categories=["cs.PL", "cs.DL"],
    )  # fmt: skip
    for day in range(1, 55):
        make_paper(published=FUTURE - datetime.timedelta(days=day))
    feed = parse(client, "/rss/latest.xml")
    assert feed.feed.title == "wovepaper: latest papers" and feed.feed.link == f"{SITE}/"
    assert len(feed.entries) == 50
    first = feed.entries[0]
    assert first.link == f"{SITE}{newest.get_absolute_url()}" and first.id == first.link
    assert first.title == "Compilers & <b>everyone</b>"  # shown as text, not markup
    assert first.summary == "We &lt;i&gt;weave&lt;/i&gt; papers."
    assert first.published_parsed[:3] == (2099, 1, 1)
    assert first.author == "Grace Hopper, Ada Lovelace"
    assert [tag.term for tag in first.tags] == ["cs.PL", "cs.DL"]
    published = [entry.published_parsed for entry in feed.entries]
    assert published == sorted(published, reverse=True)
    assert feed.entries[-1].published_parsed[:3] == (2098, 11, 13)  # the 50th newest, 49 days before


def test_a_category_feed_has_only_that_categorys_papers(client):
    woven = make_paper(categories=["cs.DL", "cs.WV"], published=FUTURE)
    make_paper(categories=["cs.DL"], published=FUTURE)
    feed = parse(client, "/rss/category/cs.WV.xml")
    assert [entry.link for entry in feed.entries] == [f"{SITE}{woven.get_absolute_url()}"]
    assert feed.feed.title == "wovepaper: latest papers in cs.WV"
    for unknown in (
        "/rss/category/cs.NOPE.xml",
        "/rss/category/..%2F.xml",
        "/rss/category/" + "a" * 40 + ".xml",
    ):
        assert client.get(unknown).status_code == 404


def test_a_researcher_feed_follows_their_papers_and_their_absorbed_ids(client):
    hopper = make_researcher("Grace Hopper")
    theirs = make_paper(authors=["Ada Lovelace", hopper])
    make_paper(authors=["Ada Lovelace"])
    feed = parse(client, f"/rss/researchers/{hopper.pk}.xml")
    assert [entry.link for entry in feed.entries] == [f"{SITE}{theirs.get_absolute_url()}"]
    assert feed.feed.link == f"{SITE}{hopper.get_absolute_url()}"
    ResearcherRedirect.objects.create(old_id=987_654_321, researcher=hopper)
    moved = client.get("/rss/researchers/987654321.xml")
    assert (moved.status_code, moved["Location"]) == (301, f"/rss/researchers/{hopper.pk}.xml")
    assert client.get("/rss/researchers/987654320.xml").status_code == 404


def test_an_institution_feed_follows_its_members_papers(client):
    institution = Institution.objects.create(name="University of Woven Studies")
    member = make_researcher("Grace Hopper")
    Affiliation.objects.create(researcher=member, institution=institution)
    theirs = make_paper(authors=[member])
    make_paper()
    feed = parse(client, f"/rss/institutions/{institution.pk}.xml")
    assert [entry.link for entry in feed.entries] == [f"{SITE}{theirs.get_absolute_url()}"]
    assert feed.feed.title == "wovepaper: papers from University of Woven Studies"
    assert client.get("/rss/institutions/987654321.xml").status_code == 404


def test_the_feeds_run_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    hopper = make_researcher("Grace Hopper")
    institution = Institution.objects.create(name="University of Woven Studies")
    Affiliation.objects.create(researcher=hopper, institution=institution)
    for day in range(60):
        make_paper(authors=[hopper], categories=["cs.WV"], published=FUTURE - datetime.timedelta(days=day))
    # 1 the latest papers
    with django_assert_max_num_queries(1):
        client.get("/rss/latest.xml")
    # 1 the category's latest papers
    with django_assert_max_num_queries(1):
        client.get("/rss/category/cs.WV.xml")
    # 1 the researcher, 2 their latest papers
    with django_assert_max_num_queries(2):
        client.get(f"/rss/researchers/{hopper.pk}.xml")
    # 1 the institution, 2 its latest papers
    with django_assert_max_num_queries(2):
        client.get(f"/rss/institutions/{institution.pk}.xml")


@pytest.mark.django_db
def test_item_titles_are_readable_text_not_tex(client):
    """Issue 15: a feed reader shows an item's title as it is: 'On α-nets', not 'On $\\alpha$-nets'."""
    author = make_researcher("Titled Author")
    make_paper(title="On $\\alpha$-nets and Bal\\'azs", authors=[author])
    feed = feedparser.parse(client.get(f"/rss/researchers/{author.pk}.xml").content)
    assert [entry.title for entry in feed.entries] == ["On α-nets and Balázs"]
