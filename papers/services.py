from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from papers.embedding import embed_texts, paper_text
from papers.models import Paper
from papers.search import keyword_index


def papers_embed(*, paper_ids: Iterable[int]) -> int:
    """Compute and store vectors for these papers; papers already embedded or gone are skipped, so the
    work is safe to repeat. Returns how many were embedded."""
    papers = list(
        Paper.objects.without_embedding().filter(pk__in=list(paper_ids)).only("id", "title", "abstract")
    )
    if not papers:
        return 0
    vectors = embed_texts([paper_text(paper.title, paper.abstract) for paper in papers])
    with transaction.atomic():
        for paper, vector in zip(papers, vectors, strict=True):
            # Only if still unembedded and unchanged: a concurrent edit of the text resets the vector.
            Paper.objects.filter(
                pk=paper.pk, embedding__isnull=True, title=paper.title, abstract=paper.abstract
            ).update(embedding=vector)
    # The keyword index follows the embedding: a paper new to the corpus is searchable by its words
    # once it is searchable by its meaning.
    keyword_index.index_papers([paper.pk for paper in papers])
    return len(papers)
