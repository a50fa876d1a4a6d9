"""Researcher identity: from arXiv names alone, from upstream sources (OpenAlex, Semantic Scholar) by
author position, and merging two researchers into one."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from core.bulk import copy_create
from institutions.models import Affiliation
from papers.models import Authorship, Paper
from papers.querysets import AuthorshipQuerySet
from researchers.evidence import (
    BRIDGE_AUTHOR_LIST,
    GroupEvidence,
    NameCommonness,
    initialled,
    may_bridge,
    merges_by_initials,
    merges_within_name,
    telling_coauthors,
)
from researchers.models import RemovedResearcher, Researcher, ResearcherRedirect
from researchers.names import normalise_name
from researchers.querysets import made_from_arxiv_names_alone


class _Components:
    """Union-find over authorship ids."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, item: int) -> int:
        parent = self.parent
        above = parent.setdefault(item, item)
        while above != item:  # halving the path on the way up; a regroup calls this millions of times
            parent[item] = item = parent[above]
            above = parent[item]
        return item

    def union(self, first: int, second: int) -> None:
        if first == second:  # most calls: the first of its key joins itself, and finding it twice cost more
            return
        root_first, root_second = self.find(first), self.find(second)
        if root_first != root_second:
            self.parent[max(root_first, root_second)] = min(root_first, root_second)


@transaction.atomic
def researchers_group_by_names(
    *,
    paper_ids: Iterable[int] | None = None,
    names: Iterable[str] | None = None,
    weak_evidence: bool = True,
    unsaved: Sequence[Authorship] = (),
) -> int:
    """Give every unmatched authorship (of the given papers, or all) a researcher from arXiv names alone,
    and look again at the researchers of the given normalised names (those of a batch just embedded).

    Teams and collaborations are left out: they are never researchers nor anyone's co-author. Within one
    normalised name, authorships whose papers share a co-author or print the same affiliation, directly or
    through a chain of papers, are one researcher. Groups with neither are joined on weaker evidence taken
    together (researchers/evidence.py: fields, years, the meaning of their papers, co-authors who wrote
    together, how rare the name is) unless `weak_evidence` is off; the rest stay separate researchers with
    the same name. Researchers built this way earlier join the grouping, so a new paper that bridges two
    of them merges them (the absorbed id redirects); on the strong evidence alone, only through what they
    share with the new authorships (_sharing_strong_evidence). Returns the number of authorships linked.

    `unsaved` are authorships of new papers not stored yet (the papers are): grouped with the rest on the
    strong evidence, each given its researcher in place for the caller to store, so that a harvest page's
    authorships are written once, with their researchers, rather than written and then updated.
    """
    if unsaved and weak_evidence:
        raise ValueError("unsaved authorships are grouped on the strong evidence only (weak_evidence=False)")
    unmatched = Authorship.objects.people().filter(researcher__isnull=True).order_by()
    if paper_ids is not None:
        unmatched = unmatched.filter(Q(paper_id__any_of=paper_ids) | Q(normalised_name__any_of=names or ()))
    # Each row carries its printed affiliations, as the known rows do: the grouping reads them off the
    # rows it has rather than asking for the names' authorships on these papers again.
    unmatched_rows = list(unmatched.values_list("id", "paper_id", "normalised_name", "name", "affiliations"))
    stored_papers = {row[1] for row in unmatched_rows}
    # An unsaved authorship's node is its negative place in `unsaved`: stored ids are positive.
    people_unsaved = {-place: a for place, a in enumerate(unsaved, start=1) if not a.is_collaboration}
    unmatched_rows += [
        (node, a.paper_id, a.normalised_name, a.name, a.affiliations) for node, a in people_unsaved.items()
    ]
    names = {row[2] for row in unmatched_rows} | set(names or ())
    if not names:
        return 0
    coauthors = _coauthors_on(stored_papers)
    for authorship in people_unsaved.values():
        coauthors[authorship.paper_id].add(authorship.normalised_name)
    known = Authorship.objects.filter(
        made_from_arxiv_names_alone("researcher__"), researcher__isnull=False
    ).order_by()
    if weak_evidence:
        names |= _initials_variants(names)  # their researchers may be the same people
        # The weak evidence weighs every group of these names, with all its co-authors.
        known_rows = list(
            known.filter(normalised_name__any_of=names).values_list(
                "id", "paper_id", "normalised_name", "researcher_id", "affiliations"
            )
        )
        coauthors.update(_coauthors_on({row[1] for row in known_rows} - set(coauthors)))
    else:
        known_rows = _sharing_strong_evidence(known, unmatched_rows, coauthors)

    components = _Components()
    by_name_and_coauthor: dict[tuple[str, str], int] = {}
    by_researcher: dict[int, int] = {}
    nodes = [(row[0], row[1], row[2]) for row in unmatched_rows] + [(r[0], r[1], r[2]) for r in known_rows]
    for authorship_id, paper_id, name in nodes:
        components.find(authorship_id)
        for coauthor in coauthors[paper_id] - {name}:
            first = by_name_and_coauthor.setdefault((name, coauthor), authorship_id)
            components.union(first, authorship_id)
    for authorship_id, _paper_id, _name, researcher_id, _affiliations in known_rows:
        first = by_researcher.setdefault(researcher_id, authorship_id)
        components.union(first, authorship_id)
    # The same name at the same affiliation, as the papers print it, is one person too.
    by_name_and_affiliation: dict[tuple[str, str], int] = {}
    normalised_affiliations: dict[str, str] = {}  # a page prints a few hundred, each thousands of times
    for authorship_id, _paper_id, name, _written_or_researcher, affiliations in unmatched_rows + known_rows:
        for affiliation in affiliations:
            normalised = normalised_affiliations.get(affiliation)
            if normalised is None:
                normalised = normalised_affiliations[affiliation] = normalise_name(affiliation)
            if normalised:
                first = by_name_and_affiliation.setdefault((name, normalised), authorship_id)
                components.union(first, authorship_id)
    if weak_evidence:
        _join_on_weak_evidence(components, nodes, coauthors)

    researchers_in: dict[int, set[int]] = defaultdict(set)
    names_in: dict[int, set[str]] = defaultdict(set)
    for authorship_id, _paper_id, name, researcher_id, _affiliations in known_rows:
        root = components.find(authorship_id)
        researchers_in[root].add(researcher_id)
        names_in[root].add(name)
    written_names: dict[int, Counter] = defaultdict(Counter)  # (normalised, as written)
    members: dict[int, list[int]] = defaultdict(list)
    for authorship_id, _paper_id, normalised, written, _affiliations in unmatched_rows:
        root = components.find(authorship_id)
        written_names[root][(normalised, written)] += 1
        names_in[root].add(normalised)
        members[root].append(authorship_id)

    named = {root: _fullest_name(written_names[root]) for root in members}
    new_roots = [root for root in members if root not in researchers_in]
    created = [Researcher(normalised_name=named[root][0], display_name=named[root][1]) for root in new_roots]
    copy_create(created)
    owner = {root: researcher.pk for root, researcher in zip(new_roots, created, strict=True)}
    survivor_of: dict[int, int] = {}
    renamed: list[tuple[int, list[int], int]] = []  # (survivor, absorbed, root): may take a fuller name
    for root, researcher_ids in researchers_in.items():
        survivor_id, *absorbed_ids = sorted(researcher_ids)
        owner[root] = survivor_id
        if absorbed_ids or len(names_in[root]) > 1:
            survivor_of.update(dict.fromkeys(absorbed_ids, survivor_id))
            renamed.append((survivor_id, absorbed_ids, root))
    if renamed:
        known = {
            pk: (normalised, display)
            for pk, normalised, display in Researcher.objects.filter(
                pk__any_of=[*survivor_of, *(survivor_id for survivor_id, _ids, _root in renamed)]
            ).values_list("id", "normalised_name", "display_name")
        }
        researchers_absorb(survivor_of=survivor_of)
        _take_fullest_names(
            (survivor_id, known[survivor_id][0], _names_known(named.get(root), [known[a] for a in absorbed]))
            for survivor_id, absorbed, root in renamed
        )

    links = [(authorship_id, owner[root]) for root, ids in members.items() for authorship_id in ids]
    for node, researcher_id in links:
        if node < 0:
            people_unsaved[node].researcher_id = researcher_id
    _link_authorships(
        [(authorship_id, researcher_id) for authorship_id, researcher_id in links if authorship_id > 0]
    )
    return len(links)


def _coauthors_on(paper_ids: Iterable[int]) -> dict[int, set[str]]:
    """The normalised names of the people on each of these papers."""
    coauthors: dict[int, set[str]] = defaultdict(set)
    for paper_id, name in (
        Authorship.objects.people()
        .order_by()
        .filter(paper_id__any_of=paper_ids)
        .values_list("paper_id", "normalised_name")
    ):
        coauthors[paper_id].add(name)
    return coauthors


def _sharing_strong_evidence(
    known: AuthorshipQuerySet, unmatched_rows: Sequence[tuple], coauthors: dict[int, set[str]]
) -> list[tuple[int, int, str, int, list[str]]]:
    """Of the known authorships (with their affiliations), enough to join every new one to the
    researchers it shares strong evidence with: one for each researcher and (name, co-author) pair of
    the new authorships, its paper's co-authors taken as that pair (added to `coauthors`), and all those
    of their names that print an affiliation (compared as normalise_name reads it). A researcher's other
    authorships are one group already and change nothing: reading them all, with their co-authors, made
    each harvest page's grouping slower as the corpus grew (3.1 s a page at 100,000 papers; 1.3 s this
    way)."""
    pairs = {
        (name, coauthor)
        for _id, paper_id, name, _written, _affiliations in unmatched_rows
        for coauthor in coauthors[paper_id] - {name}
    }
    names = {row[2] for row in unmatched_rows}
    # One row of each researcher, name and affiliation list: the others are one group already and print
    # nothing more (37,375 rows became 6,755 on four pages at 100,000 papers).
    affiliated = (
        known.filter(normalised_name__any_of=names)
        .exclude(affiliations=[])
        .order_by("researcher_id", "normalised_name", "affiliations", "id")
        .distinct("researcher_id", "normalised_name", "affiliations")
    )
    columns = ("id", "paper_id", "normalised_name", "researcher_id", "affiliations")
    rows = {row[0]: row for row in affiliated.values_list(*columns)}
    for row in Researcher.objects.from_arxiv_names_alone().one_authorship_for_each_coauthor_pair(pairs):
        rows.setdefault(row.id, (row.id, row.paper_id, row.normalised_name, row.researcher_id, []))
        coauthors[row.paper_id] |= {row.normalised_name, row.coauthor}
    return list(rows.values())


def _link_authorships(links: Sequence[tuple[int, int]]) -> None:
    """Set each (authorship, researcher) pair in one statement: Django's bulk_update builds a CASE of every
    row, which cost more than the rest of a demo load's grouping."""
    if not links:
        return
    authorship_ids, researcher_ids = zip(*links, strict=True)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE papers_authorship AS authorship SET researcher_id = link.researcher_id
            FROM unnest(%s::bigint[], %s::bigint[]) AS link(id, researcher_id)
            WHERE authorship.id = link.id
            """,
            [list(authorship_ids), list(researcher_ids)],
        )


def _fullest_name(written: Counter) -> tuple[str, str]:
    """The (normalised, written) name a group of authorships goes by: its fullest ("Dan Zhao" over "D.
    Zhao", when evidence joined the two), as most of them write it."""
    fullest = max((normalised for normalised, _written in written), key=len)
    return max((pair for pair in written if pair[0] == fullest), key=written.__getitem__)


def _names_known(grouped: tuple[str, str] | None, absorbed: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Normalised name → written name, for a group's own name and those of the researchers it absorbs."""
    known_as = dict([grouped] if grouped else [])
    for normalised, display in absorbed:
        known_as.setdefault(normalised, display)
    return known_as


def _take_fullest_names(survivors: Iterable[tuple[int, str, Mapping[str, str]]]) -> None:
    """A researcher known by initials ("D. Zhao") that joined one with the full name takes the full name:
    for each (researcher, its normalised name, the names its group goes by), in one statement."""
    renames = []
    for researcher_id, normalised_name, names in survivors:
        fullest = max(names, key=len, default="")
        if initialled(fullest) == normalised_name:
            renames.append((researcher_id, fullest, names[fullest]))
    if not renames:
        return
    ids, normalised, display = (list(column) for column in zip(*renames, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Researcher._meta.db_table} AS researcher "  # noqa: S608 - the model's table
            "SET normalised_name = rename.normalised, display_name = rename.display, updated_at = %s "
            "FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS rename(id, normalised, display) "
            "WHERE researcher.id = rename.id",
            [timezone.now(), ids, normalised, display],
        )


def _join_on_weak_evidence(
    components: _Components, nodes: list[tuple[int, int, str]], coauthors: Mapping[int, set[str]]
) -> None:
    """Join the groups of one name that the weaker evidence, taken together, says are one person; then
    the groups of an initialled name and a full one it abbreviates that it says are one."""
    roots_of_name: dict[str, set[int]] = defaultdict(set)
    for authorship_id, _paper_id, name in nodes:
        roots_of_name[name].add(components.find(authorship_id))
    split_names = {name for name, roots in roots_of_name.items() if len(roots) > 1}
    abbreviated = {short for name in roots_of_name if (short := initialled(name)) in roots_of_name}
    variant_names = abbreviated | {name for name in roots_of_name if initialled(name) in abbreviated}
    weighed_names = split_names | variant_names
    weighed = [node for node in nodes if node[2] in weighed_names]
    if not weighed:
        return
    papers = {
        paper_id: (field_name, published.year, vector)
        for paper_id, field_name, published, vector in Paper.objects.filter(
            pk__any_of={node[1] for node in weighed}
        ).values_list("id", "primary_category", "published", "embedding")
    }
    groups = _group_evidence(components, weighed, papers, coauthors)
    # Only the commonness of the groups' names and of their close co-authors is ever asked.
    close_names = set().union(*(e.close_coauthors for by_root in groups.values() for e in by_root.values()))
    commonness = names_commonness(names=set(groups) | close_names)
    telling = {
        name: {root: telling_coauthors(evidence, commonness) for root, evidence in groups[name].items()}
        for name in split_names
    }
    # Bridges are read only through telling co-authors, of the groups whose pairs they can decide.
    bridging = (
        telling[name][root]
        for name in split_names
        for root, evidence in groups[name].items()
        if may_bridge(evidence, expected_holders=commonness.expected_holders(name))
    )
    # A bridge joins telling co-authors of two groups: who else each wrote with matters only among them.
    neighbours = Authorship.objects.coauthors_among(set().union(*bridging), most_authors=BRIDGE_AUTHOR_LIST)
    for name in split_names:
        holders = commonness.expected_holders(name)
        for one, other in merges_within_name(
            groups[name], expected_holders=holders, neighbours=neighbours, telling=telling[name]
        ):
            components.union(one, other)
    if variant_names:
        variants = [node for node in weighed if node[2] in variant_names]
        for one, other in merges_by_initials(
            _group_evidence(components, variants, papers, coauthors), commonness=commonness
        ):
            components.union(one, other)


def _group_evidence(
    components: _Components,
    nodes: list[tuple[int, int, str]],
    papers: Mapping[int, tuple[str, int, object]],
    coauthors: Mapping[int, set[str]],
) -> dict[str, dict[int, GroupEvidence]]:
    """What is known of each group of authorships, by name and by the group's root."""
    groups: dict[str, dict[int, GroupEvidence]] = defaultdict(dict)
    for authorship_id, paper_id, name in nodes:
        field_name, year, vector = papers[paper_id]
        root = components.find(authorship_id)
        evidence = groups[name].get(root)
        if evidence is None:  # not setdefault: that builds an evidence for every paper, and most are dropped
            evidence = groups[name][root] = GroupEvidence()
        evidence.add_paper(
            coauthors=coauthors[paper_id] - {name},
            field_name=field_name,
            year=year,
            vector=None if vector is None else np.asarray(vector, dtype=float),
        )
    return groups


def _initials_variants(names: Iterable[str]) -> set[str]:
    """The corpus's names that may be these same people written otherwise: each full name's initialled
    form ("dan zhao" → "d zhao"), and the full names each initialled one may abbreviate."""
    variants = {short for name in names if (short := initialled(name))}
    abbreviations = {name for name in names if initialled(name) is None and len(name.split()) > 1}
    if abbreviations:
        families = {name.split()[-1] for name in abbreviations}
        variants |= {
            name
            for name in Authorship.objects.people().with_family_name_in(families)
            .order_by().values_list("normalised_name", flat=True).distinct()
            if initialled(name) in abbreviations
        }  # fmt: skip
    return variants - set(names)


def names_commonness(*, names: Iterable[str]) -> NameCommonness:
    """How common each of these names is among the corpus's people, counted in the database for their
    own given and family names: one query, however many names the corpus holds."""
    words = [name.split() for name in names]
    counts = Authorship.objects.people().name_word_counts(
        given={w[0] for w in words if len(w) > 1}, family={w[-1] for w in words if len(w) > 1}
    )
    return NameCommonness(given=counts.given, family=counts.family, total=counts.total)


def researcher_absorb(*, survivor: Researcher, absorbed: Researcher) -> Researcher:
    """Fold `absorbed` into `survivor` (see researchers_absorb); returns the survivor as it now is."""
    if absorbed.pk != survivor.pk:
        researchers_absorb(survivor_of={absorbed.pk: survivor.pk})
        survivor.refresh_from_db()
    return survivor


# What an absorbed researcher hands its survivor where the survivor has none.
_HANDED_OVER = ("openalex_id", "s2_id", "orcid", "h_index", "citation_count", "works_count")


@transaction.atomic
def researchers_absorb(*, survivor_of: Mapping[int, int]) -> None:
    """Fold each absorbed researcher (a key) into its survivor (the value): authorships, affiliations and
    followers move over (a survivor's own affiliation or follow of the same institution or user wins,
    then the lowest absorbed id's), upstream ids and metrics fill the survivor's gaps, and each absorbed id
    keeps answering with a redirect to its survivor, as do the ids it had absorbed before. A fixed handful
    of statements however many are absorbed: a harvest page's grouping absorbs thousands."""
    pairs = {absorbed: survivor for absorbed, survivor in survivor_of.items() if absorbed != survivor}
    if not pairs:
        return
    if set(pairs) & set(pairs.values()):
        raise ValueError("a researcher cannot both absorb and be absorbed in one call")
    absorbed_ids = list(pairs)
    moves = {"absorbed": absorbed_ids, "survivor": list(pairs.values()), "now": timezone.now()}
    with connection.cursor() as cursor:
        for statement in _absorb_statements():
            cursor.execute(statement, moves)
    handed = _handed_over(pairs)
    Researcher.objects.filter(pk__in=absorbed_ids).delete()  # before survivors take their unique ids
    for survivor_id, fields in handed.items():
        Researcher.objects.filter(pk=survivor_id).update(**fields, updated_at=timezone.now())


def _absorb_statements() -> list[str]:
    """researchers_absorb's moves, in order, for the parameters absorbed, survivor (equal-length id
    arrays) and now. Table names come from the models; every value is a parameter."""
    moves = "unnest(%(absorbed)s::bigint[], %(survivor)s::bigint[]) AS move(absorbed, survivor)"
    statements = [
        f"UPDATE {Authorship._meta.db_table} AS authorship SET researcher_id = move.survivor "  # noqa: S608
        f"FROM {moves} WHERE authorship.researcher_id = move.absorbed"
    ]
    # Follows are accounts' rows, named through the relation: this app imports no accounts code.
    follows = Researcher._meta.get_field("follows").related_model._meta.db_table
    for table, other in ((Affiliation._meta.db_table, "institution_id"), (follows, "user_id")):
        statements += [
            # One row per (survivor, institution or user): the survivor's own, else the first absorbed's.
            f"""
            DELETE FROM {table} AS linked USING (
                SELECT linked.id, row_number() OVER (
                    PARTITION BY coalesce(move.survivor, linked.researcher_id), linked.{other}
                    ORDER BY move.absorbed NULLS FIRST, linked.id
                ) AS rank
                FROM {table} AS linked LEFT JOIN {moves} ON move.absorbed = linked.researcher_id
                WHERE linked.researcher_id = ANY(%(absorbed)s::bigint[] || %(survivor)s::bigint[])
            ) AS ranked
            WHERE linked.id = ranked.id AND ranked.rank > 1
            """,  # noqa: S608
            f"UPDATE {table} AS linked SET researcher_id = move.survivor FROM {moves} "  # noqa: S608
            "WHERE linked.researcher_id = move.absorbed",
        ]
    redirects = ResearcherRedirect._meta.db_table
    return [
        *statements,
        f"UPDATE {redirects} AS redirect SET researcher_id = move.survivor FROM {moves} "  # noqa: S608
        "WHERE redirect.researcher_id = move.absorbed",
        f"INSERT INTO {redirects} (old_id, researcher_id, created_at) "  # noqa: S608
        f"SELECT move.absorbed, move.survivor, %(now)s FROM {moves}",
    ]


def _handed_over(survivor_of: Mapping[int, int]) -> dict[int, dict[str, object]]:
    """For each survivor, the upstream fields it lacks that its absorbed researchers have: the lowest
    absorbed id's value of each."""
    empty = (None, "")
    rows = Researcher.objects.filter(pk__any_of=[*survivor_of, *survivor_of.values()]).values(
        "id", *_HANDED_OVER
    )
    by_id = {row.pop("id"): row for row in rows}
    handed: dict[int, dict[str, object]] = defaultdict(dict)
    for absorbed_id in sorted(survivor_of):
        survivor_id = survivor_of[absorbed_id]
        for field, value in by_id[absorbed_id].items():
            if by_id[survivor_id][field] in empty and value not in empty:
                handed[survivor_id].setdefault(field, value)
    return handed


# Which Researcher field holds each source's author id.
UPSTREAM_ID_FIELDS = {"openalex": "openalex_id", "s2": "s2_id"}
# Names at the same position need only be compatible (a surname in common); without the position, a
# name must carry the match on its own.
SAME_POSITION_SIMILARITY = 0.5
NAME_ONLY_SIMILARITY = 0.7
# Where positions disagree, an author is looked for this far from their upstream position: enough for a
# list that gained or lost a few names, and no quadratic search through a thousand-author collaboration.
NAME_SEARCH_WINDOW = 25


@dataclass(frozen=True)
class UpstreamAuthor:
    """An author of a paper as a source lists it, in the source's order."""

    upstream_id: str  # empty when the source could not identify the author
    names: tuple[str, ...]  # the source's name for the author, and the name as printed when it differs
    orcid: str = ""


def _ratio(first: str, second: str) -> float:
    return SequenceMatcher(None, first, second).ratio()


def name_similarity(first: str, second: str) -> float:
    """How alike two person names are, 0 to 1: the family name carries it, the first initial helps.
    'Jeffrey Dean' and 'Jay B. Dean' are close; 'Wei Wang' and 'Wei Zhang' are not."""
    a, b = normalise_name(first).split(), normalise_name(second).split()
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    if sorted(a) == sorted(b):
        return 0.95  # the same words in another order: Wang Wei, Wei Wang
    surname = max(_ratio(a[-1], b[-1]), _ratio("".join(a[1:]), "".join(b[1:])) if a[1:] and b[1:] else 0)
    surname = surname if surname >= 0.8 else 0.0
    initial = 1.0 if a[0][0] == b[0][0] else 0.0
    return min(0.9, 0.75 * surname + 0.25 * initial)


def _similarity(authorship: Authorship, author: UpstreamAuthor) -> float:
    return max((name_similarity(authorship.name, name) for name in author.names if name), default=0.0)


def pair_authorships(
    authorships: Sequence[Authorship], authors: Sequence[UpstreamAuthor]
) -> dict[int, Authorship]:
    """Which of the paper's authorships each upstream author (by index) is.

    The position decides: the upstream author at position n is the arXiv author at position n when their
    names are compatible. Only where positions disagree (an author list that is longer, shorter or in
    another order upstream) does name similarity choose, the nearest position breaking ties."""
    by_position = {authorship.position: authorship for authorship in authorships}
    pairs: dict[int, Authorship] = {}
    unresolved = []
    for index, author in enumerate(authors):
        candidate = by_position.get(index + 1)
        if candidate is not None and _similarity(candidate, author) >= SAME_POSITION_SIMILARITY:
            pairs[index] = candidate
        else:
            unresolved.append(index)
    taken = {authorship.pk for authorship in pairs.values()}
    for index in unresolved:
        scored = [
            (_similarity(authorship, authors[index]), -abs(authorship.position - (index + 1)), authorship)
            for authorship in authorships
            if authorship.pk not in taken and abs(authorship.position - (index + 1)) <= NAME_SEARCH_WINDOW
        ]
        if not scored:
            continue
        similarity, _closeness, best = max(scored, key=lambda item: (item[0], item[1]))
        if similarity >= NAME_ONLY_SIMILARITY:
            pairs[index] = best
            taken.add(best.pk)
    return pairs


def _conflicts(first: Researcher, second: Researcher) -> bool:
    """Two researchers that carry different ids of one source are different people, whatever their names."""
    return any(
        getattr(first, field) and getattr(second, field) and getattr(first, field) != getattr(second, field)
        for field in UPSTREAM_ID_FIELDS.values()
    )


def _link(authorship: Authorship, field: str, author: UpstreamAuthor) -> Researcher:
    # Re-read: an absorption earlier in this paper may have moved this authorship already.
    current_id = Authorship.objects.filter(pk=authorship.pk).values_list("researcher_id", flat=True).get()
    current = Researcher.objects.filter(pk=current_id).first() if current_id else None
    owner = Researcher.objects.filter(**{field: author.upstream_id}).first()
    if current is not None and getattr(current, field) == author.upstream_id:
        researcher = current
    elif current is not None and not getattr(current, field) and owner is None:
        # The researcher this authorship already has takes on its upstream identity: same id, same URL.
        setattr(current, field, author.upstream_id)
        current.save(update_fields=[field, "updated_at"])
        researcher = current
    elif current is not None and not getattr(current, field) and not _conflicts(current, owner):
        # Two records of one person. A researcher known from arXiv names only is absorbed into the one
        # with the upstream identity; two upstream-identified ones (one per source) become one carrying
        # both ids, the older id surviving. Either way the absorbed id redirects.
        if not current.has_upstream_identity:
            researcher = researcher_absorb(survivor=owner, absorbed=current)
        else:
            survivor, absorbed = sorted((current, owner), key=lambda r: r.pk)
            researcher = researcher_absorb(survivor=survivor, absorbed=absorbed)
    else:
        # Unlinked, or linked to someone the source says is a different person: equal names never merge
        # two upstream identities, so this authorship moves to its own researcher.
        researcher = owner or Researcher.objects.create(
            display_name=authorship.name,
            normalised_name=authorship.normalised_name,
            **{field: author.upstream_id},
        )
        Authorship.objects.filter(pk=authorship.pk).update(researcher=researcher)
    if author.orcid and not researcher.orcid:
        researcher.orcid = author.orcid
        researcher.save(update_fields=["orcid", "updated_at"])
    return researcher


@transaction.atomic
def researchers_link_upstream(
    *, paper_id: int, source: str, authors: Sequence[UpstreamAuthor]
) -> dict[int, Researcher]:
    """Link a paper's authorships to researchers through a source's authorship list of the same paper.

    Returns the researcher of each upstream author (by index) that could be placed. A researcher built
    from arXiv names alone takes on the upstream id, or is absorbed into the researcher that has it; a
    distinct upstream id always means a distinct researcher, even under an equal name."""
    field = UPSTREAM_ID_FIELDS[source]
    # A team is never a researcher, whatever id a source gives it.
    authorships = list(Authorship.objects.people().filter(paper_id=paper_id).order_by("position"))
    linked = {}
    for index, authorship in sorted(pair_authorships(authorships, authors).items()):
        if authors[index].upstream_id:
            linked[index] = _link(authorship, field, authors[index])
    return linked


def researcher_update_metrics(
    *,
    researcher: Researcher,
    source: str,
    h_index: int | None,
    citation_count: int | None,
    works_count: int | None,
    orcid: str = "",
) -> bool:
    """Store an upstream author profile's metrics. OpenAlex is preferred: Semantic Scholar's numbers are
    used only where OpenAlex has given none. Returns whether anything changed (metrics_refreshed_at says
    when the metrics last changed)."""
    if source != "openalex" and researcher.openalex_id and researcher.h_index is not None:
        return False
    values = {"h_index": h_index, "citation_count": citation_count, "works_count": works_count}
    changed = [
        name for name, value in values.items() if value is not None and getattr(researcher, name) != value
    ]
    if orcid and not researcher.orcid:
        values["orcid"] = orcid
        changed.append("orcid")
    if not changed:
        return False
    for name in changed:
        setattr(researcher, name, values[name])
    researcher.metrics_refreshed_at = timezone.now()
    researcher.save(update_fields=[*changed, "metrics_refreshed_at", "updated_at"])
    return True


@transaction.atomic
def researcher_remove(*, researcher: Researcher, reason: str) -> None:
    """Remove a researcher that is no person (a team, a fragment of a name). Its id, and every id it had
    absorbed, answers 410 Gone from then on; its authorships stay on their papers, unlinked."""
    absorbed_ids = list(
        ResearcherRedirect.objects.filter(researcher=researcher).values_list("old_id", flat=True)
    )
    RemovedResearcher.objects.bulk_create(
        [RemovedResearcher(old_id=old_id, display_name=researcher.display_name, reason=reason)
         for old_id in [researcher.pk, *absorbed_ids]],
        ignore_conflicts=True,
    )  # fmt: skip
    researcher.delete()
