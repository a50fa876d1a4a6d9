"""Python work while PostgreSQL answers: one statement sent ahead in psycopg's pipeline mode, its rows
read when the caller is done with something else. The server starts on a pipelined statement as it
arrives, so on two cores the database's process and ours both work, where a plain execute leaves one of
them waiting for the other."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections

T = TypeVar("T")


@dataclass
class Pending(Generic[T]):
    """What a statement sent ahead answers: None inside the block, filled in as it ends."""

    result: T | None = None


@contextmanager
def rows_meanwhile(
    sql: str, params: Sequence[Any] | Mapping[str, Any], *, using: str = DEFAULT_DB_ALIAS
) -> Iterator[Pending[list[tuple]]]:
    """Sends `sql` and runs the block at once, while the server works on it; as the block ends, waits for
    the rows and puts them in the pending's `result`. The block is for work in Python: a statement it
    sends on the same connection queues behind this one (it works, but waits). An error in `sql` is
    raised as the block ends."""
    database = connections[using]
    pending: Pending[list[tuple]] = Pending()
    with database.cursor() as cursor, database.connection.pipeline():
        cursor.execute(sql, params)
        yield pending
        pending.result = cursor.fetchall()
