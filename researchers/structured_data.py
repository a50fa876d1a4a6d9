"""schema.org JSON-LD for a researcher's profile: the Person, the page about them, and its breadcrumbs."""

from collections.abc import Iterable

from django.urls import reverse

from core.links import absolute_url
from core.structured_data import breadcrumbs
from institutions.models import Institution
from researchers.models import Researcher
from researchers.profiles import external_profiles


def person_id(researcher: Researcher) -> str:
    return absolute_url(f"{researcher.get_absolute_url()}#person")


def researcher_jsonld(researcher: Researcher, *, institutions: Iterable[Institution]) -> dict:
    url = absolute_url(researcher.get_absolute_url())
    person: dict = {
        "@type": "Person",
        "@id": person_id(researcher),
        "name": researcher.display_name,
        "url": url,
        "mainEntityOfPage": url,
    }
    same_as = [profile.url for profile in external_profiles(researcher)]
    if same_as:
        person["sameAs"] = same_as
    affiliations = [
        {
            "@type": "Organization",
            "name": institution.name,
            "url": absolute_url(institution.get_absolute_url()),
        }
        for institution in institutions
    ]
    if affiliations:
        person["affiliation"] = affiliations
    page = {"@type": "ProfilePage", "@id": url, "url": url, "mainEntity": {"@id": person["@id"]}}
    trail = breadcrumbs(
        ("Researchers", reverse("researchers:index")),
        (researcher.display_name, researcher.get_absolute_url()),
    )
    return {"@context": "https://schema.org", "@graph": [person, page, trail]}


def researcher_description(researcher: Researcher) -> str:
    """The meta description: 'Grace Hopper: 12 papers in this archive · h-index 40.' Expects the
    researcher `with_paper_counts()`."""
    count = researcher.paper_count
    text = f"{researcher.display_name}: {count} paper{'' if count == 1 else 's'} in this archive"
    if researcher.h_index is not None:
        text += f" · h-index {researcher.h_index}"
    return f"{text}."
