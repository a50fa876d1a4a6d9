"""Lookups the ORM does not spell itself, registered on every field and relation by core's app config."""

from django.db.models import Field, ForeignObject, Lookup


class AnyOf(Lookup):
    """`field__any_of=values`: `column = ANY(%s::type[])`, the values sent as one array parameter.

    Why not `field__in=values`: `IN (%s, %s, …)` takes one placeholder a value, and for the thousands of
    names and papers a harvest page's grouping asks about, building, quoting and parsing those statements
    cost more than running them. The array is one parameter, whatever its length, and an empty one
    matches nothing without a special case.
    """

    lookup_name = "any_of"
    prepare_rhs = False

    def get_db_prep_lookup(self, value, connection):
        return "%s", [list(value)]

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        element_type = self.lhs.output_field.cast_db_type(connection)
        return f"{lhs} = ANY({rhs}::{element_type}[])", [*lhs_params, *rhs_params]


def register() -> None:
    Field.register_lookup(AnyOf)
    ForeignObject.register_lookup(AnyOf)  # relations look up only their own lookups, not Field's
