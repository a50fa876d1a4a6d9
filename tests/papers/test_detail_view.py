"""The paper page: every element on data with known answers, the URL forms, and the missing paper."""

import datetime
import json

import numpy as np
import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from analysis.models import PaperAnalysis, Topic
from harvest.on_demand import paper_fetch_budget_key
from tests.factories import give_topics, make_citation, make_paper, make_researcher
from tests.html import jsonld_nodes, text_of, texts, tree

pytestmark = pytest.mark.django_db


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384)
    return vector / np.linalg.norm(vector)


@pytest.fixture
def paper():
    grace = make_researcher("Grace Weftwright")
    return make_paper(
        title="Weaving $\\alpha$-nets in $O(n^2)$ <b>time</b>",
        abstract="We weave $\\mathbb{R}^d$ with <i>care</i> & 50\\% less thread.",
        authors=["Ada Warpley", grace, "Alan Shuttleworth"],
        categories=["cs.DL", "cs.LG", "math.CO"],
        primary_category="cs.LG",
        published=datetime.date(2025, 5, 3),
        doi="10.1000/woven.1",
        cited_by_count=41,
        reference_count=30,
        citations_refreshed_at=datetime.datetime(2025, 6, 20, 8, 0, tzinfo=datetime.UTC),
        embedding=unit(1),
    )


def test_it_shows_title_authors_date_categories_links_and_abstract(client, paper):
    response = client.get(paper.get_absolute_url())
    assert response.status_code == 200
    page = tree(response)
    html = response.content.decode()
    assert text_of(page.xpath("//h1")[0]) == "Weaving α-nets in O(n²) <b>time</b>"
    assert "&lt;b&gt;time&lt;/b&gt;" in html and "<b>time</b>" not in html  # harvested HTML is text
    assert page.xpath("//h1/span[@class='math']/text()") == ["α", "O(n²)"]
    authors = page.xpath("//p[@class='paper-authors']")[0]
    assert text_of(authors) == "Ada Warpley, Grace Weftwright, Alan Shuttleworth"
    grace = paper.authorships.get(position=2).researcher
    assert authors.xpath("./a/@href") == [grace.get_absolute_url()]
    meta = text_of(page.xpath("//header//p[@class='paper-meta']")[0])
    assert "First posted 3 May 2025" in meta and "cs.LG · cs.DL · math.CO" in meta  # primary first
    assert page.xpath("//p[@class='paper-links']/a/@href") == [
        f"https://arxiv.org/abs/{paper.arxiv_id}", f"https://arxiv.org/pdf/{paper.arxiv_id}",
        "https://doi.org/10.1000/woven.1",
    ]  # fmt: skip
    assert (
        text_of(page.xpath("//p[@class='abstract']")[0]) == "We weave ℝᵈ with <i>care</i> & 50% less thread."
    )


def test_a_long_author_list_shows_the_first_twenty_and_all_on_request(client):
    paper = make_paper(authors=[f"Member {number:03d}" for number in range(1, 41)])
    page = tree(client.get(paper.get_absolute_url()))
    first = text_of(page.xpath("//header/p[@class='paper-authors']")[0])
    assert first.startswith("Member 001, Member 002") and first.endswith("Member 020 and 20 more")
    every = text_of(page.xpath("//details[@class='all-authors']/p")[0])
    assert every.count("Member ") == 40 and every.endswith("Member 040")


def test_it_states_the_key_facts(client, paper):
    for _ in range(3):
        make_citation(citing=make_paper(), cited=paper)
    make_citation(citing=paper, cited=make_paper())
    facts = texts(client.get(paper.get_absolute_url()), "//ul[@class='facts']/li")
    assert facts[:3] == [
        "Cited by 3 papers in the map (data through 20 June 2025)",
        "Builds on 1 of its 30 references that are in the map",
        "First posted on arXiv 3 May 2025",
    ]


def test_the_key_facts_leave_out_what_is_not_known(client):
    paper = make_paper(published=datetime.date(2024, 1, 2))
    facts = texts(client.get(paper.get_absolute_url()), "//ul[@class='facts']/li")
    assert facts == [
        "Cited by 0 papers in the map",
        "Builds on 0 papers in the map",
        "First posted on arXiv 2 January 2024",
    ]


def test_it_lists_what_it_builds_on_and_what_builds_on_it_most_cited_first_with_years(client, paper):
    for number in range(12):
        reference = make_paper(
            title=f"Reference {number:02d}",
            cited_by_count=number,
            published=datetime.date(2010 + number, 1, 1),
        )
        make_citation(citing=paper, cited=reference)
    make_citation(citing=make_paper(title="Follow-up", published=datetime.date(2025, 6, 1)), cited=paper)
    response = client.get(paper.get_absolute_url())
    builds_on = tree(response).xpath("//section[@aria-labelledby='builds-on-heading']")[0]
    assert "Most cited first, 10 shown of 12." in text_of(builds_on)
    items = [text_of(item) for item in builds_on.xpath(".//li")]
    assert (
        items[0] == "Reference 11 · 2021 · 11 citations" and items[-1] == "Reference 02 · 2012 · 2 citations"
    )
    built_on_by = tree(response).xpath("//section[@aria-labelledby='built-on-by-heading']")[0]
    assert "Most cited first, 1 shown of 1." in text_of(built_on_by)
    assert [text_of(item) for item in built_on_by.xpath(".//li")] == ["Follow-up · 2025"]


def test_it_lists_similar_papers_nearest_first(client, paper):
    near = make_paper(title="Nearly the same", embedding=unit(1) + 0.05 * unit(2))
    nearer = make_paper(title="Almost exactly the same", embedding=unit(1) + 0.01 * unit(3))
    response = client.get(paper.get_absolute_url())
    similar = texts(response, "//section[@aria-labelledby='similar-heading']//li/a")
    assert similar.index(nearer.title) < similar.index(near.title)
    assert paper.title not in similar


def test_it_offers_a_copyable_bibtex_entry(client, paper):
    response = client.get(paper.get_absolute_url())
    bibtex = tree(response).xpath("//code[@id='bibtex']")[0].text
    assert bibtex.startswith("@misc{warpley2025weaving,\n")
    assert "  title         = {{Weaving $\\alpha$-nets in $O(n^2)$ <b>time</b>}}," in bibtex
    assert "  author        = {Ada Warpley and Grace Weftwright and Alan Shuttleworth}," in bibtex
    assert f"  eprint        = {{{paper.arxiv_id}}}," in bibtex and "  primaryClass  = {cs.LG}," in bibtex
    assert "  doi           = {10.1000/woven.1}," in bibtex and bibtex.endswith("\n}")
    assert tree(response).xpath("//button[@data-copy='bibtex']")


def test_bibtex_survives_unbalanced_braces_in_a_title(client):
    paper = make_paper(title="A {broken title", authors=["Ada Warpley"])
    bibtex = tree(client.get(paper.get_absolute_url())).xpath("//code[@id='bibtex']")[0].text
    assert "title         = {{A broken title}}," in bibtex


def test_the_json_ld_is_a_scholarly_article_pointing_at_matched_authors(client, paper):
    nodes = {node["@type"]: node for node in jsonld_nodes(client.get(paper.get_absolute_url()))}
    canonical = f"http://127.0.0.1:8000{paper.get_absolute_url()}"
    article = nodes["ScholarlyArticle"]
    assert article["@id"] == f"{canonical}#article" and article["url"] == canonical
    assert (
        article["name"] == "Weaving α-nets in O(n²) <b>time</b>" and article["datePublished"] == "2025-05-03"
    )
    grace = paper.authorships.get(position=2).researcher
    assert article["author"][1] == {
        "@type": "Person", "name": "Grace Weftwright",
        "@id": f"http://127.0.0.1:8000{grace.get_absolute_url()}#person",
        "url": f"http://127.0.0.1:8000{grace.get_absolute_url()}",
    }  # fmt: skip
    assert article["author"][0] == {"@type": "Person", "name": "Ada Warpley"}
    assert {"Organization", "WebSite"} <= nodes.keys()


def test_the_json_ld_cannot_be_closed_by_a_title(client):
    paper = make_paper(title="Evil </script><script>alert(1)</script>")
    html = client.get(paper.get_absolute_url()).content.decode()
    assert "<script>alert(1)" not in html


def test_the_head_has_canonical_and_social_meta(client, paper):
    page = tree(client.get(paper.get_absolute_url()))
    canonical = f"http://127.0.0.1:8000{paper.get_absolute_url()}"
    assert page.findtext(".//title") == "Weaving α-nets in O(n²) <b>time</b> · wovepaper"
    assert page.xpath("//link[@rel='canonical']/@href") == [canonical]
    assert page.xpath("//meta[@property='og:type']/@content") == ["article"]
    assert page.xpath("//meta[@property='og:title']/@content") == ["Weaving α-nets in O(n²) <b>time</b>"]
    assert page.xpath("//meta[@name='description']/@content")[0].startswith("We weave ℝᵈ with")
    assert page.xpath("//meta[@name='citation_author']/@content") == [
        "Ada Warpley", "Grace Weftwright", "Alan Shuttleworth",
    ]  # fmt: skip


def test_every_other_form_of_the_address_answers_301_to_the_canonical_one(client):
    paper = make_paper(title="Woven graphs")
    canonical = paper.get_absolute_url()
    assert canonical == f"/papers/{paper.arxiv_id}-woven-graphs"
    for variant in (
        f"/papers/{paper.arxiv_id}",
        f"/papers/{paper.arxiv_id}/",
        f"/papers/{paper.arxiv_id}v3",
        f"/papers/{paper.arxiv_id}v2-woven-graphs",
        f"/papers/{paper.arxiv_id}-wrong-slug",
        f"/papers/{paper.arxiv_id}-",
    ):
        response = client.get(variant)
        assert (response.status_code, response["Location"]) == (301, canonical), variant


def test_old_style_ids_answer_with_and_without_version(client):
    paper = make_paper(arxiv_id="hep-th/9912001", title="Old strings")
    canonical = "/papers/hep-th/9912001-old-strings"
    assert paper.get_absolute_url() == canonical
    for variant in ("/papers/hep-th/9912001", "/papers/hep-th/9912001v2", "/papers/HEP-TH/9912001"):
        response = client.get(variant)
        assert (response.status_code, response["Location"]) == (301, canonical), variant
    assert client.get(canonical).status_code == 200


def test_an_unknown_paper_is_a_404_that_queues_one_fetch(client):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    waiting = broker.llen("harvest")
    response = client.get("/papers/9912.99998v2")
    assert response.status_code == 404
    html = tree(response)
    assert text_of(html.xpath("//h1")[0]) == "This page isn't here"
    notice = text_of(html.xpath("//p[@class='notice']")[0])
    assert "We don't have arXiv:9912.99998 yet, so a fetch from arXiv has been queued." in notice
    assert cache.get("paper-fetch:9912.99998") is True  # the claim that limits fetches to one an hour
    assert client.get("/papers/9912.99998").status_code == 404
    assert broker.llen("harvest") == waiting + 1  # asked twice, queued once
    # Take the message back off the queue: a worker later in the session must not try to reach arXiv.
    message = json.loads(broker.lpop("harvest"))
    assert message["headers"]["task"] == "harvest.tasks.fetch_arxiv_ids"
    assert "9912.99998" in message["headers"]["argsrepr"]


def test_a_path_that_is_not_an_arxiv_id_is_a_plain_404(client):
    response = client.get("/papers/not-an-id")
    assert response.status_code == 404
    assert "a fetch from arXiv has been queued" not in response.content.decode()


def test_it_runs_the_same_few_queries_however_many_links(client, django_assert_max_num_queries):
    for links in (1, 30):
        paper = make_paper(embedding=unit(links))
        for _ in range(links):
            make_citation(citing=paper, cited=make_paper(embedding=unit(100 + links)))
            make_citation(citing=make_paper(), cited=paper)
        earlier = [make_paper(published=datetime.date(2020, 1, 1)).pk for _ in range(3)]
        topic = Topic.objects.create(label="weaving, looms", centroid=unit(links))
        PaperAnalysis.objects.create(paper=paper, closest_earlier=earlier, analysed=timezone.now())
        give_topics(paper, [topic])
        # 1 the paper, 2 its authorships with researchers, 3 what it builds on with their total,
        # 4 what builds on it with their total, 5 the similar papers' walk settings, 6 similar papers by
        # embedding distance, 7 its closest earlier papers and 8 its topics (the Analysis box)
        with django_assert_max_num_queries(8):
            response = client.get(paper.get_absolute_url())
        assert response.status_code == 200


def test_unknown_papers_queue_fetches_only_up_to_the_hourly_budget(client, settings):
    """A crawler walking made-up identifiers gets its 404s, but past the budget nothing more is queued
    and the page does not say a fetch is on its way."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    cache.delete(paper_fetch_budget_key())
    settings.PAPER_FETCHES_PER_HOUR = 2
    waiting = broker.llen("harvest")
    notices = []
    for arxiv_id in ("9912.99991", "9912.99992", "9912.99993"):
        response = client.get(f"/papers/{arxiv_id}")
        assert response.status_code == 404
        notices.append(bool(tree(response).xpath("//p[@class='notice']")))
    assert notices == [True, True, False]
    assert client.get("/papers/9912.99991").status_code == 404  # already on its way: still said, not counted
    assert bool(tree(client.get("/papers/9912.99992")).xpath("//p[@class='notice']"))
    assert broker.llen("harvest") == waiting + 2
    for _ in range(2):  # take them back off the queue: no worker may try to reach arXiv
        message = json.loads(broker.lpop("harvest"))
        assert message["headers"]["task"] == "harvest.tasks.fetch_arxiv_ids"
