"""Reading rendered pages in tests: the HTML tree, the text a reader sees, the JSON-LD a crawler reads."""

import json

import lxml.html
from django.http import HttpResponse


def tree(response: HttpResponse) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(response.content.decode())


def squashed(text: str) -> str:
    return " ".join(text.split())


def text_of(element: lxml.html.HtmlElement) -> str:
    """The element's text as a reader sees it, whitespace collapsed."""
    return squashed(element.text_content())


def texts(response: HttpResponse, xpath: str) -> list[str]:
    return [text_of(element) for element in tree(response).xpath(xpath)]


def jsonld_nodes(response: HttpResponse) -> list[dict]:
    """Every node of every JSON-LD block on the page (the @graph lists flattened)."""
    nodes = []
    for script in tree(response).xpath('//script[@type="application/ld+json"]'):
        data = json.loads(script.text)
        nodes.extend(data.get("@graph", [data]))
    return nodes
