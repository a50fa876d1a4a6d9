"""The evidence that two groups of same-name authorships are one person, besides a shared co-author or a
printed affiliation (which join authorships outright, researchers/services.py): overlapping arXiv fields,
years active, the meaning of their papers (the mean of the papers' vectors), co-authors who wrote together
(a "bridge"), and how common the name is; and when an initialled name ("D. Zhao") is a full one ("Dan
Zhao"). Merging two people is worse than leaving one split, so every rule asks for several of these at
once, and more of them the commoner the name."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

# Papers of one person are rarely this far apart in a corpus; a gap wider than this is a different career.
MAX_YEAR_GAP = 6
# Cosine similarity of two groups' mean paper vectors (all-MiniLM-L6-v2), calibrated on the demo corpus
# without any judged pair: of 20,000 random pairs of its papers, half score under 0.22, 95 % under 0.45,
# 99 % under 0.54 and 99.9 % under 0.66. "Related" is what one random pair in twenty reaches, "near" one
# in fifty, "close" almost none.
TOPIC_RELATED = 0.45
TOPIC_NEAR = 0.5
TOPIC_CLOSE = 0.75
# Active in the same years: for a rare name with related papers, their years may be this far apart.
SAME_YEARS_GAP = 2
# A name is rare when the people expected to carry it in the corpus, were given names and family names
# paired at random, are fewer than this (one in ten): its holders are then most likely one person.
RARE_NAME_HOLDERS = 0.1
# ... and common from this many on ("yang liu" 1.4, "min zhang" 1.1, "zhiyuan liu" 0.6 in the demo corpus).
COMMON_NAME_HOLDERS = 0.5
# A bridge through a co-author whose own name is common is no evidence: that co-author may be two people.
BRIDGE_NAME_HOLDERS = 0.5
# Nor is one through a long author list (a technical report of a hundred authors joins whole communities):
# bridges are read from papers with at most this many authors.
BRIDGE_AUTHOR_LIST = 15
# Of the co-authors of the smaller group, the share that must have written with the other group's for the
# link to count as one lab's (several of them, for a common name).
BRIDGE_SHARE = 0.2
# An initialled name and a full one are one person only on co-authors they share (of short author lists,
# with uncommon names): one, or this many when the full name is common.
VARIANT_SHARED_COAUTHORS_OF_COMMON_NAME = 2


@dataclass
class GroupEvidence:
    """What is known of one group of authorships of a name."""

    coauthors: set[str] = field(default_factory=set)
    close_coauthors: set[str] = field(default_factory=set)  # of author lists short enough to bridge
    fields: Counter = field(default_factory=Counter)  # primary categories
    first_year: int | None = None
    last_year: int | None = None
    vector_sum: np.ndarray | None = None
    vectors: int = 0

    def add_paper(
        self, *, coauthors: Iterable[str], field_name: str, year: int, vector: np.ndarray | None
    ) -> None:
        coauthors = set(coauthors)
        self.coauthors |= coauthors
        if len(coauthors) < BRIDGE_AUTHOR_LIST:  # the name itself is the list's other author
            self.close_coauthors |= coauthors
        if field_name:
            self.fields[field_name] += 1
        self.first_year = year if self.first_year is None else min(self.first_year, year)
        self.last_year = year if self.last_year is None else max(self.last_year, year)
        if vector is not None:
            unit = vector / (np.linalg.norm(vector) or 1.0)
            self.vector_sum = unit if self.vector_sum is None else self.vector_sum + unit
            self.vectors += 1

    def absorb(self, other: GroupEvidence) -> None:
        self.coauthors |= other.coauthors
        self.close_coauthors |= other.close_coauthors
        self.fields.update(other.fields)
        for year in (other.first_year, other.last_year):
            if year is not None:
                self.first_year = year if self.first_year is None else min(self.first_year, year)
                self.last_year = year if self.last_year is None else max(self.last_year, year)
        if other.vector_sum is not None:
            self.vector_sum = (
                other.vector_sum if self.vector_sum is None else self.vector_sum + other.vector_sum
            )
            self.vectors += other.vectors

    def topic_similarity(self, other: GroupEvidence) -> float | None:
        """Cosine similarity of the two groups' mean paper vectors; None when either has none."""
        if self.vector_sum is None or other.vector_sum is None:
            return None
        norms = float(np.linalg.norm(self.vector_sum) * np.linalg.norm(other.vector_sum))
        return float(np.dot(self.vector_sum, other.vector_sum)) / norms if norms else None

    def year_gap(self, other: GroupEvidence) -> int:
        if None in (self.first_year, self.last_year, other.first_year, other.last_year):
            return 0
        return max(0, other.first_year - self.last_year, self.first_year - other.last_year)  # type: ignore[operator]

    def shares_a_field(self, other: GroupEvidence) -> bool:
        return bool(set(self.fields) & set(other.fields))


@dataclass(frozen=True)
class NameCommonness:
    """How many people are expected to carry a name, from the corpus's own names: the share of names with
    its given name times the number of names with its family name ("yang liu" is carried by several,
    "dacheng tao" by about one). The counts are of distinct names of two words or more, by first and by
    last word; they need only cover the names asked about (the grouping counts those in the database,
    `AuthorshipQuerySet.name_word_counts`)."""

    given: Mapping[str, int]
    family: Mapping[str, int]
    total: int
    # Each name's answer, once asked: a regroup asks of every close co-author of every group, 300,000
    # times for a page at 100,000 papers, mostly the same names.
    _holders: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of_names(cls, names: Iterable[str]) -> NameCommonness:
        distinct = {name for name in names if " " in name}
        return cls(
            given=Counter(name.split()[0] for name in distinct),
            family=Counter(name.split()[-1] for name in distinct),
            total=len(distinct),
        )

    def expected_holders(self, name: str) -> float:
        holders = self._holders.get(name)
        if holders is None:
            words = name.split()
            if len(words) < 2:
                holders = float("inf")  # a single word: nothing to say it is one person
            else:
                holders = self.given.get(words[0], 0) * self.family.get(words[-1], 0) / max(1, self.total)
            self._holders[name] = holders
        return holders


@dataclass(frozen=True)
class Bridges:
    """Co-authors of the smaller group (of short author lists, with uncommon names) who wrote a paper with
    a co-author of the other: how many, and what share of the smaller group's co-authors they are."""

    count: int
    share: float


def telling_coauthors(group: GroupEvidence, commonness: NameCommonness) -> set[str]:
    """The group's co-authors a bridge may be read through: of short author lists, with uncommon names."""
    return {name for name in group.close_coauthors if commonness.expected_holders(name) < BRIDGE_NAME_HOLDERS}


_NONE: frozenset[str] = frozenset()


def bridges(first: set[str], second: set[str], neighbours: Mapping[str, set[str]]) -> Bridges:
    """The bridges between two groups, given each one's telling co-authors."""
    smaller, larger = sorted((first, second), key=len)
    if not smaller:
        return Bridges(0, 0.0)
    linked = sum(1 for name in smaller if not neighbours.get(name, _NONE).isdisjoint(larger))
    return Bridges(linked, linked / len(smaller))


def one_person(
    first: GroupEvidence,
    second: GroupEvidence,
    *,
    expected_holders: float,
    links: Bridges,
) -> bool:
    """Whether two groups of one name are one person on the weaker evidence. Never across a gap of years
    wider than one career here. Then the commoner the name, the more is asked: of a rare name, a related
    topic in the same years, or co-authors who wrote together (whatever the fields: a senior researcher's
    papers span several); of an uncommon one, a share of co-authors who wrote together, a shared topic
    and a shared field; of a common one, several such co-authors too (for "Yang Liu" a topic alone says
    nothing)."""
    if first.year_gap(second) > MAX_YEAR_GAP:
        return False
    topic = first.topic_similarity(second)
    near = topic is not None and topic >= TOPIC_NEAR
    if expected_holders < RARE_NAME_HOLDERS:
        close = topic is not None and topic >= TOPIC_CLOSE
        related = topic is not None and topic >= TOPIC_RELATED and first.year_gap(second) <= SAME_YEARS_GAP
        return close or related or (links.count >= 1 and (near or first.shares_a_field(second)))
    fields_agree = not (first.fields and second.fields) or first.shares_a_field(second)
    lab = links.share >= BRIDGE_SHARE and near and fields_agree
    if expected_holders < COMMON_NAME_HOLDERS:
        return lab and links.count >= 1
    return lab and links.count >= 2


def may_bridge(group: GroupEvidence, *, expected_holders: float) -> bool:
    """Whether bridges can decide any pair of this group (one_person): always for a rare name; for a
    commoner one only with the meaning of its papers known, as its pairs also need their topics near."""
    return expected_holders < RARE_NAME_HOLDERS or group.vector_sum is not None


def merges_within_name(
    groups: Mapping[int, GroupEvidence],
    *,
    expected_holders: float,
    neighbours: Mapping[str, set[str]],
    telling: Mapping[int, set[str]],
) -> list[tuple[int, int]]:
    """The pairs of groups (by key) to merge, joined most alike first; after each merge the joined
    group's evidence is the sum of both, so a chain of weak likenesses must hold for the whole group.
    `telling` holds each group's telling co-authors (telling_coauthors)."""
    live = {key: evidence for key, evidence in groups.items()}
    telling = {key: set(telling[key]) for key in live}  # copies: a joined group's grows, the caller's not
    merged: list[tuple[int, int]] = []
    while True:
        candidates = []
        for one, other in combinations(sorted(live), 2):
            links = bridges(telling[one], telling[other], neighbours)
            if one_person(live[one], live[other], expected_holders=expected_holders, links=links):
                topic = live[one].topic_similarity(live[other]) or 0.0
                candidates.append((links.share, topic, one, other))
        if not candidates:
            return merged
        _count, _topic, one, other = max(candidates)
        live[one].absorb(live.pop(other))
        telling[one] |= telling.pop(other)  # what the joined group's own would be: a union of unions
        merged.append((one, other))


def initialled(name: str) -> str | None:
    """The normalised name with its given names cut to initials ("dan zhao" → "d zhao", "xiao ming wang" →
    "x m wang"); None when there is nothing to cut (they are initials already, or there are none)."""
    *given, family = name.split() or [""]
    if not given or all(len(word) == 1 for word in given):
        return None
    return " ".join([*(word[0] for word in given), family])


def one_person_by_initials(
    short: GroupEvidence, full: GroupEvidence, *, short_name: str, full_name: str, commonness: NameCommonness
) -> bool:
    """Whether a group of an initialled name ("d zhao") and one of a full name it abbreviates ("dan zhao")
    are one person. "D." is any of many given names, so everything must agree: the two names never on one
    paper (that is two people), the same years, papers near in meaning in a shared field, and co-authors in
    common whose own names are uncommon (two of them when the full name is common)."""
    if full_name in short.coauthors or short_name in full.coauthors:
        return False
    if short.year_gap(full) > SAME_YEARS_GAP or not short.shares_a_field(full):
        return False
    topic = short.topic_similarity(full)
    if topic is None or topic < TOPIC_NEAR:
        return False
    shared = {
        name
        for name in short.close_coauthors & full.close_coauthors
        if commonness.expected_holders(name) < BRIDGE_NAME_HOLDERS
    }
    common = commonness.expected_holders(full_name) >= COMMON_NAME_HOLDERS
    return len(shared) >= (VARIANT_SHARED_COAUTHORS_OF_COMMON_NAME if common else 1)


def merges_by_initials(
    groups: Mapping[str, Mapping[int, GroupEvidence]], *, commonness: NameCommonness
) -> list[tuple[int, int]]:
    """The pairs of groups (by key) of an initialled name and a full one to merge: a group of "d zhao"
    joins the one group, of all the full names it may abbreviate ("dan zhao", "di zhao"), that is the same
    person on that evidence; when two would be, which one it is cannot be told, and it joins neither."""
    full_names_of: dict[str, list[str]] = defaultdict(list)
    for name in groups:
        if (short_name := initialled(name)) in groups:
            full_names_of[short_name].append(name)
    merged = []
    for short_name, full_names in sorted(full_names_of.items()):
        for key, short in groups[short_name].items():
            matches = [
                other_key
                for full_name in full_names
                for other_key, full in groups[full_name].items()
                if one_person_by_initials(
                    short, full, short_name=short_name, full_name=full_name, commonness=commonness
                )
            ]
            if len(matches) == 1:
                merged.append((key, matches[0]))
    return merged
