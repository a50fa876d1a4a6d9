"""E-mail digests: new papers by followed researchers and new matches of saved searches since the last
digest, only to accounts that opted in and are due, with an unsubscribe link that works signed out."""

import datetime
import re
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.db import connections
from django.test import Client
from django.urls import resolve
from django.utils import timezone

from accounts.digests import digest_send, due_digest_account_ids
from accounts.models import AccountSettings, DigestFrequency, SavedSearch
from accounts.tasks import send_digest, send_due_digests
from accounts.tokens import unsubscribe_path, unsubscribe_user_id
from papers.models import Paper
from researchers.models import Researcher
from tests.factories import make_account, make_follow, make_paper, make_researcher, make_saved_search
from tests.html import texts
from wovepaper.celery import app

NOW = timezone.now()
YESTERDAY = NOW - datetime.timedelta(days=1, minutes=5)


def opted_in(frequency: str = DigestFrequency.DAILY, last: datetime.datetime = YESTERDAY, **fields) -> User:
    return make_account(digest_frequency=frequency, last_digest_at=last, **fields)


def new_paper(**fields) -> Paper:
    """A paper that came into the corpus now (after the digest's watermark)."""
    return make_paper(**fields)


def old_paper(**fields) -> Paper:
    paper = make_paper(**fields)
    Paper.objects.filter(pk=paper.pk).update(created_at=YESTERDAY - datetime.timedelta(hours=1))
    return paper


@pytest.mark.django_db
def test_the_digest_lists_whats_new_from_follows_and_saved_searches(client):
    reader = opted_in(email="digest@example.org")
    ada = make_researcher("Ada Warpley")
    make_follow(reader, ada)
    fresh = new_paper(title="Looms as $\\alpha$-computers", authors=[ada, "Someone"])
    old_paper(title="Old loom notes", authors=[ada])
    quilts = make_saved_search(reader, "q=zyxquiltry&mode=keyword", name="Quilts")
    match = new_paper(title="Zyxquiltry of graphs")
    old_paper(title="Zyxquiltry long ago")
    quiet = make_saved_search(reader, "q=zyxnothing&mode=keyword", name="Quiet")
    make_saved_search(reader, "q=zyxquiltry+graphs&mode=keyword", name="Muted", email_alerts=False)

    assert digest_send(user_id=reader.pk, now=NOW) == 2
    [message] = mail.outbox
    assert message.to == ["digest@example.org"]
    assert message.subject == "wovepaper: 2 new papers for you"
    body = message.body
    assert "Your daily wovepaper digest: 2 new papers." in body
    assert "== Researchers you follow ==\n\n* Looms as α-computers\n  Ada Warpley, Someone" in body
    assert f"{settings.SITE_URL}{fresh.get_absolute_url()}" in body
    assert "== Quilts ==" in body and f"{settings.SITE_URL}{match.get_absolute_url()}" in body
    assert "Old loom notes" not in body and "long ago" not in body
    assert "Quiet" not in body and "Muted" not in body
    assert f"All of them: {settings.SITE_URL}/search?q=zyxquiltry&mode=keyword" in body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and "Looms as α-computers" in html and "&lt;" not in html.split("<body")[0]
    # The link is signed with the time it was made, so it is read back rather than made again here.
    unsubscribe = message.extra_headers["List-Unsubscribe"].removeprefix("<").removesuffix(">")
    assert unsubscribe.startswith(settings.SITE_URL)
    link = resolve(unsubscribe.removeprefix(settings.SITE_URL))
    assert link.view_name == "accounts:unsubscribe" and unsubscribe_user_id(link.kwargs["token"]) == reader.pk
    assert f"Unsubscribe from these digests: {unsubscribe}" in body

    account = AccountSettings.objects.get(user=reader)
    assert account.last_digest_at == NOW
    quilts.refresh_from_db()
    quiet.refresh_from_db()
    assert (quilts.last_notified_at, quiet.last_notified_at) == (NOW, None)


@pytest.mark.django_db
def test_harvested_html_in_titles_is_escaped_in_the_html_digest():
    reader = opted_in()
    make_saved_search(reader, "q=zyxhostile&mode=keyword")
    new_paper(title="Zyxhostile <script>alert(1)</script> titles")
    digest_send(user_id=reader.pk, now=NOW)
    html = mail.outbox[0].alternatives[0][0]
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.django_db
def test_a_saved_search_only_brings_matches_from_after_it_was_saved():
    reader = opted_in(last=NOW - datetime.timedelta(days=8), frequency=DigestFrequency.WEEKLY)
    old_paper(title="Zyxpatchwork before saving")
    saved = make_saved_search(reader, "q=zyxpatchwork&mode=keyword")
    SavedSearch.objects.filter(pk=saved.pk).update(created_at=YESTERDAY)
    new_paper(title="Zyxpatchwork after saving")
    assert digest_send(user_id=reader.pk, now=NOW) == 1
    assert "after saving" in mail.outbox[0].body and "before saving" not in mail.outbox[0].body


@pytest.mark.django_db
def test_only_opted_in_accounts_that_are_due_get_one():
    never = make_account(digest_frequency=DigestFrequency.NEVER, last_digest_at=YESTERDAY)
    daily_recent = opted_in(last=NOW - datetime.timedelta(hours=3))
    weekly_recent = opted_in(DigestFrequency.WEEKLY, last=NOW - datetime.timedelta(days=3))
    weekly_due = opted_in(DigestFrequency.WEEKLY, last=NOW - datetime.timedelta(days=7))
    daily_due = opted_in()
    almost_a_day = opted_in(last=NOW - datetime.timedelta(hours=23, minutes=30))  # the beat's slack
    inactive = opted_in(active=False)
    researcher = make_researcher()
    for user in (never, daily_recent, weekly_recent, weekly_due, daily_due, almost_a_day, inactive):
        make_follow(user, researcher)
    new_paper(authors=[researcher])

    due = set(due_digest_account_ids(NOW))
    assert {weekly_due.pk, daily_due.pk, almost_a_day.pk} <= due
    assert not {never.pk, daily_recent.pk, weekly_recent.pk, inactive.pk} & due
    sent = {
        user.pk: digest_send(user_id=user.pk, now=NOW) for user in (never, daily_recent, weekly_due, inactive)
    }
    assert sent == {never.pk: 0, daily_recent.pk: 0, weekly_due.pk: 1, inactive.pk: 0}
    assert [message.to for message in mail.outbox] == [[weekly_due.email]]


@pytest.mark.django_db
def test_nothing_new_sends_nothing_and_moves_the_watermark_on():
    reader = opted_in()
    make_follow(reader, make_researcher())
    assert digest_send(user_id=reader.pk, now=NOW) == 0
    assert not mail.outbox
    assert AccountSettings.objects.get(user=reader).last_digest_at == NOW


@pytest.mark.django_db
def test_running_twice_sends_once():
    reader = opted_in()
    researcher = make_researcher()
    make_follow(reader, researcher)
    new_paper(authors=[researcher])
    assert digest_send(user_id=reader.pk, now=NOW) == 1
    assert digest_send(user_id=reader.pk, now=NOW) == 0
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_follows_can_be_left_out_of_the_digest():
    reader = opted_in(digest_following=False)
    researcher = make_researcher()
    make_follow(reader, researcher)
    new_paper(authors=[researcher])
    assert digest_send(user_id=reader.pk, now=NOW) == 0


@pytest.mark.django_db
def test_the_unsubscribe_link_works_without_signing_in(client):
    reader = opted_in()
    researcher = make_researcher()
    make_follow(reader, researcher)
    new_paper(authors=[researcher])
    digest_send(user_id=reader.pk, now=NOW)
    # The e-mail's own link (signed a moment before this test could sign one: the time is in the token).
    link = re.search(r"http://[^/\s]+(/account/unsubscribe/\S+)", mail.outbox[0].body).group(1)
    assert link.split(":")[0] == unsubscribe_path(reader).split(":")[0]

    page = client.get(link)
    assert page.status_code == 200 and texts(page, "//h1") == ["Stop the e-mail digest?"]
    assert AccountSettings.objects.get(user=reader).digest_frequency == DigestFrequency.DAILY  # a GET asks
    done = client.post(link)
    assert texts(done, "//h1") == ["Unsubscribed"]
    assert AccountSettings.objects.get(user=reader).digest_frequency == DigestFrequency.NEVER
    assert client.get("/account").status_code == 302  # and nobody was signed in


@pytest.mark.django_db
def test_a_forged_or_broken_unsubscribe_link_changes_nothing(client):
    reader = opted_in()
    good = unsubscribe_path(reader)
    for bad in (
        good[:-3],
        good.replace("unsubscribe/", "unsubscribe/x"),
        "/account/unsubscribe/eyJ1c2VyIjoxfQ:1",
    ):
        response = Client(enforce_csrf_checks=True).post(bad, ONE_CLICK, content_type=FORM)
        assert response.status_code == 400 and texts(response, "//h1") == ["This link does not work"]
    assert AccountSettings.objects.get(user=reader).digest_frequency == DigestFrequency.DAILY


ONE_CLICK, FORM = "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"


@pytest.mark.django_db
def test_a_mail_program_unsubscribes_with_one_click(client):
    """RFC 8058: the digest says List-Unsubscribe-Post, and the mail program POSTs to the link itself,
    with no session and no CSRF token; the signed link is all it needs."""
    reader = opted_in()
    researcher = make_researcher()
    make_follow(reader, researcher)
    new_paper(authors=[researcher])
    digest_send(user_id=reader.pk, now=NOW)
    [message] = mail.outbox
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = message.extra_headers["List-Unsubscribe"].removeprefix("<").removesuffix(">")
    assert link.startswith("https://") or link.startswith(settings.SITE_URL)

    mail_program = Client(enforce_csrf_checks=True)  # no cookies, no token
    response = mail_program.post(link.removeprefix(settings.SITE_URL), ONE_CLICK, content_type=FORM)
    assert response.status_code == 200 and texts(response, "//h1") == ["Unsubscribed"]
    assert AccountSettings.objects.get(user=reader).digest_frequency == DigestFrequency.NEVER


@pytest.mark.django_db
def test_the_link_of_a_deleted_account_says_so(client):
    reader = opted_in()
    link = unsubscribe_path(reader)
    reader.delete()
    assert texts(client.post(link), "//h1") == ["No such account"]


def test_celery_beat_runs_the_digest_task_every_morning():
    entry = settings.CELERY_BEAT_SCHEDULE["account-digests"]
    assert entry["task"] == send_due_digests.name == "accounts.tasks.send_due_digests"
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
    assert (entry["schedule"].hour, entry["schedule"].minute) == ({6}, {15})


def test_a_worker_sends_the_due_digests(celery_worker, django_db_blocker):
    """The pipeline: beat's task finds the due account, a worker sends its digest and moves it on."""
    suffix = f"{time.time_ns()}"
    with django_db_blocker.unblock():  # committed, so the worker process can see it
        reader = make_account(
            f"pipeline-{suffix}@example.org", digest_frequency=DigestFrequency.DAILY, last_digest_at=YESTERDAY
        )
        researcher = make_researcher(f"Pipeline Weaver {suffix}")
        make_follow(reader, researcher)
        make_paper(title=f"Pipeline paper {suffix}", authors=[researcher])
        saved = make_saved_search(reader, f"q=zyxpipeline{suffix}&mode=keyword")
        make_paper(title=f"zyxpipeline{suffix} matched")
        try:
            assert send_due_digests.apply_async(ignore_result=False).get(timeout=60) >= 1  # kept on request
            deadline = time.monotonic() + 60
            while AccountSettings.objects.get(user=reader).last_digest_at == YESTERDAY:
                assert time.monotonic() < deadline, "the worker did not send the digest"
                time.sleep(0.2)
            saved.refresh_from_db()
            assert saved.last_notified_at is not None
            assert send_digest.apply_async([reader.pk], ignore_result=False).get(timeout=60) == 0  # not due
        finally:
            reader.delete()
            Paper.objects.filter(title__contains=suffix).delete()
            Researcher.objects.filter(pk=researcher.pk).delete()
            connections.close_all()
