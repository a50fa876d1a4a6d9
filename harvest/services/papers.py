"""arXiv records into papers and their authorships. Storing the same records twice changes nothing: an
empty value never erases a known one (the demo listing has no DOI, a later OAI record has; the OAI record
must not lose the abstract the API gave), and an older version of a record never overwrites a newer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from django.db import connection, transaction

from core.bulk import copy_create, copy_creating
from harvest.parsers.authors import authors_from_names
from harvest.records import PaperRecord, ParsedAuthor
from harvest.runs import lock_key
from papers.models import Authorship, Paper, paper_slug
from researchers.names import normalise_name
from researchers.querysets import made_from_arxiv_names_alone
from researchers.services import researchers_group_by_names

_TEXT_FOR_EMBEDDING = ("title", "abstract")
_UNSTORED = frozenset({"arxiv_id", "author_details", "names_repaired", "names_dropped"})


@dataclass
class UpsertCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    def __iadd__(self, other: UpsertCounts) -> UpsertCounts:
        self.created += other.created
        self.updated += other.updated
        self.unchanged += other.unchanged
        return self


def authors_of(record: PaperRecord) -> tuple[ParsedAuthor, ...]:
    """The record's authors as the one cleaning rule reads them: arXiv's parsers hand them over read,
    with affiliations and teams; the names OpenAlex and Semantic Scholar give are read here."""
    return record.author_details or authors_from_names(list(record.authors)).authors


def _values_from(record: PaperRecord, authors: tuple[ParsedAuthor, ...]) -> dict:
    # Field by field, not dataclasses.asdict: asdict deep-copies the author details it would then drop,
    # a sixth of a page's upsert in the ingest benchmark (every value kept is immutable anyway).
    values = {
        field.name: getattr(record, field.name) for field in fields(record) if field.name not in _UNSTORED
    }
    values["authors"] = [author.display_name for author in authors]
    values["categories"] = list(record.categories)
    return values


def lock_paper_writes() -> None:
    """One writer of papers and their authors at a time, until the caller's transaction ends.

    Without it an on-demand fetch (arXiv API) and an OAI page storing the same paper both inserted it,
    and the second failed on the unique arXiv id once the first committed; and two writers grouping the
    same new author by name, each unable to see the other's uncommitted researcher, made two. Taken as
    the first statement of the unit of work (papers_upsert opens every one), so the grouping that
    follows in the same transaction runs under it too."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key("paper-writes")])


def papers_upsert(
    *, records: Iterable[PaperRecord], group_authors: bool = False
) -> tuple[UpsertCounts, list[int]]:
    """Store a page of records in one transaction; returns the counts and the ids of papers that are new
    or whose text changed (they need embedding and researcher matching). The page's new papers and their
    authorships are copied in (core.bulk.copy_create), however many; a changed paper is saved alone.

    With `group_authors`, these papers' authors are grouped into researchers on the strong evidence
    (researchers_group_by_names) before the new authorships are copied in, so that each is written once,
    with its researcher: the harvest's pages. Without, they are left for the caller to group."""
    records_by_id = {record.arxiv_id: record for record in records}  # last record of an id wins
    counts = UpsertCounts()
    touched: list[int] = []
    with transaction.atomic():
        lock_paper_writes()
        existing = {
            paper.arxiv_id: paper
            for paper in Paper.objects.select_for_update().filter(arxiv_id__in=records_by_id)
        }
        new_papers: list[tuple[Paper, tuple[ParsedAuthor, ...]]] = []
        for arxiv_id, record in records_by_id.items():
            authors = authors_of(record)
            values = _values_from(record, authors)
            paper = existing.get(arxiv_id)
            if paper is None:
                paper = Paper(arxiv_id=arxiv_id, slug=paper_slug(record.title), **values)
                new_papers.append((paper, authors))
                continue
            changed = [
                name for name, value in values.items()
                if value not in ("", None, []) and getattr(paper, name) != value
            ]  # fmt: skip
            if record.version is not None and paper.version is not None and record.version < paper.version:
                changed = []  # an older version of the metadata never overwrites a newer one
            if not changed:
                counts.unchanged += 1
                continue
            for name in changed:
                setattr(paper, name, values[name])
            if "title" in changed:
                paper.slug = paper_slug(paper.title)
            if any(name in _TEXT_FOR_EMBEDDING for name in changed):
                paper.embedding = None
            paper.save(update_fields=[*changed, "slug", "embedding", "updated_at"])
            if "authors" in changed:
                authorships_replace(paper=paper, authors=authors)
            counts.updated += 1
            touched.append(paper.pk)
        with copy_creating([paper for paper, _authors in new_papers]):
            authorships = [
                authorship for paper, authors in new_papers for authorship in _new_authorships(paper, authors)
            ]
        if group_authors and (touched or authorships):
            researchers_group_by_names(paper_ids=touched, weak_evidence=False, unsaved=authorships)
        copy_create(authorships)
        counts.created += len(new_papers)
        touched += [paper.pk for paper, _authors in new_papers]
    return counts, touched


def people_first(authors: tuple[ParsedAuthor, ...]) -> tuple[ParsedAuthor, ...]:
    """The authors numbered as authorships are: people 1, 2, … in their order, then the teams. Positions
    count only people ("Xiaomi LLM-Core Team: Bingquan Xia, …" makes Bingquan Xia the first author): a
    team is no researcher and has no position among people."""
    ordered = [a for a in authors if not a.is_collaboration] + [a for a in authors if a.is_collaboration]
    return tuple(replace(author, position=number) for number, author in enumerate(ordered, start=1))


def _authorship_values(author: ParsedAuthor) -> dict:
    """What an authorship stores of an author; without affiliations, none is written (nor erased)."""
    values = {
        "name": author.display_name,
        "normalised_name": normalise_name(author.name),
        "is_collaboration": author.is_collaboration,
    }
    if author.affiliations:
        values["affiliations"] = list(author.affiliations)
    return values


def _new_authorships(paper: Paper, authors: tuple[ParsedAuthor, ...]) -> list[Authorship]:
    """The authorships of a paper that has none yet, as authorships_replace would write them. They name
    the stored paper by its key: setting the relation itself cost a tenth of building a harvest page's
    five thousand, and nothing reads it before they are stored."""
    return [
        Authorship(paper_id=paper.pk, position=author.position, **_authorship_values(author))
        for author in people_first(authors)
    ]


def authorships_replace(*, paper: Paper, authors: tuple[ParsedAuthor, ...]) -> int:
    """The one place authorships are written (with _new_authorships, for a paper that has none yet): they
    follow the author list, people first (people_first). A person whose name is unchanged keeps their
    researcher, at the same position or moved (a team once listed before them); a team is a collaboration
    author, never linked to a researcher; an empty affiliation list never erases a known one. Returns the
    authorships written or deleted."""
    current = {authorship.position: authorship for authorship in paper.authorships.all()}
    wanted = {author.position: author for author in people_first(authors)}
    # Only a name once on the paper, before and after, can say who is who.
    names = Counter(a.normalised_name for a in current.values())
    names.update(normalise_name(author.name) for author in wanted.values())
    researcher_of_name = {
        a.normalised_name: a.researcher_id
        for a in current.values()
        if a.researcher_id and not a.is_collaboration and names[a.normalised_name] == 2
    }
    stale = [a.pk for position, a in current.items() if position not in wanted]
    Authorship.objects.filter(pk__in=stale).delete()
    new, changed = [], []
    for position, author in wanted.items():
        values = _authorship_values(author)
        moved_researcher = (
            None if author.is_collaboration else researcher_of_name.get(values["normalised_name"])
        )
        authorship = current.get(position)
        if authorship is None:
            new.append(Authorship(paper=paper, position=position, researcher_id=moved_researcher, **values))
            continue
        differs = [field for field, value in values.items() if getattr(authorship, field) != value]
        if not differs:
            continue
        if "normalised_name" in differs or author.is_collaboration:
            values["researcher_id"] = moved_researcher
        for field, value in values.items():
            setattr(authorship, field, value)
        changed.append(authorship)
    fields = ["name", "normalised_name", "is_collaboration", "affiliations", "researcher"]
    Authorship.objects.bulk_update(changed, fields, batch_size=2000)
    Authorship.objects.bulk_create(new)
    return len(stale) + len(changed) + len(new)


def researchers_regroup_of(*, paper_ids: list[int]) -> int:
    """Group again the names of these papers' authors known from arXiv names alone, now that the papers
    are embedded: the evidence of their meaning may join researchers of one name (the absorbed ids
    redirect). Under the paper-writes lock, like every grouping. Returns the authorships linked."""
    with transaction.atomic():
        lock_paper_writes()
        names = set(
            Authorship.objects.people()
            .filter(made_from_arxiv_names_alone("researcher__"), paper_id__in=paper_ids)
            .values_list("normalised_name", flat=True)
        )
        return researchers_group_by_names(names=names) if names else 0
