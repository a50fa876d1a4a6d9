"""No address makes the site or the API answer 5xx: bad input is a clear 4xx (finding 9 of issue 15).

The routes come from the URLconf itself, so a new page or API endpoint is fuzzed without being listed
here. Each path converter gets real ids (so the view's own code runs), values its pattern accepts but no
row has (huge numbers), and arbitrary text; every query parameter any view reads (found by watching which
keys the views ask `request.GET` for, plus the API's documented ones) gets arbitrary text, with the
inputs that once answered 500 (NUL bytes, Unicode digits such as ①, the year 0000) drawn often.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote, urlencode

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import AccountSettings
from tests.factories import (
    make_account,
    make_affiliation,
    make_follow,
    make_institution,
    make_paper,
    make_researcher,
    make_saved_search,
)
from wovepaper.api import openapi_document

SKIPPED_PREFIXES = ("admin/",)  # Django's own admin (its sign-in page is fuzzed: it is ours now)
ADMIN_SIGN_IN = "admin/login/"

# Inputs that answered 500 before, and their cousins.
NASTY = [
    "\x00", "a\x00b", "①", "２０２０", "٣", "0000", "year:0000", "year:2020..0000", "year:0000..2020",
    "year:①", "year:99999", "99999999999999999999999", "-1", "0", "", " ", "1e309", "NaN", "../..",
    "%", "%00", "<script>", "'", '"', "\\", "\t\n", "a" * 2000, "cs.LG", "𝟘", "\u202e", "q=a&b", "2020..",
]  # fmt: skip
# Tried in every path parameter and, all at once, in every query parameter of every route.
SWEEP = ["\x00", "①", "0000", "year:0000", "year:2020..0000", "9" * 25, "", "-1"]
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
DIGITS = st.from_regex(r"[0-9]{1,30}", fullmatch=True)
VALUE = st.one_of(st.sampled_from(NASTY), TEXT, DIGITS)
CONVERTER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<parameter>[^>]+)>")


@dataclass(frozen=True)
class Route:
    pattern: str  # the full pattern, route syntax or a regular expression
    regex: bool

    def __str__(self) -> str:
        return self.pattern


def _routes(patterns: list, prefix: str = "") -> Iterator[Route]:
    for entry in patterns:
        pattern = entry.pattern
        text = str(pattern)
        if isinstance(pattern, RegexPattern):
            text = text.removeprefix("^").removesuffix("$")
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + text)
        elif isinstance(entry, URLPattern):
            full = prefix + text
            if full == ADMIN_SIGN_IN or not full.startswith(SKIPPED_PREFIXES):
                yield Route(full, regex=isinstance(pattern, RegexPattern))


ROUTES = list(dict.fromkeys(_routes(get_resolver().url_patterns)))


@dataclass
class Site:
    real: dict[str, list[str]]  # path parameter name → values that name rows
    params: dict[Route, list[str]]  # the query parameters each route's view reads (or documents)
    visitor: Client
    reader: Client  # signed in


def _api_query_parameters() -> dict[str, set[str]]:
    """The API's documented query parameters by route pattern (api/papers/<path:arxiv_id> for the OpenAPI
    path /api/papers/{arxiv_id}): ninja reads only the keys a request carries, so watching cannot tell."""
    parameters: dict[str, set[str]] = {}
    for path, operations in openapi_document()["paths"].items():
        for operation in operations.values():
            names = {p["name"] for p in operation.get("parameters", ()) if p.get("in") == "query"}
            parameters.setdefault(path.strip("/"), set()).update(names)
    return parameters


def _as_openapi_path(route: Route) -> str:
    return CONVERTER.sub(lambda match: "{" + match.group("parameter") + "}", route.pattern).strip("/")


@pytest.fixture
def site(db, monkeypatch, settings) -> Site:
    settings.RATELIMIT_ENABLE = False  # limits are tested elsewhere; here they would hide the views
    settings.PAPER_FETCHES_PER_HOUR = 0  # made-up arXiv ids are not fetched
    researcher = make_researcher("Fuzzy Author")
    institution = make_institution("Fuzzy Institute", ror_id="0fuzzya12", homepage="https://fuzzy.example/")
    make_affiliation(researcher, institution)
    paper = make_paper(title="On $\\alpha$-fuzz", authors=[researcher, "Someone Else"])
    account = make_account()
    make_follow(account, researcher)
    saved = make_saved_search(account, "q=fuzz&cat=cs.DL")
    token = AccountSettings.objects.get(user=account).feed_token
    real = {
        "researcher_id": [str(researcher.pk)],
        "institution_id": [str(institution.pk)],
        "slug": [researcher.slug, institution.slug, paper.slug],
        "arxiv_id": [paper.arxiv_id],
        "key": [str(institution.pk), institution.ror_id, institution.name],
        "category": ["cs.DL"],
        "token": [token],
        "saved_search_id": [str(saved.pk)],
        "__regex__": [
            paper.get_absolute_url()[1:],
            f"papers/{paper.arxiv_id}",
            f"institutions/{institution.ror_id}",
        ],
    }
    asked: set[str] = set()  # the keys asked of any QueryDict during one route's request
    for method in ("get", "getlist", "__getitem__", "__contains__"):
        original = getattr(QueryDict, method)

        def watching(self, key, *args, _original=original, **kwargs):
            asked.add(key)
            return _original(self, key, *args, **kwargs)

        monkeypatch.setattr(QueryDict, method, watching)
    # Clients are made once: each loads the middleware, and WhiteNoise's reads every static file.
    visitor, client = Client(raise_request_exception=False), Client(raise_request_exception=False)
    client.force_login(account)
    api = _api_query_parameters()
    params: dict[Route, list[str]] = {}
    for route in ROUTES:
        asked.clear()
        for regex_path in real["__regex__"] if route.regex else [""]:
            path = _path(route, lambda name, converter, given=regex_path: given or real.get(name, ["1"])[0])
            client.get(path, {"q": "fuzz"})
        names = (asked | api.get(_as_openapi_path(route), set()) | {"q", "page"}) - {"csrfmiddlewaretoken"}
        params[route] = sorted(name for name in names if isinstance(name, str))
    monkeypatch.undo()
    return Site(real=real, params=params, visitor=visitor, reader=client)


def _path(route: Route, value_for) -> str:
    if route.regex:
        return "/" + quote(value_for("__regex__", route.pattern), safe="/")

    def substitute(match: re.Match) -> str:
        converter = match.group("converter") or "str"
        value = value_for(match.group("parameter"), converter)
        return quote(value, safe="/" if converter == "path" else "")

    return "/" + CONVERTER.sub(substitute, route.pattern)


def _path_value(draw, site: Site, name: str, converter: str) -> str:
    if name == "__regex__":  # `converter` is the route's regular expression
        real = [path for path in site.real[name] if re.fullmatch(converter, path)]
        return draw(st.one_of(st.sampled_from(real or [""]), st.from_regex(converter, fullmatch=True), TEXT))
    if converter == "int":  # the resolver takes digits only: real ids, unknown ones, huge ones
        return draw(st.one_of(st.sampled_from(site.real.get(name, ["1"])), DIGITS))
    return draw(st.one_of(st.sampled_from(site.real.get(name, ["x"])), VALUE))


FUZZ = settings(
    max_examples=8,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _fuzz(site: Site, route: Route):
    @FUZZ
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        path = _path(route, lambda name, converter: _path_value(data.draw, site, name, converter))
        params = site.params[route]
        chosen = data.draw(st.lists(st.sampled_from(params), max_size=len(params), unique=True))
        query = {name: data.draw(VALUE) for name in chosen}
        client = site.reader if data.draw(st.booleans()) else site.visitor
        url = f"{path}?{urlencode(query)}" if query else path
        accept = data.draw(st.sampled_from(["text/html", "text/markdown", "*/*"]))
        response = client.get(url, HTTP_ACCEPT=accept)
        assert response.status_code < 500, f"{url!r} answered {response.status_code}"

    return fuzz


def _sweep(site: Site, route: Route) -> list[str]:
    """The addresses of `route` with each SWEEP value in each path parameter, then in all its query
    parameters at once."""
    real = lambda name, converter: site.real.get(name, ["1"])[0]  # noqa: E731
    urls = []
    if not route.regex:
        for parameter in CONVERTER.finditer(route.pattern):
            for value in SWEEP:
                name = parameter.group("parameter")
                urls.append(_path(route, lambda n, c, v=value: v if n == name else real(n, c)))  # noqa: B023
    base = _path(
        route, lambda name, converter: site.real["__regex__"][0] if route.regex else real(name, converter)
    )
    urls += [f"{base}?{urlencode(dict.fromkeys(site.params[route], value))}" for value in SWEEP]
    return urls


def test_no_input_to_any_route_answers_a_server_error(site):
    """Finding 9: a NUL byte in institution ids, names and feed tokens, Unicode digits in ids and page
    numbers, and the year 0 in a search answered 500; nothing any route is given may. One hypothesis run
    per route, all of them run, every failing address reported."""
    failures = []
    for route in ROUTES:
        for url in _sweep(site, route):
            if (status := site.reader.get(url).status_code) >= 500:  # signed in: every page's own code
                failures.append(f"{route}: {url!r} answered {status}")
        try:
            _fuzz(site, route)()
        except AssertionError as failure:
            failures.append(f"{route}: {failure}")
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/institutions/%00",
        "/institutions?q=%00",
        "/account/feeds/%00/following.xml",
        "/institutions/%E2%91%A0",
        "/search?q=graph&page=%E2%91%A0",
        "/search?q=year:0000",
        "/search?q=year:2020..0000",
        "/api/search?q=year:0000",
        "/api/search?q=year:2020..0000",
        "/researchers?q=%00",
        "/researchers/99999999999999999999999",
        "/api/researchers/99999999999999999999999",
    ],
)
def test_the_addresses_that_answered_500_are_clear_4xx_or_pages(client, url):
    """Finding 9: each address the review found, named."""
    client.raise_request_exception = False
    response = client.get(url)
    assert response.status_code in (200, 400, 404), response.status_code


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/search?q=a%00b", "/api/search?q=a%00b", "/api/papers/2201.12423%00"])
def test_a_nul_byte_anywhere_in_an_address_is_a_400_that_says_so(client, url):
    client.raise_request_exception = False
    response = client.get(url)
    assert response.status_code == 400
    assert b"holds a NUL byte" in response.content, response.content[:300]
