"""Author rows stored before the author parser and the collaboration rule, read again and written through
the one authorship writer. Idempotent: a second run finds nothing to change.

Every researcher URL that was published keeps answering: a researcher left without authorships whose
authorships now belong to another (its name had an affiliation or a suffix glued on, it was a glued run
of names) is absorbed into that one and its URL answers 301; one whose authorships are now collaboration
authors, or were punctuation dropped from the list, is removed and its URL answers 410."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from core.progress import Progress, no_progress
from harvest.parsers.authors import authors_from_names
from harvest.records import PaperRecord, ParsedAuthor
from harvest.services.papers import authors_of, authorships_replace, lock_paper_writes
from papers.models import Authorship, Paper
from researchers.models import Researcher
from researchers.services import researcher_absorb, researcher_remove, researchers_group_by_names

BATCH = 500  # papers per transaction


@dataclass
class AuthorRepair:
    papers: int = 0  # papers whose author list or authorships changed
    authorships: int = 0  # written, unlinked or deleted
    collaborations: int = 0  # authorships that became collaboration authors
    renamed: int = 0  # researchers whose name was one no authorship has any more (". Pazzaglia")
    merged: int = 0  # researchers folded into the one their authorships now have (URL: 301)
    removed: int = 0  # researchers that were no person (URL: 410)

    def __str__(self) -> str:
        return (
            f"{self.papers} papers repaired, {self.authorships} authorships rewritten "
            f"({self.collaborations} now collaboration authors); {self.renamed} researchers renamed, "
            f"{self.merged} merged into "
            f"another (301), {self.removed} removed as no person (410)"
        )


@dataclass(frozen=True)
class _Lost:
    """An authorship a researcher had before the repair."""

    paper_id: int
    position: int
    normalised_name: str


def authors_repair(*, records: Iterable[PaperRecord] = (), progress: Progress = no_progress) -> AuthorRepair:
    """Read every stored author list again (from `records` where given, such as the sources the papers
    were harvested from; from the stored names otherwise) and write it through `authorships_replace`;
    then group the unlinked authorships and settle the researchers left without any."""
    sources = {record.arxiv_id: authors_of(record) for record in records}
    report = AuthorRepair()
    lost: dict[int, list[_Lost]] = defaultdict(list)
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        with transaction.atomic():
            lock_paper_writes()
            touched = _rewrite(batch, sources, report, lost)
            if touched:
                researchers_group_by_names(paper_ids=touched)
                _rename(touched, report)
            _settle(lost, report)
        progress("papers", len(batch), len(ids))
    return report


def _rewrite(
    paper_ids: list[int], sources: dict[str, tuple[ParsedAuthor, ...]], report: AuthorRepair, lost: dict
) -> list[int]:
    touched = []
    papers = (
        Paper.objects.filter(pk__in=paper_ids)
        .only("pk", "arxiv_id", "authors")
        .prefetch_related("authorships")
    )
    for paper in papers:
        authors = sources.get(paper.arxiv_id) or authors_from_names(paper.authors).authors
        # Read before the writer changes these instances: who had each authorship, under which name.
        before = {a.pk: (a.researcher_id, a.position, a.normalised_name) for a in paper.authorships.all()}
        collaborations = sum(a.is_collaboration for a in paper.authorships.all())
        names = [author.display_name for author in authors]
        relisted = names != paper.authors
        written = authorships_replace(paper=paper, authors=authors)
        if relisted:
            paper.authors = names
            paper.save(update_fields=["authors", "updated_at"])
        if not written and not relisted:
            continue
        report.papers += 1
        report.authorships += written
        after = {a.pk: a for a in Authorship.objects.filter(paper=paper)}
        report.collaborations += sum(a.is_collaboration for a in after.values()) - collaborations
        for pk, (researcher_id, position, normalised_name) in before.items():
            # Gone, unlinked, or now another's (a person moved up past a team heading).
            if researcher_id and (pk not in after or after[pk].researcher_id != researcher_id):
                lost[researcher_id].append(_Lost(paper.pk, position, normalised_name))
        touched.append(paper.pk)
    return touched


def _rename(paper_ids: list[int], report: AuthorRepair) -> None:
    """A researcher kept through the repair takes the name their authorships now most often have, if
    their own is none of them (". Pazzaglia" and "Pazzaglia" compare equal, so the row stayed)."""
    on_papers = Authorship.objects.filter(paper_id__in=paper_ids, researcher__isnull=False)
    names: dict[int, Counter] = defaultdict(Counter)
    for researcher_id, name in Authorship.objects.filter(
        researcher_id__in=on_papers.values("researcher_id")
    ).values_list("researcher_id", "name"):
        names[researcher_id][name] += 1
    for researcher in Researcher.objects.filter(pk__in=list(names)).only("pk", "display_name"):
        if researcher.display_name not in names[researcher.pk]:
            researcher.display_name = names[researcher.pk].most_common(1)[0][0]
            researcher.save(update_fields=["display_name", "updated_at"])
            report.renamed += 1


def _successor(old: _Lost, authorships: list[Authorship]) -> Authorship | None:
    """The authorship that now stands for one a researcher lost, nearest its old position first: the same
    name; the name it held before something was glued on ("A. A. Schekochihin" of "A. A. Schekochihin
    Oxford", the first name of a glued run); a name it was half of ("Pu" and "Wang" of "Pu Wang", the
    "Umesh Mulik" of "Ajinkya Umesh Mulik"); the name without its nickname ('Guiling "Grace" Wang')."""
    words = old.normalised_name.split()

    def contains(longer: list[str], shorter: list[str]) -> bool:
        return any(longer[i : i + len(shorter)] == shorter for i in range(len(longer) - len(shorter) + 1))

    def within(shorter: list[str], longer: list[str]) -> bool:
        remaining = iter(longer)
        return len(shorter) >= 2 and all(word in remaining for word in shorter)

    tiers = [
        lambda new: new == words,
        # by characters: a glued run is "xiangyu kongand xiaoxia xingand ..."
        lambda new: bool(new) and old.normalised_name.startswith(" ".join(new)),
        lambda new: bool(words) and contains(new, words),
        lambda new: within(new, words),
    ]
    for matches in tiers:
        found = [a for a in authorships if matches(a.normalised_name.split())]
        if found:
            return min(found, key=lambda a: abs(a.position - old.position))
    return None


def _settle(lost: dict[int, list[_Lost]], report: AuthorRepair) -> None:
    """Researchers who lost authorships and have none left: merged into their successor, or removed."""
    orphans = set(lost) - set(
        Authorship.objects.filter(researcher_id__in=list(lost)).values_list("researcher_id", flat=True)
    )
    if not orphans:
        lost.clear()
        return
    by_paper: dict[int, list[Authorship]] = defaultdict(list)
    papers = {item.paper_id for researcher_id in orphans for item in lost[researcher_id]}
    for authorship in Authorship.objects.filter(paper_id__in=papers):
        by_paper[authorship.paper_id].append(authorship)
    for researcher in Researcher.objects.filter(pk__in=orphans):
        successors = [_successor(item, by_paper[item.paper_id]) for item in lost[researcher.pk]]
        survivors = Counter(s.researcher_id for s in successors if s is not None and s.researcher_id)
        if survivors:
            survivor = Researcher.objects.get(pk=survivors.most_common(1)[0][0])
            researcher_absorb(survivor=survivor, absorbed=researcher)
            report.merged += 1
        elif any(s is not None and s.is_collaboration for s in successors):
            researcher_remove(
                researcher=researcher, reason="a team or collaboration, listed among the authors"
            )
            report.removed += 1
        else:
            researcher_remove(researcher=researcher, reason="punctuation or a fragment, not a name")
            report.removed += 1
    lost.clear()
