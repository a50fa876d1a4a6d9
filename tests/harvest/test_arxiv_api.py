"""Papers fetched by id from the arXiv API (a reader asked for one we do not have, or by hand)."""

from __future__ import annotations

import pytest

from harvest.models import HarvestRun
from harvest.sweeps.arxiv import arxiv_ids_fetch
from papers.models import Paper
from tests.harvest.replay import fixture, xml

pytestmark = pytest.mark.django_db

BOTH = fixture("arxiv/api_atom/2026_id_0808.05394_1707.08567_s0_m100.xml")


def test_it_fetches_papers_by_id_and_names_the_ones_arxiv_does_not_have(replay):
    Paper.objects.filter(arxiv_id__in=["0808.05394", "1707.08567"]).delete()
    replay.route("/api/query", xml(BOTH), id_list="0808.05394,1707.08567")

    summary = arxiv_ids_fetch(arxiv_ids=["0808.05394", "1707.08567"])

    assert (summary.state, summary.created, summary.skipped) == ("succeeded", 1, 1)
    [request] = replay.seen("/api/query")
    assert request.query == {"id_list": "0808.05394,1707.08567", "max_results": "2"}
    paper = Paper.objects.get(arxiv_id="1707.08567")
    assert paper.title == "Proceedings of Workshop AEW10: Concepts in Information Theory and Communications"
    run = HarvestRun.objects.filter(source="arxiv-api").recent().first()
    assert run.parameters == {"ids": ["0808.05394", "1707.08567"]}
    assert [(e["source"], e["message"]) for e in run.errors] == [("arXiv API", "0808.05394: not on arXiv")]


def test_fetching_again_changes_nothing(replay):
    Paper.objects.filter(arxiv_id="1707.08567").delete()
    replay.route("/api/query", xml(BOTH))
    arxiv_ids_fetch(arxiv_ids=["1707.08567"])
    before = Paper.objects.filter(arxiv_id="1707.08567").values_list("pk", "updated_at").get()

    summary = arxiv_ids_fetch(arxiv_ids=["1707.08567"])

    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, 1)
    assert Paper.objects.filter(arxiv_id="1707.08567").values_list("pk", "updated_at").get() == before
