"""A reader types into the search box in a real Chromium: results appear and the address follows."""

import re

import pytest

pytestmark = pytest.mark.browser

# The first semantic query in a gunicorn worker loads the embedding model: allow for it.
FIRST_RESULTS_MS = 60_000


@pytest.mark.browser
def test_results_appear_as_the_reader_types_and_the_address_follows(live_site, page):
    page.goto(f"{live_site}/search")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if "/search?" in request.url else None)
    box = page.locator("#search-q")
    box.press_sequentially("wearable fall detection", delay=40)  # faster than the 300 ms debounce
    page.wait_for_url(re.compile(r"/search\?q=wearable\+fall\+detection$"), timeout=FIRST_RESULTS_MS)
    first_hit = page.locator(".search-hit h3 a").first
    first_hit.wait_for(timeout=FIRST_RESULTS_MS)
    assert "Wearable Fall Detection" in first_hit.inner_text()
    assert len(requests) <= 3  # debounced: not one request per key
    assert page.locator("mark").first.is_visible()

    box.fill("")
    box.press_sequentially("macular edema", delay=40)
    page.wait_for_url(re.compile(r"q=macular\+edema$"), timeout=FIRST_RESULTS_MS)
    page.locator(".search-hit h3 a", has_text="Macular Edema").first.wait_for(timeout=FIRST_RESULTS_MS)

    page.go_back()  # the previous search comes back, box and results alike
    page.wait_for_url(re.compile(r"q=wearable\+fall\+detection$"))
    page.locator(".search-hit h3 a", has_text="Wearable Fall Detection").first.wait_for()
    assert page.locator("#search-q").input_value() == "wearable fall detection"


@pytest.mark.browser
def test_filter_and_mode_links_update_the_results_in_place(live_site, page):
    page.goto(f"{live_site}/search?q=wearable+fall+detection&mode=keyword")
    page.locator(".search-hit").first.wait_for()
    page.get_by_role("link", name="Newest").click()
    page.wait_for_url(re.compile(r"sort=newest"))
    assert page.locator('nav[aria-label="Sort by"] a[aria-current="true"]').inner_text() == "Newest"
    page.locator(".search-hit .category").first.click()
    page.wait_for_url(re.compile(r"cat="))
    page.locator(".filter-chips a").first.wait_for()
    assert page.locator('input[name="cat"]:checked').count() == 1
