"""The interactive API docs work in a real browser, from our own static files, without the internet."""

import pytest


@pytest.mark.browser
def test_the_docs_page_lists_every_operation_from_our_own_files(live_site, page):
    requested_hosts = set()
    page.on("request", lambda request: requested_hosts.add(request.url.split("/")[2]))
    page.goto(f"{live_site}/developers")
    page.get_by_role("link", name="the interactive docs").click()
    page.wait_for_url("**/api/docs")
    page.locator(".opblock-summary-path").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert len(paths) == 12 and {"/api/papers", "/api/search"} <= set(paths)
    assert requested_hosts == {live_site.split("/")[2]}  # nothing from a CDN
