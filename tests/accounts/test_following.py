"""Following a researcher from their profile: a plain POST form, swapped in place by htmx, and a signed-out
click that leads through sign-in back to the profile with the follow done."""

import time

import pytest
from django.test import Client

from accounts.models import Follow
from accounts.tokens import FOLLOW_INTENT_KEY, FOLLOW_INTENT_MAX_AGE
from tests.factories import ACCOUNT_PASSWORD, make_account, make_follow, make_paper, make_researcher
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def grace():
    researcher = make_researcher("Grace Weftwright")
    make_paper(authors=[researcher])
    return researcher


def control(response, researcher) -> str:
    """The Follow control as a reader sees it: button and follower line."""
    return text_of(tree(response).xpath(f"//div[@id='follow-{researcher.pk}']")[0])


def test_a_plain_form_follows_and_unfollows_and_goes_back_to_the_page(client, grace):
    user = make_account()
    client.force_login(user)
    profile = grace.get_absolute_url()
    assert control(client.get(profile), grace) == "Follow Grace Weftwright 0 followers"

    response = client.post(f"/following/{grace.pk}/follow", {"next": f"{profile}?sort=cited"})
    assert (response.status_code, response["Location"]) == (302, f"{profile}?sort=cited")
    assert Follow.objects.filter(user=user, researcher=grace).count() == 1
    assert control(client.get(profile), grace) == "Unfollow Grace Weftwright You follow them · 1 follower"
    client.post(f"/following/{grace.pk}/follow", {"next": profile})  # twice is still once
    assert Follow.objects.filter(user=user, researcher=grace).count() == 1

    response = client.post(f"/following/{grace.pk}/unfollow", {"next": profile})
    assert (response.status_code, response["Location"]) == (302, profile)
    assert not Follow.objects.filter(user=user, researcher=grace).exists()
    assert control(client.get(profile), grace) == "Follow Grace Weftwright 0 followers"


def test_htmx_swaps_the_control_in_place(client, grace):
    client.force_login(make_account())
    profile = grace.get_absolute_url()
    response = client.post(f"/following/{grace.pk}/follow", {"next": profile}, headers=HTMX)
    assert response.status_code == 200
    fragment = tree(response)
    assert fragment.get("id") == f"follow-{grace.pk}" and fragment.get("class") == "follow"
    form = fragment.xpath(".//form")[0]
    assert form.get("hx-post") == form.get("action") == f"/following/{grace.pk}/unfollow"
    assert form.xpath(".//input[@name='next']/@value") == [profile]  # a later plain submit goes back there
    assert form.xpath(".//button/@id") == [f"follow-button-{grace.pk}"]  # focus stays on it
    assert text_of(fragment) == "Unfollow Grace Weftwright You follow them · 1 follower"

    response = client.post(f"/following/{grace.pk}/unfollow", {"next": profile}, headers=HTMX)
    assert text_of(tree(response)) == "Follow Grace Weftwright 0 followers"


def test_follower_counts_count_every_follower(client, grace):
    for _ in range(3):
        make_follow(make_account(), grace)
    assert control(client.get(grace.get_absolute_url()), grace) == "Follow Grace Weftwright 3 followers"


def test_signed_out_a_follow_leads_to_sign_in_and_back_with_the_follow_done(client, grace):
    user = make_account("follower@example.org")
    profile = grace.get_absolute_url()
    response = client.post(f"/following/{grace.pk}/follow", {"next": profile})
    assert response.status_code == 302
    sign_in_url = response["Location"]
    assert sign_in_url == f"/accounts/sign-in?next={profile.replace('/', '%2F')}"
    page = tree(client.get(sign_in_url))
    assert "Sign in to follow Grace Weftwright." in text_of(page.xpath("//p[@class='notice']")[0])
    assert page.xpath("//main//form//input[@name='next']/@value") == [profile]
    assert not Follow.objects.filter(user=user).exists()

    signed_in = client.post(
        "/accounts/sign-in", {"email": "follower@example.org", "password": ACCOUNT_PASSWORD, "next": profile}
    )
    assert signed_in["Location"] == profile
    assert Follow.objects.filter(user=user, researcher=grace).exists()
    after = client.get(profile)
    assert "You now follow Grace Weftwright." in text_of(tree(after).xpath("//div[@class='messages']")[0])
    assert control(after, grace) == "Unfollow Grace Weftwright You follow them · 1 follower"


def test_signed_out_htmx_follow_redirects_the_whole_page(client, grace):
    response = client.post(f"/following/{grace.pk}/follow", headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/accounts/sign-in?next=%2Fresearchers%2F")


def test_a_follow_intent_is_only_carried_out_for_the_browser_that_asked(client, grace):
    make_account("victim@example.org")
    attacker = Client()
    attacker.post(f"/following/{grace.pk}/follow")
    victim = Client()
    victim.post("/accounts/sign-in", {"email": "victim@example.org", "password": ACCOUNT_PASSWORD})
    assert not Follow.objects.filter(researcher=grace).exists()


def test_an_old_follow_intent_is_forgotten(client, grace):
    make_account("slow@example.org")
    client.post(f"/following/{grace.pk}/follow")
    session = client.session
    session[FOLLOW_INTENT_KEY] = session[FOLLOW_INTENT_KEY] | {
        "at": int(time.time()) - FOLLOW_INTENT_MAX_AGE - 1
    }
    session.save()
    client.post("/accounts/sign-in", {"email": "slow@example.org", "password": ACCOUNT_PASSWORD})
    assert not Follow.objects.filter(researcher=grace).exists()


def test_following_needs_a_post_with_csrf_and_a_researcher_that_exists(client, grace):
    user = make_account()
    client.force_login(user)
    assert client.get(f"/following/{grace.pk}/follow").status_code == 405
    assert client.post("/following/987654321/follow").status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(f"/following/{grace.pk}/follow").status_code == 403
    assert not Follow.objects.filter(user=user).exists()


def test_a_follow_never_redirects_off_the_site(client, grace):
    client.force_login(make_account())
    response = client.post(f"/following/{grace.pk}/follow", {"next": "https://evil.example/"})
    assert response["Location"] == grace.get_absolute_url()


def test_one_reader_cannot_unfollow_for_another(client, grace):
    other = make_account()
    make_follow(other, grace)
    client.force_login(make_account())
    client.post(f"/following/{grace.pk}/unfollow")
    assert Follow.objects.filter(user=other, researcher=grace).exists()
