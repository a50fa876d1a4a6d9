"""`field__any_of`: membership in a list sent as one array parameter, on text, foreign-key and key fields."""

import pytest

from papers.models import Authorship, Paper
from researchers.names import normalise_name
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def test_it_matches_what_in_matches_on_text_foreign_key_and_primary_key_fields():
    first = make_paper(authors=["Ada Lovelace", "Flann O'Brien"])
    second = make_paper(authors=["Grace Hopper"])
    make_paper(authors=["Alan Turing"])
    names = [normalise_name(name) for name in ("Ada Lovelace", "Flann O'Brien", "Grace Hopper", "No One")]

    def matched(**lookup: object) -> list[int]:
        return sorted(Authorship.objects.filter(**lookup).values_list("id", flat=True))

    assert matched(normalised_name__any_of=names) == matched(normalised_name__in=names)
    assert len(matched(normalised_name__any_of=names)) == 3
    assert matched(paper_id__any_of={first.pk, second.pk}) == matched(paper__in=[first, second])
    assert list(Paper.objects.filter(pk__any_of=(second.pk,))) == [second]


def test_an_empty_list_matches_nothing():
    make_paper(authors=["Ada Lovelace"])
    assert not Authorship.objects.filter(normalised_name__any_of=[]).exists()
    assert not Paper.objects.filter(pk__any_of=[]).exists()


def test_thousands_of_values_are_one_parameter():
    names = [f"name {n}" for n in range(5000)]
    sql, params = Authorship.objects.filter(normalised_name__any_of=names).query.sql_with_params()
    assert sql.count("%s") == 1
    assert params == (names,)
