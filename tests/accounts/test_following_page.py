"""/following: the papers of the researchers a reader follows, newest first, paged, with those researchers
listed and unfollow in place."""

import datetime

import pytest

from tests.factories import make_account, make_follow, make_paper, make_researcher
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db


def test_it_lists_the_followed_researchers_papers_newest_first_each_once(client):
    reader = make_account()
    ada, grace, stranger = (
        make_researcher("Ada Warpley"),
        make_researcher("Grace Weftwright"),
        make_researcher(),
    )
    make_follow(reader, ada)
    make_follow(reader, grace)
    old = make_paper(title="Old loom notes", authors=[ada], published=datetime.date(2001, 1, 1))
    joint = make_paper(title="Woven together", authors=[ada, grace], published=datetime.date(2030, 5, 5))
    newest = make_paper(
        title="Newest threads", authors=["Someone", grace], published=datetime.date(2031, 1, 1)
    )
    make_paper(title="Not followed", authors=[stranger], published=datetime.date(2032, 1, 1))
    other_reader = make_account()
    make_follow(other_reader, stranger)
    client.force_login(reader)

    response = client.get("/following")
    assert response.status_code == 200
    assert texts(response, "//section[@id='paper-list']//h3") == [newest.title, joint.title, old.title]
    assert texts(response, "//section[@id='paper-list']//p[@class='list-summary']") == [
        "3 papers by the researchers you follow"
    ]
    followed = tree(response).xpath("//ul[@class='followed-list']/li")
    assert [item.xpath("./a/text()")[0] for item in followed] == ["Grace Weftwright", "Ada Warpley"]
    assert followed[0].xpath(".//form/@action") == [f"/following/{grace.pk}/unfollow"]
    assert followed[0].xpath(".//form/@hx-post") == [f"/following/{grace.pk}/unfollow"]
    assert followed[0].xpath(".//input[@name='next']/@value") == ["/following"]


def test_it_pages_24_at_a_time_in_place(client):
    reader = make_account()
    prolific = make_researcher("Prolific Weaver")
    make_follow(reader, prolific)
    for day in range(30):
        make_paper(
            title=f"Paper of day {day:02d}",
            authors=[prolific],
            published=datetime.date(2030, 1, 1) + datetime.timedelta(days=day),
        )
    client.force_login(reader)
    first = client.get("/following")
    assert len(texts(first, "//section[@id='paper-list']//h3")) == 24
    assert texts(first, "//nav[@class='pager']//li[@aria-current='page']") == ["Page 1 of 2"]
    next_link = tree(first).xpath("//nav[@class='pager']//a[@rel='next']")[0]
    assert next_link.get("href") == next_link.get("hx-get") == "?page=2"
    second = client.get("/following", {"page": "2"}, headers={"HX-Request": "true"})
    fragment = tree(second)
    assert fragment.get("id") == "paper-list"  # only the list, not the page
    assert [text_of(h3) for h3 in fragment.xpath(".//h3")] == [
        f"Paper of day {day:02d}" for day in range(5, -1, -1)
    ]


def test_following_no_one_says_how_to_start(client):
    client.force_login(make_account())
    response = client.get("/following")
    assert texts(response, "//section[@id='paper-list']//p[@class='faint']") == ["No papers yet."]
    assert "You follow no one yet." in text_of(tree(response).xpath("//aside")[0])


def test_it_needs_signing_in(client):
    assert client.get("/following")["Location"] == "/accounts/sign-in?next=/following"


def test_it_runs_the_same_few_queries_however_many_follows_and_papers(client, django_assert_max_num_queries):
    for follows, papers in ((1, 2), (6, 40)):
        reader = make_account()
        for number in range(follows):
            researcher = make_researcher(f"Researcher {number}")
            make_follow(reader, researcher)
            for _ in range(papers // follows):
                make_paper(authors=[researcher, "Unmatched Coauthor"])
        client.force_login(reader)
        # 1 the user, 2 count of the papers, 3 the page of papers, 4 their authorships with researchers,
        # 5 the researchers followed with their follower counts (the session is in the cache)
        with django_assert_max_num_queries(5):
            response = client.get("/following")
        assert response.status_code == 200
