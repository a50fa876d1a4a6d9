"""The parts every paper list shares: author links and the fields histogram."""

from django.http import QueryDict
from django.template import Context, Template

from papers.listing import PaperListing
from papers.models import Authorship
from researchers.models import Researcher


def author_links(authorships: list[Authorship], **context: object) -> str:
    source = "{% load papers %}{% author_links authorships current %}"
    return Template(source).render(Context({"authorships": authorships, **context}))


def test_matched_authors_are_linked_the_others_plain_and_every_name_escaped():
    ada = Researcher(pk=7, display_name="Ada Lovelace")
    html = author_links(
        [
            Authorship(position=1, name="Ada Lovelace", researcher=ada),
            Authorship(position=2, name="<b>Bobby</b> Tables"),
        ]
    )
    assert html == '<a href="/researchers/7-ada-lovelace">Ada Lovelace</a>, &lt;b&gt;Bobby&lt;/b&gt; Tables'


def test_the_profile_being_read_is_marked_as_the_current_page():
    ada, grace = Researcher(pk=7, display_name="Ada Lovelace"), Researcher(pk=8, display_name="Grace Hopper")
    authorships = [
        Authorship(name="Ada Lovelace", researcher=ada),
        Authorship(name="G. Hopper", researcher=grace),
    ]
    html = author_links(authorships, current=grace)
    assert '<a href="/researchers/8-grace-hopper" aria-current="page">G. Hopper</a>' in html
    assert html.count("aria-current") == 1
    assert "aria-current" not in author_links(authorships, current="")  # a page without a profile


def test_field_bars_link_to_the_list_filtered_keeping_its_sort_and_mark_the_current_filter():
    listing = PaperListing.from_query(QueryDict("sort=cited&category=cs.LG"))
    fields = [{"category": "cs.LG", "paper_count": 3}, {"category": "stat.ML", "paper_count": 1}]
    bars = listing.field_bars(fields, total=4)
    assert [(bar.category, bar.paper_count, bar.percent, bar.current) for bar in bars] == [
        ("cs.LG", 3, 75, True),
        ("stat.ML", 1, 25, False),
    ]
    assert [bar.href for bar in bars] == ["?sort=cited&category=cs.LG", "?sort=cited&category=stat.ML"]


def test_a_field_bar_never_overflows_and_an_empty_histogram_has_no_width():
    fields = [{"category": "hep-th", "paper_count": 5}]
    assert PaperListing().field_bars(fields, total=4)[0].percent == 100  # a stale total from the cache
    assert PaperListing().field_bars(fields, total=0)[0].percent == 0
