"""Social cards: a 1200×630 PNG per paper, researcher and institution, named on their pages, cached on disk by
what they show."""

import io

import pytest
from PIL import Image

from core.cards import HEIGHT, WIDTH, Card, card_png
from tests.factories import make_affiliation, make_institution, make_paper, make_researcher
from tests.html import tree

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cards_dir(settings, tmp_path):
    settings.CARDS_DIR = tmp_path / "cards"
    return settings.CARDS_DIR


def image_of(response) -> Image.Image:
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    return image


def test_it_draws_a_card_for_a_paper_a_researcher_and_an_institution(client):
    loom = make_institution("Weftloom Institute of Technology", country_code="GB", type="education")
    warpley = make_researcher("Ada Warpley", h_index=12, citation_count=18057)
    make_affiliation(warpley, loom, last_known=True)
    paper = make_paper(
        title=r"Computing forms over $\Q(\sqrt{5})$ with a title long enough to wrap over lines of a card",
        authors=[warpley, "Grace Weftwright", "Alan Shuttleworth", "Mary Spindle", "Joan Treadle"],
        cited_by_count=18057,
    )
    for path in (f"/papers/{paper.arxiv_id}/card.png", f"/researchers/{warpley.pk}/card.png",
                 f"/institutions/{loom.pk}/card.png"):  # fmt: skip
        assert image_of(client.get(path)).size == (WIDTH, HEIGHT) == (1200, 630), path


def test_unknown_pages_have_no_card(client):
    assert client.get("/papers/9912.99999/card.png").status_code == 404
    assert client.get("/researchers/999999999/card.png").status_code == 404
    assert client.get("/institutions/999999999/card.png").status_code == 404


def test_pages_name_their_card_with_its_digest_and_the_large_summary(client):
    paper = make_paper(title="Woven graphs", cited_by_count=3)
    page = tree(client.get(paper.get_absolute_url()))
    image = page.xpath("//meta[@property='og:image']/@content")[0]
    assert image.startswith(f"http://127.0.0.1:8000/papers/{paper.arxiv_id}/card.png?v=")
    assert page.xpath("//meta[@name='twitter:image']/@content") == [image]
    assert page.xpath("//meta[@name='twitter:card']/@content") == ["summary_large_image"]
    assert page.xpath("//meta[@property='og:image:width']/@content") == ["1200"]
    assert page.xpath("//meta[@property='og:image:height']/@content") == ["630"]
    assert page.xpath("//meta[@property='og:locale']/@content") == ["en_GB"]
    assert page.xpath("//meta[@name='author']/@content") == ["Ada Lovelace"]
    assert page.xpath("//meta[@name='publisher']/@content") == ["wovepaper"]
    alt = page.xpath("//meta[@property='og:image:alt']/@content")[0]
    assert alt == "Woven graphs, by Ada Lovelace"


def test_a_card_changes_with_what_it_shows_and_the_stale_file_goes(client, cards_dir):
    paper = make_paper(title="Woven graphs", cited_by_count=3)
    first = tree(client.get(paper.get_absolute_url())).xpath("//meta[@property='og:image']/@content")[0]
    assert client.get(f"/papers/{paper.arxiv_id}/card.png").status_code == 200
    assert [path.name.split("-")[0] for path in cards_dir.iterdir()] == ["paper"]
    paper.cited_by_count = 4
    paper.save()
    second = tree(client.get(paper.get_absolute_url())).xpath("//meta[@property='og:image']/@content")[0]
    assert second != first
    client.get(f"/papers/{paper.arxiv_id}/card.png")
    files = list(cards_dir.iterdir())
    assert len(files) == 1 and second.endswith(files[0].name.rsplit("-", 1)[1].removesuffix(".png"))


def test_a_cached_card_is_served_from_disk_and_revalidates(client, cards_dir):
    paper = make_paper(title="Woven graphs")
    response = client.get(f"/papers/{paper.arxiv_id}/card.png")
    (cached,) = cards_dir.iterdir()
    cached.write_bytes(b"\x89PNG from the cache")
    again = client.get(f"/papers/{paper.arxiv_id}/card.png")
    assert again.content == b"\x89PNG from the cache"
    assert "max-age=86400" in again["Cache-Control"] and "public" in again["Cache-Control"]
    unchanged = client.get(f"/papers/{paper.arxiv_id}/card.png", headers={"If-None-Match": response["ETag"]})
    assert unchanged.status_code == 304


def test_hostile_and_odd_text_is_drawn_without_failing(cards_dir):
    odd = Card(
        name="../../etc/passwd",
        eyebrow="Paper · \x00",
        title="<script>" + "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 漢字 " * 40 + "Ω" * 300,
        byline="",
        figures=(("∞", "?"),) * 6,
    )
    image = Image.open(io.BytesIO(card_png(odd)))
    assert image.size == (1200, 630)
    assert [path.parent for path in cards_dir.iterdir()] == [cards_dir]  # the name cannot leave the folder


def test_an_unwritable_cache_only_costs_drawing_again(settings, tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    settings.CARDS_DIR = blocker / "cards"
    card = Card(name="paper-1", eyebrow="Paper", title="Woven graphs")
    assert Image.open(io.BytesIO(card_png(card))).size == (1200, 630)
