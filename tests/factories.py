"""Small builders for test data. Each call makes rows with unique ids, so tests never collide with each
other or with the demo corpus some tests load."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import AccountSettings, Follow, SavedSearch
from analysis.models import PaperAnalysis, PaperTopic, Topic
from institutions.models import Affiliation, Institution
from papers.models import Authorship, Citation, Paper, paper_slug
from researchers.models import Researcher
from researchers.names import normalise_name

_numbers = itertools.count(1)


def next_arxiv_id() -> str:
    # 9912.* is a month arXiv never used for new-style ids, so these never meet real ones.
    return f"9912.{next(_numbers):05d}"


# Given to make_paper, these make the paper's analysis (a PaperAnalysis row), analysed now unless said.
ANALYSIS_FIELDS = frozenset(
    field.name for field in PaperAnalysis._meta.get_fields() if field.concrete and field.name != "paper"
)


def make_paper(
    *, authors: list[str | Researcher] | None = None, topics: list[Topic] = (), **fields: object
) -> Paper:
    """A paper with authorships; a Researcher in `authors` is linked at that position; `topics` are its
    nearest, nearest first; any of ANALYSIS_FIELDS among `fields` go to its analysis."""
    analysis = {name: fields.pop(name) for name in ANALYSIS_FIELDS & fields.keys()}
    authors = authors if authors is not None else ["Ada Lovelace"]
    names = [a.display_name if isinstance(a, Researcher) else a for a in authors]
    title = str(fields.pop("title", f"A study of woven papers number {next(_numbers)}"))
    primary_category = str(fields.get("primary_category", "cs.DL"))
    values = {
        "arxiv_id": next_arxiv_id(),
        "abstract": "We weave papers, researchers and institutions together.",
        "published": datetime.date(2025, 5, 1),
        "categories": [primary_category],  # a paper is listed in its primary category
        "primary_category": primary_category,
        "slug": paper_slug(title),
    } | fields
    paper = Paper.objects.create(title=title, authors=names, **values)
    Authorship.objects.bulk_create(
        Authorship(
            paper=paper,
            position=position,
            name=name,
            normalised_name=normalise_name(name),
            researcher=author if isinstance(author, Researcher) else None,
        )
        for position, (name, author) in enumerate(zip(names, authors, strict=True), start=1)
    )
    give_topics(paper, topics)
    if analysis:
        PaperAnalysis.objects.create(paper=paper, **({"analysed": timezone.now()} | analysis))
    return paper


def give_topics(paper: Paper, topics: list[Topic]) -> None:
    """The paper's nearest topics, nearest first, in place of any it had, as topics_compute stores them."""
    PaperTopic.objects.filter(paper=paper).delete()
    PaperTopic.objects.bulk_create(
        PaperTopic(paper=paper, topic=topic, rank=rank) for rank, topic in enumerate(topics)
    )


def make_researcher(name: str = "Grace Hopper", **fields: object) -> Researcher:
    return Researcher.objects.create(display_name=name, normalised_name=normalise_name(name), **fields)


def make_institution(name: str = "University of Woven Studies", **fields: object) -> Institution:
    return Institution.objects.create(name=name, **fields)


def make_affiliation(
    researcher: Researcher, institution: Institution, *, last_known: bool = True
) -> Affiliation:
    return Affiliation.objects.create(researcher=researcher, institution=institution, last_known=last_known)


def make_citation(*, citing: Paper, cited: Paper) -> Citation:
    return Citation.objects.create(citing=citing, cited=cited)


ACCOUNT_PASSWORD = "loom-shuttle-warp-1843"  # noqa: S105 (test accounts only)


def make_account(
    email: str | None = None,
    *,
    password: str = ACCOUNT_PASSWORD,
    active: bool = True,
    **settings_fields: object,
) -> User:
    """A reader's account (the e-mail is the username), confirmed unless `active=False`, with its settings."""
    email = email or f"reader{next(_numbers)}@example.org"
    user = User.objects.create_user(username=email, email=email, password=password, is_active=active)
    AccountSettings.objects.create(user=user, **settings_fields)
    return user


def make_follow(user: User, researcher: Researcher) -> Follow:
    return Follow.objects.create(user=user, researcher=researcher)


def make_saved_search(
    owner: User, query_string: str = "q=woven", *, name: str = "Woven things", **fields: object
) -> SavedSearch:
    return SavedSearch.objects.create(owner=owner, name=name, query_string=query_string, **fields)
