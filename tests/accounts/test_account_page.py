"""The account page: follows, saved searches, private feed addresses, e-mail settings; rotating the feed
token and deleting the account with everything in it. Nobody reaches another reader's things."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import AccountSettings, DigestFrequency, Follow, SavedSearch
from tests.factories import ACCOUNT_PASSWORD, make_account, make_follow, make_researcher, make_saved_search
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"


def test_it_shows_follows_saved_searches_and_the_feed_addresses(client):
    reader = make_account("page@example.org", fields=["cs.DL"])
    grace = make_researcher("Grace Weftwright")
    make_follow(reader, grace)
    saved = make_saved_search(reader, "q=woven+looms&cat=cs.DL", name="Looms")
    token = AccountSettings.objects.get(user=reader).feed_token
    client.force_login(reader)

    response = client.get("/account")
    assert response.status_code == 200
    page = tree(response)
    assert page.xpath("//section[@id='following']//ul[@class='followed-list']/li/a/text()") == [
        "Grace Weftwright"
    ]
    assert "Your fields: cs.DL · change" in text_of(
        page.xpath("//section[@id='following']/p[@class='note']")[0]
    )
    item = page.xpath("//li[@class='saved-search']")[0]
    assert item.xpath(".//h3/a/@href") == ["/search?q=woven+looms&cat=cs.DL"]
    assert text_of(item.xpath(".//h3")[0]) == "Looms"
    assert text_of(item.xpath(".//p[@class='faint']")[0]).startswith("Papers in cs.DL matching 'woven looms'")
    assert item.xpath(".//code/text()") == [f"{SITE}/account/feeds/{token}/searches/{saved.pk}.xml"]
    assert page.xpath("//code[@id='feed-following']/text()") == [
        f"{SITE}/account/feeds/{token}/following.xml"
    ]
    assert page.xpath("//section[@id='alerts']//input[@name='frequency'][@checked]/@value") == ["never"]
    assert page.xpath("//section[@id='alerts']//input[@name='following']/@checked") == ["checked"]


def test_it_needs_signing_in(client):
    assert client.get("/account")["Location"] == "/accounts/sign-in?next=/account"


def test_it_runs_the_same_few_queries_however_much_it_lists(client, django_assert_max_num_queries):
    for count in (1, 15):
        reader = make_account()
        for number in range(count):
            make_follow(reader, make_researcher(f"Followed {number}"))
            make_saved_search(reader, f"q=topic+{number}", name=f"Topic {number}")
        client.force_login(reader)
        # 1 the user, 2 the account's settings, 3 the researchers followed with their follower counts,
        # 4 the saved searches (the session is in the cache)
        with django_assert_max_num_queries(4):
            response = client.get("/account")
        assert len(tree(response).xpath("//li[@class='saved-search']")) == count


def test_rotating_the_token_ends_the_old_feed_addresses(client):
    reader = make_account()
    old = AccountSettings.objects.get(user=reader).feed_token
    client.force_login(reader)
    assert client.get(f"/account/feeds/{old}/following.xml").status_code == 200
    response = client.post("/account/feeds/rotate")
    assert response["Location"] == "/account#feeds"
    new = AccountSettings.objects.get(user=reader).feed_token
    assert new != old and len(new) >= 40
    assert client.get(f"/account/feeds/{old}/following.xml").status_code == 404
    assert client.get(f"/account/feeds/{new}/following.xml").status_code == 200
    assert client.get("/account/feeds/rotate").status_code == 405


def test_it_saves_the_email_digest_settings(client):
    reader = make_account()
    client.force_login(reader)
    response = client.post("/account/digest", {"frequency": "weekly", "following": "on"})
    assert response["Location"] == "/account#alerts"
    settings_row = AccountSettings.objects.get(user=reader)
    assert (settings_row.digest_frequency, settings_row.digest_following) == (DigestFrequency.WEEKLY, True)
    assert settings_row.last_digest_at is not None  # opting in starts the digests from now
    started = settings_row.last_digest_at
    client.post("/account/digest", {"frequency": "daily"})
    settings_row.refresh_from_db()
    assert (settings_row.digest_frequency, settings_row.digest_following) == (DigestFrequency.DAILY, False)
    assert settings_row.last_digest_at == started  # already in: the watermark stays
    bad = client.post("/account/digest", {"frequency": "hourly"})
    assert bad["Location"] == "/account#alerts"
    assert "Choose never, daily or weekly" in text_of(
        tree(client.get("/account")).xpath("//div[@class='messages']")[0]
    )
    settings_row.refresh_from_db()
    assert settings_row.digest_frequency == DigestFrequency.DAILY


def test_deleting_the_account_takes_everything_with_it_after_the_password(client):
    reader = make_account("leaving@example.org")
    make_follow(reader, make_researcher())
    make_saved_search(reader)
    client.force_login(reader)
    assert texts(client.get("/account/delete"), "//h1") == ["Delete your account"]
    wrong = client.post("/account/delete", {"password": "not-it"})
    assert wrong.status_code == 400 and "That is not your password." in texts(
        wrong, "//ul[@class='errorlist']/li"
    )
    assert User.objects.filter(pk=reader.pk).exists()

    response = client.post("/account/delete", {"password": ACCOUNT_PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/")
    assert not User.objects.filter(pk=reader.pk).exists()
    assert not Follow.objects.filter(user_id=reader.pk).exists()
    assert not SavedSearch.objects.filter(owner_id=reader.pk).exists()
    assert not AccountSettings.objects.filter(user_id=reader.pk).exists()
    assert client.get("/account").status_code == 302  # signed out
    assert "Your account and everything in it are deleted." in texts(
        client.get("/"), "//div[@class='messages']/p"
    )


def test_deleting_needs_csrf(client):
    reader = make_account()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reader)
    assert strict.post("/account/delete", {"password": ACCOUNT_PASSWORD}).status_code == 403
    assert User.objects.filter(pk=reader.pk).exists()


def test_another_readers_saved_searches_cannot_be_changed(client):
    owner = make_account()
    theirs = make_saved_search(owner, email_alerts=True)
    client.force_login(make_account())
    assert client.post(f"/account/saved-searches/{theirs.pk}/delete").status_code == 404
    assert client.post(f"/account/saved-searches/{theirs.pk}/alerts").status_code == 404
    theirs.refresh_from_db()
    assert theirs.email_alerts
    assert theirs.name not in text_of(tree(client.get("/account")).xpath("//main")[0])


def test_saved_searches_can_be_left_out_of_the_digest_and_deleted(client):
    reader = make_account()
    saved = make_saved_search(reader, name="Bobbins")
    client.force_login(reader)
    client.post(f"/account/saved-searches/{saved.pk}/alerts")
    saved.refresh_from_db()
    assert not saved.email_alerts
    client.post(f"/account/saved-searches/{saved.pk}/alerts", {"alerts": "true"})
    saved.refresh_from_db()
    assert saved.email_alerts
    response = client.post(f"/account/saved-searches/{saved.pk}/delete")
    assert response["Location"] == "/account#saved-searches"
    assert not SavedSearch.objects.filter(pk=saved.pk).exists()
