"""schema.org JSON-LD for a paper page: a ScholarlyArticle whose matched authors point at their profiles."""

from core.latex import readable_text
from core.links import absolute_url
from papers.models import Paper
from researchers.structured_data import person_id

HEADLINE_MAX_CHARACTERS = 110  # what search engines show of a headline


def paper_jsonld(paper: Paper) -> dict:
    """Expects the paper's authorships prefetched with their researchers (`with_authors()`)."""
    url = absolute_url(paper.get_absolute_url())
    title = readable_text(paper.title)
    authors = []
    for authorship in paper.authorships.all():
        person = {"@type": "Person", "name": authorship.name}
        if authorship.researcher is not None:
            person["@id"] = person_id(authorship.researcher)
            person["url"] = absolute_url(authorship.researcher.get_absolute_url())
        authors.append(person)
    same_as = [paper.abs_url] + ([f"https://doi.org/{paper.doi}"] if paper.doi else [])
    article = {
        "@type": "ScholarlyArticle",
        "@id": f"{url}#article",
        "url": url,
        "mainEntityOfPage": url,
        "name": title,
        "headline": title
        if len(title) <= HEADLINE_MAX_CHARACTERS
        else title[: HEADLINE_MAX_CHARACTERS - 1] + "…",
        "abstract": readable_text(paper.abstract),
        "author": authors,
        "datePublished": paper.published.isoformat(),
        "identifier": {"@type": "PropertyValue", "propertyID": "arXiv", "value": paper.arxiv_id},
        "sameAs": same_as,
        "keywords": paper.categories,
        "isAccessibleForFree": True,
        "encoding": {
            "@type": "MediaObject",
            "encodingFormat": "application/pdf",
            "contentUrl": paper.pdf_url,
        },
    }
    if paper.updated:
        article["dateModified"] = paper.updated.isoformat()
    return {"@context": "https://schema.org", "@graph": [article]}
