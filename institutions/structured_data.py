"""schema.org JSON-LD and the meta description of an institution's page."""

from django.urls import reverse

from core.links import absolute_url, web_url
from core.structured_data import breadcrumbs
from institutions.models import Institution


def institution_jsonld(institution: Institution) -> dict:
    url = absolute_url(institution.get_absolute_url())
    homepage = web_url(institution.homepage)
    organization: dict = {
        "@type": "EducationalOrganization" if institution.type == "education" else "Organization",
        "@id": f"{url}#organization",
        "name": institution.name,
        "url": homepage or url,
        "mainEntityOfPage": url,
    }
    same_as = [link for link in (institution.ror_url, homepage) if link]
    if same_as:
        organization["sameAs"] = same_as
    if institution.country_code:
        organization["address"] = {"@type": "PostalAddress", "addressCountry": institution.country_code}
    trail = breadcrumbs(
        ("Institutions", reverse("institutions:index")), (institution.name, institution.get_absolute_url())
    )
    return {"@context": "https://schema.org", "@graph": [organization, trail]}


def institution_description(institution: Institution, *, researcher_count: int, paper_count: int) -> str:
    return (
        f"{institution.name}: {researcher_count} researcher{'' if researcher_count == 1 else 's'} and "
        f"{paper_count} paper{'' if paper_count == 1 else 's'} in this archive."
    )
