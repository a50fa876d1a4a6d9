"""Saving a search from its results page: the link carries the search, a page names it, and it is kept in
one fixed form (the same search saved twice is one saved search)."""

import pytest
from django.test import Client

from accounts.models import SavedSearch
from accounts.services import MAX_SAVED_SEARCHES
from tests.factories import ACCOUNT_PASSWORD, make_account, make_paper, make_saved_search
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

SEARCH = "/search?q=zyxloomcraft&mode=keyword&cat=cs.DL&page=2"


def save_link(client: Client, url: str = SEARCH) -> str:
    links = tree(client.get(url)).xpath("//p[@class='save-search']/a/@href")
    assert len(links) == 1
    return links[0]


def test_the_results_page_links_to_saving_the_search_it_shows(client):
    make_paper(title="Zyxloomcraft for beginners", categories=["cs.DL"])
    link = save_link(client)
    assert link == "/account/saved-searches/new?q=zyxloomcraft&mode=keyword&cat=cs.DL"
    fragment = client.get(SEARCH, headers={"HX-Request": "true"})  # the results region swapped by htmx
    assert tree(fragment).xpath("//p[@class='save-search']/a/@href") == [link]


def test_signed_out_saving_goes_through_sign_in_and_back(client):
    make_account("saver@example.org")
    link = save_link(client)
    response = client.get(link)
    assert response["Location"] == "/accounts/sign-in?next=" + link.replace("?", "%3F").replace(
        "&", "%26"
    ).replace("=", "%3D")
    signed_in = client.post(
        "/accounts/sign-in", {"email": "saver@example.org", "password": ACCOUNT_PASSWORD, "next": link}
    )
    assert signed_in["Location"] == link
    assert texts(client.get(link), "//h1") == ["Save this search"]


def test_it_names_and_saves_the_search_in_one_fixed_form(client):
    reader = make_account()
    client.force_login(reader)
    page = client.get(
        "/account/saved-searches/new",
        {"q": "  zyxloomcraft  ", "cat": ["cs.DL", "cs.DL"], "mode": "hybrid", "sort": "newest",
         "from": "2020", "to": "", "cited": "1", "page": "4"},
    )  # fmt: skip
    assert page.status_code == 200
    form = tree(page).xpath("//main//form")[0]
    assert form.xpath(".//input[@name='name']/@value") == ["zyxloomcraft"]
    query = form.xpath(".//input[@name='query']/@value")[0]
    assert query == "q=zyxloomcraft&cat=cs.DL&from=2020&cited=1&sort=newest"
    assert "Papers in cs.DL since 2020 with citations matching 'zyxloomcraft'." in text_of(
        tree(page).xpath("//main")[0]
    )

    response = client.post("/account/saved-searches/new", {"name": "Loomcraft", "query": query})
    assert (response.status_code, response["Location"]) == (302, "/account#saved-searches")
    saved = SavedSearch.objects.get(owner=reader)
    assert (saved.name, saved.query_string, saved.email_alerts) == ("Loomcraft", query, True)

    client.post(
        "/account/saved-searches/new", {"name": "Loomcraft again", "query": query.replace("q=", "page=9&q=")}
    )
    assert list(SavedSearch.objects.filter(owner=reader).values_list("name", flat=True)) == [
        "Loomcraft again"
    ]


def test_a_search_it_cannot_run_is_a_clear_400(client):
    client.force_login(make_account())
    response = client.get("/account/saved-searches/new", {"q": "looms", "mode": "telepathy"})
    assert response.status_code == 400
    assert "mode must be one of hybrid, keyword, semantic" in text_of(
        tree(response).xpath("//div[@role='alert']")[0]
    )
    tampered = client.post("/account/saved-searches/new", {"name": "x", "query": "q=looms&from=nineteen"})
    assert tampered.status_code == 400
    assert not SavedSearch.objects.filter(name="x").exists()


def test_a_name_is_needed(client):
    client.force_login(make_account())
    response = client.post("/account/saved-searches/new", {"name": "", "query": "q=looms"})
    assert response.status_code == 400
    assert "This field is required." in texts(response, "//ul[@class='errorlist']/li")


def test_there_is_a_limit_to_how_many_searches_one_reader_keeps(client):
    reader = make_account()
    for number in range(MAX_SAVED_SEARCHES):
        make_saved_search(reader, f"q=topic{number}")
    client.force_login(reader)
    response = client.post("/account/saved-searches/new", {"name": "One more", "query": "q=one+more"})
    assert response.status_code == 400
    assert f"You can keep up to {MAX_SAVED_SEARCHES} saved searches." in texts(
        response, "//div[@role='alert']/p"
    )
    assert SavedSearch.objects.filter(owner=reader).count() == MAX_SAVED_SEARCHES


def test_saving_needs_csrf(client):
    reader = make_account()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reader)
    assert strict.post("/account/saved-searches/new", {"name": "x", "query": "q=x"}).status_code == 403
