"""The pages work in Chromium under the enforced Content-Security-Policy: nothing is refused, htmx still
swaps results in place, and the API docs (Swagger UI) render (finding 8 of issue 15)."""

import pytest
from playwright.sync_api import expect

WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} line ${event.lineNumber}`);
});
"""


@pytest.mark.browser
def test_the_site_and_the_api_docs_run_under_the_policy(live_site, page):
    page.add_init_script(WATCH)
    response = page.goto(f"{live_site}/search?q=graph")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.locator("#search-q").fill("graph neural networks")  # the search page's own box
    page.locator("#search-q").press("Enter")
    page.wait_for_url("**/search?q=graph+neural+networks*")
    # Before htmx has loaded on a busy machine, Enter submits the form as a page of its own: its document
    # (and its violations) are the ones to read, once it has loaded.
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.cspViolations") == []

    page.goto(f"{live_site}/researchers")
    page.locator("main a[href^='/researchers/']").first.click()
    page.wait_for_load_state()
    assert page.evaluate("window.cspViolations") == []
    bars = page.locator("svg.bar-area rect.bar-fill:not([width='0%'])")  # a profile always has one
    assert bars.first.bounding_box()["width"] > 0  # drawn at its width by an attribute, not a style

    page.goto(f"{live_site}/api/docs")
    page.locator(".opblock-summary-path").first.wait_for()
    expect(page.locator(".opblock-summary-path")).to_have_count(12)
    page.locator(".opblock-summary-path").first.click()
    assert page.evaluate("window.cspViolations") == []
