"""The staff-only harvest status page: recent runs and queue lengths."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from harvest.models import HarvestRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("editor", "editor@example.org", "pw-for-tests", is_staff=True)
    client.force_login(user)
    return user


def test_it_lists_recent_runs_with_their_last_error_and_the_queues(
    client, staff, django_assert_max_num_queries
):
    failed = HarvestRun.objects.create(
        source="openalex",
        state="failed",
        created_count=12,
        errors=[
            {
                "source": "OpenAlex",
                "request": "GET …",
                "position": "works of 2007.14454",
                "message": "HTTP 401: <b>no key</b>",
            }
        ],
    )
    HarvestRun.objects.create(source="arxiv-oai", state="succeeded", created_count=3)

    # 1 session, 2 user, 3 recent runs, 4 papers waiting for an embedding
    with django_assert_max_num_queries(4):
        response = client.get("/harvest/status")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Harvest status" in html and f"#{failed.pk}" in html
    assert "works of 2007.14454" in html
    assert "HTTP 401: &lt;b&gt;no key&lt;/b&gt;" in html  # harvested text is escaped
    assert "waiting in <code>harvest</code>" in html and "waiting in <code>embed</code>" in html


def test_it_is_for_staff_only(client):
    assert client.get("/harvest/status").status_code == 302  # to the admin login
    user = get_user_model().objects.create_user("reader", "reader@example.org", "pw-for-tests")
    client.force_login(user)
    response = client.get("/harvest/status")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_runs_are_visible_in_the_admin(client, staff):
    staff.is_superuser = True
    staff.save()
    run = HarvestRun.objects.create(source="s2", state="failed", errors=[{"message": "HTTP 403"}])

    response = client.get(f"/admin/harvest/harvestrun/{run.pk}/change/")

    assert response.status_code == 200 and "HTTP 403" in response.content.decode()
