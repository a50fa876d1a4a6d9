"""Checking the API's answers against its own OpenAPI document, with schemathesis' validator."""

from collections.abc import Callable

import pytest
import requests
import schemathesis
from django.test.client import Client
from schemathesis.core.transport import Response


def as_schemathesis_response(response: object, url: str) -> Response:
    """A Django test client answer in the shape schemathesis validates."""
    headers = {name: [value] for name, value in response.headers.items()}
    return Response(
        status_code=response.status_code,
        headers=headers,
        content=response.content,
        request=requests.Request("GET", f"http://testserver{url}").prepare(),
        elapsed=0.0,
        verify=True,
    )


@pytest.fixture
def openapi_schema(client: Client) -> schemathesis.schemas.BaseSchema:
    return schemathesis.openapi.from_dict(client.get("/openapi.json").json())


@pytest.fixture
def get_valid(client: Client, openapi_schema: object) -> Callable[..., object]:
    """GET `url` and check the answer against the operation `template` of /openapi.json: a documented
    status, content type and body. Returns the Django response."""

    def get(url: str, template: str, **headers: str) -> object:
        response = client.get(url, headers=headers)
        openapi_schema[template]["GET"].validate_response(as_schemathesis_response(response, url))
        return response

    return get
