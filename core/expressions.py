"""SQL expressions the ORM does not spell itself."""

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import BooleanField, F, Func, QuerySet


class InArray(Func):
    """`column = ANY(ARRAY(subquery))`.

    Why not `column IN (subquery)`: for "this researcher's papers, newest (or most cited) first, 24 of
    them", PostgreSQL may walk the corpus-wide index on `published` (or `cited_by_count`) and probe every
    paper for membership, expecting the set's members to turn up early. For someone whose papers are old
    or little cited that reads most of the corpus. With ANY(ARRAY(…)) the subquery runs once, first, and the
    rows are fetched by primary key and sorted: the cost follows the size of the set, not of the corpus.
    """

    template = "%(expressions)s)"
    arg_joiner = " = ANY("
    output_field = BooleanField()


def in_array(column: str, subquery: QuerySet) -> InArray:
    """A filter: `column` is one of the values the one-column `subquery` returns. The subquery's ordering
    is dropped: membership does not need it, and a model's default ordering may add joins and a sort."""
    return InArray(F(column), ArraySubquery(subquery.order_by()))
