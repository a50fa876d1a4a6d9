"""Where a researcher's identity comes from: the external profiles it was matched to."""

from dataclasses import dataclass

from researchers.models import Researcher


@dataclass(frozen=True)
class ExternalProfile:
    source: str
    url: str


def _openalex_url(openalex_id: str) -> str:
    return openalex_id if openalex_id.startswith("https://") else f"https://openalex.org/{openalex_id}"


def external_profiles(researcher: Researcher) -> list[ExternalProfile]:
    """The researcher's profiles elsewhere, Semantic Scholar and OpenAlex first, ORCID last."""
    profiles = []
    if researcher.s2_id:
        profiles.append(
            ExternalProfile("Semantic Scholar", f"https://www.semanticscholar.org/author/{researcher.s2_id}")
        )
    if researcher.openalex_id:
        profiles.append(ExternalProfile("OpenAlex", _openalex_url(researcher.openalex_id)))
    if researcher.orcid:
        profiles.append(ExternalProfile("ORCID", f"https://orcid.org/{researcher.orcid}"))
    return profiles
