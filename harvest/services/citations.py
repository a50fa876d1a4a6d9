"""Citation edges between papers of the corpus, from the references upstream sources list. A reference is
kept whether or not the cited work is here yet (UpstreamReference), so its edge appears when it arrives."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from harvest.models import UpstreamReference
from harvest.records import UpstreamWork
from papers.models import Citation, Paper


def references_replace(paper: Paper, work: UpstreamWork) -> bool:
    """The paper's references as `work`'s source lists them (one row per cited work: a source may list a
    work twice); returns whether they changed, in which case its outgoing edges are dropped for
    citations_link() to rebuild."""
    wanted = set(
        {(ref.upstream_id or f"arXiv:{ref.arxiv_id}")[:64]: ref.arxiv_id for ref in work.references}.items()
    )
    current = set(
        UpstreamReference.objects.filter(citing=paper, source=work.source).values_list(
            "cited_upstream_id", "cited_arxiv_id"
        )
    )
    if wanted == current:
        return False
    UpstreamReference.objects.filter(citing=paper, source=work.source).delete()
    UpstreamReference.objects.bulk_create(
        UpstreamReference(citing=paper, source=work.source, cited_upstream_id=key, cited_arxiv_id=arxiv_id)
        for key, arxiv_id in wanted
    )
    # The edges out of this paper are rebuilt from all its references, of every source.
    Citation.objects.filter(citing=paper).delete()
    return True


def citations_link(*, paper_ids: Sequence[int]) -> int:
    """Citation edges for references that point at papers of the corpus, out of and into these papers.
    Returns the number of new edges. One statement: each branch walks an index (references by citing
    paper, by cited upstream id or arXiv id; papers by their unique ids)."""
    if not paper_ids:
        return 0
    references, papers, citations = (
        UpstreamReference._meta.db_table,
        Paper._meta.db_table,
        Citation._meta.db_table,
    )
    sql = f"""
        WITH targets AS (SELECT id, openalex_id, s2_id, arxiv_id FROM {papers} WHERE id = ANY(%(ids)s)),
        edges AS (
            SELECT r.citing_id, p.id AS cited_id FROM {references} r
              JOIN {papers} p ON r.source = 'openalex' AND p.openalex_id = r.cited_upstream_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, p.id FROM {references} r
              JOIN {papers} p ON r.source = 's2' AND p.s2_id = r.cited_upstream_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, p.id FROM {references} r
              JOIN {papers} p ON r.cited_arxiv_id <> '' AND p.arxiv_id = r.cited_arxiv_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.source = 'openalex' AND r.cited_upstream_id = t.openalex_id
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.source = 's2' AND r.cited_upstream_id = t.s2_id
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.cited_arxiv_id <> '' AND r.cited_arxiv_id = t.arxiv_id
        )
        INSERT INTO {citations} (citing_id, cited_id, created_at)
        SELECT citing_id, cited_id, now() FROM edges WHERE citing_id <> cited_id
        ON CONFLICT (citing_id, cited_id) DO NOTHING
    """  # noqa: S608 - table names come from the models, values are parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ids": list(paper_ids)})
        return cursor.rowcount
