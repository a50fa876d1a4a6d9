"""/openapi.json describes the API from its typed schemas, and the docs page is served from our files."""

import re

import pytest
from schemathesis.core.failures import Failure, FailureGroup

from tests.api.conftest import as_schemathesis_response
from tests.factories import make_paper

pytestmark = pytest.mark.django_db

OPERATIONS = [
    "/api/papers",
    "/api/papers/{arxiv_id}",
    "/api/papers/{arxiv_id}/references",
    "/api/papers/{arxiv_id}/citations",
    "/api/papers/{arxiv_id}/similar",
    "/api/researchers",
    "/api/researchers/{researcher_id}",
    "/api/researchers/{researcher_id}/papers",
    "/api/institutions/{key}",
    "/api/institutions/{key}/researchers",
    "/api/institutions/{key}/papers",
    "/api/search",
]


def test_it_describes_every_operation_in_openapi_3(client):
    response = client.get("/openapi.json")
    document = response.json()
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert document["openapi"].startswith("3.")
    assert document["servers"] == [{"url": "http://127.0.0.1:8000"}]
    assert sorted(document["paths"]) == sorted(OPERATIONS)
    for template in OPERATIONS:
        operation = document["paths"][template]["get"]
        assert operation["summary"] and operation["description"]
        for status in ("400", "404", "429", "500"):
            content = operation["responses"][status]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorOut"}, (template, status)
    error = document["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) >= {"status", "error", "message"}


def test_it_documents_conditional_answers_on_details(client):
    paths = client.get("/openapi.json").json()["paths"]
    for template in ("/api/papers/{arxiv_id}", "/api/researchers/{researcher_id}", "/api/institutions/{key}"):
        assert "304" in paths[template]["get"]["responses"]
    assert "304" not in paths["/api/papers"]["get"]["responses"]


def test_its_validator_catches_an_answer_that_breaks_the_schema(client, openapi_schema):
    paper = make_paper()
    url = f"/api/papers/{paper.arxiv_id}"
    response = client.get(url)
    operation = openapi_schema["/api/papers/{arxiv_id}"]["GET"]
    operation.validate_response(as_schemathesis_response(response, url))
    response.content = response.content.replace(b'"title":', b'"heading":')
    with pytest.raises((Failure, FailureGroup)):
        operation.validate_response(as_schemathesis_response(response, url))


def test_the_docs_page_runs_from_our_own_static_files(client):
    response = client.get("/api/docs")
    html = response.content.decode()
    assert response.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("swagger-ui-bundle" in source for source in sources)
    assert all(source.startswith("/static/") for source in sources), sources
    assert '"url": "/openapi.json"' in html
    for source in sources:
        assert client.get(source).status_code == 200


def test_the_developers_page_links_the_docs_and_the_document(client):
    html = client.get("/developers").content.decode()
    assert 'href="/api/docs"' in html and 'href="/openapi.json"' in html
    assert 'href="/rss/latest.xml"' in html and 'href="/sitemap.xml"' in html
