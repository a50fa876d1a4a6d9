"""Onboarding after sign-up: choose fields, then follow the most cited researchers in them. Skippable."""

import pytest

from accounts.models import AccountSettings, Follow
from accounts.views.account import field_choices
from papers.templatetags import category_name
from tests.factories import make_account, make_follow, make_paper, make_researcher
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

# Far more citations than any real paper: these researchers lead their field whatever else is loaded.
HUGE = 2_000_000_000


@pytest.fixture
def field() -> str:
    """A field the onboarding offers: the corpus's largest, with a paper of ours so there is one."""
    make_paper(categories=["cs.DL"])
    return field_choices()[0][0]


def test_it_offers_the_largest_fields_with_their_paper_counts(client, field):
    client.force_login(make_account())
    response = client.get("/account/onboarding")
    assert response.status_code == 200
    boxes = tree(response).xpath("//fieldset[@class='field-choices']//label")
    assert len(boxes) == len(field_choices()) <= 40
    first_category, first_count = field_choices()[0]
    assert text_of(boxes[0]).startswith(
        f"{first_category} {category_name(first_category)} {first_count:,} paper"
    )
    assert boxes[0].xpath(".//input/@name") == ["categories"]


def test_it_suggests_the_most_cited_researchers_in_the_chosen_fields_and_follows_the_ticked(client, field):
    reader = make_account()
    star, runner_up = make_researcher("Star Weaver"), make_researcher("Runner Up")
    elsewhere = make_researcher("Elsewhere Person")
    make_paper(authors=[star, "Coauthor"], categories=[field, "cs.XX"], cited_by_count=HUGE)
    make_paper(authors=[runner_up], categories=[field], cited_by_count=HUGE - 1)
    make_paper(authors=[runner_up], categories=[field], cited_by_count=None)
    make_paper(authors=[elsewhere], categories=["zz.NOT"], cited_by_count=HUGE)
    client.force_login(reader)

    response = client.post("/account/onboarding", {"categories": [field]})
    assert (response.status_code, response["Location"]) == (302, "/account/onboarding/researchers")
    assert AccountSettings.objects.get(user=reader).fields == [field]

    page = client.get("/account/onboarding/researchers")
    items = tree(page).xpath("//ul[@class='people-list']/li")
    assert [item.xpath(".//label/span/text()")[0] for item in items[:2]] == ["Star Weaver", "Runner Up"]
    assert f"2 papers in your fields · {HUGE - 1:,} citations" in text_of(items[1])
    assert "Star Weaver" in text_of(items[0]) and len(items) <= 12
    assert "Elsewhere Person" not in text_of(tree(page).xpath("//main")[0])

    done = client.post("/account/onboarding/researchers", {"researchers": [str(star.pk)]})
    assert (done.status_code, done["Location"]) == (302, "/following")
    assert list(Follow.objects.filter(user=reader).values_list("researcher_id", flat=True)) == [star.pk]
    assert "You now follow 1 researcher." in texts(client.get("/following"), "//div[@class='messages']/p")


def test_it_refuses_researchers_it_did_not_suggest(client, field):
    reader = make_account()
    AccountSettings.objects.filter(user=reader).update(fields=[field])
    outsider = make_researcher("Not Suggested")
    client.force_login(reader)
    response = client.post("/account/onboarding/researchers", {"researchers": [str(outsider.pk)]})
    assert response.status_code == 400
    assert not Follow.objects.filter(user=reader).exists()


def test_it_refuses_a_field_it_does_not_offer(client, field):
    reader = make_account()
    client.force_login(reader)
    response = client.post("/account/onboarding", {"categories": ["zz.NOT-OFFERED"]})
    assert response.status_code == 400
    assert AccountSettings.objects.get(user=reader).fields == []


def test_every_step_can_be_skipped(client, field):
    client.force_login(make_account())
    for step in ("/account/onboarding", "/account/onboarding/researchers"):
        skip = tree(client.get(step)).xpath("//a[text()='Skip']/@href")
        assert skip == ["/following"]
    assert client.get("/following").status_code == 200


def test_without_fields_it_asks_for_them_first(client):
    client.force_login(make_account())
    response = client.get("/account/onboarding/researchers")
    assert "Pick some fields first" in text_of(tree(response).xpath("//main")[0])


def test_already_followed_suggestions_come_ticked(client, field):
    reader = make_account()
    star = make_researcher("Ticked Star")
    make_paper(authors=[star], categories=[field], cited_by_count=HUGE)
    make_follow(reader, star)
    AccountSettings.objects.filter(user=reader).update(fields=[field])
    client.force_login(reader)
    item = tree(client.get("/account/onboarding/researchers")).xpath("//ul[@class='people-list']/li")[0]
    assert item.xpath(".//input/@checked") == ["checked"]
