"""Private RSS 2.0 feeds: the papers of the researchers a reader follows and each saved search's newest
matches, behind the account's secret token; another reader's token or ids get nothing."""

import datetime

import feedparser
import pytest

from accounts.models import AccountSettings
from tests.factories import make_account, make_follow, make_paper, make_researcher, make_saved_search

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"
FUTURE = datetime.date(2099, 1, 1)


def token_of(user) -> str:
    return AccountSettings.objects.get(user=user).feed_token


def parse(client, url: str) -> feedparser.FeedParserDict:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/rss+xml; charset=utf-8"
    assert response["X-Robots-Tag"] == "noindex"
    assert response["Cache-Control"] == "private, max-age=300"
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "rss20"
    return feed


def test_the_following_feed_has_the_followed_researchers_papers_newest_first(client):
    reader = make_account()
    ada, stranger = make_researcher("Ada Warpley"), make_researcher("Stranger Thread")
    make_follow(reader, ada)
    older = make_paper(title="Punched <cards>", authors=[ada], published=FUTURE - datetime.timedelta(days=3))
    newer = make_paper(title="Looms as computers", authors=["Someone", ada], published=FUTURE)
    make_paper(title="Not followed", authors=[stranger], published=FUTURE)

    feed = parse(
        client, f"/account/feeds/{token_of(reader)}/following.xml"
    )  # no session: readers can't sign in
    assert feed.feed.title == "wovepaper: new papers by researchers you follow"
    assert feed.feed.link == f"{SITE}/following"
    assert [entry.title for entry in feed.entries] == ["Looms as computers", "Punched <cards>"]
    assert [entry.link for entry in feed.entries] == [
        f"{SITE}{newer.get_absolute_url()}",
        f"{SITE}{older.get_absolute_url()}",
    ]
    assert feed.entries[0].author == "Someone, Ada Warpley"


def test_a_saved_search_feed_has_its_newest_matches_whatever_order_it_was_saved_in(client):
    reader = make_account()
    first = make_paper(
        title="Zyxquiltry of graphs", published=FUTURE - datetime.timedelta(days=9), cited_by_count=90
    )
    second = make_paper(title="More zyxquiltry", published=FUTURE, cited_by_count=1)
    make_paper(
        title="Zyxquiltry elsewhere", categories=["math.CO"], primary_category="math.CO", published=FUTURE
    )
    saved = make_saved_search(reader, "q=zyxquiltry&mode=keyword&cat=cs.DL&sort=cited", name="Quilts")

    feed = parse(client, f"/account/feeds/{token_of(reader)}/searches/{saved.pk}.xml")
    assert feed.feed.title == "wovepaper: Quilts"
    assert feed.feed.link == f"{SITE}/search?q=zyxquiltry&mode=keyword&cat=cs.DL&sort=cited"
    assert feed.feed.description == "The newest papers in cs.DL matching 'zyxquiltry', on wovepaper."
    assert [entry.link for entry in feed.entries] == [
        f"{SITE}{second.get_absolute_url()}",
        f"{SITE}{first.get_absolute_url()}",
    ]


def test_a_rotated_token_stops_working(client):
    reader = make_account()
    saved = make_saved_search(reader, "q=zyxquiltry&mode=keyword")
    old = token_of(reader)
    client.force_login(reader)
    client.post("/account/feeds/rotate")
    client.logout()
    assert client.get(f"/account/feeds/{old}/following.xml").status_code == 404
    assert client.get(f"/account/feeds/{old}/searches/{saved.pk}.xml").status_code == 404
    parse(client, f"/account/feeds/{token_of(reader)}/searches/{saved.pk}.xml")


def test_another_readers_token_and_ids_get_nothing(client):
    owner, other = make_account(), make_account()
    theirs = make_saved_search(owner, "q=zyxquiltry&mode=keyword")
    mine = make_saved_search(other, "q=zyxquiltry&mode=keyword")
    assert client.get(f"/account/feeds/{token_of(other)}/searches/{theirs.pk}.xml").status_code == 404
    assert client.get(f"/account/feeds/{token_of(owner)}/searches/{mine.pk}.xml").status_code == 404
    assert client.get("/account/feeds/not-a-token/following.xml").status_code == 404
    assert client.get(f"/account/feeds/{token_of(owner)}/searches/987654321.xml").status_code == 404


def test_an_unconfirmed_accounts_token_gets_nothing(client):
    pending = make_account(active=False)
    assert client.get(f"/account/feeds/{token_of(pending)}/following.xml").status_code == 404
