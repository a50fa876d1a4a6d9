"""`manage.py harvest …` and `manage.py embed`: progress, a one-line summary, --dry-run, and one-line errors
with a non-zero exit for bad arguments."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from harvest.models import HarvestRun
from papers.models import Paper
from researchers.models import Researcher
from tests.conftest import BASE_DIR, _process_env
from tests.factories import make_paper, make_researcher
from tests.harvest.replay import entity_list, fixture, json_reply, xml
from tests.harvest.upstream_corpus import clean_slate

SINGLE = fixture("arxiv/oai_pmh/ListRecords_arXiv_single.xml")  # 1401.2122


def harvest(*args: str) -> str:
    out = StringIO()
    call_command("harvest", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def manage(*args: str) -> subprocess.CompletedProcess:
    # With an SMTP server named, start-up does not warn that e-mails are only printed (a line of its own,
    # tested in tests/test_operations.py): stderr is the command's alone.
    env = _process_env() | {"EMAIL_HOST": "127.0.0.1"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )


@pytest.mark.django_db
def test_harvest_arxiv_ends_with_a_one_line_summary(replay):
    Paper.objects.filter(arxiv_id="1401.2122").delete()
    replay.route("/oai", xml(SINGLE), verb="ListRecords", set="physics:hep-th")

    output = harvest("arxiv", "--set", "physics:hep-th", "--from", "2017-12-14", "--until", "2017-12-15")

    assert output == (
        "arXiv physics:hep-th from 2017-12-14: 1 new, 0 updated, 0 unchanged, 0 skipped (succeeded)\n"
    )
    assert replay.seen("/oai")[0].query["until"] == "2017-12-15"


@pytest.mark.django_db
def test_a_dry_run_parses_and_counts_but_writes_nothing(replay):
    Paper.objects.filter(arxiv_id="1401.2122").delete()
    runs = HarvestRun.objects.count()
    replay.route("/oai", xml(SINGLE), verb="ListRecords")

    output = harvest("arxiv", "--from", "2017-12-14", "--dry-run")

    assert output.startswith("arXiv cs from 2017-12-14 (dry run): 1 new, 0 updated")
    assert not Paper.objects.filter(arxiv_id="1401.2122").exists()
    assert HarvestRun.objects.count() == runs


@pytest.mark.django_db
def test_harvest_arxiv_ids_fetches_by_id(replay):
    Paper.objects.filter(arxiv_id="1707.08567").delete()
    replay.route("/api/query", xml(fixture("arxiv/api_atom/2026_id_0808.05394_1707.08567_s0_m100.xml")))

    output = harvest("arxiv-ids", "arXiv:1707.08567v1")

    assert output.startswith("arXiv API: 1 new")
    assert replay.seen("/api/query")[0].query["id_list"] == "1707.08567"


@pytest.mark.django_db
def test_a_failed_harvest_says_where_it_stopped_and_exits_non_zero(replay):
    make_paper()
    replay.route(
        "/openalex/works", json_reply(fixture("openalex/error_401_rate_limit_invalid_key.json"), status=401)
    )

    with pytest.raises(CommandError, match=r"^OpenAlex stopped at works of .*: HTTP 401: .*API key"):
        harvest("openalex", "--limit", "5")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["harvest", "arxiv-ids", "12345"], "argument ID: '12345' is not an arXiv id"),
        (
            ["harvest", "arxiv", "--from", "2026-13-45"],
            "argument --from: '2026-13-45' is not a date like 2026-11-01",
        ),
        (
            ["harvest", "openalex", "--limit", "0"],
            "argument --limit: '0' is not a whole number of at least 1",
        ),
        (["harvest", "crossref"], "argument SOURCE: invalid choice: 'crossref'"),
        (["harvest"], "the following arguments are required: SOURCE"),
        (
            ["embed", "--batch-size", "none"],
            "argument --batch-size: 'none' is not a whole number of at least 1",
        ),
    ],
)
def test_a_bad_argument_is_one_line_and_a_non_zero_exit(arguments, message):
    result = manage(*arguments)

    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_dates_in_the_wrong_order_are_one_line_too():
    result = manage("harvest", "arxiv", "--from", "2017-12-14", "--until", "2017-12-01")

    assert result.returncode == 1
    assert result.stderr == "CommandError: --until 2017-12-01 is before --from 2017-12-14\n"


@pytest.mark.django_db
def test_embed_computes_missing_vectors_and_counts_them():
    paper = make_paper(title="Retrieval-augmented agents answer questions about scientific papers")
    missing = Paper.objects.without_embedding().count()

    dry = StringIO()
    call_command("embed", "--dry-run", stdout=dry)
    assert (
        dry.getvalue() == f"embeddings (dry run): {missing} papers without an embedding would be embedded\n"
    )
    out = StringIO()
    call_command("embed", stdout=out, stderr=StringIO())

    assert out.getvalue().startswith(
        f"embeddings: {missing} of {missing} papers without an embedding embedded in"
    )
    paper.refresh_from_db()
    assert paper.embedding is not None and len(paper.embedding) == 384
    assert HarvestRun.objects.filter(source="embed", state="succeeded", created_count=missing).exists()


@pytest.mark.django_db
def test_harvest_metrics_refreshes_researchers_from_both_sources(replay):
    clean_slate()  # no other researcher with an upstream id is due
    make_researcher("Jason Priem", openalex_id="A5023888391")
    replay.route("/openalex/authors", entity_list(fixture("openalex/author_A5023888391.json")))

    output = harvest("metrics", "--limit", "10")

    assert output.splitlines() == [
        "OpenAlex authors: 0 new, 0 updated, 0 unchanged, 0 skipped, 1 author profiles, "
        "1 researchers updated (succeeded)",
        "Semantic Scholar authors: 0 new, 0 updated, 0 unchanged, 0 skipped (succeeded)",
    ]
    assert Researcher.objects.get(openalex_id="A5023888391").h_index == 17
