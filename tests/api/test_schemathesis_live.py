"""schemathesis reads /openapi.json from the live site (gunicorn on the test database with the demo
corpus) and throws generated requests, valid and invalid, at every operation over loopback."""

import json
import subprocess
import sys

import httpx
import pytest

from institutions.models import Affiliation, Institution
from papers.models import Citation, Paper
from researchers.models import Researcher

# Per operation and phase. With the coverage phase's boundary cases, a run costs about 650 requests (the
# search's many parameters make a good part of them): under the live site's limits per client address
# (tests/conftest.py), so that the answers come from the operations, not from the limiter.
MAX_EXAMPLES = 4
CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
    "unsupported_method",
    "allow_header_conformance",
]


@pytest.fixture
def known_ids(demo_corpus, django_db_blocker):
    """Ids that exist on the live site, so that half the generated requests reach real records: demo
    papers with references and citations, their authors, and an institution committed for this test."""
    with django_db_blocker.unblock():
        edges = list(Citation.objects.values_list("citing__arxiv_id", "cited__arxiv_id")[:5])
        arxiv_ids = sorted({arxiv_id for edge in edges for arxiv_id in edge}) or list(
            Paper.objects.values_list("arxiv_id", flat=True)[:5]
        )
        researcher_ids = list(
            Researcher.objects.filter(authorships__paper__arxiv_id__in=arxiv_ids).values_list(
                "pk", flat=True
            )[:5]
        )
        institution = Institution.objects.create(
            name="Schemathesis Institute of Woven Studies", ror_id="0schem842"
        )
        Affiliation.objects.create(researcher_id=researcher_ids[0], institution=institution, last_known=True)
        yield {
            "arxiv_ids": arxiv_ids,
            "researcher_ids": researcher_ids,
            "institution_keys": [str(institution.pk), institution.ror_id],
        }
        institution.delete()


def test_it_answers_generated_requests_without_server_errors_or_schema_violations(
    live_site, known_ids, tmp_path
):
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        "\n".join(
            [f"[dictionaries.{name}]\nvalues = {json.dumps(values)}" for name, values in known_ids.items()]
            + ["[parameters]",
               '"path.arxiv_id" = { dictionary = "arxiv_ids", probability = 0.5 }',
               '"path.researcher_id" = { dictionary = "researcher_ids", probability = 0.5 }',
               '"path.key" = { dictionary = "institution_keys", probability = 0.5 }',
               # gunicorn refuses request lines over 4 KB with 414 before Django sees them.
               "[checks.negative_data_rejection]",
               'expected-statuses = ["400", "404", "405", "414", "429"]',
               # Two other methods per operation show that only GET is answered; all seven would cost a
               # tenth of the run's budget of requests.
               "[phases.coverage]",
               'unexpected-methods = ["post", "delete"]']
        )
    )  # fmt: skip
    assert httpx.get(f"{live_site}/openapi.json", timeout=30).status_code == 200
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
    options = ["--url", live_site, "--checks", ",".join(CHECKS), "--max-examples", str(MAX_EXAMPLES),
               "--seed", "7", "--workers", "1", "--request-timeout", "30", "--no-color"]  # fmt: skip
    result = subprocess.run(
        [*command, f"{live_site}/openapi.json", *options],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    print(result.stdout)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
    assert "12 selected / 12 total" in result.stdout
    assert "Rate limited" not in result.stdout  # the answers came from the operations, not the limiter
