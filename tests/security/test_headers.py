"""Content-Security-Policy, Permissions-Policy and no caching of signed-in pages (finding 8 of issue 15)."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.factories import make_account, make_affiliation, make_institution, make_paper, make_researcher
from tests.html import tree

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages():
    researcher = make_researcher("Header Tester")
    institution = make_institution("Institute of Headers")
    make_affiliation(researcher, institution)
    paper = make_paper(title="On headers", authors=[researcher, "Someone"], categories=["cs.CR"])
    return [
        "/", "/about", "/developers", "/search?q=headers", "/researchers", "/institutions",
        paper.get_absolute_url(), researcher.get_absolute_url(), institution.get_absolute_url(),
        "/accounts/sign-in", "/accounts/sign-up", "/api/docs", "/this-is-not-a-page",
    ]  # fmt: skip


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def test_every_page_is_served_under_an_enforced_strict_policy(client, pages):
    """Finding 8: no Content-Security-Policy was sent at all."""
    for url in pages:
        response = client.get(url)
        assert "Content-Security-Policy-Report-Only" not in response, url
        policy = directives(response)
        assert policy["default-src"] == ["'self'"]
        assert policy["script-src"][0] == "'self'" and policy["style-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
        assert policy["connect-src"] == ["'self'"] and policy["base-uri"] == ["'self'"]
        assert "'unsafe-inline'" not in response["Content-Security-Policy"]
        assert "'unsafe-eval'" not in response["Content-Security-Policy"]


def test_no_page_needs_what_the_policy_refuses(client, pages):
    """Finding 8: no inline style attribute (the bars were `style="width: …%"`), no inline <style>, and no
    inline script that runs (JSON-LD and Swagger's settings are data, which a policy does not block)."""
    client.force_login(make_account())
    for url in [*pages, "/account", "/following"]:
        page = tree(client.get(url, follow=True))
        assert page.xpath("//@style") == [], url
        assert page.xpath("//style") == [], url
        for script in page.xpath("//script[not(@src)]"):
            assert script.get("type") in ("application/ld+json", "application/json"), url
        assert not [name for name in page.xpath("//@*[starts-with(name(), 'on')]")], url


def test_htmx_is_told_not_to_inject_styles_or_evaluate_code(client):
    """Finding 8: htmx's injected indicator <style> and its eval-based features would break under the
    policy; base.html turns both off and site.css carries the indicator's rules."""
    config = tree(client.get("/")).xpath("//meta[@name='htmx-config']/@content")
    assert config == ['{"includeIndicatorStyles": false, "allowEval": false}']
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    assert ".htmx-request .htmx-indicator" in css


def test_every_answer_denies_the_browser_features_the_site_never_uses(client):
    """Finding 8: no Permissions-Policy was sent."""
    for url in ["/", "/api/papers", "/robots.txt", "/rss/latest.xml"]:
        policy = client.get(url)["Permissions-Policy"]
        for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"):
            assert feature in policy, url
        assert "clipboard-write" not in policy  # the copy buttons use it


def test_signed_in_pages_are_never_stored(client):
    """Finding 8: /account, /following and every other page answered to someone signed in carry
    `Cache-Control: private, no-store`; anonymous answers keep their own caching, and those that did not
    look at the session do not start to vary on cookies."""
    anonymous = client.get("/api/papers")
    assert "no-store" not in anonymous.get("Cache-Control", "")
    assert "Cookie" not in anonymous.get("Vary", "")
    client.force_login(make_account())
    for url in ["/account", "/following", "/", "/search?q=anything"]:
        cache_control = client.get(url)["Cache-Control"]
        assert "private" in cache_control and "no-store" in cache_control, url


def test_under_debug_the_policy_only_reports():
    """Finding 8: development sees violations in the console without a broken page."""
    code = "from django.conf import settings as s; print(s.CONTENT_SECURITY_POLICY_REPORT_ONLY['DIRECTIVES'])"
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | {"DEBUG": "true"}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "'script-src'" in result.stdout and "'frame-ancestors'" in result.stdout


def test_security_txt_says_where_to_report_a_problem(client):
    """Issue 15 (operations): RFC 9116's contact and expiry, a year ahead."""
    response = client.get("/.well-known/security.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    fields = dict(line.split(": ", 1) for line in response.content.decode().splitlines())
    assert fields["Contact"] == f"mailto:{settings.CONTACT_EMAIL}"
    assert fields["Canonical"] == f"{settings.SITE_URL}/.well-known/security.txt"
    assert fields["Expires"].endswith("Z") and fields["Expires"][:4].isdigit()
