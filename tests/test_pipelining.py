"""core.pipelining.rows_meanwhile: the statement runs on the server while the block runs here, and its rows,
or its error, arrive as the block ends."""

import psycopg
import pytest
from django.conf import settings
from django.db import DataError, connection, transaction

from core.pipelining import rows_meanwhile
from papers.models import Paper
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def _server_state_of(backend_pid: int) -> tuple[str, str]:
    """What another client sees that session doing: (state, query)."""
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    with psycopg.connect(url, autocommit=True) as other:
        return other.execute(
            "SELECT state, query FROM pg_stat_activity WHERE pid = %s", [backend_pid]
        ).fetchone()


def test_the_server_is_running_the_statement_while_the_block_runs():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend_pid = cursor.fetchone()[0]
    with rows_meanwhile("SELECT 'slept', pg_sleep(1.5)", []) as pending:
        state, query = _server_state_of(backend_pid)
        assert pending.result is None
    assert (state, "pg_sleep(1.5)" in query) == ("active", True)
    assert pending.result == [("slept", "")]


def test_its_rows_are_the_statements_and_what_the_block_sends_waits_behind_it():
    first = make_paper(title="First of two")
    second = make_paper(title="Second of two")
    with rows_meanwhile(
        "SELECT id, title FROM papers_paper WHERE id = ANY(%s) ORDER BY id", [[first.pk]]
    ) as pending:
        titles = list(Paper.objects.filter(pk=second.pk).values_list("title", flat=True))
    assert pending.result == [(first.pk, "First of two")]
    assert titles == ["Second of two"]


def test_an_error_in_the_statement_is_raised_as_the_block_ends_and_the_connection_goes_on():
    ran = []
    with (
        pytest.raises(DataError, match="division by zero"),
        transaction.atomic(),
        rows_meanwhile("SELECT 1 / (%s - 1)", [1]),
    ):
        ran.append("the block")
    assert ran == ["the block"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)
