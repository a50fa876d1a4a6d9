"""Researcher identity without an upstream source, and merging two researchers into one."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from institutions.models import Affiliation
from papers.models import Authorship
from researchers.models import Follow, Researcher, ResearcherRedirect


class _Components:
    """Union-find over authorship ids."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, item: int) -> int:
        self.parent.setdefault(item, item)
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, first: int, second: int) -> None:
        root_first, root_second = self.find(first), self.find(second)
        if root_first != root_second:
            self.parent[max(root_first, root_second)] = min(root_first, root_second)


def _local_researchers() -> Q:
    return Q(researcher__openalex_id__isnull=True, researcher__s2_id__isnull=True)


@transaction.atomic
def researchers_group_by_names(*, paper_ids: Iterable[int] | None = None) -> int:
    """Give every unmatched authorship (of the given papers, or all) a researcher from arXiv names alone.

    Within one normalised name, authorships whose papers share a co-author, directly or through a chain
    of papers, are one researcher; groups with no shared co-author stay separate researchers with the same
    name. Researchers built this way earlier join the grouping, so a new paper that bridges two of them
    merges them (the absorbed id redirects). Returns the number of authorships linked.
    """
    unmatched = Authorship.objects.filter(researcher__isnull=True)
    if paper_ids is not None:
        unmatched = unmatched.filter(paper_id__in=list(paper_ids))
    unmatched_rows = list(unmatched.values_list("id", "paper_id", "normalised_name", "name"))
    if not unmatched_rows:
        return 0
    names = {row[2] for row in unmatched_rows}
    known_rows = list(
        Authorship.objects.filter(
            _local_researchers(), normalised_name__in=names, researcher__isnull=False
        ).values_list("id", "paper_id", "normalised_name", "researcher_id")
    )
    paper_set = {row[1] for row in unmatched_rows} | {row[1] for row in known_rows}
    coauthors: dict[int, set[str]] = defaultdict(set)
    for paper_id, name in Authorship.objects.filter(paper_id__in=paper_set).values_list(
        "paper_id", "normalised_name"
    ):
        coauthors[paper_id].add(name)

    components = _Components()
    by_name_and_coauthor: dict[tuple[str, str], int] = {}
    by_researcher: dict[int, int] = {}
    nodes = [(row[0], row[1], row[2]) for row in unmatched_rows] + [(r[0], r[1], r[2]) for r in known_rows]
    for authorship_id, paper_id, name in nodes:
        components.find(authorship_id)
        for coauthor in coauthors[paper_id] - {name}:
            first = by_name_and_coauthor.setdefault((name, coauthor), authorship_id)
            components.union(first, authorship_id)
    for authorship_id, _paper_id, _name, researcher_id in known_rows:
        first = by_researcher.setdefault(researcher_id, authorship_id)
        components.union(first, authorship_id)

    researchers_in: dict[int, set[int]] = defaultdict(set)
    for authorship_id, _paper_id, _name, researcher_id in known_rows:
        researchers_in[components.find(authorship_id)].add(researcher_id)
    written_names: dict[int, Counter] = defaultdict(Counter)
    members: dict[int, list[int]] = defaultdict(list)
    for authorship_id, _paper_id, _normalised, written in unmatched_rows:
        root = components.find(authorship_id)
        written_names[root][written] += 1
        members[root].append(authorship_id)

    normalised_of = {row[0]: row[2] for row in unmatched_rows}
    new_roots = [root for root in members if not researchers_in[root]]
    created = Researcher.objects.bulk_create(
        Researcher(
            display_name=written_names[root].most_common(1)[0][0],
            normalised_name=normalised_of[members[root][0]],
        )
        for root in new_roots
    )
    owner = {root: researcher.pk for root, researcher in zip(new_roots, created, strict=True)}
    for root in members:
        if root in owner:
            continue
        survivor_id, *absorbed_ids = sorted(researchers_in[root])
        survivor = Researcher.objects.get(pk=survivor_id)
        for absorbed in Researcher.objects.filter(pk__in=absorbed_ids):
            researcher_absorb(survivor=survivor, absorbed=absorbed)
        owner[root] = survivor_id

    links = [
        Authorship(pk=authorship_id, researcher_id=owner[root])
        for root, authorship_ids in members.items()
        for authorship_id in authorship_ids
    ]
    Authorship.objects.bulk_update(links, ["researcher"], batch_size=2000)
    return len(links)


@transaction.atomic
def researcher_absorb(*, survivor: Researcher, absorbed: Researcher) -> Researcher:
    """Fold `absorbed` into `survivor`: its authorships, affiliations and followers move over, its upstream
    ids fill gaps, and its id keeps answering with a redirect to the survivor."""
    if absorbed.pk == survivor.pk:
        return survivor
    Authorship.objects.filter(researcher=absorbed).update(researcher=survivor)
    survivor_institutions = set(survivor.affiliations.values_list("institution_id", flat=True))
    Affiliation.objects.filter(researcher=absorbed, institution_id__in=survivor_institutions).delete()
    Affiliation.objects.filter(researcher=absorbed).update(researcher=survivor)
    survivor_followers = set(survivor.follows.values_list("user_id", flat=True))
    Follow.objects.filter(researcher=absorbed, user_id__in=survivor_followers).delete()
    Follow.objects.filter(researcher=absorbed).update(researcher=survivor)
    ResearcherRedirect.objects.filter(researcher=absorbed).update(researcher=survivor)
    ResearcherRedirect.objects.create(old_id=absorbed.pk, researcher=survivor)

    upstream = {}
    for field in ("openalex_id", "s2_id", "orcid", "h_index", "citation_count", "works_count"):
        if getattr(survivor, field) in (None, "") and getattr(absorbed, field) not in (None, ""):
            upstream[field] = getattr(absorbed, field)
    absorbed.delete()  # before the survivor takes its unique upstream ids
    if upstream:
        for field, value in upstream.items():
            setattr(survivor, field, value)
        survivor.save(update_fields=[*upstream, "updated_at"])
    return survivor
