"""The site's icons and web manifest, linked from every page and where browsers look unasked."""

import io
import json

import pytest
from PIL import Image

from tests.html import jsonld_nodes, tree

pytestmark = pytest.mark.django_db


def test_the_favicon_is_a_48_pixel_icon_at_the_root(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    icon = Image.open(io.BytesIO(response.content))
    assert icon.format == "ICO" and icon.size == (48, 48)
    assert "max-age=86400" in response["Cache-Control"]


def test_the_touch_icon_is_180_pixels(client):
    response = client.get("/apple-touch-icon.png")
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).size == (180, 180)


@pytest.mark.parametrize("path", ["/", "/about", "/researchers", "/nowhere"])
def test_every_page_links_its_icons_and_manifest(client, path):
    page = tree(client.get(path))
    assert page.xpath("//link[@rel='icon' and @sizes='48x48']/@href") == ["/favicon.ico"]
    (svg,) = page.xpath("//link[@rel='icon' and @type='image/svg+xml']/@href")
    assert svg.startswith("/static/icons/icon") and svg.endswith(".svg")
    (touch,) = page.xpath("//link[@rel='apple-touch-icon']/@href")
    assert Image.open(io.BytesIO(b"".join(client.get(touch).streaming_content))).size == (180, 180)
    assert page.xpath("//link[@rel='manifest']/@href") == ["/manifest.webmanifest"]


def test_the_manifest_names_the_site_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "wovepaper" and manifest["start_url"] == "/"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"any", "192x192", "512x512"}
    big = client.get(sizes["512x512"]["src"])
    assert Image.open(io.BytesIO(b"".join(big.streaming_content))).size == (512, 512)


def test_the_footer_has_the_mark_the_tagline_and_the_readers_state(client, django_user_model):
    page = tree(client.get("/"))
    brand = page.xpath("//footer//p[@class='brand']")[0]
    assert brand.xpath(".//img[@class='mark']/@alt") == [""]
    assert "Papers, researchers and institutions, woven together." in brand.text_content()
    assert page.xpath("//footer//a[text()='Sign in']/@href") == ["/accounts/sign-in"]
    address = "reader@example.org"
    user = django_user_model.objects.create_user(address, address, "a long passphrase")
    client.force_login(user)
    page = tree(client.get("/"))
    assert page.xpath("//footer//a[text()='Following']/@href") == ["/following"]
    assert page.xpath("//footer//a[text()='Account']/@href") == ["/account"]


def test_the_organization_has_a_logo_and_a_contact_point(client):
    (organization,) = [node for node in jsonld_nodes(client.get("/")) if node.get("@type") == "Organization"]
    assert organization["logo"]["url"].endswith(".png") and organization["logo"]["width"] == 512
    assert organization["contactPoint"]["email"] == organization["email"]
